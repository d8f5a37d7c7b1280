// SYCL 2020 §4.9.1.5 nd_item and §4.9.1.7 group: a work-item of an nd_range
// kernel, its position in the global range, in its work-group, and the
// work-group's position among the groups. All values come from the device's
// work-item builtins; linear ids are row-major (the last dimension varies
// fastest, §3.11.1).
#pragma once

#include "access.hpp"
#include "detail/builtins.hpp"
#include "h_item.hpp"
#include "multi_ptr.hpp"
#include "nd_range.hpp"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace sycl {

namespace detail {
template <int Dimensions> struct nd_item_factory;

// An id or a range whose every dimension comes from a work-item builtin.
// (Unrolled by the front end: device code is simplified without unrolling.)
template <typename Value, typename Query, std::size_t... Ds>
Value from_builtin(Query query, std::index_sequence<Ds...>) {
  Value value;
  ((value[Ds] = query(static_cast<int>(Ds))), ...);
  return value;
}
template <typename Value, typename Query> Value from_builtin(Query query) {
  return from_builtin<Value>(query, std::make_index_sequence<Value::dimensions>());
}
}  // namespace detail

namespace detail {
template <int Dimensions> struct group_factory;

// One group::parallel_for_work_item call (§4.9.4.2.4): calls f(i) for every
// id i of `logical`, the last dimension fastest (§3.11.1), spread over the
// work-items the device runs the group with: work-item p takes the ids whose
// every dimension d is p[d] modulo the group's size in d. The two markers
// bracket the call for the JIT: a GPU target that runs hierarchical
// work-groups at their size executes the code between the calls on every
// work-item of the group and the code around them (work-group scope) on one
// (jit/src/HierarchicalLowering.h); elsewhere the markers vanish and the
// device's work-group is one work-item, which takes every id in turn.
// `closure` is the work-item function, so its captures stay in memory the
// work-items share.
template <int Dimensions, typename F> void for_each_work_item(const range<Dimensions> &logical, const F &f) {
  __onepass_hierarchical_region_begin(&f);
  id<Dimensions> i;
  const std::size_t first0 = __onepass_get_local_id(0), step0 = __onepass_get_local_range(0);
  if constexpr (Dimensions == 1) {
    for (i[0] = first0; i[0] < logical[0]; i[0] += step0) f(i);
  } else if constexpr (Dimensions == 2) {
    const std::size_t first1 = __onepass_get_local_id(1), step1 = __onepass_get_local_range(1);
    for (i[0] = first0; i[0] < logical[0]; i[0] += step0)
      for (i[1] = first1; i[1] < logical[1]; i[1] += step1) f(i);
  } else {
    const std::size_t first1 = __onepass_get_local_id(1), step1 = __onepass_get_local_range(1);
    const std::size_t first2 = __onepass_get_local_id(2), step2 = __onepass_get_local_range(2);
    for (i[0] = first0; i[0] < logical[0]; i[0] += step0)
      for (i[1] = first1; i[1] < logical[1]; i[1] += step1)
        for (i[2] = first2; i[2] < logical[2]; i[2] += step2) f(i);
  }
  __onepass_hierarchical_region_end();
}
}  // namespace detail

namespace detail {
template <typename Derived> struct async_copy_members;
}

// SYCL 2020 §4.15.2 device_event: what async_work_group_copy returns. OnePass
// completes the copy before async_work_group_copy returns (every work-item of
// the group takes part in it, then waits for the others), so waiting has
// nothing left to do.
class device_event {
public:
  void wait() noexcept {}

private:
  template <typename> friend struct detail::async_copy_members;
  device_event() = default;
};

