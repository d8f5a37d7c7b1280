// Target-neutral builtins that device code calls. Stage 1 leaves them as
// declarations; stage 2 links a per-target library that defines them
// (jit/builtins/<target>/). The runtime library defines host fallbacks that
// report misuse, so host code that is never launched still links. Each is
// declared with its symbol from onepass_abi.hpp (the one spelling stage 1, the
// JIT and the runtime share).
#pragma once

#include "onepass_abi.hpp"

#include <stddef.h>  // (not <cstddef>: the JIT's builtin libraries include this, freestanding)

// Only clang (onepass++) compiles device code; the runtime, built by any
// compiler, reads these declarations for its host fallbacks.
#ifdef __clang__
#define ONEPASS_CONVERGENT [[clang::convergent]]
#else
#define ONEPASS_CONVERGENT
#endif
// What callers may assume of a builtin that depends only on its arguments and
// the work-item: calls can be merged and dropped. Not on the definitions of
// the JIT's builtin libraries (ONEPASS_BUILTIN_LIBRARY), which read the
// work-item state: the promise is for callers, the JIT inlines the bodies.
#ifdef ONEPASS_BUILTIN_LIBRARY
#define ONEPASS_WORK_ITEM_CONST
#else
#define ONEPASS_WORK_ITEM_CONST [[gnu::const]]
#endif

