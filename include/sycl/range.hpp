// SYCL 2020 §4.9.1.1 range and §4.9.1.3 id.
#pragma once

#include "detail/array.hpp"

namespace sycl {

#define ONEPASS_ARRAY_OPERATORS(T)                                                                 \
  friend constexpr bool operator==(const T &a, const T &b) {                                       \
    for (int i = 0; i < Dimensions; ++i)                                                           \
      if (a[i] != b[i]) return false;                                                              \
    return true;                                                                                   \
  }                                                                                                \
  friend constexpr bool operator!=(const T &a, const T &b) { return !(a == b); }                   \
  ONEPASS_ARRAY_BINOP(T, +) ONEPASS_ARRAY_BINOP(T, -) ONEPASS_ARRAY_BINOP(T, *)                   \
  ONEPASS_ARRAY_BINOP(T, /) ONEPASS_ARRAY_BINOP(T, %)

#define ONEPASS_ARRAY_BINOP(T, op)                                                                 \
  friend constexpr T operator op(const T &a, const T &b) {                                         \
    T r;                                                                                           \
    for (int i = 0; i < Dimensions; ++i) r[i] = a[i] op b[i];                                      \
    return r;                                                                                      \
  }                                                                                                \
  friend constexpr T operator op(const T &a, std::size_t s) {                                      \
    T r;                                                                                           \
    for (int i = 0; i < Dimensions; ++i) r[i] = a[i] op s;                                         \
    return r;                                                                                      \
  }                                                                                                \
  friend constexpr T &operator op##=(T & a, const T & b) {                                         \
    for (int i = 0; i < Dimensions; ++i) a[i] = a[i] op b[i];                                      \
    return a;                                                                                      \
  }

template <int Dimensions = 1> class range : public detail::array<Dimensions> {
public:
  using detail::array<Dimensions>::array;
  constexpr range() = default;

  constexpr std::size_t size() const {
    std::size_t total = 1;
    for (int i = 0; i < Dimensions; ++i) total *= this->values_[i];
    return total;
  }
  ONEPASS_ARRAY_OPERATORS(range)
};

template <int Dimensions = 1>
class id : public detail::array<Dimensions>, public detail::size_t_conversion<id<Dimensions>, Dimensions> {
public:
  using detail::array<Dimensions>::array;
  constexpr id() = default;
  constexpr id(const range<Dimensions> &r) {
    for (int i = 0; i < Dimensions; ++i) this->values_[i] = r[i];
  }
  ONEPASS_ARRAY_OPERATORS(id)
};

#undef ONEPASS_ARRAY_BINOP
#undef ONEPASS_ARRAY_OPERATORS

range(std::size_t) -> range<1>;
range(std::size_t, std::size_t) -> range<2>;
range(std::size_t, std::size_t, std::size_t) -> range<3>;
id(std::size_t) -> id<1>;
id(std::size_t, std::size_t) -> id<2>;
id(std::size_t, std::size_t, std::size_t) -> id<3>;

}  // namespace sycl
