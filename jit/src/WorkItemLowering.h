// What every translator does with a kernel's work-item queries: its launch
// wrapper owns a WorkItemState (builtins/common/work_item_abi.h); everything
// that reaches a query is inlined into the wrapper; then each
// __onepass_work_item() call becomes the wrapper's state.
#pragma once

#include "sycl/detail/onepass_abi.hpp"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace onepass::jit {

// The builtin that returns the work-item state (the wrapper's, once substituted).
inline constexpr const char *kWorkItemBuiltin = ONEPASS_ABI_WORK_ITEM;

// Creates the state in the wrapper's entry block (call before anything else
// is emitted there).
llvm::Value *createWorkItemState(llvm::IRBuilder<> &builder);
// The address of 64-bit word `word` of the state.
llvm::Value *workItemStateWord(llvm::IRBuilder<> &builder, llvm::Value *state, unsigned word);

// The functions from which a chain of calls reaches `target`.
llvm::SetVector<llvm::Function *> transitiveCallers(llvm::Function &target);

// Marks every function that can reach a work-item query (and `kernel`)
// always-inline, makes all but `wrapper` internal, and runs the always-inliner.
void inlineIntoWrapper(llvm::Module &module, llvm::Function &kernel, llvm::Function &wrapper);

// Replaces the queries' state calls by the wrapper's state. Fails, naming the
// kernel, if a call is left outside the wrapper (a recursive function).
llvm::Error substituteWorkItemState(llvm::Module &module, llvm::Function &wrapper, llvm::StringRef kernelName);

}  // namespace onepass::jit