namespace detail {
// §4.9.1.7 async_work_group_copy, for group and nd_item: the work-items of
// the calling work-group (as the device runs it) copy element i of the source
// (every srcStride-th) to element i of the destination (every destStride-th),
// each work-item a share; a barrier before and after makes the copy see what
// the group wrote before it and makes the result visible to the whole group.
template <typename T>
void work_group_copy(T *dest, const T *src, std::size_t count, std::size_t src_stride, std::size_t dest_stride) {
  // In a hierarchical kernel, called at work-group scope: the whole group
  // copies (the region's bounds are barriers there, and the JIT drops these).
  __onepass_hierarchical_region_begin(nullptr);
  std::size_t self = 0, size = 1;
  for (int d = 0; d < 3; ++d) {
    self = self * __onepass_get_local_range(d) + __onepass_get_local_id(d);
    size *= __onepass_get_local_range(d);
  }
  __onepass_group_barrier();
  for (std::size_t i = self; i < count; i += size) dest[i * dest_stride] = src[i * src_stride];
  __onepass_group_barrier();
  __onepass_hierarchical_region_end();
}

// The async_work_group_copy and wait_for members, the same for group and
// nd_item: the decorated forms of SYCL 2020 and the legacy multi_ptr forms.
template <typename Derived> struct async_copy_members {
  template <typename DataT>
  device_event async_work_group_copy(decorated_local_ptr<DataT> dest, decorated_global_ptr<DataT> src,
                                     std::size_t num_elements, std::size_t src_stride = 1) const {
    work_group_copy<DataT>(dest.get_raw(), src.get_raw(), num_elements, src_stride, 1);
    return device_event();
  }
  template <typename DataT> device_event async_work_group_copy(decorated_global_ptr<DataT> dest,
                                                               decorated_local_ptr<DataT> src, std::size_t num_elements,
                                                               std::size_t dest_stride = 1) const {
    work_group_copy<DataT>(dest.get_raw(), src.get_raw(), num_elements, 1, dest_stride);
    return device_event();
  }
  // Deprecated in SYCL 2020: the legacy (undecorated) multi_ptr forms.
  template <typename DataT> device_event async_work_group_copy(local_ptr<DataT> dest, global_ptr<DataT> src,
                                                               std::size_t num_elements,
                                                               std::size_t src_stride = 1) const {
    work_group_copy<DataT>(dest.get(), src.get(), num_elements, src_stride, 1);
    return device_event();
  }
  template <typename DataT> device_event async_work_group_copy(global_ptr<DataT> dest, local_ptr<DataT> src,
                                                               std::size_t num_elements,
                                                               std::size_t dest_stride = 1) const {
    work_group_copy<DataT>(dest.get(), src.get(), num_elements, 1, dest_stride);
    return device_event();
  }
  template <typename... Events> void wait_for(Events... events) const {
    static_assert((std::is_same_v<Events, device_event> && ...), "wait_for takes device_events");
    (events.wait(), ...);
  }
};
}  // namespace detail

// §4.9.1.7: a work-group. In an nd_range kernel its ids come from the
// work-item builtins; in a hierarchical kernel (parallel_for_work_group) the
// local range is the one the kernel was launched with, which need not be the
// device's (see handler::parallel_for_work_group).
template <int Dimensions = 1> class group : public detail::async_copy_members<group<Dimensions>> {
public:
  using id_type = id<Dimensions>;
  using range_type = range<Dimensions>;
  using linear_id_type = std::size_t;
  static constexpr int dimensions = Dimensions;
  static constexpr memory_scope fence_scope = memory_scope::work_group;

  id<Dimensions> get_group_id() const { return group_id_; }
  std::size_t get_group_id(int dimension) const { return group_id_[dimension]; }
  std::size_t operator[](int dimension) const { return group_id_[dimension]; }
  // The calling work-item's position (undefined inside parallel_for_work_item).
  id<Dimensions> get_local_id() const { return detail::from_builtin<id<Dimensions>>(__onepass_get_local_id); }
  std::size_t get_local_id(int dimension) const { return __onepass_get_local_id(dimension); }
  range<Dimensions> get_local_range() const { return local_range_; }
  std::size_t get_local_range(int dimension) const { return local_range_[dimension]; }
  range<Dimensions> get_group_range() const { return group_range_; }
  std::size_t get_group_range(int dimension) const { return group_range_[dimension]; }
  // Every work-group of an nd_range has the local range.
  range<Dimensions> get_max_local_range() const { return get_local_range(); }
  std::size_t get_group_linear_id() const { return detail::linearize<Dimensions>(get_group_id(), get_group_range()); }
  std::size_t get_local_linear_id() const { return detail::linearize<Dimensions>(get_local_id(), get_local_range()); }
  std::size_t get_group_linear_range() const { return get_group_range().size(); }
  std::size_t get_local_linear_range() const { return get_local_range().size(); }
  bool leader() const { return get_local_linear_id() == 0; }

  // SYCL 1.2.1's names, deprecated by SYCL 2020 (the CTS still uses them).
  id<Dimensions> get_id() const { return get_group_id(); }
  std::size_t get_id(int dimension) const { return get_group_id(dimension); }
  range<Dimensions> get_global_range() const { return group_range_ * local_range_; }
  std::size_t get_global_range(int dimension) const { return group_range_[dimension] * local_range_[dimension]; }
  std::size_t get_linear_id() const { return get_group_linear_id(); }

  // §4.9.1.7 / §4.9.4.2.4 (deprecated): runs `func` for every work-item of
  // the group, or for every point of `logical_range` (each on the work-item
  // whose physical id is the point modulo the group's size); the call is over
  // for the whole group before the next statement of the work-group starts,
  // as the spec requires (detail::for_each_work_item).
  template <typename WorkItemFunction> void parallel_for_work_item(const WorkItemFunction &func) const {
    detail::for_each_work_item<Dimensions>(local_range_, [&](const id<Dimensions> &local) {
      func(detail::h_item_factory<Dimensions>::make(global_item(local), local_item(local), local_item(local)));
    });
  }
  template <typename WorkItemFunction>
  void parallel_for_work_item(range<Dimensions> logical_range, const WorkItemFunction &func) const {
    detail::for_each_work_item<Dimensions>(logical_range, [&](const id<Dimensions> &logical) {
      id<Dimensions> physical;
      for (int d = 0; d < Dimensions; ++d) physical[d] = logical[d] % local_range_[d];
      func(detail::h_item_factory<Dimensions>::make(
          global_item(physical), local_item(physical),
          detail::item_factory<Dimensions>::make_plain(logical, logical_range)));
    });
  }

  // Groups are equal when they are the same work-group of the same launch.
  friend bool operator==(const group &a, const group &b) {
    return a.group_id_ == b.group_id_ && a.group_range_ == b.group_range_ && a.local_range_ == b.local_range_;
  }
  friend bool operator!=(const group &a, const group &b) { return !(a == b); }

private:
  friend struct detail::group_factory<Dimensions>;
  group(const id<Dimensions> &group_id, const range<Dimensions> &group_range, const range<Dimensions> &local_range)
      : group_id_(group_id), group_range_(group_range), local_range_(local_range) {}
  item<Dimensions, false> global_item(const id<Dimensions> &local) const {
    id<Dimensions> global;
    for (int d = 0; d < Dimensions; ++d) global[d] = group_id_[d] * local_range_[d] + local[d];
    return detail::item_factory<Dimensions>::make_plain(global, get_global_range());
  }
  item<Dimensions, false> local_item(const id<Dimensions> &local) const {
    return detail::item_factory<Dimensions>::make_plain(local, local_range_);
  }
  id<Dimensions> group_id_;
  range<Dimensions> group_range_;
  range<Dimensions> local_range_;
};

