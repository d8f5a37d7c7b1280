// SYCL 2020 §4.7.6.2-4.7.6.4: access modes, targets and the deduction tags
// of accessors, and the no_init property (§4.7.6.4.1).
#pragma once

#include "property_list.hpp"

namespace sycl {

enum class access_mode {
  read,
  write,
  read_write,
  discard_write,       // deprecated in SYCL 2020: write with no_init
  discard_read_write,  // deprecated in SYCL 2020: read_write with no_init
  atomic               // deprecated in SYCL 2020
};

enum class target {
  device,
  host_task,
  constant_buffer,  // deprecated in SYCL 2020: device, read-only
  local,            // deprecated in SYCL 2020: local_accessor
  host_buffer [[deprecated("use host_accessor (SYCL 2020)")]],
  global_buffer [[deprecated("use target::device (SYCL 2020)")]] = device,
  // SYCL 1.2.1's image targets, removed by SYCL 2020 (Appendix: "the accessor
  // targets target::image and target::host_image have been removed"): the
  // names exist so that code naming them compiles; no accessor of theirs does.
  image [[deprecated("SYCL 2020 removed image accessor targets: use the image accessor classes")]] = 16,
  host_image [[deprecated("SYCL 2020 removed image accessor targets: use the image accessor classes")]],
  image_array [[deprecated("SYCL 2020 removed image accessor targets: use the image accessor classes")]]
};

namespace detail {
// The SYCL 1.2.1 image targets (numbered from 16, above): named, never usable.
constexpr bool is_image_target(target t) { return static_cast<int>(t) >= 16; }
}  // namespace detail

namespace access {
using sycl::access_mode;
using sycl::target;
enum class placeholder { false_t, true_t };  // deprecated in SYCL 2020
using mode = sycl::access_mode;
// What a barrier's fence covers (SYCL 1.2.1's nd_item::barrier, kept by 2020).
enum class fence_space { local_space, global_space, global_and_local };
// §3.8.3: the address spaces of multi_ptr and atomic_ref.
enum class address_space { global_space, local_space, constant_space, private_space, generic_space };
}  // namespace access

// SYCL 2020 §3.8.3.1: memory orders (atomic_ref, atomic_fence, the info
// descriptors of atomic capabilities).
enum class memory_order { relaxed, acquire, release, acq_rel, seq_cst };
inline constexpr memory_order memory_order_relaxed = memory_order::relaxed;
inline constexpr memory_order memory_order_acquire = memory_order::acquire;
inline constexpr memory_order memory_order_release = memory_order::release;
inline constexpr memory_order memory_order_acq_rel = memory_order::acq_rel;
inline constexpr memory_order memory_order_seq_cst = memory_order::seq_cst;

// SYCL 2020 §3.8.3.2: the set of work-items a memory ordering applies to.
enum class memory_scope { work_item, sub_group, work_group, device, system };
inline constexpr memory_scope memory_scope_work_item = memory_scope::work_item;
inline constexpr memory_scope memory_scope_sub_group = memory_scope::sub_group;
inline constexpr memory_scope memory_scope_work_group = memory_scope::work_group;
inline constexpr memory_scope memory_scope_device = memory_scope::device;
inline constexpr memory_scope memory_scope_system = memory_scope::system;

namespace property {
class no_init : public detail::property_base {};
}  // namespace property
inline constexpr property::no_init no_init{};

namespace detail {
template <access_mode Mode, target Target> struct access_tag {};
constexpr bool mode_reads(access_mode mode) {
  return mode == access_mode::read || mode == access_mode::read_write || mode == access_mode::atomic;
}
constexpr bool mode_writes(access_mode mode) { return mode != access_mode::read; }
}  // namespace detail

// The deduction tags (§4.7.6.4.3).
inline constexpr detail::access_tag<access_mode::read, target::device> read_only{};
inline constexpr detail::access_tag<access_mode::read_write, target::device> read_write{};
inline constexpr detail::access_tag<access_mode::write, target::device> write_only{};
inline constexpr detail::access_tag<access_mode::read, target::host_task> read_only_host_task{};
inline constexpr detail::access_tag<access_mode::read_write, target::host_task> read_write_host_task{};
inline constexpr detail::access_tag<access_mode::write, target::host_task> write_only_host_task{};

}  // namespace sycl
