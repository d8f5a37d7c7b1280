// SYCL 2020 §4.9.1.4 item: a work-item's position in a range.
#pragma once

#include "range.hpp"

namespace sycl {
namespace detail {
template <int Dimensions> struct item_factory;
// An item's offset (deprecated in SYCL 2020): only items with one store it.
template <int Dimensions, bool WithOffset> struct item_offset {
  id<Dimensions> offset() const { return id<Dimensions>(); }
};
template <int Dimensions> struct item_offset<Dimensions, true> {
  id<Dimensions> offset_;
  id<Dimensions> offset() const { return offset_; }
};
}  // namespace detail

// §4.9.1.4: WithOffset defaults to true; OnePass launches have no offsets, so
// get_offset() is always zero.
template <int Dimensions = 1, bool WithOffset = true> class item
    : public detail::size_t_conversion<item<Dimensions, WithOffset>, Dimensions>,
      private detail::item_offset<Dimensions, WithOffset> {
public:
  static constexpr int dimensions = Dimensions;
  item() = delete;

  id<Dimensions> get_id() const { return id_; }
  std::size_t get_id(int dimension) const { return id_[dimension]; }
  std::size_t operator[](int dimension) const { return id_[dimension]; }
  range<Dimensions> get_range() const { return range_; }
  std::size_t get_range(int dimension) const { return range_[dimension]; }
  // Deprecated: the offset of parallel_for(range, offset, kernel); zero otherwise.
  id<Dimensions> get_offset() const { return this->offset(); }

  // §3.11.1, from the offset: the linear id of the work-item in the range.
  std::size_t get_linear_id() const {
    if constexpr (WithOffset) return detail::linearize<Dimensions>(id_ - this->offset(), range_);
    else return detail::linearize<Dimensions>(id_, range_);
  }

  operator id<Dimensions>() const { return id_; }
  // §4.9.1.4: an item without an offset converts to one with (a zero offset:
  // OnePass launches have none).
  // (The target type is spelled through W so that item<D, true> never
  // declares a conversion to itself.)
  template <bool W = WithOffset, typename = std::enable_if_t<!W>> operator item<Dimensions, !W>() const {
    return item<Dimensions, true>(id_, range_);
  }
  // ... and back, without the offset (a kernel may take item<D, false>).
  template <bool W = WithOffset, typename = std::enable_if_t<W>, typename = void>
  operator item<Dimensions, !W>() const {
    return item<Dimensions, false>(id_, range_);
  }
  std::size_t get(int dimension) const { return id_[dimension]; }  // used by size_t_conversion

  friend bool operator==(const item &a, const item &b) {
    return a.id_ == b.id_ && a.range_ == b.range_ && a.get_offset() == b.get_offset();
  }
  friend bool operator!=(const item &a, const item &b) { return !(a == b); }

private:
  friend struct detail::item_factory<Dimensions>;
  template <int, bool> friend class item;
  item(const id<Dimensions> &i, const range<Dimensions> &r) : id_(i), range_(r) {}
  id<Dimensions> id_;
  range<Dimensions> range_;
};

namespace detail {
template <int Dimensions> struct item_factory {
  static item<Dimensions> make(const id<Dimensions> &i, const range<Dimensions> &r) { return item<Dimensions>(i, r); }
  static item<Dimensions, false> make_plain(const id<Dimensions> &i, const range<Dimensions> &r) {
    return item<Dimensions, false>(i, r);
  }
  static item<Dimensions> make_offset(const id<Dimensions> &i, const range<Dimensions> &r, const id<Dimensions> &o) {
    item<Dimensions> result(i, r);
    result.offset_ = o;
    return result;
  }
};
}  // namespace detail

}  // namespace sycl
