// Work-group barriers on the CPU, without a thread or fiber per work-item:
// the kernel becomes a resumable "step" that runs one work-item from where it
// stopped to its next barrier (or its end). The CPU launcher runs the step of
// every work-item of a group, phase after phase, so all of them reach each
// barrier before any goes past it.
//
// The step keeps what a work-item needs across a barrier in the group's
// frames: every value live across a barrier, and every local variable used
// on both sides of one. Variable j of all the group's work-items forms a
// column, so the same variable of adjacent work-items is adjacent in memory.
// `from` says where the work-item continues: 0 at its start, k after barrier
// k; the step stores where it stopped to `next` (k at barrier k, kStepDone
// once it has returned). When every work-item of a group stopped at the same
// barrier (the usual case: SYCL asks for it), the launcher calls the step
// with a constant `from` in a loop over the work-items: the dispatch folds
// away and the loop vectorizes.
#pragma once

#include "sycl/detail/onepass_abi.hpp"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace onepass::jit {

inline constexpr const char *kBarrierBuiltin = ONEPASS_ABI_GROUP_BARRIER;
inline constexpr int32_t kStepDone = -1;

// The step's parameters after the kernel's own, before the uniforms'.
inline constexpr unsigned kStepFixedParameters = 7;

struct SteppedKernel {
  // void(the kernel's parameters..., ptr group, ptr frames, i64 item,
  //      i64 items, i32 from, ptr next, i1 together, uniforms...): `group`
  // holds the group's copies of uniform values (groupBytes, a separate
  // allocation, so that they cannot alias the frames), `frames` the `items`
  // work-items' frames. `together`: the whole group resumes from `from`;
  // then `uniforms` are the values of `uniforms` below (their previous
  // copies), else unused.
  llvm::Function *step = nullptr;
  uint64_t groupBytes = 0;
  // A value the same for the whole group. While the group is together, the
  // step reads the previous phase's copy and writes this phase's; after a
  // phase the launcher copies this phase's to the previous phase's. Apart,
  // each work-item has its own (at items * column + item * bytes in the
  // frames): the launcher copies between the two when the group parts or
  // comes together again.
  struct Uniform {
    uint64_t previous, current, column, bytes;
    llvm::Type *type;
  };
  std::vector<Uniform> uniforms;
  uint64_t frameBytes = 0;  // per work-item
  uint64_t frameAlign = 1;
  unsigned barriers = 0;  // resume points
  // Per resume point (0: the start): whether a group that resumed together
  // there stops together too: only uniform branches lie between it and
  // where the work-item stops next, or only one such place can be reached.
  std::vector<bool> uniformExit;
  // Per resume point: where every work-item that resumes there stops next
  // (a barrier's number, or kStepDone), when there is only one such place.
  std::vector<std::optional<int32_t>> stopsAt;
};

// Inlines into `kernel` every function through which it reaches a barrier,
// then builds its step function (the kernel itself is left as it was).
// Errors name what cannot be lowered: a barrier in a recursive function, a
// local array whose size is only known at run time.
llvm::Expected<SteppedKernel> buildSteppedKernel(llvm::Module &module, llvm::Function &kernel,
                                                 llvm::StringRef kernelName);

// What LowerGroupBarriersPass leaves for its caller (the pass manager owns
// the pass): the step, or why there is none.
struct LoweredBarriers {
  std::optional<SteppedKernel> stepped;
  std::string error;  // a sentence naming the kernel
};

// buildSteppedKernel as a pass: lowers the barriers of the module's function
// `kernel` (named `displayName` in errors) into `result`.
struct LowerGroupBarriersPass : llvm::PassInfoMixin<LowerGroupBarriersPass> {
  LowerGroupBarriersPass(std::string kernel, std::string displayName, LoweredBarriers &result)
      : kernel(std::move(kernel)), displayName(std::move(displayName)), result(&result) {}
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  std::string kernel, displayName;
  LoweredBarriers *result;
};

// A step's shape as IR comments, for tests: "; frame: <bytes> bytes, align
// <align>, <n> barrier(s), <u> uniform value(s) in <g> group bytes", then
// "; stops together from: <resume points>" (uniformExit) and "; known
// stops: <resume point>-><barrier or end>..." (stopsAt).
std::string describeSteppedKernel(const SteppedKernel &stepped);

}  // namespace onepass::jit
