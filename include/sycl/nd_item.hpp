// SYCL 2020 §4.9.1.5 nd_item and §4.9.1.7 group: a work-item of an nd_range
// kernel, its position in the global range, in its work-group, and the
// work-group's position among the groups. All values come from the device's
// work-item builtins; linear ids are row-major (the last dimension varies
// fastest, §3.11.1).
#pragma once

#include "access.hpp"
#include "detail/builtins.hpp"
#include "nd_range.hpp"

#include <cstdint>
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

template <int Dimensions = 1> class group {
public:
  using id_type = id<Dimensions>;
  using range_type = range<Dimensions>;
  using linear_id_type = std::size_t;
  static constexpr int dimensions = Dimensions;
  static constexpr memory_scope fence_scope = memory_scope::work_group;

  id<Dimensions> get_group_id() const { return detail::from_builtin<id<Dimensions>>(__onepass_get_group_id); }
  std::size_t get_group_id(int dimension) const { return __onepass_get_group_id(dimension); }
  std::size_t operator[](int dimension) const { return __onepass_get_group_id(dimension); }
  id<Dimensions> get_local_id() const { return detail::from_builtin<id<Dimensions>>(__onepass_get_local_id); }
  std::size_t get_local_id(int dimension) const { return __onepass_get_local_id(dimension); }
  range<Dimensions> get_local_range() const {
    return detail::from_builtin<range<Dimensions>>(__onepass_get_local_range);
  }
  std::size_t get_local_range(int dimension) const { return __onepass_get_local_range(dimension); }
  range<Dimensions> get_group_range() const {
    return detail::from_builtin<range<Dimensions>>(__onepass_get_group_range);
  }
  std::size_t get_group_range(int dimension) const { return __onepass_get_group_range(dimension); }
  // Every work-group of an nd_range has the local range.
  range<Dimensions> get_max_local_range() const { return get_local_range(); }
  std::size_t get_group_linear_id() const { return detail::linearize<Dimensions>(get_group_id(), get_group_range()); }
  std::size_t get_local_linear_id() const { return detail::linearize<Dimensions>(get_local_id(), get_local_range()); }
  std::size_t get_group_linear_range() const { return get_group_range().size(); }
  std::size_t get_local_linear_range() const { return get_local_range().size(); }
  bool leader() const { return get_local_linear_id() == 0; }

  friend bool operator==(const group &a, const group &b) { return a.get_group_id() == b.get_group_id(); }
  friend bool operator!=(const group &a, const group &b) { return !(a == b); }

private:
  template <int> friend class nd_item;
  group() = default;
};

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

private:
  template <int> friend class nd_item;
  sub_group() = default;
};

template <int Dimensions = 1> class nd_item {
public:
  static constexpr int dimensions = Dimensions;
  nd_item() = delete;

  id<Dimensions> get_global_id() const { return detail::from_builtin<id<Dimensions>>(__onepass_get_global_id); }
  std::size_t get_global_id(int dimension) const { return __onepass_get_global_id(dimension); }
  std::size_t get_global_linear_id() const {
    return detail::linearize<Dimensions>(get_global_id(), get_global_range());
  }
  id<Dimensions> get_local_id() const { return detail::from_builtin<id<Dimensions>>(__onepass_get_local_id); }
  std::size_t get_local_id(int dimension) const { return __onepass_get_local_id(dimension); }
  std::size_t get_local_linear_id() const { return get_group().get_local_linear_id(); }
  group<Dimensions> get_group() const { return group<Dimensions>(); }
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
  id<Dimensions> get_offset() const { return id<Dimensions>(); }  // deprecated; OnePass launches have none
  nd_range<Dimensions> get_nd_range() const { return nd_range<Dimensions>(get_global_range(), get_local_range()); }

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
