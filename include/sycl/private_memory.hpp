// SYCL 2020 §4.9.4.2.3 (deprecated): private_memory, one T per work-item of a
// hierarchical kernel's work-group, for values that live from one
// parallel_for_work_item to the next.
//
// The group's Ts are an array in the work-group's local memory, whether the
// device runs the group on one work-item or at its size (handler.hpp): one
// allocation per private_memory object (sycl::ext::oneapi's
// group_local_memory mechanism) of capacity T's, of which the group's
// work-items use the first get_local_range().size(). A hierarchical kernel's
// work-groups therefore hold at most `capacity` work-items (the runtime
// raises errc::nd_range for more), and each private_memory object takes
// capacity * sizeof(T) bytes of the device's local memory.
#pragma once

#include "detail/onepass_abi.hpp"
#include "ext/oneapi/group_local_memory.hpp"
#include "h_item.hpp"
#include "nd_item.hpp"

#include <cstddef>
#include <new>

namespace sycl {

template <typename T, int Dimensions = 1> class private_memory {
public:
  // Work-items a hierarchical work-group may have (also
  // info::kernel_device_specific::work_group_size of such kernels' limit).
  static constexpr std::size_t capacity = ONEPASS_ABI_HIERARCHICAL_MAX_WORK_ITEMS;

  // Constructs a T for each work-item of the group (Table 111).
  [[gnu::always_inline]] explicit private_memory(const group<Dimensions> &g)
      : data_(static_cast<T *>(__onepass_group_local_memory(sizeof(T) * capacity, alignof(T)))),
        count_(g.get_local_range().size()) {
    for (std::size_t i = 0; i < count_; ++i) new (data_ + i) T();
  }
  private_memory(const private_memory &) = delete;
  private_memory &operator=(const private_memory &) = delete;
  ~private_memory() {
    for (std::size_t i = 0; i < count_; ++i) data_[i].~T();
  }

  // The calling work-item's T: that of its physical work-item (work-items of
  // a logical range larger than the group share them, as the spec says).
  T &operator()(const h_item<Dimensions> &id) { return data_[id.get_physical_local().get_linear_id()]; }

private:
  T *data_;
  std::size_t count_;
};

}  // namespace sycl
