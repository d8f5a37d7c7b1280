// SYCL 2020 §4.6.2 platform, §4.6.4 device, §4.6.1.1 device selectors.
#pragma once

#include "access.hpp"
#include "detail/runtime_api.hpp"
#include "detail/std_parts.hpp"
#include "info.hpp"
#include "range.hpp"

#include <algorithm>
#include <type_traits>

namespace sycl {

namespace detail {
template <typename Param> struct is_max_work_item_sizes : std::false_type {};
template <int D> struct is_max_work_item_sizes<info::device::max_work_item_sizes<D>> : std::true_type {};

// preferred_/native_vector_width_<T>: the element type and which of the two.
struct half_storage {  // sizeof(half) without half.hpp
  std::uint16_t bits;
};
template <typename Param> struct is_vector_width_descriptor : std::false_type {};
#define ONEPASS_VECTOR_WIDTH(Name, T)                                                                            \
  template <> struct is_vector_width_descriptor<info::device::preferred_vector_width_##Name> : std::true_type {   \
    using element = T;                                                                                           \
    static constexpr bool preferred = true;                                                                      \
  };                                                                                                             \
  template <> struct is_vector_width_descriptor<info::device::native_vector_width_##Name> : std::true_type {      \
    using element = T;                                                                                           \
    static constexpr bool preferred = false;                                                                     \
  };
ONEPASS_VECTOR_WIDTH(char, char)
ONEPASS_VECTOR_WIDTH(short, short)
ONEPASS_VECTOR_WIDTH(int, int)
ONEPASS_VECTOR_WIDTH(long, long)
ONEPASS_VECTOR_WIDTH(long_long, long long)
ONEPASS_VECTOR_WIDTH(float, float)
ONEPASS_VECTOR_WIDTH(double, double)
ONEPASS_VECTOR_WIDTH(half, half_storage)
#undef ONEPASS_VECTOR_WIDTH

// The widest vector register of the host CPU (the CPU device), in bytes.
inline std::size_t host_vector_bytes() {
#if defined(__x86_64__) || defined(__i386__)
  if (__builtin_cpu_supports("avx512f")) return 64;
  if (__builtin_cpu_supports("avx")) return 32;
#endif
  return 16;
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
template <typename Param> struct is_platform_extensions : std::is_same<Param, info::platform::extensions> {};
#pragma GCC diagnostic pop
}  // namespace detail

class device;
class context;

class platform {
public:
  platform();  // the platform of the default device
  template <typename Selector,
            typename = std::enable_if_t<std::is_invocable_r_v<int, const Selector &, const device &>>>
  explicit platform(const Selector &selector);

  ONEPASS_RT_API static std::vector<platform> get_platforms();  // runtime/sycl/HeaderBodies.cpp
  // get_devices and has: runtime/sycl/HeaderBodies.cpp
  ONEPASS_RT_API std::vector<device> get_devices(info::device_type type = info::device_type::all) const;
  backend get_backend() const noexcept { return props().backend_kind; }
  context khr_get_default_context() const;  // defined in context.hpp
  // §4.6.2: whether every device of the platform has the aspect.
  ONEPASS_RT_API bool has(aspect a) const;
  // Deprecated in SYCL 2020 (§4.6.2): OnePass has no OpenCL-style extensions.
  [[deprecated("SYCL 2020: use platform::has(aspect)")]] bool has_extension(const std::string &) const { return false; }

  template <typename Param> typename Param::return_type get_info() const {
    if constexpr (std::is_same_v<Param, info::platform::name>) return props().name;
    else if constexpr (std::is_same_v<Param, info::platform::vendor>) return props().vendor;
    else if constexpr (std::is_same_v<Param, info::platform::version>) return props().version;
    else if constexpr (std::is_same_v<Param, info::platform::profile>) return "FULL_PROFILE";
    else if constexpr (detail::is_platform_extensions<Param>::value) return std::vector<std::string>{};
    else static_assert(sizeof(Param) == 0, "platform info descriptor not supported by OnePass");
  }

  friend bool operator==(const platform &a, const platform &b) { return a.impl_ == b.impl_; }
  friend bool operator!=(const platform &a, const platform &b) { return !(a == b); }

