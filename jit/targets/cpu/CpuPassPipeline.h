// The CPU target's passes by name, for textual pass pipelines (LLVM's
// `-passes=` syntax, PassBuilder::parsePassPipeline): what the JIT's test
// entry onepass_jit_test_run_passes (jit_api.h) runs on IR files.
//   onepass-lower-group-barriers<kernel=NAME>            LowerGroupBarriersPass
//   onepass-build-work-item-loops<kernel=NAME;...>       BuildWorkItemLoopsPass
//     range | nd-range | single-task   the kernel's kind (default: range)
//     dims=N                           its dimensions (default 1)
//     local=AxBxC                      a compiled-in work-group range
//     group-local-bytes=N              local memory the kernel allocates itself
//     local-memory, group-scratch      its features (image::kFeature*)
//     offsets=A:B:...                  its parameters' offsets in the object
//                                      (default: packed, each at its alignment)
// (Lists take ':' and 'x': a ',' would end the pass in the pipeline's syntax.)
//   onepass-unswitch-work-item-loops<launcher=NAME>      UnswitchWorkItemLoopsPass
//   onepass-mark-work-item-accesses<launcher=NAME>       MarkWorkItemAccessesPass
// The launcher defaults to __onepass_cpu_launch. Work-item loops built after
// the barrier lowering of the same kernel run its step, as on the CPU device.
#pragma once

#include "BarrierLowering.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace onepass::jit {

// What the passes of one pipeline share, and what they report.
struct CpuPassState {
  // Per kernel whose barriers the pipeline lowers (map values stay put).
  std::map<std::string, LoweredBarriers> lowered;
  std::vector<std::string> errors;  // malformed pass parameters
};

// Makes `builder` parse the passes above; they use `state`, which must
// outlive the pipelines it parses.
void registerCpuPasses(llvm::PassBuilder &builder, CpuPassState &state);

// Runs `pipeline` on `module` and returns the module as text, after each
// lowered kernel's describeSteppedKernel. Errors: a malformed pipeline, a
// pass's failure, the module failing verification.
llvm::Expected<std::string> runCpuPassPipeline(llvm::Module &module, llvm::StringRef pipeline);

}  // namespace onepass::jit
