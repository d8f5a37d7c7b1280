// Work-group barriers on the CPU, without a thread or fiber per work-item:
// the kernel becomes a resumable "step" that runs one work-item from where it
// stopped to its next barrier (or its end). The CPU launcher runs the step of
// every work-item of a group, phase after phase, so all of them reach each
// barrier before any goes past it.
//
// The step keeps everything a work-item needs across a barrier in a frame of
// its own: every value used outside the block that defines it, and every
// local variable, lives at a fixed offset in the frame. A `resume` word says
// where the work-item continues: 0 at its start, k after barrier k, and
// kStepDone once it has returned.
#pragma once

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace onepass::jit {

inline constexpr const char *kBarrierBuiltin = "__onepass_group_barrier";
inline constexpr int32_t kStepDone = -1;

struct SteppedKernel {
  llvm::Function *step = nullptr;  // void(the kernel's parameters..., ptr frame, ptr resume)
  uint64_t frameBytes = 0;         // per work-item
  uint64_t frameAlign = 1;
  unsigned barriers = 0;           // resume points
};

// Inlines into `kernel` every function through which it reaches a barrier,
// then builds its step function (the kernel itself is left as it was).
// Errors name what cannot be lowered: a barrier in a recursive function, a
// local array whose size is only known at run time.
llvm::Expected<SteppedKernel> buildSteppedKernel(llvm::Module &module, llvm::Function &kernel,
                                                 llvm::StringRef kernelName);

}  // namespace onepass::jit
