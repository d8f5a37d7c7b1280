// Work-group builtins on the CPU. The launcher gives each work-group (each
// chunk of groups on one thread, in turn) a block of local memory and
// records its address in the work-item state. There is no barrier function:
// the JIT turns every call of __onepass_group_barrier into a point where the
// work-item stops and later resumes (jit/src/BarrierLowering.h).
#include "../common/work_item_abi.h"

#include <stdint.h>

#define ONEPASS_BUILTIN extern "C" __attribute__((always_inline))

ONEPASS_BUILTIN int __onepass_target_is_cpu() noexcept { return 1; }

ONEPASS_BUILTIN void *__onepass_local_memory() noexcept {
  return reinterpret_cast<void *>(static_cast<uintptr_t>(__onepass_work_item()->localMemory));
}
