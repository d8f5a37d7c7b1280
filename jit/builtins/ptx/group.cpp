// Work-group builtins on NVIDIA GPUs (SYCL 2020 §4.9.1, §4.17.1): a work-group
// is a thread block, its local memory the block's dynamic shared memory,
// whose size the launch gives (the command group's local accessors).
#define ONEPASS_BUILTIN extern "C" __attribute__((always_inline))

// The block's dynamic shared memory: `.extern .shared` in the PTX.
extern "C" __attribute__((address_space(3), aligned(16))) char __onepass_ptx_local_memory[];

ONEPASS_BUILTIN int __onepass_target_is_cpu() noexcept { return 0; }

ONEPASS_BUILTIN void *__onepass_local_memory() noexcept { return (void *)__onepass_ptx_local_memory; }

// barrier.sync 0: waits for every thread of the block and orders their
// accesses to shared and global memory before it with those after it.
ONEPASS_BUILTIN __attribute__((convergent)) void __onepass_group_barrier() noexcept { __nvvm_barrier_sync(0); }
