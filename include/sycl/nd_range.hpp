// SYCL 2020 §4.9.1.2 nd_range: a global range divided into work-groups of a
// local range. The global size must be a multiple of the local size in every
// dimension; handler::parallel_for checks it (errc::nd_range).
#pragma once

#include "range.hpp"

namespace sycl {

template <int Dimensions = 1> class nd_range {
public:
  static constexpr int dimensions = Dimensions;

  nd_range(range<Dimensions> global_size, range<Dimensions> local_size, id<Dimensions> offset = id<Dimensions>())
      : global_(global_size), local_(local_size), offset_(offset) {}

  range<Dimensions> get_global_range() const { return global_; }
  range<Dimensions> get_local_range() const { return local_; }
  // Whole work-groups; meaningful once the nd_range is valid.
  range<Dimensions> get_group_range() const {
    range<Dimensions> groups = global_;
    for (int d = 0; d < Dimensions; ++d) groups[d] = local_[d] ? global_[d] / local_[d] : 0;
    return groups;
  }
  id<Dimensions> get_offset() const { return offset_; }  // deprecated in SYCL 2020

  friend bool operator==(const nd_range &a, const nd_range &b) {
    return a.global_ == b.global_ && a.local_ == b.local_ && a.offset_ == b.offset_;
  }
  friend bool operator!=(const nd_range &a, const nd_range &b) { return !(a == b); }

private:
  range<Dimensions> global_, local_;
  id<Dimensions> offset_;
};

nd_range(range<1>, range<1>)->nd_range<1>;
nd_range(range<2>, range<2>)->nd_range<2>;
nd_range(range<3>, range<3>)->nd_range<3>;

}  // namespace sycl
