// SYCL 2020 §4.6 information descriptors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sycl {

class platform;
class device;
class context;
class kernel_id;
enum class aspect;
enum class memory_order;
enum class memory_scope;
template <int Dimensions> class range;

namespace info {

enum class device_type : unsigned {
  cpu = 1,
  gpu = 2,
  accelerator = 4,
  custom = 8,
  automatic = 16,
  host = 32,
  all = 0xffffffff
};

// §4.6.4.7: the enumerations of the device descriptors.
enum class partition_property { no_partition, partition_equally, partition_by_counts, partition_by_affinity_domain };
enum class partition_affinity_domain {
  not_applicable,
  numa,
  L4_cache,
  L3_cache,
  L2_cache,
  L1_cache,
  next_partitionable
};
enum class local_mem_type { none, local, global };
enum class fp_config {
  denorm,
  inf_nan,
  round_to_nearest,
  round_to_zero,
  round_to_inf,
  fma,
  correctly_rounded_divide_sqrt,
  soft_float
};
enum class global_mem_cache_type { none, read_only, read_write };
enum class execution_capability { exec_kernel, exec_native_kernel };

namespace platform {
struct name {
  using return_type = std::string;
};
struct vendor {
  using return_type = std::string;
};
struct version {
  using return_type = std::string;
};
struct profile {
  using return_type = std::string;
};
struct [[deprecated("SYCL 2020: use platform::has(aspect)")]] extensions {
  using return_type = std::vector<std::string>;
};
}  // namespace platform

namespace device {
struct device_type {
  using return_type = info::device_type;
};
struct vendor_id {
  using return_type = std::uint32_t;
};
struct name {
  using return_type = std::string;
};
struct vendor {
  using return_type = std::string;
};
struct driver_version {
  using return_type = std::string;
};
struct version {
  using return_type = std::string;
};
struct backend_version {
  using return_type = std::string;
};
struct max_compute_units {
  using return_type = std::uint32_t;
};
struct max_work_item_dimensions {
  using return_type = std::uint32_t;
};
struct max_work_group_size {
  using return_type = std::size_t;
};
// The most work-items a work-group may have in each dimension of an
// nd_range of `Dimensions` dimensions.
template <int Dimensions = 3> struct max_work_item_sizes { using return_type = range<Dimensions>; };
struct max_clock_frequency {
  using return_type = std::uint32_t;
};
struct address_bits {
  using return_type = std::uint32_t;
};
struct max_mem_alloc_size {
  using return_type = std::uint64_t;
};
struct global_mem_size {
  using return_type = std::uint64_t;
};
struct global_mem_cache_line_size {
  using return_type = std::uint32_t;
};
struct local_mem_size {
  using return_type = std::uint64_t;
};
struct mem_base_addr_align {
  using return_type = std::uint32_t;
};
struct is_available {
  using return_type = bool;
};
struct sub_group_sizes {
  using return_type = std::vector<std::size_t>;
};
struct platform {
  using return_type = sycl::platform;
};
struct aspects {
  using return_type = std::vector<sycl::aspect>;
};
// §4.6.4.2: what atomic operations and fences the device supports.
struct atomic_memory_order_capabilities {
  using return_type = std::vector<sycl::memory_order>;
};
struct atomic_fence_order_capabilities {
  using return_type = std::vector<sycl::memory_order>;
};
struct atomic_memory_scope_capabilities {
  using return_type = std::vector<sycl::memory_scope>;
};
struct atomic_fence_scope_capabilities {
  using return_type = std::vector<sycl::memory_scope>;
};
// The rest of Table 4.6.4.2 (what device::get_info answers for each is in
// device.hpp).
#define ONEPASS_INFO_DESCRIPTOR(Name, ...)                                                                       \
  struct Name {                                                                                                  \
    using return_type = __VA_ARGS__;                                                                             \
  };
ONEPASS_INFO_DESCRIPTOR(max_num_sub_groups, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(preferred_vector_width_char, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(preferred_vector_width_short, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(preferred_vector_width_int, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(preferred_vector_width_long, std::uint32_t)
// Not in SYCL 2020's Table 4.6.4.2; other implementations have it (the CTS asks).
ONEPASS_INFO_DESCRIPTOR(preferred_vector_width_long_long, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(preferred_vector_width_float, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(preferred_vector_width_double, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(preferred_vector_width_half, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(native_vector_width_char, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(native_vector_width_short, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(native_vector_width_int, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(native_vector_width_long, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(native_vector_width_long_long, std::uint32_t)  // (the same)
ONEPASS_INFO_DESCRIPTOR(native_vector_width_float, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(native_vector_width_double, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(native_vector_width_half, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(image_support, bool)  // deprecated: aspect::image
ONEPASS_INFO_DESCRIPTOR(max_read_image_args, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(max_write_image_args, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(image2d_max_width, std::size_t)
ONEPASS_INFO_DESCRIPTOR(image2d_max_height, std::size_t)
ONEPASS_INFO_DESCRIPTOR(image3d_max_width, std::size_t)
ONEPASS_INFO_DESCRIPTOR(image3d_max_height, std::size_t)
ONEPASS_INFO_DESCRIPTOR(image3d_max_depth, std::size_t)
ONEPASS_INFO_DESCRIPTOR(image_max_buffer_size, std::size_t)
ONEPASS_INFO_DESCRIPTOR(max_samplers, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(max_parameter_size, std::size_t)
ONEPASS_INFO_DESCRIPTOR(half_fp_config, std::vector<info::fp_config>)
ONEPASS_INFO_DESCRIPTOR(single_fp_config, std::vector<info::fp_config>)
ONEPASS_INFO_DESCRIPTOR(double_fp_config, std::vector<info::fp_config>)
ONEPASS_INFO_DESCRIPTOR(global_mem_cache_type, info::global_mem_cache_type)
ONEPASS_INFO_DESCRIPTOR(global_mem_cache_size, std::uint64_t)
ONEPASS_INFO_DESCRIPTOR(max_constant_buffer_size, std::uint64_t)  // deprecated
ONEPASS_INFO_DESCRIPTOR(max_constant_args, std::uint32_t)         // deprecated
ONEPASS_INFO_DESCRIPTOR(local_mem_type, info::local_mem_type)
ONEPASS_INFO_DESCRIPTOR(error_correction_support, bool)
ONEPASS_INFO_DESCRIPTOR(host_unified_memory, bool)  // deprecated
ONEPASS_INFO_DESCRIPTOR(profiling_timer_resolution, std::size_t)
ONEPASS_INFO_DESCRIPTOR(is_endian_little, bool)
ONEPASS_INFO_DESCRIPTOR(execution_capabilities, std::vector<info::execution_capability>)
ONEPASS_INFO_DESCRIPTOR(queue_profiling, bool)  // deprecated: aspect::queue_profiling
ONEPASS_INFO_DESCRIPTOR(built_in_kernel_ids, std::vector<sycl::kernel_id>)
ONEPASS_INFO_DESCRIPTOR(built_in_kernels, std::vector<std::string>)  // deprecated
ONEPASS_INFO_DESCRIPTOR(profile, std::string)
ONEPASS_INFO_DESCRIPTOR(extensions, std::vector<std::string>)  // deprecated: device::has
ONEPASS_INFO_DESCRIPTOR(printf_buffer_size, std::size_t)
ONEPASS_INFO_DESCRIPTOR(preferred_interop_user_sync, bool)
ONEPASS_INFO_DESCRIPTOR(parent_device, sycl::device)
ONEPASS_INFO_DESCRIPTOR(partition_max_sub_devices, std::uint32_t)
ONEPASS_INFO_DESCRIPTOR(partition_properties, std::vector<info::partition_property>)
ONEPASS_INFO_DESCRIPTOR(partition_affinity_domains, std::vector<info::partition_affinity_domain>)
ONEPASS_INFO_DESCRIPTOR(partition_type_property, info::partition_property)
ONEPASS_INFO_DESCRIPTOR(partition_type_affinity_domain, info::partition_affinity_domain)
#undef ONEPASS_INFO_DESCRIPTOR
// Whether the device can compile and link kernels at run time (§4.6.4.2):
// OnePass always does, its JIT builds every kernel at first launch.
struct is_compiler_available {
  using return_type = bool;
};
struct is_linker_available {
  using return_type = bool;
};
}  // namespace device

// §4.6.3.2: contexts.
namespace context {
struct platform {
  using return_type = sycl::platform;
};
struct devices {
  using return_type = std::vector<sycl::device>;
};
struct atomic_memory_order_capabilities {
  using return_type = std::vector<sycl::memory_order>;
};
struct atomic_fence_order_capabilities {
  using return_type = std::vector<sycl::memory_order>;
};
struct atomic_memory_scope_capabilities {
  using return_type = std::vector<sycl::memory_scope>;
};
struct atomic_fence_scope_capabilities {
  using return_type = std::vector<sycl::memory_scope>;
};
}  // namespace context

namespace queue {
struct context {
  using return_type = sycl::context;
};
struct device {
  using return_type = sycl::device;
};
}  // namespace queue

// §4.11.13.2: kernels (the class sycl::kernel, kernel_bundle.hpp).
namespace kernel {
struct num_args {
  using return_type = std::uint32_t;
};
struct attributes {
  using return_type = std::string;
};
}  // namespace kernel
namespace kernel_device_specific {
struct global_work_size {
  using return_type = range<3>;
};
struct work_group_size {
  using return_type = std::size_t;
};
struct compile_work_group_size {
  using return_type = range<3>;
};
struct preferred_work_group_size_multiple {
  using return_type = std::size_t;
};
struct private_mem_size {
  using return_type = std::size_t;
};
struct max_num_sub_groups {
  using return_type = std::uint32_t;
};
struct compile_num_sub_groups {
  using return_type = std::uint32_t;
};
struct max_sub_group_size {
  using return_type = std::uint32_t;
};
struct compile_sub_group_size {
  using return_type = std::uint32_t;
};
}  // namespace kernel_device_specific

enum class event_command_status { submitted, running, complete };
namespace event {
struct command_execution_status {
  using return_type = info::event_command_status;
};
}  // namespace event

}  // namespace info

namespace info::event_profiling {
struct command_submit {
  using return_type = std::uint64_t;
};
struct command_start {
  using return_type = std::uint64_t;
};
struct command_end {
  using return_type = std::uint64_t;
};
}  // namespace info::event_profiling

enum class aspect {
  cpu,
  gpu,
  accelerator,
  custom,
  emulated,
  host_debuggable,
  fp16,
  fp64,
  atomic64,
  image,
  online_compiler,
  online_linker,
  queue_profiling,
  usm_device_allocations,
  usm_host_allocations,
  usm_atomic_host_allocations,
  usm_shared_allocations,
  usm_atomic_shared_allocations,
  usm_system_allocations,
};

enum class backend { ext_onepass_cpu, cuda, level_zero, opencl, hip };

}  // namespace sycl