  explicit platform(std::shared_ptr<detail::platform_impl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::platform_impl> &impl() const { return impl_; }

private:
  const detail::platform_properties &props() const { return detail::get_platform_properties(*impl_); }
  std::shared_ptr<detail::platform_impl> impl_;
};

class device {
public:
  device();  // the default device
  template <typename Selector,
            typename = std::enable_if_t<std::is_invocable_r_v<int, const Selector &, const device &>>>
  explicit device(const Selector &selector) : impl_(select(selector).impl_) {}

  // runtime/sycl/HeaderBodies.cpp
  ONEPASS_RT_API static std::vector<device> get_devices(info::device_type type = info::device_type::all);

  bool is_cpu() const { return props().type == info::device_type::cpu; }
  bool is_gpu() const { return props().type == info::device_type::gpu; }
  bool is_accelerator() const { return props().type == info::device_type::accelerator; }
  platform get_platform() const { return platform(detail::get_device_platform(*impl_)); }
  backend get_backend() const noexcept { return props().backend_kind; }
  bool has(aspect a) const {
    const auto &list = props().aspects;
    return std::find(list.begin(), list.end(), a) != list.end();
  }
  // Deprecated in SYCL 2020 (§4.6.4): whether `extension` is one of
  // info::device::extensions, which OnePass leaves empty (aspects instead).
  [[deprecated("SYCL 2020: use device::has(aspect)")]] bool has_extension(const std::string &) const { return false; }

  template <typename Param> typename Param::return_type get_info() const {
    namespace d = info::device;
    const detail::device_properties &p = props();
    if constexpr (std::is_same_v<Param, d::device_type>) return p.type;
    else if constexpr (std::is_same_v<Param, d::vendor_id>) return p.vendor_id;
    else if constexpr (std::is_same_v<Param, d::name>) return p.name;
    else if constexpr (std::is_same_v<Param, d::vendor>) return p.vendor;
    else if constexpr (std::is_same_v<Param, d::driver_version>) return p.driver_version;
    else if constexpr (std::is_same_v<Param, d::version>) return p.version;
    else if constexpr (std::is_same_v<Param, d::backend_version>) return p.version;
    else if constexpr (std::is_same_v<Param, d::max_compute_units>) return p.max_compute_units;
    else if constexpr (std::is_same_v<Param, d::max_work_item_dimensions>) return 3u;
    else if constexpr (std::is_same_v<Param, d::is_compiler_available> || std::is_same_v<Param, d::is_linker_available>)
      return true;
    else if constexpr (std::is_same_v<Param, d::max_work_group_size>) return p.max_work_group_size;
    else if constexpr (detail::is_max_work_item_sizes<Param>::value) {
      typename Param::return_type sizes;
      // SYCL's last dimension is the device's first axis.
      for (int dim = 0; dim < Param::return_type::dimensions; ++dim)
        sizes[dim] = p.max_work_item_sizes[Param::return_type::dimensions - 1 - dim];
      return sizes;
    } else if constexpr (std::is_same_v<Param, d::max_clock_frequency>) return p.max_clock_frequency_mhz;
    else if constexpr (std::is_same_v<Param, d::address_bits>) return 64u;
    else if constexpr (std::is_same_v<Param, d::max_mem_alloc_size>) return p.max_mem_alloc_size;
    else if constexpr (std::is_same_v<Param, d::global_mem_size>) return p.global_mem_size;
    else if constexpr (std::is_same_v<Param, d::global_mem_cache_line_size>) return p.cache_line_size;
    else if constexpr (std::is_same_v<Param, d::local_mem_size>) return p.local_mem_size;
    else if constexpr (std::is_same_v<Param, d::mem_base_addr_align>)
      return static_cast<std::uint32_t>(8 * detail::mem_base_addr_align_bytes);
    else if constexpr (std::is_same_v<Param, d::is_available>) return true;
    else if constexpr (std::is_same_v<Param, d::sub_group_sizes>) return p.sub_group_sizes;
    else if constexpr (std::is_same_v<Param, d::platform>) return get_platform();
    else if constexpr (std::is_same_v<Param, d::aspects>) return p.aspects;
    // Every order and scope, on every device: atomic_ref and atomic_fence
    // implement each of them (atomic_ref.hpp).
    else if constexpr (std::is_same_v<Param, d::atomic_memory_order_capabilities> ||
                       std::is_same_v<Param, d::atomic_fence_order_capabilities>)
      return std::vector<memory_order>{memory_order::relaxed, memory_order::acquire, memory_order::release,
                                       memory_order::acq_rel, memory_order::seq_cst};
    else if constexpr (std::is_same_v<Param, d::atomic_memory_scope_capabilities> ||
                       std::is_same_v<Param, d::atomic_fence_scope_capabilities>)
      return std::vector<memory_scope>{memory_scope::work_item, memory_scope::sub_group, memory_scope::work_group,
                                       memory_scope::device, memory_scope::system};
    else return other_info<Param>(p);
  }

