// Work-group builtins on NVIDIA GPUs (SYCL 2020 §4.9.1, §4.17.1): a work-group
// is a thread block, its local memory the block's dynamic shared memory,
// whose size the launch gives (the command group's local accessors).

// The builtins' declarations, with their symbols from onepass_abi.hpp: the
// definitions below must match them (a different signature does not compile).
#include "sycl/detail/builtins.hpp"

#define ONEPASS_BUILTIN extern "C" __attribute__((always_inline))

// The block's dynamic shared memory: `.extern .shared` in the PTX.
extern "C" __attribute__((address_space(3), aligned(ONEPASS_ABI_LOCAL_MEMORY_ALIGNMENT))) char __onepass_ptx_local_memory[];

ONEPASS_BUILTIN int __onepass_target_is_cpu() noexcept { return 0; }
ONEPASS_BUILTIN unsigned __onepass_group_steps_bound() noexcept { return 0; }

// A texture fetch (PTX `tex`, unified mode: the texture object is a 64-bit
// operand) of a 2- or 3-D texture, whose result type follows the image
// format's class (kind 0: f32, 1: s32, 2: u32). A 1-D image is a texture of
// one row, read at the row's centre: `tex.1d` of a 1-D array with a linear
// filter and border addressing blended the border in as if a row above
// (H200). Not volatile: a fetch of the same coordinates gives the same texel,
// so the optimizer may merge them.
#define ONEPASS_TEX(geometry, type, reg, coords, ...)                                                                  \
  asm("tex." geometry ".v4." type ".f32 {%0, %1, %2, %3}, [%4, " coords "];"                                           \
      : "=" reg(out[0]), "=" reg(out[1]), "=" reg(out[2]), "=" reg(out[3])                                             \
      : "l"(texture), __VA_ARGS__)
namespace {
template <typename T> __attribute__((always_inline)) void textureFetch(unsigned long long texture, int dimensions,
                                                                       float x, float y, float z, T *out) {
  if constexpr (sizeof(T) == 4 && static_cast<T>(0.5f) != 0) {  // float
    if (dimensions <= 2) ONEPASS_TEX("2d", "f32", "f", "{%5, %6}", "f"(x), "f"(dimensions == 1 ? 0.5f : y));
    else ONEPASS_TEX("3d", "f32", "f", "{%5, %6, %7, %8}", "f"(x), "f"(y), "f"(z), "f"(z));
  } else if constexpr (static_cast<T>(-1) < 0) {
    if (dimensions <= 2) ONEPASS_TEX("2d", "s32", "r", "{%5, %6}", "f"(x), "f"(dimensions == 1 ? 0.5f : y));
    else ONEPASS_TEX("3d", "s32", "r", "{%5, %6, %7, %8}", "f"(x), "f"(y), "f"(z), "f"(z));
  } else {
    if (dimensions <= 2) ONEPASS_TEX("2d", "u32", "r", "{%5, %6}", "f"(x), "f"(dimensions == 1 ? 0.5f : y));
    else ONEPASS_TEX("3d", "u32", "r", "{%5, %6, %7, %8}", "f"(x), "f"(y), "f"(z), "f"(z));
  }
}
}  // namespace
#undef ONEPASS_TEX

// Sampled images on the texture unit: the runtime made a texture object of
// the image's format and sampler (runtime/backends/cuda/CudaImage.cpp).
ONEPASS_BUILTIN void __onepass_image_texture_read(unsigned long long texture, int dimensions, int kind, float x,
                                                  float y, float z, unsigned *texel) noexcept {
  if (kind == 0) {
    float f[4];
    textureFetch(texture, dimensions, x, y, z, f);
    for (int c = 0; c < 4; ++c) texel[c] = __builtin_bit_cast(unsigned, f[c]);
  } else if (kind == 1) {
    int i[4];
    textureFetch(texture, dimensions, x, y, z, i);
    for (int c = 0; c < 4; ++c) texel[c] = static_cast<unsigned>(i[c]);
  } else {
    textureFetch(texture, dimensions, x, y, z, texel);
  }
}

// The work-group algorithms' scratch: static shared memory, 8 bytes for each
// of the (at most) 1024 threads of a block, in kernels that use it. Defined
// here (a `.shared` array of the kernel), not extern: the driver's linker
// takes an extern array with a size for an undefined symbol.
extern "C" {
__attribute__((address_space(3), aligned(16))) char __onepass_ptx_group_scratch[8 * 1024];
}
ONEPASS_BUILTIN void *__onepass_group_scratch() noexcept { return (void *)__onepass_ptx_group_scratch; }

