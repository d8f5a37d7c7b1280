// What the buffer accessors (accessor, host_accessor, the deprecated
// target::host_buffer accessor) share: element access through a view of the
// accessed box, the [i][j][k] subscripts, the iterators and the common members
// of SYCL 2020 §4.7.6.12 (Tables 61 and 62).
//
// All of it is used in kernels (compiled to the CPU and to NVPTX): plain value
// types, no virtual functions, no exceptions, nothing host-only. A device
// accessor's data pointer is a placeholder on the host that the runtime
// replaces in the kernel's copy of the accessor, so iterators and element
// references are always computed from the view when asked for, never stored.
#pragma once

#include "../range.hpp"
#include "std_parts.hpp"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace sycl::detail {

// The accessed box of a (sub-)buffer: `extent` is the (sub-)buffer's range,
// [offset, offset + access_range) the box, and `data` the box's first element
// (the element at `offset`), so that element access adds only the index: the
// (sub-)buffer's row-major linearization is linear, and the offset's part of it
// is folded into `data` once, when the accessor is made, instead of in every
// access of a kernel (two adds and two registers per accessor in BabelStream's
// dot on NVPTX). start() is the (sub-)buffer's first element. A 0-dimensional
// accessor has a 1-D view of one element.
template <typename T, int D> struct accessor_view {
  T *data = nullptr;
  range<D> extent;
  id<D> offset;
  range<D> access_range;

  // The element at `index` within the box.
  T &at(const id<D> &index) const noexcept {
    if constexpr (D == 1) {
      return data[index[0]];
    } else {
      return data[linear_index(index, std::make_index_sequence<D>())];
    }
  }
  // Row-major, unrolled by the compiler's front end: device code is
  // simplified before it is specialized, without unrolling, and a loop here
  // would keep the view in memory (every subscript a loop and a copy).
  template <std::size_t... Ds> std::size_t linear_index(const id<D> &index, std::index_sequence<Ds...>) const noexcept {
    std::size_t linear = 0;
    ((linear = linear * extent[Ds] + index[Ds]), ...);
    return linear;
  }
  // How many elements the box's first element is past the (sub-)buffer's.
  std::size_t offset_elements() const noexcept { return linear_index(offset, std::make_index_sequence<D>()); }
  // The (sub-)buffer's first element.
  T *start() const noexcept { return data - offset_elements(); }
  // Points the view at the (sub-)buffer that starts at `first`: `extent` and
  // `offset` must be set.
  void point_at(T *first) noexcept { data = first + offset_elements(); }

  // The element at `position` of the box in row-major order (the last
  // dimension varies fastest): the order accessor iterators visit.
  T &at_position(std::size_t position) const noexcept {
    if constexpr (D == 1) {
      return data[position];
    } else {
      id<D> index;
      for (int d = D - 1; d > 0; --d) {
        index[d] = position % access_range[d];
        position /= access_range[d];
      }
      index[0] = position;
      return at(index);
    }
  }
};

// The same view with another element type (T to const T, for conversions).
template <typename To, typename From, int D>
accessor_view<To, D> view_cast(const accessor_view<From, D> &view) noexcept {
  return accessor_view<To, D>{view.data, view.extent, view.offset, view.access_range};
}

// 0-dimensional accessors keep a 1-D view of their one element.
template <int D> inline constexpr int view_dimensions = D == 0 ? 1 : D;

