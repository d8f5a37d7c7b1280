// lld, as a library, links one relocatable object into a shared object: the
// form HSA loads (AMDGPU code objects) and the form the runtime's CPU backend
// dlopens (CPU kernels, common/platform/SharedObjectLoader.h). lld runs one
// link at a time, through temporary files.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace onepass::jit {

// `what` names the output in errors ("the AMDGPU code object"); `options`
// go to ld.lld after -shared.
llvm::Expected<std::vector<char>> linkSharedObject(llvm::ArrayRef<char> object, llvm::StringRef what,
                                                   llvm::ArrayRef<const char *> options);

}  // namespace onepass::jit
