// The CPU target (stage 2): wraps a kernel in a launch function that loops
// over a chunk of the iteration space, inlines the kernel and the work-item
// builtins into that loop so work-item ids become the loop's induction
// variables, optimizes at O3 for this host's CPU (so the innermost loop
// vectorizes) and emits an x86-64 object.
#pragma once

#include "KernelModule.h"

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <vector>

namespace onepass::jit {

inline constexpr const char *kCpuLaunchSymbol = "__onepass_cpu_launch";

// `constants`: fields whose value is compiled in (onepass_jit_constant);
// `localRange`: an nd_range kernel's work-group range, compiled in unless
// localRange[0] is 0 (onepass_jit_request::local_range).
llvm::Expected<std::vector<char>> compileCpuKernel(const void *image, uint64_t imageSize, const char *kernelSymbol,
                                                   const std::vector<FieldConstant> &constants,
                                                   const std::array<uint64_t, 3> &localRange = {0, 0, 0});

}  // namespace onepass::jit
