/* The symbol names OnePass's parts agree on, spelled once: the builtins that
 * device code calls (declared in sycl/detail/builtins.hpp with these names as
 * their symbols, defined per target by the JIT's builtin libraries and as
 * host fallbacks by the runtime), what stage 1 looks for and emits, what the
 * JIT lowers and emits, and what the backends look up. Plain preprocessor
 * definitions: the SYCL headers, stage 1, the JIT and the runtime include
 * it. (The JIT's builtin libraries define the builtins under the same
 * names.) */
#ifndef ONEPASS_ABI_H
#define ONEPASS_ABI_H

/* Every OnePass symbol starts so; user code may not declare such names. */
#define ONEPASS_ABI_PREFIX "__onepass_"

/* Builtins of device code (sycl/detail/builtins.hpp). */
#define ONEPASS_ABI_GET_GLOBAL_ID "__onepass_get_global_id"
#define ONEPASS_ABI_GET_GLOBAL_RANGE "__onepass_get_global_range"
#define ONEPASS_ABI_GET_LOCAL_ID "__onepass_get_local_id"
#define ONEPASS_ABI_GET_LOCAL_RANGE "__onepass_get_local_range"
#define ONEPASS_ABI_GET_GROUP_ID "__onepass_get_group_id"
#define ONEPASS_ABI_GET_GROUP_RANGE "__onepass_get_group_range"
/* An nd_range launch's (deprecated) global offset: the JIT compiles in each
 * launch's value (0 nearly always), no target defines it. */
#define ONEPASS_ABI_GET_GLOBAL_OFFSET "__onepass_get_global_offset"
#define ONEPASS_ABI_LOCAL_MEMORY "__onepass_local_memory"
/* The alignment of the local accessors' memory: any element type's (a vec
 * of 16 8-byte elements needs 128). */
#define ONEPASS_ABI_LOCAL_MEMORY_ALIGNMENT 128
#define ONEPASS_ABI_GROUP_BARRIER "__onepass_group_barrier"
#define ONEPASS_ABI_SUB_GROUP_LOCAL_ID "__onepass_sub_group_local_id"
#define ONEPASS_ABI_SUB_GROUP_SIZE "__onepass_sub_group_size"
#define ONEPASS_ABI_SUB_GROUP_MAX_SIZE "__onepass_sub_group_max_size"
#define ONEPASS_ABI_SUB_GROUP_ID "__onepass_sub_group_id"
#define ONEPASS_ABI_SUB_GROUP_COUNT "__onepass_sub_group_count"
#define ONEPASS_ABI_SUB_GROUP_SHUFFLE "__onepass_sub_group_shuffle"
#define ONEPASS_ABI_SUB_GROUP_SHUFFLE_DOWN "__onepass_sub_group_shuffle_down"
#define ONEPASS_ABI_SUB_GROUP_SHUFFLE_UP "__onepass_sub_group_shuffle_up"
#define ONEPASS_ABI_SUB_GROUP_SHUFFLE_XOR "__onepass_sub_group_shuffle_xor"
#define ONEPASS_ABI_SUB_GROUP_ANY "__onepass_sub_group_any"
#define ONEPASS_ABI_SUB_GROUP_ALL "__onepass_sub_group_all"
#define ONEPASS_ABI_SUB_GROUP_BARRIER "__onepass_sub_group_barrier"
#define ONEPASS_ABI_GROUP_SCRATCH "__onepass_group_scratch"
#define ONEPASS_ABI_RSQRTF "__onepass_rsqrtf"
#define ONEPASS_ABI_RSQRT "__onepass_rsqrt"
#define ONEPASS_ABI_TARGET_IS_CPU "__onepass_target_is_cpu"
#define ONEPASS_ABI_GROUP_STEPS_BOUND "__onepass_group_steps_bound"
/* A sampled image's read through the device's texture hardware (NVIDIA:
 * a texture object the runtime made; include/sycl/detail/image_texels.hpp). */
#define ONEPASS_ABI_IMAGE_TEXTURE_READ "__onepass_image_texture_read"
/* sycl::ext::oneapi::experimental::printf: C's printf, variadic. The CPU
 * device calls the runtime's definition; the PTX translator makes it CUDA's
 * vprintf. */
#define ONEPASS_ABI_PRINTF "__onepass_printf"
/* A specialization constant's key: stage 1 replaces each call by the
 * 64-bit FNV-1a hash of the specialization_id variable's (mangled) name, in
 * host and device code alike. */
#define ONEPASS_ABI_SPEC_KEY "__onepass_spec_key"
/* The work-items of a hierarchical kernel's work-group, at most: the
 * capacity of sycl::private_memory (the runtime enforces it). */
#define ONEPASS_ABI_HIERARCHICAL_MAX_WORK_ITEMS 1024
/* A hierarchical kernel's code that every work-item of the group runs
 * (group::parallel_for_work_item, async_work_group_copy) lies between these
 * two calls (jit/src/HierarchicalLowering.h). */
#define ONEPASS_ABI_HIERARCHICAL_REGION_BEGIN "__onepass_hierarchical_region_begin"
#define ONEPASS_ABI_HIERARCHICAL_REGION_END "__onepass_hierarchical_region_end"
/* sycl::ext::oneapi::group_local_memory (common/ir/GroupLocalMemory.h). */
#define ONEPASS_ABI_GROUP_LOCAL_MEMORY "__onepass_group_local_memory"

/* The JIT's: the work-item state its translators substitute. */
#define ONEPASS_ABI_WORK_ITEM "__onepass_work_item"

/* Stage 1's: the kernel functions of an image, and the registration of
 * images with the runtime. */
#define ONEPASS_ABI_KERNEL_PREFIX "__onepass_kernel_"
#define ONEPASS_ABI_REGISTER_IMAGE "__onepass_register_image"
#define ONEPASS_ABI_UNREGISTER_IMAGE "__onepass_unregister_image"
#define ONEPASS_ABI_HOST_KERNEL_CALLED "__onepass_host_kernel_called"

/* The entries of compiled kernels (jit_api.h): the CPU's launch function and
 * the PTX kernel the CUDA backend looks up. */
#define ONEPASS_ABI_CPU_LAUNCH "__onepass_cpu_launch"
#define ONEPASS_ABI_PTX_KERNEL "__onepass_ptx_kernel"
#define ONEPASS_ABI_SPIRV_KERNEL "__onepass_spirv_kernel"
#define ONEPASS_ABI_AMDGCN_KERNEL "__onepass_amdgcn_kernel"

#endif /* ONEPASS_ABI_H */
