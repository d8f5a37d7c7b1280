// Finds the kernel entry instantiations in a host module: functions with an
// `onepass.kernel.<kind>` annotation, paired with the layout annotation the
// frontend plugin attached to them.
#pragma once

#include "LayoutAnnotation.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <vector>

namespace onepass::sscp {

struct KernelEntry {
  llvm::Function *function = nullptr;  // the entry instantiation, `void(ptr kernelObject)`
  image::KernelKind kind = image::KernelKind::SingleTask;
  KernelLayout layout;
  bool hasLayout = false;
};

// Returns the entries in module order. Entries without a definition are skipped.
std::vector<KernelEntry> findKernelEntries(llvm::Module &module);

// The functions this translation unit defines with SYCL_EXTERNAL (SYCL 2020
// §5.10.1), in module order: the device image exports them, so that kernels
// of other translation units and libraries can call them.
std::vector<llvm::Function *> findSyclExternalDefinitions(llvm::Module &module);

}  // namespace onepass::sscp
