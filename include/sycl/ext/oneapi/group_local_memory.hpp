// sycl_ext_oneapi_group_local_memory: work-group local memory that a kernel
// allocates where it runs, instead of a local_accessor in the command group.
// Each call in the source is one allocation of the work-group (every
// work-item of the group gets the same address; a call reached again, in a
// loop, returns the same memory). The sizes are compiled in: stage 1 records
// a kernel's total, which counts against info::device::local_mem_size with
// its local accessors. Returns a plain pointer, as it always has in OnePass
// (the extension's multi_ptr result converts from it: local_ptr<T>(p)).
#pragma once

#include "../../detail/onepass_abi.hpp"

#include "../../detail/builtins.hpp"
#include "../../nd_item.hpp"

#include <cstddef>
#include <new>
#include <utility>

extern "C" void *__onepass_group_local_memory(std::size_t size, std::size_t alignment) noexcept
    __asm__(ONEPASS_ABI_GROUP_LOCAL_MEMORY);

namespace sycl {
namespace ext::oneapi {

// Uninitialized memory for a T, shared by the work-group.
template <typename T, int Dimensions> T *group_local_memory_for_overwrite(group<Dimensions>) noexcept {
  return static_cast<T *>(__onepass_group_local_memory(sizeof(T), alignof(T)));
}

// The same, with a T the group's leader constructs from `arguments`; every
// work-item waits at a group barrier for it.
template <typename T, int Dimensions, typename... Arguments>
T *group_local_memory(group<Dimensions> g, Arguments &&...arguments) {
  T *memory = group_local_memory_for_overwrite<T>(g);
  if (g.leader()) new (memory) T(std::forward<Arguments>(arguments)...);
  group_barrier(g);
  return memory;
}

}  // namespace ext::oneapi
}  // namespace sycl
