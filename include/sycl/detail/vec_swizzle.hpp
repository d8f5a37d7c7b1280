// SYCL 2020 §4.14.2.3-4.14.2.4: the swizzled views of a vec that
// vec::swizzle<...>(), lo(), hi(), odd(), even() (and the simple swizzles)
// return. One class serves both of the spec's classes: with Const false it
// is __writeable_swizzle__, with Const true __const_swizzle__.
//
// A view points at the vec's elements; its template arguments are the
// element type, the source vec's size and the indexes, so argument-dependent
// lookup sees only the view and DataT (§4.14.2.4), never vec. Every
// operation on a view behaves as if it were first copied into a vec.
#pragma once

#include "../vec.hpp"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace sycl::detail {

template <typename DataT, int SourceN, bool Const, int... Indexes> class vec_swizzle {
  static constexpr int kCount = int(sizeof...(Indexes));
  static constexpr int kIndex[kCount] = {Indexes...};
  using vec_t = vec<DataT, kCount>;
  using rel_vec = vec<rel_t<DataT>, kCount>;
  using pointer = std::conditional_t<Const, const DataT *, DataT *>;
  using reference = std::conditional_t<Const, const DataT &, DataT &>;
  static constexpr bool kIntegral = integral_lanes_v<DataT>;
  // Writing through a view needs each element named once.
  static constexpr bool kWriteable = !Const && [] {
    for (int i = 0; i < kCount; ++i)
      for (int j = 0; j < i; ++j)
        if (kIndex[i] == kIndex[j]) return false;
    return true;
  }();
  template <typename T>
  using scalar_if = std::enable_if_t<vec_scalar_operand_v<T, DataT>, int>;
  // Another swizzle of the same element type and size.
  template <typename S>
  using swizzle_if = std::enable_if_t<is_swizzle_v<S> && std::is_same_v<vec_value_t<S>, vec_t>, int>;

 public:
  using element_type = DataT;
  using value_type = DataT;
  using onepass_swizzle_vec = vec_t;  // generic_types.hpp: this is a swizzle of vec_t

  vec_swizzle(const vec_swizzle &) = default;

  operator vec_t() const {
    vec_t result;
    for (int i = 0; i < kCount; ++i) result[i] = elems_[kIndex[i]];
    return result;
  }
  template <int M = kCount, std::enable_if_t<M == 1, int> = 0> operator DataT() const { return elems_[kIndex[0]]; }

  static constexpr std::size_t byte_size() noexcept { return sizeof(vec_t); }
  static constexpr std::size_t size() noexcept { return kCount; }
  [[deprecated("use size() (SYCL 2020)")]] std::size_t get_size() const { return byte_size(); }
  [[deprecated("use size() (SYCL 2020)")]] std::size_t get_count() const { return size(); }

  template <typename ConvertT, rounding_mode RoundingMode = rounding_mode::automatic>
  vec<ConvertT, kCount> convert() const {
    return vec_t(*this).template convert<ConvertT, RoundingMode>();
  }
  template <typename AsT> AsT as() const { return vec_t(*this).template as<AsT>(); }

  reference operator[](int index) const { return elems_[kIndex[index]]; }

  // A swizzle of a swizzle views the same vec.
  template <int... J> auto swizzle() const {
    static_assert((... && (J >= 0 && J < kCount)), "SYCL 2020 §4.14.2.3: swizzle indexes are below size()");
    return vec_swizzle<DataT, SourceN, Const, kIndex[J]...>(elems_);
  }
  template <int M = kCount, std::enable_if_t<(M > 1), int> = 0> auto lo() const { return part<0, 1>(); }
  template <int M = kCount, std::enable_if_t<(M > 1), int> = 0> auto hi() const { return part<(kCount + 1) / 2, 1>(); }
  template <int M = kCount, std::enable_if_t<(M > 1), int> = 0> auto even() const { return part<0, 2>(); }
  template <int M = kCount, std::enable_if_t<(M > 1), int> = 0> auto odd() const { return part<1, 2>(); }

  template <typename Ptr> void load(std::size_t offset, Ptr ptr) const {
    vec_t value;
    value.load(offset, ptr);
    *this = value;
  }
  template <typename Ptr> void store(std::size_t offset, Ptr ptr) const { vec_t(*this).store(offset, ptr); }

  // --- assignment (writeable views) ---------------------------------------
  const vec_swizzle &operator=(const vec_swizzle &rhs) const { return assign(vec_t(rhs)); }
  const vec_swizzle &operator=(const vec_t &rhs) const { return assign(rhs); }
  template <typename S, swizzle_if<S> = 0> const vec_swizzle &operator=(const S &rhs) const {
    return assign(vec_t(rhs));
  }
  template <typename T, scalar_if<T> = 0> const vec_swizzle &operator=(const T &rhs) const {
    return assign(vec_t(static_cast<DataT>(rhs)));
  }

  // --- operators (§4.14.2.4.5): as on the vec the view makes ----------------
#define ONEPASS_SWIZZLE_BINARY(op, enabled)                                                              \
  template <bool E = (enabled), std::enable_if_t<E, int> = 0>                                           \
  friend vec_t operator op(const vec_swizzle &lhs, const vec_t &rhs) {                                   \
    return vec_t(lhs) op rhs;                                                                            \
  }                                                                                                      \
  template <bool E = (enabled), std::enable_if_t<E, int> = 0>                                           \
  friend vec_t operator op(const vec_t &lhs, const vec_swizzle &rhs) {                                   \
    return lhs op vec_t(rhs);                                                                            \
  }                                                                                                      \
  template <typename S, bool E = (enabled), swizzle_if<S> = 0, std::enable_if_t<E, int> = 0>           \
  friend vec_t operator op(const vec_swizzle &lhs, const S &rhs) {                                       \
    return vec_t(lhs) op vec_t(rhs);                                                                     \
  }                                                                                                      \
  template <typename T, bool E = (enabled), scalar_if<T> = 0, std::enable_if_t<E, int> = 0>             \
  friend vec_t operator op(const vec_swizzle &lhs, const T &rhs) {                                       \
    return vec_t(lhs) op rhs;                                                                            \
  }                                                                                                      \
  template <typename T, bool E = (enabled), scalar_if<T> = 0, std::enable_if_t<E, int> = 0>             \
  friend vec_t operator op(const T &lhs, const vec_swizzle &rhs) {                                       \
    return lhs op vec_t(rhs);                                                                            \
  }                                                                                                      \
  template <typename R, bool E = (enabled) && kWriteable,                                                \
            std::enable_if_t<E && (vec_scalar_operand_v<R, DataT> || std::is_same_v<R, vec_t> ||          \
                                   std::is_same_v<vec_value_t<R>, vec_t>),                                \
                             int> = 0>                                                                   \
  friend const vec_swizzle &operator op##=(const vec_swizzle & lhs, const R & rhs) {                     \
    return lhs.assign(vec_t(lhs) op vec_value_t<R>(rhs));                                                \
  }
  ONEPASS_SWIZZLE_BINARY(+, true)
  ONEPASS_SWIZZLE_BINARY(-, true)
  ONEPASS_SWIZZLE_BINARY(*, true)
  ONEPASS_SWIZZLE_BINARY(/, true)
  ONEPASS_SWIZZLE_BINARY(%, kIntegral)
  ONEPASS_SWIZZLE_BINARY(&, kIntegral)
  ONEPASS_SWIZZLE_BINARY(|, kIntegral)
  ONEPASS_SWIZZLE_BINARY(^, kIntegral)
  ONEPASS_SWIZZLE_BINARY(<<, kIntegral)
  ONEPASS_SWIZZLE_BINARY(>>, kIntegral)