extern "C" {
// Work-item queries. `dimension` follows SYCL's numbering (0 is slowest-varying).
// Constant for a work-item: the optimizer may merge and drop calls.
ONEPASS_WORK_ITEM_CONST size_t __onepass_get_global_id(int dimension) noexcept __asm__(ONEPASS_ABI_GET_GLOBAL_ID);
ONEPASS_WORK_ITEM_CONST size_t __onepass_get_global_range(int dimension) noexcept __asm__(ONEPASS_ABI_GET_GLOBAL_RANGE);
// nd_range kernels only: the work-item's place in its work-group, and the
// work-group's among all of them.
ONEPASS_WORK_ITEM_CONST size_t __onepass_get_local_id(int dimension) noexcept __asm__(ONEPASS_ABI_GET_LOCAL_ID);
ONEPASS_WORK_ITEM_CONST size_t __onepass_get_local_range(int dimension) noexcept __asm__(ONEPASS_ABI_GET_LOCAL_RANGE);
ONEPASS_WORK_ITEM_CONST size_t __onepass_get_group_id(int dimension) noexcept __asm__(ONEPASS_ABI_GET_GROUP_ID);
ONEPASS_WORK_ITEM_CONST size_t __onepass_get_group_range(int dimension) noexcept __asm__(ONEPASS_ABI_GET_GROUP_RANGE);
// nd_range kernels only: the launch's global offset (deprecated in SYCL 2020,
// §4.9.1.2); a constant the JIT substitutes, 0 unless the launch has one.
ONEPASS_WORK_ITEM_CONST size_t __onepass_get_global_offset(int dimension) noexcept
    __asm__(ONEPASS_ABI_GET_GLOBAL_OFFSET);

// nd_range kernels only. The start of the work-group's local memory (the
// local accessors of the command group, laid out by the handler), and a
// barrier for all work-items of the group that also orders their accesses
// to local and global memory. Convergent: the optimizer must not make it
// depend on more (or other) conditions than the source does.
ONEPASS_WORK_ITEM_CONST void *__onepass_local_memory() noexcept __asm__(ONEPASS_ABI_LOCAL_MEMORY);
ONEPASS_CONVERGENT void __onepass_group_barrier() noexcept __asm__(ONEPASS_ABI_GROUP_BARRIER);

// Hierarchical kernels (parallel_for_work_group): the code between a begin
// and its end runs on every work-item of the group, the code around them
// (work-group scope) as if on one; `closure` is the work-item function whose
// captures the group's work-items share (null if none). Opaque to the
// optimizer, which so keeps memory accesses on their side of each call; the
// JIT removes them (jit/src/HierarchicalLowering.h).
ONEPASS_CONVERGENT void __onepass_hierarchical_region_begin(const void *closure) noexcept
    __asm__(ONEPASS_ABI_HIERARCHICAL_REGION_BEGIN);
ONEPASS_CONVERGENT void __onepass_hierarchical_region_end() noexcept __asm__(ONEPASS_ABI_HIERARCHICAL_REGION_END);

// Sub-groups (nd_range kernels): this work-item's sub-group and its place in
// it, and the sub-group's size (the last of a work-group may be smaller than
// the maximum). Work-items of a sub-group are consecutive in the work-group's
// linear order.
ONEPASS_WORK_ITEM_CONST unsigned __onepass_sub_group_local_id() noexcept __asm__(ONEPASS_ABI_SUB_GROUP_LOCAL_ID);
ONEPASS_WORK_ITEM_CONST unsigned __onepass_sub_group_size() noexcept __asm__(ONEPASS_ABI_SUB_GROUP_SIZE);
ONEPASS_WORK_ITEM_CONST unsigned __onepass_sub_group_max_size() noexcept __asm__(ONEPASS_ABI_SUB_GROUP_MAX_SIZE);
ONEPASS_WORK_ITEM_CONST unsigned __onepass_sub_group_id() noexcept __asm__(ONEPASS_ABI_SUB_GROUP_ID);
ONEPASS_WORK_ITEM_CONST unsigned __onepass_sub_group_count() noexcept __asm__(ONEPASS_ABI_SUB_GROUP_COUNT);
// The value of `value` in the work-item `source` of the sub-group (all of
// it must call it together); down/up: source = this one +/- delta (this
// one's own value when there is no such work-item); xor: this one ^ mask.
ONEPASS_CONVERGENT unsigned __onepass_sub_group_shuffle(unsigned value, unsigned source) noexcept __asm__(ONEPASS_ABI_SUB_GROUP_SHUFFLE);
ONEPASS_CONVERGENT unsigned __onepass_sub_group_shuffle_down(unsigned value, unsigned delta) noexcept __asm__(ONEPASS_ABI_SUB_GROUP_SHUFFLE_DOWN);
ONEPASS_CONVERGENT unsigned __onepass_sub_group_shuffle_up(unsigned value, unsigned delta) noexcept __asm__(ONEPASS_ABI_SUB_GROUP_SHUFFLE_UP);
ONEPASS_CONVERGENT unsigned __onepass_sub_group_shuffle_xor(unsigned value, unsigned mask) noexcept __asm__(ONEPASS_ABI_SUB_GROUP_SHUFFLE_XOR);
// Whether `predicate` holds in any (all) of the sub-group's work-items.
ONEPASS_CONVERGENT int __onepass_sub_group_any(int predicate) noexcept __asm__(ONEPASS_ABI_SUB_GROUP_ANY);
ONEPASS_CONVERGENT int __onepass_sub_group_all(int predicate) noexcept __asm__(ONEPASS_ABI_SUB_GROUP_ALL);
ONEPASS_CONVERGENT void __onepass_sub_group_barrier() noexcept __asm__(ONEPASS_ABI_SUB_GROUP_BARRIER);

// Scratch memory of the work-group for the work-group algorithms: 8 bytes
// per work-item of the largest work-group the device runs, apart from the
// local accessors' memory.
ONEPASS_WORK_ITEM_CONST void *__onepass_group_scratch() noexcept __asm__(ONEPASS_ABI_GROUP_SCRATCH);

// 1/sqrt(x) (SYCL 2020 rsqrt, within 4 ulp): each target's best, e.g.
// NVIDIA's rsqrt.approx instruction through libdevice; the CPU divides.
ONEPASS_WORK_ITEM_CONST float __onepass_rsqrtf(float x) noexcept __asm__(ONEPASS_ABI_RSQRTF);
ONEPASS_WORK_ITEM_CONST double __onepass_rsqrt(double x) noexcept __asm__(ONEPASS_ABI_RSQRT);

// 1 when the kernel runs on the CPU device, 0 on a GPU: for library code that
// arranges work differently for each (reductions), folded by the JIT.
ONEPASS_WORK_ITEM_CONST int __onepass_target_is_cpu() noexcept __asm__(ONEPASS_ABI_TARGET_IS_CPU);

// 0 where the device's compiler takes a barrier inside a loop of any trip
// count; otherwise a power of two no work-group of the device exceeds, and
// the work-group algorithms' barrier loops (trees, scans) run the steps of
// that many work-items, a trip count the JIT knows and unrolls. (PoCL's
// kernel compiler handles each barrier loop of unknown trip count at a cost
// that grows exponentially with their number: 8 reductions took a minute.)
ONEPASS_WORK_ITEM_CONST unsigned __onepass_group_steps_bound() noexcept __asm__(ONEPASS_ABI_GROUP_STEPS_BOUND);

// A sampled image's texel at coordinates (x, y, z) (the first `dimensions`
// count) through the texture unit, with the texture's addressing and
// filtering: four floats (kind 0: normalized and floating-point formats),
// signed (1) or unsigned (2) 32-bit integers, into texel[0..3]. Only called
// with a texture the runtime bound (image_layout::texture, nonzero only on
// devices with texture hardware); elsewhere it writes zeros.
void __onepass_image_texture_read(unsigned long long texture, int dimensions, int kind, float x, float y, float z,
                                  unsigned *texel) noexcept __asm__(ONEPASS_ABI_IMAGE_TEXTURE_READ);

// A specialization_id variable's key (sycl/specialization_constant.hpp):
// stage 1 replaces every call by a constant, in host and device code.
unsigned long long __onepass_spec_key(const void *specialization_id) noexcept __asm__(ONEPASS_ABI_SPEC_KEY);
}
