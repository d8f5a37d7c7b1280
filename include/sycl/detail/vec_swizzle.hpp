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

namespace sycl::detail::swizzled {
// This namespace holds the view and its operators only: ADL on a view finds
// nothing else here.

template <typename DataT, int SourceN, bool Const, int... Indexes> class vec_swizzle
    : public vec_base<vec_swizzle<DataT, SourceN, Const, Indexes...>, int(sizeof...(Indexes))> {
  static constexpr int kCount = int(sizeof...(Indexes));
  static constexpr int kIndex[kCount] = {Indexes...};
  using vec_t = vec<DataT, kCount>;
  using pointer = std::conditional_t<Const, const DataT *, DataT *>;
  using reference = std::conditional_t<Const, const DataT &, DataT &>;
  // Writing through a view needs each element named once.
  static constexpr bool kWriteable = !Const && [] {
    for (int i = 0; i < kCount; ++i)
      for (int j = 0; j < i; ++j)
        if (kIndex[i] == kIndex[j]) return false;
    return true;
  }();
  template <typename T> using scalar_if = std::enable_if_t<vec_scalar_operand_v<T, DataT>, int>;
  // Another swizzle of the same element type and size.
  template <typename S> using swizzle_if =
      std::enable_if_t<is_swizzle_v<S> && std::is_same_v<vec_value_t<S>, vec_t>, int>;

public:
  using element_type = DataT;
  using value_type = DataT;
  using onepass_swizzle_vec = vec_t;  // generic_types.hpp: this is a swizzle of vec_t

  vec_swizzle(const vec_swizzle &) = default;

  // The whole source vec read at once and its lanes shuffled: one vector
  // load (a 128-bit access for a float4) rather than one per element.
  operator vec_t() const { return onepass_value(); }
  vec_t onepass_value() const {
    using source_native = native_vec_t<DataT, SourceN>;
    source_native source;
    __builtin_memcpy(&source, __builtin_assume_aligned(elems_, alignof(vec<DataT, SourceN>)), sizeof(source));
    return vec_access<DataT, kCount>::from_native(__builtin_shufflevector(source, source, Indexes...));
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

  // Element access, as on a vec of this size (§4.14.2.4.4).
#define ONEPASS_SWIZZLE_ELEMENT(name, index, available)                                                                \
  template <int M = kCount, std::enable_if_t<(available), int> = 0> reference name() const {                           \
    return elems_[kIndex[index]];                                                                                      \
  }
  ONEPASS_VEC_ELEMENT_ACCESSORS(ONEPASS_SWIZZLE_ELEMENT)
#undef ONEPASS_SWIZZLE_ELEMENT

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

  // Writes value through the view (the operators below use it).
  const vec_swizzle &assign(const vec_t &value) const {
    static_assert(kWriteable, "SYCL 2020 §4.14.2.4: only a swizzle of a non-const vec that names each element "
                              "once can be assigned to");
    if constexpr (kWriteable)
      for (int i = 0; i < kCount; ++i) elems_[kIndex[i]] = value[i];
    return *this;
  }
  static constexpr bool writeable = kWriteable;

private:
  template <typename, int> friend class sycl::vec;
  template <typename, int, bool, int...> friend class vec_swizzle;

  explicit vec_swizzle(pointer elems) : elems_(elems) {}

  template <int First, int Stride, std::size_t... I> auto part_of(std::index_sequence<I...>) const {
    // Halves of an odd count take one more (an undefined) element, as a
    // 3-element vec does (§4.14.2.1).
    return vec_swizzle<DataT, SourceN, Const,
                       kIndex[(First + Stride * int(I)) < kCount ? First + Stride * int(I) : kCount - 1]...>(elems_);
  }
  template <int First, int Stride> auto part() const {
    return part_of<First, Stride>(std::make_index_sequence<std::size_t((kCount + 1) / 2)>());
  }

  pointer elems_;
};

// --- operators (§4.14.2.4.5): as on the vec the view makes -------------------
// Function templates of this namespace rather than hidden friends, for the
// reason vec.hpp gives; ADL finds them for views only.

// The vec an operation of L and R works on: one of them is a view, the other
// a view of the same vec type, that vec type, or a scalar convertible to its
// elements.
template <typename L, typename R, typename = void> struct operation {};
template <typename L, typename R>
struct operation<L, R,
                 std::enable_if_t<is_swizzle_v<L> && (std::is_same_v<vec_value_t<R>, vec_value_t<L>> ||
                                                      vec_scalar_operand_v<R, element_type_t<L>>)>> {
  using type = vec_value_t<L>;
};
template <typename L, typename R>
struct operation<L, R,
                 std::enable_if_t<!is_swizzle_v<L> && is_swizzle_v<R> &&
                                  (std::is_same_v<L, vec_value_t<R>> || vec_scalar_operand_v<L, element_type_t<R>>)>> {
  using type = vec_value_t<R>;
};
template <typename L, typename R> using operation_t = typename operation<L, R>::type;
template <typename V> using integral_if = std::enable_if_t<integral_lanes_v<typename V::element_type>, int>;
template <typename V> using any_if = int;

// A view as the vec it makes; a vec or scalar as itself.
template <typename T> decltype(auto) operand(const T &value) {
  if constexpr (is_swizzle_v<T>) return value.onepass_value();
  else return (value);
}

#define ONEPASS_SWIZZLE_BINARY(op, enable_if)                                                                          \
  template <typename L, typename R, typename V = operation_t<L, R>, enable_if<V> = 0>                                  \
  V operator op(const L &lhs, const R &rhs) {                                                                          \
    return V(operand(lhs)) op operand(rhs);                                                                            \
  }                                                                                                                    \
  template <typename S, typename R, typename V = operation_t<S, R>, enable_if<V> = 0,                                  \
            std::enable_if_t<is_swizzle_v<S> && S::writeable, int> = 0>                                                \
  const S &operator op##=(const S &lhs, const R &rhs) {                                                                \
    return lhs.assign(V(lhs) op operand(rhs));                                                                         \
  }
ONEPASS_SWIZZLE_BINARY(+, any_if)
ONEPASS_SWIZZLE_BINARY(-, any_if)
ONEPASS_SWIZZLE_BINARY(*, any_if)
ONEPASS_SWIZZLE_BINARY(/, any_if)
ONEPASS_SWIZZLE_BINARY(%, integral_if)
ONEPASS_SWIZZLE_BINARY(&, integral_if)
ONEPASS_SWIZZLE_BINARY(|, integral_if)
ONEPASS_SWIZZLE_BINARY(^, integral_if)
ONEPASS_SWIZZLE_BINARY(<<, integral_if)
ONEPASS_SWIZZLE_BINARY(>>, integral_if)
#undef ONEPASS_SWIZZLE_BINARY

#define ONEPASS_SWIZZLE_RELATION(op)                                                                                   \
  template <typename L, typename R, typename V = operation_t<L, R>> auto operator op(const L &lhs, const R &rhs) {     \
    return V(operand(lhs)) op operand(rhs);                                                                            \
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

template <typename S, std::enable_if_t<is_swizzle_v<S>, int> = 0> auto operator!(const S &view) {
  return !vec_value_t<S>(view);
}
template <typename S, std::enable_if_t<is_swizzle_v<S>, int> = 0, integral_if<vec_value_t<S>> = 0>
vec_value_t<S> operator~(const S &view) {
  return ~vec_value_t<S>(view);
}
template <typename S, std::enable_if_t<is_swizzle_v<S>, int> = 0> vec_value_t<S> operator+(const S &view) {
  return vec_value_t<S>(view);
}
template <typename S, std::enable_if_t<is_swizzle_v<S>, int> = 0> vec_value_t<S> operator-(const S &view) {
  return -vec_value_t<S>(view);
}

// ++ and -- on writeable views (not of bool).
template <typename S> using step_if =
    std::enable_if_t<is_swizzle_v<S> && S::writeable && !std::is_same_v<element_type_t<S>, bool>, int>;
template <typename S, step_if<S> = 0> const S &operator++(const S &view) {
  return view.assign(vec_value_t<S>(view) + element_type_t<S>(1));
}
template <typename S, step_if<S> = 0> const S &operator--(const S &view) {
  return view.assign(vec_value_t<S>(view) - element_type_t<S>(1));
}
template <typename S, step_if<S> = 0> vec_value_t<S> operator++(const S &view, int) {
  vec_value_t<S> old(view);
  view.assign(old + element_type_t<S>(1));
  return old;
}
template <typename S, step_if<S> = 0> vec_value_t<S> operator--(const S &view, int) {
  vec_value_t<S> old(view);
  view.assign(old - element_type_t<S>(1));
  return old;
}

}  // namespace sycl::detail::swizzled