#undef ONEPASS_SWIZZLE_BINARY

#define ONEPASS_SWIZZLE_RELATION(op)                                                                     \
  friend rel_vec operator op(const vec_swizzle &lhs, const vec_t &rhs) { return vec_t(lhs) op rhs; }     \
  friend rel_vec operator op(const vec_t &lhs, const vec_swizzle &rhs) { return lhs op vec_t(rhs); }     \
  template <typename S, swizzle_if<S> = 0> friend rel_vec operator op(const vec_swizzle &lhs, const S &rhs) { \
    return vec_t(lhs) op vec_t(rhs);                                                                     \
  }                                                                                                      \
  template <typename T, scalar_if<T> = 0> friend rel_vec operator op(const vec_swizzle &lhs, const T &rhs) { \
    return vec_t(lhs) op rhs;                                                                            \
  }                                                                                                      \
  template <typename T, scalar_if<T> = 0> friend rel_vec operator op(const T &lhs, const vec_swizzle &rhs) { \
    return lhs op vec_t(rhs);                                                                            \
  }
  ONEPASS_SWIZZLE_RELATION(==)
  ONEPASS_SWIZZLE_RELATION(!=)
  ONEPASS_SWIZZLE_RELATION(<)
  ONEPASS_SWIZZLE_RELATION(>)
  ONEPASS_SWIZZLE_RELATION(<=)
  ONEPASS_SWIZZLE_RELATION(>=)
  ONEPASS_SWIZZLE_RELATION(&&)
  ONEPASS_SWIZZLE_RELATION(||)
