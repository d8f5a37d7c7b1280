// Hierarchical kernels (parallel_for_work_group, SYCL 2020 §4.9.4.2.4) on a
// target whose work-groups run at the size the kernel asks for.
//
// The library brackets the code every work-item of the group runs (a
// parallel_for_work_item call, an async_work_group_copy at work-group scope)
// with __onepass_hierarchical_region_begin/end (sycl/detail/builtins.hpp);
// the rest of the kernel is work-group scope, which the spec runs as if once
// per group. On such a target the kernel becomes a loop of the whole group:
// one work-item (the leader, local id 0) runs the work-group scope until it
// reaches a region, names the region in group-local memory and waits at a
// barrier with the others; then all of them run the region, meet at a second
// barrier, and the leader resumes after the region. The work-group scope's
// variables that a region reaches live in group-local memory, and each value
// the leader computed and a region uses is passed there too (work-item
// queries are recomputed by each work-item instead).
//
// A kernel this cannot lower (a value a region computes and the work-group
// scope uses, a sub-group operation, a region in a function that cannot be
// inlined) runs entirely on the leader instead: correct, one work-item per
// group at a time, as the CPU device runs every hierarchical kernel.
// Everywhere else the markers are simply removed.
#pragma once

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>

namespace onepass::jit {

struct HierarchicalOutcome {
  bool parallel = false;  // regions spread over the group
  std::string serialWhy;  // a hierarchical kernel at group size run on its leader: why
};

// `kernel` is the kernel function of `module` (its data layout set), not yet
// inlined into a target's entry and before its group-local memory is placed.
// `hierarchical`: a parallel_for_work_group kernel; `atGroupSize`: the
// target launches such kernels' work-groups at their size.
llvm::Expected<HierarchicalOutcome> lowerHierarchicalRegions(llvm::Module &module, llvm::Function &kernel,
                                                             bool hierarchical, bool atGroupSize);

// The lowering at group size as a pass over the function `kernel` (for the
// tests, tests/lit/jit/hierarchical-*.ll): prints why on stderr when it
// falls back to the leader.
class LowerHierarchicalPass : public llvm::PassInfoMixin<LowerHierarchicalPass> {
public:
  explicit LowerHierarchicalPass(std::string kernel) : kernel_(std::move(kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);

private:
  std::string kernel_;
};

}  // namespace onepass::jit
