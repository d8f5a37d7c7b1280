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

}  // namespace onepass::sscp
