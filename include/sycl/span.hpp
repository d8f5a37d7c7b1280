// SYCL 2020 §3.9.2: sycl::span and sycl::dynamic_extent, C++20's std::span
// pre-adopted for SYCL's C++17 minimum (§4.9.2.1 reduces over spans). A view
// of `size()` contiguous elements; a fixed Extent keeps the size in the type.
#pragma once

#include "detail/std_parts.hpp"

#include <array>
#include <cstddef>
#include <limits>
#include <type_traits>

namespace sycl {

inline constexpr std::size_t dynamic_extent = std::numeric_limits<std::size_t>::max();

template <typename ElementType, std::size_t Extent = dynamic_extent> class span;

namespace detail {
// The size a span keeps: none for a fixed Extent, a member for dynamic_extent.
template <std::size_t Extent> struct span_size {
  constexpr span_size(std::size_t) noexcept {}
  static constexpr std::size_t value() noexcept { return Extent; }
};
template <> struct span_size<dynamic_extent> {
  constexpr span_size(std::size_t size) noexcept : size_(size) {}
  constexpr std::size_t value() const noexcept { return size_; }
  std::size_t size_;
};
// Element pointers convert only when that is a qualification conversion.
template <typename From, typename To> inline constexpr bool span_convertible_v =
    std::is_convertible_v<From (*)[], To (*)[]>;
}  // namespace detail

template <typename ElementType, std::size_t Extent> class span {
public:
  using element_type = ElementType;
  using value_type = std::remove_cv_t<ElementType>;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using pointer = element_type *;
  using const_pointer = const element_type *;
  using reference = element_type &;
  using const_reference = const element_type &;
  using iterator = pointer;
  using reverse_iterator = std::reverse_iterator<iterator>;
  static constexpr size_type extent = Extent;

  template <std::size_t E = Extent, typename = std::enable_if_t<E == 0 || E == dynamic_extent>>
  constexpr span() noexcept : data_(nullptr), size_(0) {}
  constexpr span(pointer first, size_type count) : data_(first), size_(count) {}
  constexpr span(pointer first, pointer last) : data_(first), size_(static_cast<size_type>(last - first)) {}
  template <std::size_t N, typename = std::enable_if_t<Extent == dynamic_extent || Extent == N>>
  constexpr span(element_type (&array)[N]) noexcept : data_(array), size_(N) {}
  template <typename T, std::size_t N,
            typename = std::enable_if_t<(Extent == dynamic_extent || Extent == N) &&
                                        detail::span_convertible_v<T, element_type>>>
  constexpr span(std::array<T, N> &array) noexcept : data_(array.data()), size_(N) {}
  template <typename T, std::size_t N,
            typename = std::enable_if_t<(Extent == dynamic_extent || Extent == N) &&
                                        detail::span_convertible_v<const T, element_type>>>
  constexpr span(const std::array<T, N> &array) noexcept : data_(array.data()), size_(N) {}
  // A contiguous container (anything with data() and size(), as std::vector).
  template <typename Container,
            typename = std::enable_if_t<
                !std::is_array_v<std::remove_reference_t<Container>> &&
                detail::span_convertible_v<std::remove_pointer_t<decltype(std::declval<Container &>().data())>,
                                           element_type>>,
            typename = decltype(std::declval<Container &>().size())>
  constexpr span(Container &&container) : data_(container.data()), size_(container.size()) {}
  template <typename T, std::size_t E,
            typename = std::enable_if_t<(Extent == dynamic_extent || E == dynamic_extent || Extent == E) &&
                                        detail::span_convertible_v<T, element_type>>>
  constexpr span(const span<T, E> &other) noexcept : data_(other.data()), size_(other.size()) {}
  constexpr span(const span &) noexcept = default;
  constexpr span &operator=(const span &) noexcept = default;

  constexpr iterator begin() const noexcept { return data_; }
  constexpr iterator end() const noexcept { return data_ + size(); }
  constexpr reverse_iterator rbegin() const noexcept { return reverse_iterator(end()); }
  constexpr reverse_iterator rend() const noexcept { return reverse_iterator(begin()); }

  constexpr reference front() const { return data_[0]; }
  constexpr reference back() const { return data_[size() - 1]; }
  constexpr reference operator[](size_type index) const { return data_[index]; }
  constexpr pointer data() const noexcept { return data_; }

  constexpr size_type size() const noexcept { return size_.value(); }
  constexpr size_type size_bytes() const noexcept { return size() * sizeof(element_type); }
  [[nodiscard]] constexpr bool empty() const noexcept { return size() == 0; }

  template <std::size_t Count> constexpr span<element_type, Count> first() const { return {data_, Count}; }
  constexpr span<element_type, dynamic_extent> first(size_type count) const { return {data_, count}; }
  template <std::size_t Count> constexpr span<element_type, Count> last() const {
    return {data_ + (size() - Count), Count};
  }
  constexpr span<element_type, dynamic_extent> last(size_type count) const { return {data_ + (size() - count), count}; }
  template <std::size_t Offset, std::size_t Count = dynamic_extent> constexpr auto subspan() const {
    constexpr std::size_t E = Count != dynamic_extent    ? Count
                              : Extent != dynamic_extent ? Extent - Offset
                                                         : dynamic_extent;
    return span<element_type, E>(data_ + Offset, Count != dynamic_extent ? Count : size() - Offset);
  }
  constexpr span<element_type, dynamic_extent> subspan(size_type offset, size_type count = dynamic_extent) const {
    return {data_ + offset, count != dynamic_extent ? count : size() - offset};
  }

private:
  pointer data_;
  detail::span_size<Extent> size_;
};

// Deduction guides (as C++20's).
template <typename T, std::size_t N> span(T (&)[N]) -> span<T, N>;
template <typename T, std::size_t N> span(std::array<T, N> &) -> span<T, N>;
template <typename T, std::size_t N> span(const std::array<T, N> &) -> span<const T, N>;
template <typename Container> span(Container &)
    -> span<std::remove_pointer_t<decltype(std::declval<Container &>().data())>>;
template <typename Container> span(const Container &)
    -> span<std::remove_pointer_t<decltype(std::declval<const Container &>().data())>>;

template <typename ElementType, std::size_t Extent>
span<const std::byte, Extent == dynamic_extent ? dynamic_extent : Extent * sizeof(ElementType)>
as_bytes(span<ElementType, Extent> s) noexcept {
  return {reinterpret_cast<const std::byte *>(s.data()), s.size_bytes()};
}
template <typename ElementType, std::size_t Extent, typename = std::enable_if_t<!std::is_const_v<ElementType>>>
span<std::byte, Extent == dynamic_extent ? dynamic_extent : Extent * sizeof(ElementType)>
as_writable_bytes(span<ElementType, Extent> s) noexcept {
  return {reinterpret_cast<std::byte *>(s.data()), s.size_bytes()};
}

}  // namespace sycl