// The random-access iterator over the box of a 2-D or 3-D view, in row-major
// order (SYCL 2020 §4.7.6.12: "iterator", "const_iterator"). It holds the view
// and a position in the box; T is const for const iterators. Iterators are
// compared by position: only those of one accessor are comparable.
template <typename T, int D> class accessor_iterator {
public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::remove_const_t<T>;
  using difference_type = std::ptrdiff_t;
  using pointer = T *;
  using reference = T &;

  accessor_iterator() = default;
  accessor_iterator(const accessor_view<T, D> &view, std::size_t position) noexcept
      : view_(view), position_(position) {}
  // An iterator converts to a const_iterator.
  template <typename U, typename = std::enable_if_t<std::is_same_v<const U, T> && !std::is_same_v<U, T>>>
  accessor_iterator(const accessor_iterator<U, D> &other) noexcept
      : view_(view_cast<T>(other.view_)), position_(other.position_) {}

  reference operator*() const noexcept { return view_.at_position(position_); }
  pointer operator->() const noexcept { return &view_.at_position(position_); }
  reference operator[](difference_type n) const noexcept {
    return view_.at_position(position_ + static_cast<std::size_t>(n));
  }

  accessor_iterator &operator++() noexcept {
    ++position_;
    return *this;
  }
  accessor_iterator operator++(int) noexcept {
    accessor_iterator old = *this;
    ++position_;
    return old;
  }
  accessor_iterator &operator--() noexcept {
    --position_;
    return *this;
  }
  accessor_iterator operator--(int) noexcept {
    accessor_iterator old = *this;
    --position_;
    return old;
  }
  // Unsigned arithmetic wraps, so adding a negative n moves back.
  accessor_iterator &operator+=(difference_type n) noexcept {
    position_ += static_cast<std::size_t>(n);
    return *this;
  }
  accessor_iterator &operator-=(difference_type n) noexcept {
    position_ -= static_cast<std::size_t>(n);
    return *this;
  }
  friend accessor_iterator operator+(accessor_iterator it, difference_type n) noexcept { return it += n; }
  friend accessor_iterator operator+(difference_type n, accessor_iterator it) noexcept { return it += n; }
  friend accessor_iterator operator-(accessor_iterator it, difference_type n) noexcept { return it -= n; }
  friend difference_type operator-(const accessor_iterator &a, const accessor_iterator &b) noexcept {
    return static_cast<difference_type>(a.position_ - b.position_);
  }

  friend bool operator==(const accessor_iterator &a, const accessor_iterator &b) noexcept {
    return a.position_ == b.position_;
  }
  friend bool operator!=(const accessor_iterator &a, const accessor_iterator &b) noexcept {
    return a.position_ != b.position_;
  }
  friend bool operator<(const accessor_iterator &a, const accessor_iterator &b) noexcept {
    return a.position_ < b.position_;
  }
  friend bool operator>(const accessor_iterator &a, const accessor_iterator &b) noexcept {
    return a.position_ > b.position_;
  }
  friend bool operator<=(const accessor_iterator &a, const accessor_iterator &b) noexcept {
    return a.position_ <= b.position_;
  }
  friend bool operator>=(const accessor_iterator &a, const accessor_iterator &b) noexcept {
    return a.position_ >= b.position_;
  }

private:
  template <typename, int> friend class accessor_iterator;

  accessor_view<T, D> view_;
  std::size_t position_ = 0;
};

// 0-D and 1-D boxes are contiguous: their iterators are plain pointers.
template <typename T, int D> using accessor_iterator_t = std::conditional_t<(D > 1), accessor_iterator<T, D>, T *>;

// What element access gives: a plain reference, or, for the deprecated
// access_mode::atomic, an atomic on the element (atomic_element, atomic.hpp).
struct plain_element {
  template <typename T> using ref = T &;
  static constexpr bool assignable = true;
  template <typename T> static T &get(T &element) noexcept { return element; }
};

// accessor[i][j][k]: each [] but the last fixes one more index.
template <typename T, int D, int Fixed, typename Element = plain_element> class accessor_subscript {
public:
  accessor_subscript(const accessor_view<T, D> &view, id<D> index) : view_(view), index_(index) {}
  decltype(auto) operator[](std::size_t i) const {
    id<D> next = index_;
    next[Fixed] = i;
    if constexpr (Fixed + 1 == D) return Element::get(view_.at(next));
    else return accessor_subscript<T, D, Fixed + 1, Element>(view_, next);
  }

private:
  accessor_view<T, D> view_;  // a copy: a local accessor's view is made when asked for
  id<D> index_;
};