namespace detail {
template <int Dimensions> struct group_factory {
  // The work-group of the calling work-item, from the builtins.
  static group<Dimensions> current() {
    return group<Dimensions>(from_builtin<id<Dimensions>>(__onepass_get_group_id),
                             from_builtin<range<Dimensions>>(__onepass_get_group_range),
                             from_builtin<range<Dimensions>>(__onepass_get_local_range));
  }
  static group<Dimensions> make(const id<Dimensions> &group_id, const range<Dimensions> &group_range,
                                const range<Dimensions> &local_range) {
    return group<Dimensions>(group_id, group_range, local_range);
  }
};
}  // namespace detail

// SYCL 2020 §4.9.1.8: the sub-group of a work-item: consecutive work-items
// of its work-group in linear order (32 on NVIDIA GPUs, the warp; 1 on the
// CPU device for now). The last sub-group of a work-group may be smaller.
class sub_group {
public:
  using id_type = id<1>;
  using range_type = range<1>;
  using linear_id_type = std::uint32_t;
  static constexpr int dimensions = 1;
  static constexpr memory_scope fence_scope = memory_scope::sub_group;

  id<1> get_group_id() const { return id<1>(__onepass_sub_group_id()); }
  id<1> get_local_id() const { return id<1>(__onepass_sub_group_local_id()); }
  range<1> get_local_range() const { return range<1>(__onepass_sub_group_size()); }
  range<1> get_group_range() const { return range<1>(__onepass_sub_group_count()); }
  range<1> get_max_local_range() const { return range<1>(__onepass_sub_group_max_size()); }
  linear_id_type get_group_linear_id() const { return __onepass_sub_group_id(); }
  linear_id_type get_local_linear_id() const { return __onepass_sub_group_local_id(); }
  linear_id_type get_group_linear_range() const { return __onepass_sub_group_count(); }
  linear_id_type get_local_linear_range() const { return __onepass_sub_group_size(); }
  bool leader() const { return get_local_linear_id() == 0; }

  // The same sub-group of the same work-group.
  friend bool operator==(const sub_group &a, const sub_group &b) {
    return a.get_group_linear_id() == b.get_group_linear_id();
  }
  friend bool operator!=(const sub_group &a, const sub_group &b) { return !(a == b); }

private:
  template <int> friend class nd_item;
  sub_group() = default;
};

// §4.17.1: the group types the group functions accept.
template <typename T> struct is_group : std::false_type {};
template <int Dimensions> struct is_group<group<Dimensions>> : std::true_type {};
template <> struct is_group<sub_group> : std::true_type {};
template <typename T> inline constexpr bool is_group_v = is_group<T>::value;

