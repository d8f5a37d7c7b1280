// CPU builtins: work-item queries (SYCL 2020 §4.9.1). Compiled to bitcode with
// clang++-22 at build time and linked into every CPU kernel by the JIT; after
// inlining, each query becomes a read of the launch loop's induction variables.
#include "cpu_abi.h"

#include <stddef.h>

#define ONEPASS_BUILTIN extern "C" __attribute__((always_inline))

ONEPASS_BUILTIN size_t __onepass_get_global_id(int dimension) noexcept {
  return __onepass_cpu_work_item()->globalId[dimension];
}

ONEPASS_BUILTIN size_t __onepass_get_global_range(int dimension) noexcept {
  return __onepass_cpu_work_item()->globalRange[dimension];
}
