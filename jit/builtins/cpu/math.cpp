// Math builtins of the CPU device whose best form differs per target
// (include/sycl/detail/builtins.hpp): here plain IEEE operations, which the
// vectorizer widens.

// The builtins' declarations, with their symbols from onepass_abi.hpp: the
// definitions below must match them (a different signature does not compile).
#include "sycl/detail/builtins.hpp"

#define ONEPASS_BUILTIN extern "C" __attribute__((always_inline))

ONEPASS_BUILTIN float __onepass_rsqrtf(float x) noexcept { return 1.0f / __builtin_sqrtf(x); }
ONEPASS_BUILTIN double __onepass_rsqrt(double x) noexcept { return 1.0 / __builtin_sqrt(x); }
