// Work-item queries (SYCL 2020 §4.9.1), the same source for every target.
// Compiled to bitcode per target with clang++-22 at build time and linked into
// each kernel by the JIT; after inlining, each query becomes a value the
// kernel's launch wrapper computed (a loop counter, a thread index).

// The builtins' declarations, with their symbols from onepass_abi.hpp: the
// definitions below must match them (a different signature does not compile).
#include "sycl/detail/builtins.hpp"

#include "work_item_abi.h"

#include <stddef.h>

#define ONEPASS_BUILTIN extern "C" __attribute__((always_inline))

ONEPASS_BUILTIN size_t __onepass_get_global_id(int dimension) noexcept {
  return __onepass_work_item()->globalId[dimension];
}

ONEPASS_BUILTIN size_t __onepass_get_global_range(int dimension) noexcept {
  return __onepass_work_item()->globalRange[dimension];
}

ONEPASS_BUILTIN size_t __onepass_get_local_id(int dimension) noexcept {
  return __onepass_work_item()->localId[dimension];
}

ONEPASS_BUILTIN size_t __onepass_get_local_range(int dimension) noexcept {
  return __onepass_work_item()->localRange[dimension];
}

ONEPASS_BUILTIN size_t __onepass_get_group_id(int dimension) noexcept {
  return __onepass_work_item()->groupId[dimension];
}

ONEPASS_BUILTIN size_t __onepass_get_group_range(int dimension) noexcept {
  return __onepass_work_item()->groupRange[dimension];
}
