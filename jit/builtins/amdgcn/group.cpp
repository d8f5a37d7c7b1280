// Work-group and sub-group builtins on AMD GPUs (SYCL 2020 §4.9.1,
// §4.17.1): a work-group is a workgroup of the HSA dispatch, its local
// memory the dispatch's dynamic LDS (group segment); a sub-group is a
// wavefront (64 lanes on gfx9, 32 on gfx10 and later in wave32 mode).

// The builtins' declarations, with their symbols from onepass_abi.hpp: the
// definitions below must match them (a different signature does not compile).
#include "sycl/detail/builtins.hpp"

#define ONEPASS_BUILTIN extern "C" __attribute__((always_inline))

// The dispatch's dynamic LDS: a zero-sized external LDS array.
extern "C" __attribute__((address_space(3), aligned(ONEPASS_ABI_LOCAL_MEMORY_ALIGNMENT))) char __onepass_amdgcn_local_memory[];

ONEPASS_BUILTIN int __onepass_target_is_cpu() noexcept { return 0; }
ONEPASS_BUILTIN unsigned __onepass_group_steps_bound() noexcept { return 0; }
// No texture hardware here: the runtime binds no texture, the kernel samples
// images in software and never calls this.
ONEPASS_BUILTIN void __onepass_image_texture_read(unsigned long long, int, int, float, float, float,
                                                  unsigned *texel) noexcept {
  for (int c = 0; c < 4; ++c) texel[c] = 0;
}

// The work-group algorithms' scratch: 8 bytes for each of up to 1024 work-items.
extern "C" {
__attribute__((address_space(3), aligned(16))) char __onepass_amdgcn_group_scratch[8 * 1024];
}
ONEPASS_BUILTIN void *__onepass_group_scratch() noexcept { return (void *)__onepass_amdgcn_group_scratch; }

ONEPASS_BUILTIN void *__onepass_local_memory() noexcept { return (void *)__onepass_amdgcn_local_memory; }

// s_barrier between workgroup-scope release and acquire fences: waits for
// the work-group and orders its local and global memory accesses.
ONEPASS_BUILTIN __attribute__((convergent)) void __onepass_group_barrier() noexcept {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

ONEPASS_BUILTIN float __onepass_rsqrtf(float x) noexcept { return 1.0f / __builtin_sqrtf(x); }
ONEPASS_BUILTIN double __onepass_rsqrt(double x) noexcept { return 1.0 / __builtin_sqrt(x); }

namespace {
// The HSA dispatch packet: workgroup_size_x/y/z are 16-bit at bytes 4, 6, 8.
__attribute__((always_inline)) unsigned groupSize(int axis) {
  const unsigned short *packet = (const unsigned short *)__builtin_amdgcn_dispatch_ptr();
  return packet[2 + axis];
}
__attribute__((always_inline)) unsigned linearThread() {
  return (__builtin_amdgcn_workitem_id_z() * groupSize(1) + __builtin_amdgcn_workitem_id_y()) * groupSize(0) +
         __builtin_amdgcn_workitem_id_x();
}
__attribute__((always_inline)) unsigned blockThreads() { return groupSize(0) * groupSize(1) * groupSize(2); }
__attribute__((always_inline)) unsigned waveSize() { return __builtin_amdgcn_wavefrontsize(); }
__attribute__((always_inline)) unsigned subGroupSize() {
  const unsigned left = blockThreads() - linearThread() / waveSize() * waveSize();
  return left < waveSize() ? left : waveSize();
}
__attribute__((always_inline)) unsigned lane() { return linearThread() % waveSize(); }
// A lane's value from lane `source` of the wavefront.
__attribute__((always_inline, convergent)) unsigned fromLane(unsigned value, unsigned source) {
  return (unsigned)__builtin_amdgcn_ds_bpermute((int)(source * 4), (int)value);
}
}  // namespace

ONEPASS_BUILTIN unsigned __onepass_sub_group_local_id() noexcept { return lane(); }
ONEPASS_BUILTIN unsigned __onepass_sub_group_size() noexcept { return subGroupSize(); }
ONEPASS_BUILTIN unsigned __onepass_sub_group_max_size() noexcept { return waveSize(); }
ONEPASS_BUILTIN unsigned __onepass_sub_group_id() noexcept { return linearThread() / waveSize(); }
ONEPASS_BUILTIN unsigned __onepass_sub_group_count() noexcept { return (blockThreads() + waveSize() - 1) / waveSize(); }
ONEPASS_BUILTIN __attribute__((convergent)) unsigned __onepass_sub_group_shuffle(unsigned value,
                                                                                 unsigned source) noexcept {
  return fromLane(value, source);
}
ONEPASS_BUILTIN __attribute__((convergent)) unsigned __onepass_sub_group_shuffle_down(unsigned value,
                                                                                      unsigned delta) noexcept {
  const unsigned self = lane();
  return fromLane(value, self + delta < subGroupSize() ? self + delta : self);
}
ONEPASS_BUILTIN __attribute__((convergent)) unsigned __onepass_sub_group_shuffle_up(unsigned value,
                                                                                    unsigned delta) noexcept {
  const unsigned self = lane();
  return fromLane(value, self >= delta ? self - delta : self);
}
ONEPASS_BUILTIN __attribute__((convergent)) unsigned __onepass_sub_group_shuffle_xor(unsigned value,
                                                                                     unsigned mask) noexcept {
  const unsigned self = lane();
  return fromLane(value, (self ^ mask) < subGroupSize() ? self ^ mask : self);
}
ONEPASS_BUILTIN __attribute__((convergent)) int __onepass_sub_group_any(int predicate) noexcept {
  return __builtin_amdgcn_ballot_w64(predicate != 0) != 0;
}
ONEPASS_BUILTIN __attribute__((convergent)) int __onepass_sub_group_all(int predicate) noexcept {
  return __builtin_amdgcn_ballot_w64(predicate == 0) == 0;
}
ONEPASS_BUILTIN __attribute__((convergent)) void __onepass_sub_group_barrier() noexcept {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
