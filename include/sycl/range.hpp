// SYCL 2020 §4.9.1.1 range and §4.9.1.3 id.
#pragma once

#include "detail/array.hpp"

namespace sycl {
namespace detail {

// Element-wise operators of id and range (SYCL 2020 §4.9.1.1, tables 86-87),
// found through ADL on the derived type. Scalars are templates over integral
// types so that `2 * id` and `id + 1` pick these, not the built-in operators
// through id<1>'s conversion to size_t.
template <typename T, int Dimensions> struct array_operators {
  template <typename S> using if_integral = std::enable_if_t<std::is_integral_v<S>, int>;

  friend constexpr bool operator==(const T &a, const T &b) {
    for (int i = 0; i < Dimensions; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  friend constexpr bool operator!=(const T &a, const T &b) { return !(a == b); }

// One element-wise operator, with the other side a T or an integral scalar.
#define ONEPASS_ARRAY_ELEMENTWISE_OPERATOR(op)                                                                         \
  friend constexpr T operator op(const T &a, const T &b) {                                                             \
    T r;                                                                                                               \
    for (int i = 0; i < Dimensions; ++i) r[i] = a[i] op b[i];                                                          \
    return r;                                                                                                          \
  }                                                                                                                    \
  template <typename S, if_integral<S> = 0> friend constexpr T operator op(const T &a, S s) {                          \
    T r;                                                                                                               \
    for (int i = 0; i < Dimensions; ++i) r[i] = a[i] op static_cast<std::size_t>(s);                                   \
    return r;                                                                                                          \
  }                                                                                                                    \
  template <typename S, if_integral<S> = 0> friend constexpr T operator op(S s, const T &a) {                          \
    T r;                                                                                                               \
    for (int i = 0; i < Dimensions; ++i) r[i] = static_cast<std::size_t>(s) op a[i];                                   \
    return r;                                                                                                          \
  }
#define ONEPASS_ARRAY_BINARY_OPERATOR(op)                                                                              \
  ONEPASS_ARRAY_ELEMENTWISE_OPERATOR(op)                                                                               \
  friend constexpr T &operator op##=(T &a, const T &b) {                                                               \
    for (int i = 0; i < Dimensions; ++i) a[i] = a[i] op b[i];                                                          \
    return a;                                                                                                          \
  }                                                                                                                    \
  template <typename S, if_integral<S> = 0> friend constexpr T &operator op##=(T &a, S s) {                            \
    for (int i = 0; i < Dimensions; ++i) a[i] = a[i] op static_cast<std::size_t>(s);                                   \
    return a;                                                                                                          \
  }
  ONEPASS_ARRAY_BINARY_OPERATOR(+)
  ONEPASS_ARRAY_BINARY_OPERATOR(-)
  ONEPASS_ARRAY_BINARY_OPERATOR(*)
  ONEPASS_ARRAY_BINARY_OPERATOR(/)
  ONEPASS_ARRAY_BINARY_OPERATOR(%)
  ONEPASS_ARRAY_BINARY_OPERATOR(<<)
  ONEPASS_ARRAY_BINARY_OPERATOR(>>)
  ONEPASS_ARRAY_BINARY_OPERATOR(&)
  ONEPASS_ARRAY_BINARY_OPERATOR(|)
  ONEPASS_ARRAY_BINARY_OPERATOR(^)
#undef ONEPASS_ARRAY_BINARY_OPERATOR
  // Logical and relational operators: element-wise, each element 1 or 0 (no
  // compound forms).
  ONEPASS_ARRAY_ELEMENTWISE_OPERATOR(&&)
  ONEPASS_ARRAY_ELEMENTWISE_OPERATOR(||)
  ONEPASS_ARRAY_ELEMENTWISE_OPERATOR(<)
  ONEPASS_ARRAY_ELEMENTWISE_OPERATOR(>)
  ONEPASS_ARRAY_ELEMENTWISE_OPERATOR(<=)
  ONEPASS_ARRAY_ELEMENTWISE_OPERATOR(>=)
#undef ONEPASS_ARRAY_ELEMENTWISE_OPERATOR

  // Unary operators.
  friend constexpr T operator+(const T &a) { return a; }
  friend constexpr T operator-(const T &a) {
    T r;
    for (int i = 0; i < Dimensions; ++i) r[i] = -a[i];
    return r;
  }
  friend constexpr T &operator++(T &a) {
    for (int i = 0; i < Dimensions; ++i) ++a[i];
    return a;
  }
  friend constexpr T &operator--(T &a) {
    for (int i = 0; i < Dimensions; ++i) --a[i];
    return a;
  }
  friend constexpr T operator++(T &a, int) {
    T old = a;
    ++a;
    return old;
  }
  friend constexpr T operator--(T &a, int) {
    T old = a;
    --a;
    return old;
  }
};

}  // namespace detail

template <int Dimensions = 1> class range : public detail::array<Dimensions>,
                                            public detail::array_operators<range<Dimensions>, Dimensions> {
public:
  using detail::array<Dimensions>::array;
  constexpr range() = default;

  constexpr std::size_t size() const noexcept {
    std::size_t total = 1;
    for (int i = 0; i < Dimensions; ++i) total *= this->values_[i];
    return total;
  }
};

template <int Dimensions = 1> class id : public detail::array<Dimensions>,
                                         public detail::array_operators<id<Dimensions>, Dimensions>,
                                         public detail::size_t_conversion<id<Dimensions>, Dimensions> {
public:
  using detail::array<Dimensions>::array;
  constexpr id() = default;
  constexpr id(const range<Dimensions> &r) {
    for (int i = 0; i < Dimensions; ++i) this->values_[i] = r[i];
  }
};

range(std::size_t)->range<1>;
range(std::size_t, std::size_t)->range<2>;
range(std::size_t, std::size_t, std::size_t)->range<3>;
id(std::size_t)->id<1>;
id(std::size_t, std::size_t)->id<2>;
id(std::size_t, std::size_t, std::size_t)->id<3>;

}  // namespace sycl
