// Which values of a kernel are the same for every work-item of a group (at
// the same point of the kernel): the barrier lowering keeps those in one
// group copy instead of a frame slot per work-item, and knows where a group
// that resumes together stops together (BarrierLowering.h).
#pragma once

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <cstdint>
#include <optional>

namespace onepass::jit {

// Whether `value` is the work-item state (__onepass_work_item()).
bool isWorkItemState(const llvm::Value *value);

// For a load of a word of the work-item state: which word.
std::optional<uint64_t> loadedStateWord(const llvm::LoadInst &load);

// The values of `fn` that may differ between the work-items of a group at
// the same point of the kernel (the rest are "uniform": the same for all).
// Sources: the work-item's global and local ids and its place in its
// sub-group, memory (loads, calls that touch it, local variables' addresses);
// then whatever depends on one, and the phis and loop results that a branch
// on a varying condition decides.
llvm::SmallPtrSet<llvm::Value *, 32> varyingValues(llvm::Function &fn);

}  // namespace onepass::jit
