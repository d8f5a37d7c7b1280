// Kernel entry points. Each kernel launch instantiates one of these templates;
// the OnePass clang plugin finds the instantiations (by their annotation) and
// stage 1 turns each into a device kernel in the embedded image. On the host
// the body is replaced by a call that reports misuse: the entry's address is
// only the kernel's identity at run time.
#pragma once

#include <utility>
#include "../item.hpp"
#include "../nd_item.hpp"
#include "builtins.hpp"
#include "defines.hpp"

#include <type_traits>

namespace sycl::detail {

// Default kernel name: the kernel's own type (SYCL 2020 §5.2, unnamed lambdas).
struct auto_name {};
template <typename Name, typename Kernel> using kernel_name_t =
    std::conditional_t<std::is_same_v<Name, auto_name>, Kernel, Name>;

template <typename Name, typename Kernel> ONEPASS_KERNEL_ENTRY("single_task")
void kernel_entry_single_task(const Kernel *kernel) {
  (*kernel)();
}

template <int Dimensions, std::size_t... Ds> item<Dimensions> current_item(std::index_sequence<Ds...>) {
  id<Dimensions> global_id;
  range<Dimensions> global_range;
  ((global_id[Ds] = __onepass_get_global_id(static_cast<int>(Ds))), ...);
  ((global_range[Ds] = __onepass_get_global_range(static_cast<int>(Ds))), ...);
  return item_factory<Dimensions>::make(global_id, global_range);
}
template <int Dimensions> item<Dimensions> current_item() {
  return current_item<Dimensions>(std::make_index_sequence<Dimensions>());
}

template <typename Name, typename Kernel, int Dimensions> ONEPASS_KERNEL_ENTRY("parallel_for")
void kernel_entry_parallel_for(const Kernel *kernel) {
  (*kernel)(current_item<Dimensions>());
}

template <typename Name, typename Kernel, int Dimensions> ONEPASS_KERNEL_ENTRY("nd_range")
void kernel_entry_nd_range(const Kernel *kernel) {
  (*kernel)(nd_item_factory<Dimensions>::make());
}

// A range kernel with an offset (deprecated): its items start at `offset`.
template <typename Kernel, int Dimensions> struct offset_kernel {
  Kernel kernel;
  id<Dimensions> offset;
  void operator()(item<Dimensions> it) const {
    kernel(item_factory<Dimensions>::make_offset(it.get_id() + offset, it.get_range(), offset));
  }
};

// A hierarchical kernel as an nd_range kernel whose work-groups are of one
// work-item (handler::parallel_for_work_group): that work-item runs the
// work-group's code with the group of the requested size.
template <typename Kernel, int Dimensions> struct work_group_kernel {
  Kernel kernel;
  range<Dimensions> work_group_size;
  void operator()(nd_item<Dimensions> item) const {
    kernel(group_factory<Dimensions>::make(item.get_group().get_group_id(), item.get_group_range(), work_group_size));
  }
};

template <typename Kernel, int Dimensions> constexpr void check_nd_range_kernel() {
  static_assert(std::is_invocable_v<const Kernel &, nd_item<Dimensions>>,
                "parallel_for(nd_range<N>) needs a kernel callable with sycl::nd_item<N> (SYCL 2020 §4.9.4.2.3); "
                "the kernel must be const-callable");
}

template <typename Kernel, int Dimensions> constexpr void check_parallel_for_kernel() {
  static_assert(std::is_invocable_v<const Kernel &, item<Dimensions>>,
                "parallel_for(range<N>) needs a kernel callable with sycl::item<N> or sycl::id<N> "
                "(SYCL 2020 §4.9.4.2.2); the kernel must be const-callable");
}

}  // namespace sycl::detail
