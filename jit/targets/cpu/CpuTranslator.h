// The CPU target (stage 2): wraps a kernel in a launch function that loops
// over a chunk of the iteration space, inlines the kernel and the work-item
// builtins into that loop so work-item ids become the loop's induction
// variables, optimizes at O3 for this host's CPU (so the innermost loop
// vectorizes) and emits a shared object (lld links the x86-64 object).
#pragma once

#include "sycl/detail/onepass_abi.hpp"

#include "Driver.h"

#include <memory>

namespace onepass::jit {

inline constexpr const char *kCpuLaunchSymbol = ONEPASS_ABI_CPU_LAUNCH;

// The CPU's translator for the JIT driver (Driver.h). An nd_range kernel's
// work-group range is compiled in unless Specialization::localRange[0] is 0.
std::unique_ptr<Translator> makeCpuTranslator();

}  // namespace onepass::jit
