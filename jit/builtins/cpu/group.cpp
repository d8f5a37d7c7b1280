// Work-group builtins on the CPU. The launcher gives each work-group (each
// chunk of groups on one thread, in turn) a block of local memory and
// records its address in the work-item state. There is no barrier function:
// the JIT turns every call of __onepass_group_barrier into a point where the
// work-item stops and later resumes (jit/src/BarrierLowering.h).
#include "../common/work_item_abi.h"

#include <stdint.h>

#define ONEPASS_BUILTIN extern "C" __attribute__((always_inline))

ONEPASS_BUILTIN int __onepass_target_is_cpu() noexcept { return 1; }

ONEPASS_BUILTIN void *__onepass_group_scratch() noexcept {
  return reinterpret_cast<void *>(static_cast<uintptr_t>(__onepass_work_item()->groupScratch));
}

ONEPASS_BUILTIN void *__onepass_local_memory() noexcept {
  return reinterpret_cast<void *>(static_cast<uintptr_t>(__onepass_work_item()->localMemory));
}

// Sub-groups of one work-item each (for now): every shuffle returns the
// work-item's own value, every vote its own predicate.
namespace {
__attribute__((always_inline)) uint64_t localLinear() {
  const onepass::builtins::WorkItemState *state = __onepass_work_item();
  return (state->localId[0] * state->localRange[1] + state->localId[1]) * state->localRange[2] + state->localId[2];
}
}  // namespace

ONEPASS_BUILTIN unsigned __onepass_sub_group_local_id() noexcept { return 0; }
ONEPASS_BUILTIN unsigned __onepass_sub_group_size() noexcept { return 1; }
ONEPASS_BUILTIN unsigned __onepass_sub_group_max_size() noexcept { return 1; }
ONEPASS_BUILTIN unsigned __onepass_sub_group_id() noexcept { return static_cast<unsigned>(localLinear()); }
ONEPASS_BUILTIN unsigned __onepass_sub_group_count() noexcept {
  const onepass::builtins::WorkItemState *state = __onepass_work_item();
  return static_cast<unsigned>(state->localRange[0] * state->localRange[1] * state->localRange[2]);
}
ONEPASS_BUILTIN unsigned __onepass_sub_group_shuffle(unsigned value, unsigned) noexcept { return value; }
ONEPASS_BUILTIN unsigned __onepass_sub_group_shuffle_down(unsigned value, unsigned) noexcept { return value; }
ONEPASS_BUILTIN unsigned __onepass_sub_group_shuffle_up(unsigned value, unsigned) noexcept { return value; }
ONEPASS_BUILTIN unsigned __onepass_sub_group_shuffle_xor(unsigned value, unsigned) noexcept { return value; }
ONEPASS_BUILTIN int __onepass_sub_group_any(int predicate) noexcept { return predicate != 0; }
ONEPASS_BUILTIN int __onepass_sub_group_all(int predicate) noexcept { return predicate != 0; }
ONEPASS_BUILTIN void __onepass_sub_group_barrier() noexcept {}
