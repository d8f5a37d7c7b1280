// Work-group and sub-group builtins on SPIR-V devices (SYCL 2020 §4.9.1,
// §4.17.1) through OpenCL C's functions (OpenCL C 3.0 §6.15) and SPIR-V's
// instructions (SPIR-V 1.6 §3.42.21, §3.42.24), declared by the Itanium
// names LLVM's SPIR-V backend recognizes: plain C++ declarations in the
// global namespace mangle to exactly those names. The work-group's dynamic
// local memory is an entry parameter the translator substitutes
// (__onepass_local_memory stays undefined here).

// The builtins' declarations, with their symbols from onepass_abi.hpp: the
// definitions below must match them (a different signature does not compile).
#include "sycl/detail/builtins.hpp"

#include <stddef.h>

#define ONEPASS_BUILTIN extern "C" __attribute__((always_inline))

// OpenCL C's functions and SPIR-V's instructions used below.
unsigned get_sub_group_local_id();
unsigned get_sub_group_size();
unsigned get_max_sub_group_size();
unsigned get_sub_group_id();
unsigned get_num_sub_groups();
float rsqrt(float);
double rsqrt(double);
__attribute__((convergent)) void __spirv_ControlBarrier(int execution, int memory, int semantics);
__attribute__((convergent)) unsigned __spirv_GroupNonUniformShuffle(int scope, unsigned value, unsigned id);
__attribute__((convergent)) bool __spirv_GroupNonUniformAny(int scope, bool predicate);
__attribute__((convergent)) bool __spirv_GroupNonUniformAll(int scope, bool predicate);

namespace {
// Scopes (SPIR-V §3.27) and memory semantics (§3.25).
constexpr int kWorkgroup = 2;
constexpr int kSubgroup = 3;
constexpr int kAcquireRelease = 0x8;
constexpr int kWorkgroupMemory = 0x100;
constexpr int kCrossWorkgroupMemory = 0x200;
}  // namespace

ONEPASS_BUILTIN int __onepass_target_is_cpu() noexcept { return 0; }
// The SPIR-V devices' work-groups are of at most 1024 work-items (the
// backends report no larger maximum: the scratch below has 1024 slots), and
// the work-group algorithms' barrier loops run 1024 work-items' steps:
// OpenCL compilers for CPUs (PoCL) replicate the work-items around every
// barrier, which they do for a loop of known trip count in linear time.
ONEPASS_BUILTIN unsigned __onepass_group_steps_bound() noexcept { return 1024; }
// No texture hardware here: the runtime binds no texture, the kernel samples
// images in software and never calls this.
ONEPASS_BUILTIN void __onepass_image_texture_read(unsigned long long, int, int, float, float, float,
                                                  unsigned *texel) noexcept {
  for (int c = 0; c < 4; ++c) texel[c] = 0;
}

// The work-group algorithms' scratch: 8 bytes for each work-item of a
// work-group of up to 1024, in kernels that use it.
extern "C" {
__attribute__((address_space(3), aligned(16))) char __onepass_spirv_group_scratch[8 * 1024];
}
ONEPASS_BUILTIN void *__onepass_group_scratch() noexcept { return (void *)__onepass_spirv_group_scratch; }

// Waits for every work-item of the work-group and orders their accesses to
// local and global memory before it with those after it.
ONEPASS_BUILTIN __attribute__((convergent)) void __onepass_group_barrier() noexcept {
  __spirv_ControlBarrier(kWorkgroup, kWorkgroup, kAcquireRelease | kWorkgroupMemory | kCrossWorkgroupMemory);
}

ONEPASS_BUILTIN float __onepass_rsqrtf(float x) noexcept { return rsqrt(x); }
ONEPASS_BUILTIN double __onepass_rsqrt(double x) noexcept { return rsqrt(x); }

ONEPASS_BUILTIN unsigned __onepass_sub_group_local_id() noexcept { return get_sub_group_local_id(); }
ONEPASS_BUILTIN unsigned __onepass_sub_group_size() noexcept { return get_sub_group_size(); }
ONEPASS_BUILTIN unsigned __onepass_sub_group_max_size() noexcept { return get_max_sub_group_size(); }
ONEPASS_BUILTIN unsigned __onepass_sub_group_id() noexcept { return get_sub_group_id(); }
ONEPASS_BUILTIN unsigned __onepass_sub_group_count() noexcept { return get_num_sub_groups(); }

// Shifts and masks outside the sub-group read the work-item's own value (as
// on the other targets).
ONEPASS_BUILTIN __attribute__((convergent)) unsigned __onepass_sub_group_shuffle(unsigned value,
                                                                                 unsigned source) noexcept {
  return __spirv_GroupNonUniformShuffle(kSubgroup, value, source);
}
ONEPASS_BUILTIN __attribute__((convergent)) unsigned __onepass_sub_group_shuffle_down(unsigned value,
                                                                                      unsigned delta) noexcept {
  const unsigned lane = get_sub_group_local_id();
  return __spirv_GroupNonUniformShuffle(kSubgroup, value, lane + delta < get_sub_group_size() ? lane + delta : lane);
}
ONEPASS_BUILTIN __attribute__((convergent)) unsigned __onepass_sub_group_shuffle_up(unsigned value,
                                                                                    unsigned delta) noexcept {
  const unsigned lane = get_sub_group_local_id();
  return __spirv_GroupNonUniformShuffle(kSubgroup, value, lane >= delta ? lane - delta : lane);
}
ONEPASS_BUILTIN __attribute__((convergent)) unsigned __onepass_sub_group_shuffle_xor(unsigned value,
                                                                                     unsigned mask) noexcept {
  const unsigned lane = get_sub_group_local_id();
  return __spirv_GroupNonUniformShuffle(kSubgroup, value, (lane ^ mask) < get_sub_group_size() ? lane ^ mask : lane);
}
ONEPASS_BUILTIN __attribute__((convergent)) int __onepass_sub_group_any(int predicate) noexcept {
  return __spirv_GroupNonUniformAny(kSubgroup, predicate != 0);
}
ONEPASS_BUILTIN __attribute__((convergent)) int __onepass_sub_group_all(int predicate) noexcept {
  return __spirv_GroupNonUniformAll(kSubgroup, predicate != 0);
}
ONEPASS_BUILTIN __attribute__((convergent)) void __onepass_sub_group_barrier() noexcept {
  __spirv_ControlBarrier(kSubgroup, kSubgroup, kAcquireRelease | kWorkgroupMemory | kCrossWorkgroupMemory);
}