ONEPASS_BUILTIN void *__onepass_local_memory() noexcept { return (void *)__onepass_ptx_local_memory; }

// barrier.sync 0: waits for every thread of the block and orders their
// accesses to shared and global memory before it with those after it.
ONEPASS_BUILTIN __attribute__((convergent)) void __onepass_group_barrier() noexcept { __nvvm_barrier_sync(0); }

// Sub-groups are warps: 32 consecutive threads of the block in its linear
// order (x fastest: SYCL's last dimension), the last one perhaps partial.
namespace {
__attribute__((always_inline)) unsigned linearThread() {
  return (__nvvm_read_ptx_sreg_tid_z() * __nvvm_read_ptx_sreg_ntid_y() + __nvvm_read_ptx_sreg_tid_y()) *
             __nvvm_read_ptx_sreg_ntid_x() +
         __nvvm_read_ptx_sreg_tid_x();
}
__attribute__((always_inline)) unsigned blockThreads() {
  return __nvvm_read_ptx_sreg_ntid_x() * __nvvm_read_ptx_sreg_ntid_y() * __nvvm_read_ptx_sreg_ntid_z();
}
__attribute__((always_inline)) unsigned warpSize() {
  const unsigned left = blockThreads() - linearThread() / 32 * 32;
  return left < 32 ? left : 32;
}
// The lanes of this thread's warp that exist.
__attribute__((always_inline)) unsigned warpMask() {
  const unsigned size = warpSize();
  return size == 32 ? 0xffffffffu : (1u << size) - 1;
}
}  // namespace

ONEPASS_BUILTIN unsigned __onepass_sub_group_local_id() noexcept { return linearThread() % 32; }
ONEPASS_BUILTIN unsigned __onepass_sub_group_size() noexcept { return warpSize(); }
ONEPASS_BUILTIN unsigned __onepass_sub_group_max_size() noexcept { return 32; }
ONEPASS_BUILTIN unsigned __onepass_sub_group_id() noexcept { return linearThread() / 32; }
ONEPASS_BUILTIN unsigned __onepass_sub_group_count() noexcept { return (blockThreads() + 31) / 32; }
ONEPASS_BUILTIN __attribute__((convergent)) unsigned __onepass_sub_group_shuffle(unsigned value,
                                                                                 unsigned source) noexcept {
  return __nvvm_shfl_sync_idx_i32(warpMask(), value, source, 31);
}
ONEPASS_BUILTIN __attribute__((convergent)) unsigned __onepass_sub_group_shuffle_down(unsigned value,
                                                                                      unsigned delta) noexcept {
  const unsigned lane = linearThread() % 32;
  const unsigned result =
      __nvvm_shfl_sync_idx_i32(warpMask(), value, lane + delta < warpSize() ? lane + delta : lane, 31);
  return result;
}
ONEPASS_BUILTIN __attribute__((convergent)) unsigned __onepass_sub_group_shuffle_up(unsigned value,
                                                                                    unsigned delta) noexcept {
  const unsigned lane = linearThread() % 32;
  return __nvvm_shfl_sync_idx_i32(warpMask(), value, lane >= delta ? lane - delta : lane, 31);
}
ONEPASS_BUILTIN __attribute__((convergent)) unsigned __onepass_sub_group_shuffle_xor(unsigned value,
                                                                                     unsigned mask) noexcept {
  const unsigned lane = linearThread() % 32;
  return __nvvm_shfl_sync_idx_i32(warpMask(), value, (lane ^ mask) < warpSize() ? lane ^ mask : lane, 31);
}
ONEPASS_BUILTIN __attribute__((convergent)) int __onepass_sub_group_any(int predicate) noexcept {
  return __nvvm_vote_any_sync(warpMask(), predicate != 0);
}
ONEPASS_BUILTIN __attribute__((convergent)) int __onepass_sub_group_all(int predicate) noexcept {
  return __nvvm_vote_all_sync(warpMask(), predicate != 0);
}
ONEPASS_BUILTIN __attribute__((convergent)) void __onepass_sub_group_barrier() noexcept {
  __nvvm_bar_warp_sync(warpMask());
}
