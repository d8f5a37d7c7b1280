// Work-group builtins on the CPU. The launcher gives each work-group (each
// chunk of groups on one thread, in turn) a block of local memory and
// records its address in the work-item state. There is no barrier function:
// the JIT turns every call of __onepass_group_barrier (the kernel's, and the
// sub-group builtins' below) into a point where the work-item stops and later
// resumes (jit/targets/cpu/BarrierLowering.h).

// The builtins' declarations, with their symbols from onepass_abi.hpp: the
// definitions below must match them (a different signature does not compile).
#include "sycl/detail/builtins.hpp"

#include "../common/work_item_abi.h"

#include <stdint.h>

#define ONEPASS_BUILTIN extern "C" __attribute__((always_inline))

ONEPASS_BUILTIN int __onepass_target_is_cpu() noexcept { return 1; }
ONEPASS_BUILTIN unsigned __onepass_group_steps_bound() noexcept { return 0; }
// No texture hardware here: the runtime binds no texture, the kernel samples
// images in software and never calls this.
ONEPASS_BUILTIN void __onepass_image_texture_read(unsigned long long, int, int, float, float, float,
                                                  unsigned *texel) noexcept {
  for (int c = 0; c < 4; ++c) texel[c] = 0;
}

ONEPASS_BUILTIN void *__onepass_group_scratch() noexcept {
  return reinterpret_cast<void *>(static_cast<uintptr_t>(__onepass_work_item()->groupScratch));
}

ONEPASS_BUILTIN void *__onepass_local_memory() noexcept {
  return reinterpret_cast<void *>(static_cast<uintptr_t>(__onepass_work_item()->localMemory));
}

// Sub-groups of kSubGroupWidth consecutive work-items (the last of a group
// may be smaller): 32-bit lanes of a 256-bit vector, which every x86-64 CPU
// with AVX has. The work-items of a group run one after
// another between barriers, so a sub-group exchanges values through the
// group scratch: each work-item writes its slot, a barrier, each reads the
// slot it wants, a barrier (before the scratch is written again). The JIT
// lowers those barriers like any other (jit/targets/cpu/BarrierLowering.h).

namespace {
constexpr unsigned kSubGroupWidth = 8;

__attribute__((always_inline)) uint64_t localLinear() {
  const onepass::builtins::WorkItemState *state = __onepass_work_item();
  return (state->localId[0] * state->localRange[1] + state->localId[1]) * state->localRange[2] + state->localId[2];
}
__attribute__((always_inline)) uint64_t groupItems() {
  const onepass::builtins::WorkItemState *state = __onepass_work_item();
  return state->localRange[0] * state->localRange[1] * state->localRange[2];
}
__attribute__((always_inline)) unsigned subGroupLocal() {
  return static_cast<unsigned>(localLinear() % kSubGroupWidth);
}
__attribute__((always_inline)) unsigned subGroupSize() {
  const uint64_t first = localLinear() / kSubGroupWidth * kSubGroupWidth, left = groupItems() - first;
  return static_cast<unsigned>(left < kSubGroupWidth ? left : kSubGroupWidth);
}
// The value that work-item `source` of the sub-group put in (every work-item
// of the sub-group calls it together).
__attribute__((always_inline)) unsigned exchange(unsigned value, unsigned source) {
  uint64_t *scratch = static_cast<uint64_t *>(__onepass_group_scratch());
  const uint64_t self = localLinear();
  scratch[self] = value;
  __onepass_group_barrier();
  const unsigned result = static_cast<unsigned>(scratch[self - self % kSubGroupWidth + source]);
  __onepass_group_barrier();
  return result;
}
}  // namespace

ONEPASS_BUILTIN unsigned __onepass_sub_group_local_id() noexcept { return subGroupLocal(); }
ONEPASS_BUILTIN unsigned __onepass_sub_group_size() noexcept { return subGroupSize(); }
ONEPASS_BUILTIN unsigned __onepass_sub_group_max_size() noexcept { return kSubGroupWidth; }
ONEPASS_BUILTIN unsigned __onepass_sub_group_id() noexcept {
  return static_cast<unsigned>(localLinear() / kSubGroupWidth);
}
ONEPASS_BUILTIN unsigned __onepass_sub_group_count() noexcept {
  return static_cast<unsigned>((groupItems() + kSubGroupWidth - 1) / kSubGroupWidth);
}
// A source outside the sub-group: the work-item's own value.
ONEPASS_BUILTIN unsigned __onepass_sub_group_shuffle(unsigned value, unsigned source) noexcept {
  return exchange(value, source < subGroupSize() ? source : subGroupLocal());
}
ONEPASS_BUILTIN unsigned __onepass_sub_group_shuffle_down(unsigned value, unsigned delta) noexcept {
  const unsigned self = subGroupLocal();
  return exchange(value, delta < subGroupSize() - self ? self + delta : self);
}
ONEPASS_BUILTIN unsigned __onepass_sub_group_shuffle_up(unsigned value, unsigned delta) noexcept {
  const unsigned self = subGroupLocal();
  return exchange(value, self >= delta ? self - delta : self);
}
ONEPASS_BUILTIN unsigned __onepass_sub_group_shuffle_xor(unsigned value, unsigned mask) noexcept {
  const unsigned self = subGroupLocal(), source = self ^ mask;
  return exchange(value, source < subGroupSize() ? source : self);
}
namespace {
// How many work-items of the sub-group have `predicate`.
__attribute__((always_inline)) unsigned countTrue(int predicate) {
  uint64_t *scratch = static_cast<uint64_t *>(__onepass_group_scratch());
  const uint64_t self = localLinear(), first = self - self % kSubGroupWidth;
  scratch[self] = predicate != 0;
  __onepass_group_barrier();
  unsigned count = 0;
  for (unsigned k = 0; k < subGroupSize(); ++k) count += static_cast<unsigned>(scratch[first + k]);
  __onepass_group_barrier();
  return count;
}
}  // namespace
ONEPASS_BUILTIN int __onepass_sub_group_any(int predicate) noexcept { return countTrue(predicate) != 0; }
ONEPASS_BUILTIN int __onepass_sub_group_all(int predicate) noexcept { return countTrue(predicate) == subGroupSize(); }
ONEPASS_BUILTIN void __onepass_sub_group_barrier() noexcept { __onepass_group_barrier(); }
