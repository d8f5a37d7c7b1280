// The CPU's launch function, __onepass_cpu_launch(object, launch) (an
// onepass_cpu_kernel_fn, jit_api.h): loops over the work-items of one chunk of
// a launch that call the kernel once per work-item, with the work-item state
// (builtins/common/work_item_abi.h) holding the ids the loops count. An
// nd_range kernel's loops count its work-groups, and in each its work-items;
// one with barriers calls its step (BarrierLowering.h) for every work-item of
// a group, phase after phase, until all of them are done. The loops carry
// parallelWorkItemLoop's metadata (ParallelLoops.h).
#pragma once

#include "BarrierLowering.h"
#include "KernelImage.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace onepass::jit {

// The kernel a launcher runs, and how.
struct WorkItemLoopsKernel {
  std::string function;  // the kernel function (its step instead when `stepped` is set)
  image::KernelKind kind = image::KernelKind::SingleTask;
  unsigned dimensions = 0;
  uint32_t features = 0;  // image::kFeature* bits
  // Where each of the kernel's parameters lies in the kernel object. Empty:
  // one after the other, each at its type's alignment (for tests).
  std::vector<uint32_t> fieldOffsets;
  // The barrier lowering's result (LowerGroupBarriersPass), read when the
  // pass runs: with a step, the launcher runs it instead of `function`.
  const std::optional<SteppedKernel> *stepped = nullptr;
  // An nd_range kernel's work-group range when compiled in, else {0, 0, 0}.
  std::array<uint64_t, 3> localRange{};
  // Local memory the kernel allocates itself, placed before its local
  // accessors' (the CPU translator's placeGroupLocalMemory).
  uint64_t groupLocalBytes = 0;
  // With a step: past this many phases times the step's instructions, one
  // loop runs every phase of a group that is together, instead of a loop per
  // resume point with the step specialized for it (WorkItemLoops.cpp).
  uint64_t specializedPhaseBudget = 32768;
};

// Adds __onepass_cpu_launch for `kernel` to the module.
struct BuildWorkItemLoopsPass : llvm::PassInfoMixin<BuildWorkItemLoopsPass> {
  explicit BuildWorkItemLoopsPass(WorkItemLoopsKernel kernel) : kernel(std::move(kernel)) {}
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  WorkItemLoopsKernel kernel;
};

}  // namespace onepass::jit