  // §4.6.4.2: no OnePass device can be partitioned (partition_properties is
  // empty), so each form throws errc::feature_not_supported as the spec says.
  template <info::partition_property Prop,
            typename = std::enable_if_t<Prop == info::partition_property::partition_equally>>
  std::vector<device> create_sub_devices(std::size_t) const {
    throw_no_partition("partition_equally");
  }
  template <info::partition_property Prop,
            typename = std::enable_if_t<Prop == info::partition_property::partition_by_counts>>
  std::vector<device> create_sub_devices(const std::vector<std::size_t> &) const {
    throw_no_partition("partition_by_counts");
  }
  template <info::partition_property Prop,
            typename = std::enable_if_t<Prop == info::partition_property::partition_by_affinity_domain>>
  std::vector<device> create_sub_devices(info::partition_affinity_domain) const {
    throw_no_partition("partition_by_affinity_domain");
  }

  friend bool operator==(const device &a, const device &b) { return a.impl_ == b.impl_; }
  friend bool operator!=(const device &a, const device &b) { return !(a == b); }

  explicit device(std::shared_ptr<detail::device_impl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::device_impl> &impl() const { return impl_; }

  // SYCL 2020 §4.6.1.1: the device with the highest non-negative score.
  template <typename Selector> static device select(const Selector &selector) {
    std::vector<device> all = get_devices();
    const device *best = nullptr;
    int bestScore = -1;
    for (const device &d : all) {
      int score = selector(d);
      if (score >= 0 && score > bestScore) {
        best = &d;
        bestScore = score;
      }
    }
    if (!best) {
      std::string absent = detail::describe_absent_backends();
      throw exception(make_error_code(errc::runtime),
                      "no SYCL device satisfies the device selector (OnePass found " + std::to_string(all.size()) +
                          " device(s); ONEPASS_DEVICE narrows the default selector, ONEPASS_DEVICE_SELECTOR the "
                          "devices seen" +
                          (absent.empty() ? std::string(")") : "; not seen: " + absent + ")"));
    }
    return *best;
  }

private:
  const detail::device_properties &props() const { return detail::get_device_properties(*impl_); }
  [[noreturn]] void throw_no_partition(const char *how) const {
    throw exception(make_error_code(errc::feature_not_supported),
                    "device::create_sub_devices: device '" + props().name + "' cannot be partitioned (" + how +
                        "): OnePass devices have no sub-devices (info::device::partition_properties is empty)");
  }
  // The descriptors of Table 4.6.4.2 that OnePass answers without asking
  // the backend beyond the device's properties.
  template <typename Param> typename Param::return_type other_info(const detail::device_properties &p) const {
    namespace d = info::device;
    const bool gpu = p.type == info::device_type::gpu;
    if constexpr (detail::is_vector_width_descriptor<Param>::value) {
      // GPUs: scalar lanes (NVIDIA has no vector ALUs). The CPU: the JIT
      // vectorizes across work-items, so scalar code is preferred; its
      // native width is the widest vector register.
      using T = typename detail::is_vector_width_descriptor<Param>::element;
      if (std::is_same_v<T, double> && !has(aspect::fp64)) return 0u;
      if (std::is_same_v<T, detail::half_storage> && !has(aspect::fp16)) return 0u;
      if (gpu || detail::is_vector_width_descriptor<Param>::preferred) return 1u;
      return static_cast<std::uint32_t>(detail::host_vector_bytes() / sizeof(T));
    } else if constexpr (std::is_same_v<Param, d::max_num_sub_groups>) {
      std::size_t smallest = p.sub_group_sizes.empty() ? 1 : p.sub_group_sizes.front();
      for (std::size_t s : p.sub_group_sizes) smallest = std::min(smallest, s);
      return static_cast<std::uint32_t>(p.max_work_group_size / smallest);
    }
    // Images (aspect::image on every device) are plain device memory read and
    // written by the kernel's own code (detail/image_texels.hpp): no hardware
    // limits apply. These are the least §4.6.4.2 asks of a device with
    // aspect::image; larger images work as long as memory allows.
    else if constexpr (std::is_same_v<Param, d::image_support>) return true;
    else if constexpr (std::is_same_v<Param, d::max_read_image_args>) return 128u;
    else if constexpr (std::is_same_v<Param, d::max_write_image_args>) return 8u;
    else if constexpr (std::is_same_v<Param, d::max_samplers>) return 16u;
    else if constexpr (std::is_same_v<Param, d::image2d_max_width> || std::is_same_v<Param, d::image2d_max_height>)
      return std::size_t(8192);
    else if constexpr (std::is_same_v<Param, d::image3d_max_width> || std::is_same_v<Param, d::image3d_max_height> ||
                       std::is_same_v<Param, d::image3d_max_depth>)
      return std::size_t(2048);
    else if constexpr (std::is_same_v<Param, d::image_max_buffer_size>) return std::size_t(65536);
    // The kernel object is the launch's parameter: CUDA's classic 4 KiB
    // limit on GPUs; on the CPU it is passed by pointer.
    else if constexpr (std::is_same_v<Param, d::max_parameter_size>) return std::size_t(gpu ? 4096 : 1 << 20);
    else if constexpr (std::is_same_v<Param, d::half_fp_config>) {
      if (!has(aspect::fp16)) return {};
      return {info::fp_config::denorm, info::fp_config::inf_nan, info::fp_config::round_to_nearest,
              info::fp_config::fma};
    } else if constexpr (std::is_same_v<Param, d::single_fp_config>)
      return {info::fp_config::denorm,        info::fp_config::inf_nan, info::fp_config::round_to_nearest,
              info::fp_config::round_to_zero, info::fp_config::round_to_inf, info::fp_config::fma,
              info::fp_config::correctly_rounded_divide_sqrt};
    else if constexpr (std::is_same_v<Param, d::double_fp_config>) {
      if (!has(aspect::fp64)) return {};
      return {info::fp_config::denorm,        info::fp_config::inf_nan,      info::fp_config::round_to_nearest,
              info::fp_config::round_to_zero, info::fp_config::round_to_inf, info::fp_config::fma};
    } else if constexpr (std::is_same_v<Param, d::global_mem_cache_type>) return info::global_mem_cache_type::read_write;
    else if constexpr (std::is_same_v<Param, d::global_mem_cache_size>) return p.global_mem_cache_size;
    else if constexpr (std::is_same_v<Param, d::max_constant_buffer_size>) return std::uint64_t(64 * 1024);
    else if constexpr (std::is_same_v<Param, d::max_constant_args>) return 8u;
    else if constexpr (std::is_same_v<Param, d::local_mem_type>)
      return gpu ? info::local_mem_type::local : info::local_mem_type::global;
    else if constexpr (std::is_same_v<Param, d::error_correction_support>) return false;
    else if constexpr (std::is_same_v<Param, d::host_unified_memory>) return !gpu;
    else if constexpr (std::is_same_v<Param, d::profiling_timer_resolution>) return std::size_t(1);  // nanoseconds
    else if constexpr (std::is_same_v<Param, d::is_endian_little>) return true;
    else if constexpr (std::is_same_v<Param, d::execution_capabilities>) return {info::execution_capability::exec_kernel};
    else if constexpr (std::is_same_v<Param, d::queue_profiling>) return has(aspect::queue_profiling);
    else if constexpr (std::is_same_v<Param, d::built_in_kernel_ids> || std::is_same_v<Param, d::built_in_kernels> ||
                       std::is_same_v<Param, d::extensions>)
      return {};
    else if constexpr (std::is_same_v<Param, d::profile>) return std::string("FULL_PROFILE");
    else if constexpr (std::is_same_v<Param, d::printf_buffer_size>) return std::size_t(1 << 20);
    else if constexpr (std::is_same_v<Param, d::preferred_interop_user_sync>) return false;
    else if constexpr (std::is_same_v<Param, d::parent_device>)
      throw exception(make_error_code(errc::invalid),
                      "info::device::parent_device: device '" + p.name + "' is not a sub-device");
    else if constexpr (std::is_same_v<Param, d::partition_max_sub_devices>) return 0u;
    else if constexpr (std::is_same_v<Param, d::partition_properties> ||
                       std::is_same_v<Param, d::partition_affinity_domains>)
      return {};
    else if constexpr (std::is_same_v<Param, d::partition_type_property>) return info::partition_property::no_partition;
    else if constexpr (std::is_same_v<Param, d::partition_type_affinity_domain>)
      return info::partition_affinity_domain::not_applicable;
    else static_assert(sizeof(Param) == 0, "device info descriptor not supported by OnePass");
  }
  std::shared_ptr<detail::device_impl> impl_;
};

// --- device selectors (SYCL 2020 §4.6.1.1) ----------------------------------
inline int default_selector_v(const device &d) { return detail::default_selector_score(*d.impl()); }
inline int cpu_selector_v(const device &d) { return d.is_cpu() ? 1000 : -1; }
inline int gpu_selector_v(const device &d) { return d.is_gpu() ? 1000 : -1; }
inline int accelerator_selector_v(const device &d) { return d.is_accelerator() ? 1000 : -1; }

// Devices with every aspect of `required` and none of `denied` (the default
// selector's order among them). The selector and aspect_selector are defined
// in runtime/sycl/HeaderBodies.cpp.
namespace detail {
struct aspect_selector_fn {
  std::vector<aspect> required;
  std::vector<aspect> denied;
  ONEPASS_RT_API int operator()(const device &d) const;
};
}  // namespace detail
ONEPASS_RT_API detail::aspect_selector_fn aspect_selector(const std::vector<aspect> &required,
                                                          const std::vector<aspect> &denied = {});
template <typename... Aspects, typename = std::enable_if_t<(std::is_same_v<Aspects, aspect> && ...)>>
auto aspect_selector(Aspects... required) {
  return aspect_selector(std::vector<aspect>{required...});
}
template <aspect... Required> auto aspect_selector() { return aspect_selector(std::vector<aspect>{Required...}); }

// SYCL 1.2.1's selector classes, deprecated in SYCL 2020 (§4.6.1.3).
class [[deprecated("SYCL 2020: use a selector function (default_selector_v...)")]] device_selector {
public:
  virtual ~device_selector() = default;
  virtual int operator()(const device &d) const = 0;
  device select_device() const {
    return device::select([this](const device &d) { return (*this)(d); });
  }
};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
class [[deprecated("SYCL 2020: use default_selector_v")]] default_selector
    : public device_selector{public : int operator()(const device &d) const override{return default_selector_v(d);
}  // namespace sycl
}
;
class [[deprecated("SYCL 2020: use cpu_selector_v")]] cpu_selector
    : public device_selector{public : int operator()(const device &d) const override{return cpu_selector_v(d);
}
}
;
class [[deprecated("SYCL 2020: use gpu_selector_v")]] gpu_selector
    : public device_selector{public : int operator()(const device &d) const override{return gpu_selector_v(d);
}
}
;
class [[deprecated("SYCL 2020: use accelerator_selector_v")]] accelerator_selector
    : public device_selector{public : int operator()(const device &d) const override{return accelerator_selector_v(d);
}
}
;
#pragma GCC diagnostic pop

// §4.6.4.3: whether some (every) device the compilation environment supports
// has the aspect. OnePass's single pass targets every device it can drive:
// its CPU and NVIDIA GPUs.
template <aspect A> struct any_device_has
    : std::bool_constant<A != aspect::accelerator && A != aspect::custom && A != aspect::emulated &&
                         A != aspect::host_debuggable> {};
template <aspect A> struct all_devices_have
    : std::bool_constant<A == aspect::fp16 || A == aspect::fp64 || A == aspect::atomic64 || A == aspect::image ||
                         A == aspect::queue_profiling || A == aspect::usm_device_allocations ||
                         A == aspect::usm_host_allocations || A == aspect::usm_shared_allocations> {};
template <aspect A> inline constexpr bool any_device_has_v = any_device_has<A>::value;
template <aspect A> inline constexpr bool all_devices_have_v = all_devices_have<A>::value;

inline device::device() : impl_(select(default_selector_v).impl_) {}
inline platform::platform() : impl_(device().get_platform().impl_) {}
template <typename Selector, typename> platform::platform(const Selector &selector)
    : impl_(device(selector).get_platform().impl_) {}

}  // namespace sycl

// §4.5.2: std::hash agrees with operator== (the same runtime object).
namespace std {
template <> struct hash<sycl::platform> {
  size_t operator()(const sycl::platform &p) const noexcept { return hash<const void *>()(p.impl().get()); }
};
template <> struct hash<sycl::device> {
  size_t operator()(const sycl::device &d) const noexcept { return hash<const void *>()(d.impl().get()); }
};
}  // namespace std
