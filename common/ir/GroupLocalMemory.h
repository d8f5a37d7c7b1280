// The work-group local memory a kernel allocates itself
// (sycl_ext_oneapi_group_local_memory, include/sycl/ext/oneapi/): each call
// of __onepass_group_local_memory(size, alignment) that the kernel reaches is
// one allocation of the work-group. Stage 1 records a kernel's total in its
// image (for the runtime's local_mem_size check); the JIT gives each call its
// place. Both use this header, so they agree: every allocation takes a slot
// of its size rounded up to the kernel's largest alignment (at least 16), so
// the total does not depend on the order in which the calls are visited.
// Header-only: the clang plugin and the JIT each link LLVM their own way.
#pragma once

#include "sycl/detail/onepass_abi.hpp"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace onepass::ir {

inline constexpr const char *kGroupLocalMemoryBuiltin = ONEPASS_ABI_GROUP_LOCAL_MEMORY;

struct GroupLocalLayout {
  uint64_t alignment = 16;                                     // of every slot
  uint64_t total = 0;                                          // bytes
  std::vector<std::pair<llvm::CallInst *, uint64_t>> offsets;  // each call's slot
  std::string error;                                           // a call whose size or alignment is not a constant
};

inline GroupLocalLayout layoutGroupLocalMemory(llvm::Function &kernel) {
  GroupLocalLayout layout;
  std::vector<llvm::CallInst *> calls;
  llvm::SmallPtrSet<llvm::Function *, 16> seen{&kernel};
  std::vector<llvm::Function *> work{&kernel};
  while (!work.empty()) {
    llvm::Function *function = work.back();
    work.pop_back();
    for (llvm::Instruction &inst : llvm::instructions(*function)) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
      llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee) continue;
      if (callee->getName() == kGroupLocalMemoryBuiltin) calls.push_back(call);
      else if (!callee->isDeclaration() && seen.insert(callee).second) work.push_back(callee);
    }
  }
  std::vector<std::pair<uint64_t, uint64_t>> sizes;  // (size, alignment)
  for (llvm::CallInst *call : calls) {
    auto *size = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
    auto *alignment = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(1));
    if (!size || !alignment || !llvm::isPowerOf2_64(alignment->getZExtValue())) {
      layout.error = "group local memory of a size or alignment only known at run time";
      return layout;
    }
    sizes.emplace_back(size->getZExtValue(), alignment->getZExtValue());
    layout.alignment = std::max(layout.alignment, alignment->getZExtValue());
  }
  for (size_t i = 0; i < calls.size(); ++i) {
    layout.offsets.emplace_back(calls[i], layout.total);
    layout.total += llvm::alignTo(std::max<uint64_t>(sizes[i].first, 1), layout.alignment);
  }
  return layout;
}

}  // namespace onepass::ir