// The members of §4.7.6.12 every buffer accessor has, whatever its
// dimensions: size queries, get_pointer and the iterators. Derived has
// `view_`, an accessor_view<T, view_dimensions<D>>; T is its value_type.
template <typename Derived, typename T, int D> class accessor_common {
public:
  using iterator = accessor_iterator_t<T, D>;
  using const_iterator = accessor_iterator_t<const T, D>;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;
  using difference_type = typename std::iterator_traits<iterator>::difference_type;
  using size_type = std::size_t;

  size_type byte_size() const noexcept { return size() * sizeof(T); }
  size_type size() const noexcept { return view().access_range.size(); }
  size_type max_size() const noexcept { return size(); }
  bool empty() const noexcept { return size() == 0; }

  // The start of the (sub-)buffer, also for ranged accessors (§4.7.6.9.1).
  T *get_pointer() const noexcept { return view().start(); }

  // The accessed range in row-major order (only the range of a ranged
  // accessor, from its offset).
  iterator begin() const noexcept { return iterator_at<T>(0); }
  iterator end() const noexcept { return iterator_at<T>(size()); }
  const_iterator cbegin() const noexcept { return iterator_at<const T>(0); }
  const_iterator cend() const noexcept { return iterator_at<const T>(size()); }
  reverse_iterator rbegin() const noexcept { return reverse_iterator(end()); }
  reverse_iterator rend() const noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator crbegin() const noexcept { return const_reverse_iterator(cend()); }
  const_reverse_iterator crend() const noexcept { return const_reverse_iterator(cbegin()); }

protected:
  const accessor_view<T, view_dimensions<D>> &view() const noexcept {
    return static_cast<const Derived &>(*this).view_;
  }

private:
  template <typename U> accessor_iterator_t<U, D> iterator_at(std::size_t position) const noexcept {
    if constexpr (D > 1) return accessor_iterator<U, D>(view_cast<U>(view()), position);
    else return view().data + position;
  }
};

// Element access of accessors of 1 to 3 dimensions (§4.7.6.12, Table 62).
template <typename Derived, typename T, int D, typename Element = plain_element> class accessor_interface
    : public accessor_common<Derived, T, D> {
  using accessor_common<Derived, T, D>::view;
  using ref = typename Element::template ref<T>;

public:
  range<D> get_range() const { return view().access_range; }
  id<D> get_offset() const { return view().offset; }

  ref operator[](id<D> index) const { return Element::get(view().at(index)); }
  template <int N = D, typename = std::enable_if_t<N == 1>> ref operator[](std::size_t index) const {
    return Element::get(view().data[index]);
  }
  template <int N = D, typename = std::enable_if_t<(N > 1)>> auto operator[](std::size_t index) const {
    id<D> first;
    first[0] = index;
    return accessor_subscript<T, D, 1, Element>(view(), first);
  }
};

// A 0-dimensional accessor is its buffer's first element (§4.7.6.9,
// §4.7.6.10): it converts to a reference to it and, unless read-only, is
// assigned to. Derived classes bring the assignments in with a
// using-declaration (their own copy assignment hides them otherwise).
template <typename Derived, typename T, typename Element> class accessor_interface<Derived, T, 0, Element>
    : public accessor_common<Derived, T, 0> {
  using accessor_common<Derived, T, 0>::view;
  static constexpr bool assignable = Element::assignable && !std::is_const_v<T>;

public:
  operator typename Element::template ref<T>() const { return Element::get(*view().data); }

  template <bool A = assignable, typename = std::enable_if_t<A>> const Derived &operator=(const T &value) const {
    *view().data = value;
    return static_cast<const Derived &>(*this);
  }
  template <bool A = assignable, typename = std::enable_if_t<A>> const Derived &operator=(T &&value) const {
    *view().data = static_cast<T &&>(value);
    return static_cast<const Derived &>(*this);
  }
};

}  // namespace sycl::detail
