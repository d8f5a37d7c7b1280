// SYCL 2020 §4.9.1.6 h_item (deprecated): a work-item of a
// group::parallel_for_work_item call in a hierarchical kernel, with its
// global item, its physical local item (its place in the work-group the
// kernel was launched with) and its logical local item (its place in the
// range given to parallel_for_work_item, the physical one if none was).
#pragma once

#include "item.hpp"

namespace sycl {
namespace detail {
template <int Dimensions> struct h_item_factory;
}

template <int Dimensions = 1> class h_item {
public:
  static constexpr int dimensions = Dimensions;
  h_item() = delete;

  item<Dimensions, false> get_global() const { return global_; }
  item<Dimensions, false> get_local() const { return get_logical_local(); }
  item<Dimensions, false> get_logical_local() const { return logical_; }
  item<Dimensions, false> get_physical_local() const { return physical_; }

  range<Dimensions> get_global_range() const { return global_.get_range(); }
  std::size_t get_global_range(int dimension) const { return global_.get_range(dimension); }
  id<Dimensions> get_global_id() const { return global_.get_id(); }
  std::size_t get_global_id(int dimension) const { return global_.get_id(dimension); }
  range<Dimensions> get_local_range() const { return get_local().get_range(); }
  std::size_t get_local_range(int dimension) const { return get_local().get_range(dimension); }
  id<Dimensions> get_local_id() const { return get_local().get_id(); }
  std::size_t get_local_id(int dimension) const { return get_local().get_id(dimension); }
  range<Dimensions> get_logical_local_range() const { return logical_.get_range(); }
  std::size_t get_logical_local_range(int dimension) const { return logical_.get_range(dimension); }
  id<Dimensions> get_logical_local_id() const { return logical_.get_id(); }
  std::size_t get_logical_local_id(int dimension) const { return logical_.get_id(dimension); }
  range<Dimensions> get_physical_local_range() const { return physical_.get_range(); }
  std::size_t get_physical_local_range(int dimension) const { return physical_.get_range(dimension); }
  id<Dimensions> get_physical_local_id() const { return physical_.get_id(); }
  std::size_t get_physical_local_id(int dimension) const { return physical_.get_id(dimension); }

  friend bool operator==(const h_item &a, const h_item &b) {
    return a.global_ == b.global_ && a.logical_ == b.logical_ && a.physical_ == b.physical_;
  }
  friend bool operator!=(const h_item &a, const h_item &b) { return !(a == b); }

private:
  friend struct detail::h_item_factory<Dimensions>;
  h_item(const item<Dimensions, false> &global, const item<Dimensions, false> &physical,
         const item<Dimensions, false> &logical)
      : global_(global), physical_(physical), logical_(logical) {}
  item<Dimensions, false> global_;
  item<Dimensions, false> physical_;
  item<Dimensions, false> logical_;
};

namespace detail {
template <int Dimensions> struct h_item_factory {
  static h_item<Dimensions> make(const item<Dimensions, false> &global, const item<Dimensions, false> &physical,
                                 const item<Dimensions, false> &logical) {
    return h_item<Dimensions>(global, physical, logical);
  }
};
}  // namespace detail

}  // namespace sycl