template <int Dimensions = 1> class nd_item : public detail::async_copy_members<nd_item<Dimensions>> {
public:
  static constexpr int dimensions = Dimensions;
  nd_item() = delete;

  // With a (deprecated) nd_range offset, global ids start at the offset and
  // the linear id does not count it (§4.9.1.5). The JIT compiles the launch's
  // offset in: without one, the addition folds away.
  id<Dimensions> get_global_id() const {
    return detail::from_builtin<id<Dimensions>>(__onepass_get_global_id) + get_offset();
  }
  std::size_t get_global_id(int dimension) const {
    return __onepass_get_global_id(dimension) + __onepass_get_global_offset(dimension);
  }
  std::size_t get_global_linear_id() const {
    return detail::linearize<Dimensions>(detail::from_builtin<id<Dimensions>>(__onepass_get_global_id),
                                         get_global_range());
  }
  id<Dimensions> get_local_id() const { return detail::from_builtin<id<Dimensions>>(__onepass_get_local_id); }
  std::size_t get_local_id(int dimension) const { return __onepass_get_local_id(dimension); }
  std::size_t get_local_linear_id() const { return get_group().get_local_linear_id(); }
  group<Dimensions> get_group() const { return detail::group_factory<Dimensions>::current(); }
  sub_group get_sub_group() const { return sub_group(); }
  std::size_t get_group(int dimension) const { return __onepass_get_group_id(dimension); }
  std::size_t get_group_linear_id() const { return get_group().get_group_linear_id(); }
  range<Dimensions> get_group_range() const { return get_group().get_group_range(); }
  std::size_t get_group_range(int dimension) const { return __onepass_get_group_range(dimension); }
  range<Dimensions> get_global_range() const {
    return detail::from_builtin<range<Dimensions>>(__onepass_get_global_range);
  }
  std::size_t get_global_range(int dimension) const { return __onepass_get_global_range(dimension); }
  range<Dimensions> get_local_range() const { return get_group().get_local_range(); }
  std::size_t get_local_range(int dimension) const { return __onepass_get_local_range(dimension); }
  id<Dimensions> get_offset() const {  // deprecated in SYCL 2020
    return detail::from_builtin<id<Dimensions>>(__onepass_get_global_offset);
  }
  nd_range<Dimensions> get_nd_range() const {
    return nd_range<Dimensions>(get_global_range(), get_local_range(), get_offset());
  }

  // Waits for every work-item of the work-group (all must reach it); their
  // accesses to local and global memory before it happen before those after
  // it. (SYCL 1.2.1's form, deprecated by group_barrier; the fence always
  // covers both spaces.)
  void barrier(access::fence_space = access::fence_space::global_and_local) const { __onepass_group_barrier(); }

  friend bool operator==(const nd_item &a, const nd_item &b) {
    return a.get_global_id() == b.get_global_id() && a.get_local_id() == b.get_local_id();
  }
  friend bool operator!=(const nd_item &a, const nd_item &b) { return !(a == b); }

private:
  friend struct detail::nd_item_factory<Dimensions>;
  explicit nd_item(int) {}
};

// SYCL 2020 §4.17.1: every work-item of `g` waits here for the others, and
// their memory accesses are ordered at work-group scope. (A wider `fence_scope`
// is not honoured yet: it orders at work-group scope too.)
// The barrier orders the group's memory accesses for the group itself. A
// wider fence scope (device, system) adds a fence on each side of it, so that
// what the group wrote before is visible at that scope to whoever synchronizes
// with it afterwards (SYCL 2020 §4.15.1; OnePass's fences are system-wide).
template <int Dimensions> void group_barrier(group<Dimensions>, memory_scope scope = group<Dimensions>::fence_scope) {
  if (scope > memory_scope::work_group) __atomic_thread_fence(__ATOMIC_ACQ_REL);
  __onepass_group_barrier();
  if (scope > memory_scope::work_group) __atomic_thread_fence(__ATOMIC_ACQ_REL);
}

inline void group_barrier(sub_group, memory_scope scope = sub_group::fence_scope) {
  if (scope > memory_scope::sub_group) __atomic_thread_fence(__ATOMIC_ACQ_REL);
  __onepass_sub_group_barrier();
  if (scope > memory_scope::sub_group) __atomic_thread_fence(__ATOMIC_ACQ_REL);
}

namespace detail {
template <int Dimensions> struct nd_item_factory {
  static nd_item<Dimensions> make() { return nd_item<Dimensions>(0); }
};
}  // namespace detail

}  // namespace sycl
