// Loops over work-items are parallel: between two barriers, SYCL work-items
// communicate only through atomics (anything else is a data race, undefined
// behaviour), so one work-item's plain loads and stores never depend on
// another's. The CPU launcher says so to the loop vectorizer with LLVM's
// parallel-loop metadata (llvm.loop.parallel_accesses and an access group):
// then it needs no dependence analysis and no runtime alias checks, which a
// phase's short loops over a group's work-items would not repay, and which
// fail outright on a tile's halo stores.
//
// The loops get their metadata when the launcher makes them; the accesses get
// the access group just before the vectorizer, when SROA has turned the
// work-item state and launcher bookkeeping into registers. A work-item's own
// memory (an alloca still there, shared by every iteration of the loop) is
// not independent: a launcher with any alloca left gets no access group at
// all, and nor do atomics, volatile accesses and calls, so such loops keep
// the vectorizer's usual checks.
#pragma once

#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

namespace onepass::jit {

// A new loop ID (distinct, one per loop) saying that `module`'s work-item
// accesses are independent across the loop's iterations. `innermost`: the
// loop the vectorizer is to take, which the unroller must then leave alone
// (with a work-group range compiled in, its few iterations would otherwise
// be unrolled whole before the vectorizer sees a loop).
llvm::MDNode *parallelWorkItemLoop(llvm::Module &module, bool innermost);

// Gives the work-item accesses of `launcher`-named functions the access group
// of parallelWorkItemLoop's loops.
struct MarkWorkItemAccessesPass : llvm::PassInfoMixin<MarkWorkItemAccessesPass> {
  explicit MarkWorkItemAccessesPass(std::string launcher) : launcher(std::move(launcher)) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
  std::string launcher;
};

// Unswitches the innermost work-item loops of `launcher`-named functions on
// their uniform branches: a condition the same for every iteration (a row's
// `if (r == 0)`, a tile loop's bound) splits the loop into one copy per
// outcome, each without that branch. The vectorizer takes only loops with one
// exit, which the branches of a phase's code, once jump threading has copied
// the loop's end into each of their paths, no longer have. LLVM's own
// unswitching weighs every loop of the module against one process-wide
// threshold; this one takes only the work-item loops, within a size budget
// (kUnswitchBudget instructions added per launcher, loops of at most
// kUnswitchLoopSize).
inline constexpr unsigned kUnswitchLoopSize = 400;
inline constexpr unsigned kUnswitchBudget = 3000;
struct UnswitchWorkItemLoopsPass : llvm::PassInfoMixin<UnswitchWorkItemLoopsPass> {
  explicit UnswitchWorkItemLoopsPass(std::string launcher) : launcher(std::move(launcher)) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
  std::string launcher;
};

}  // namespace onepass::jit