#undef ONEPASS_SWIZZLE_RELATION

  friend rel_vec operator!(const vec_swizzle &v) { return !vec_t(v); }
  template <bool E = kIntegral, std::enable_if_t<E, int> = 0> friend vec_t operator~(const vec_swizzle &v) {
    return ~vec_t(v);
  }
  friend vec_t operator+(const vec_swizzle &v) { return vec_t(v); }
  friend vec_t operator-(const vec_swizzle &v) { return -vec_t(v); }

  template <bool E = kWriteable && !std::is_same_v<DataT, bool>, std::enable_if_t<E, int> = 0>
  friend const vec_swizzle &operator++(const vec_swizzle &v) {
    return v.assign(vec_t(v) + DataT(1));
  }
  template <bool E = kWriteable && !std::is_same_v<DataT, bool>, std::enable_if_t<E, int> = 0>
  friend const vec_swizzle &operator--(const vec_swizzle &v) {
    return v.assign(vec_t(v) - DataT(1));
  }
  template <bool E = kWriteable && !std::is_same_v<DataT, bool>, std::enable_if_t<E, int> = 0>
  friend vec_t operator++(const vec_swizzle &v, int) {
    vec_t old(v);
    v.assign(old + DataT(1));
    return old;
  }
  template <bool E = kWriteable && !std::is_same_v<DataT, bool>, std::enable_if_t<E, int> = 0>
  friend vec_t operator--(const vec_swizzle &v, int) {
    vec_t old(v);
    v.assign(old - DataT(1));
    return old;
  }

 private:
  template <typename, int> friend class sycl::vec;
  template <typename, int, bool, int...> friend class vec_swizzle;

  explicit vec_swizzle(pointer elems) : elems_(elems) {}

  const vec_swizzle &assign(const vec_t &value) const {
    static_assert(kWriteable, "SYCL 2020 §4.14.2.4: only a swizzle of a non-const vec that names each element "
                              "once can be assigned to");
    if constexpr (kWriteable)
      for (int i = 0; i < kCount; ++i) elems_[kIndex[i]] = value[i];
    return *this;
  }

  template <int First, int Stride, std::size_t... I> auto part_of(std::index_sequence<I...>) const {
    // Halves of an odd count take one more (an undefined) element, as a
    // 3-element vec does (§4.14.2.1).
    return vec_swizzle<DataT, SourceN, Const, kIndex[(First + Stride * int(I)) < kCount ? First + Stride * int(I) : kCount - 1]...>(elems_);
  }
  template <int First, int Stride> auto part() const {
    return part_of<First, Stride>(std::make_index_sequence<std::size_t((kCount + 1) / 2)>());
  }

  pointer elems_;
};

}  // namespace sycl::detail
