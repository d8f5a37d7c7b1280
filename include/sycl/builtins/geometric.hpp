// SYCL 2020 §4.17.9 geometric functions, for the "generic geometric types"
// (float, double and half; vec, swizzles and marray of them with 2, 3 or 4
// elements) and, for the fast_ functions, their float members. Two
// arguments agree in shape and element type; cross takes 3 or 4 elements.
//
// half is computed in float and rounded once at the end. length, distance
// and normalize rescale by a power of two when the sum of squares would
// overflow or underflow, so they stay accurate over the whole range; the
// fast_ versions do not (the spec lets them return garbage there).
#pragma once

#include "elementwise.hpp"

#include <cmath>
#include <limits>
#include <type_traits>

namespace sycl {

namespace detail {
template <typename T>
inline constexpr bool is_geometric_v = is_genfloat_v<T> &&
                                       (!is_nonscalar_v<T> || (element_count_v<T> >= 2 && element_count_v<T> <= 4));
template <typename T> inline constexpr bool is_float_geometric_v =
    is_geometric_v<T> &&std::is_same_v<element_type_t<T>, float>;

template <bool Condition, typename T1, typename T2> using geometric_scalar_result_t =
    std::enable_if_t<Condition && std::is_same_v<vec_value_t<T1>, vec_value_t<T2>>, element_type_t<T1>>;
template <bool Condition, typename T> using geometric_result_t = std::enable_if_t<Condition, vec_value_t<T>>;

// The lanes below belong to values (a swizzle already read as its vec).
template <typename P, typename Q> auto sum_of_products(const P &p, const Q &q) {
  using C = computation_t<element_type_t<P>>;
  C sum = C(0);
  for (std::size_t i = 0; i < element_count_v<P>; ++i) sum += C(lane_of(p, i)) * C(lane_of(q, i));
  return sum;
}

template <typename P> auto largest_magnitude(const P &p) {
  using C = computation_t<element_type_t<P>>;
  C largest = C(0);
  for (std::size_t i = 0; i < element_count_v<P>; ++i) largest = std::fmax(largest, std::fabs(C(lane_of(p, i))));
  return largest;
}

// Whether a sum of squares can be used as it is: neither overflowed nor
// (partly) underflowed.
template <typename C> bool is_safe_sum(C sum) { return sum >= std::numeric_limits<C>::min() && std::isfinite(sum); }

template <typename P> auto length(const P &p) {
  using C = computation_t<element_type_t<P>>;
  const C sum = sum_of_products(p, p);
  if (is_safe_sum(sum)) return std::sqrt(sum);
  const C largest = largest_magnitude(p);
  if (std::isinf(largest)) return largest;  // infinity wins over NaN, as in hypot
  if (sum != sum || largest == C(0)) return sum;
  const int exponent = std::ilogb(largest);
  C scaled = C(0);
  for (std::size_t i = 0; i < element_count_v<P>; ++i) {
    const C lane = std::ldexp(C(lane_of(p, i)), -exponent);
    scaled += lane * lane;
  }
  return std::ldexp(std::sqrt(scaled), exponent);
}

// p / length(p). All zeros stay; infinite elements count as +-1 and the
// others as +-0 (OpenCL's normalize).
template <typename P> P normalize(const P &p) {
  using E = element_type_t<P>;
  using C = computation_t<E>;
  if constexpr (!is_nonscalar_v<P>) {
    return p == p && C(p) != C(0) ? E(std::copysign(C(1), C(p))) : p;
  } else {
    P q = p;
    C sum = sum_of_products(p, p);
    if (!is_safe_sum(sum) && sum == sum) {
      const C largest = largest_magnitude(p);
      if (largest == C(0)) return p;
      const int exponent = std::ilogb(largest);
      for (std::size_t i = 0; i < element_count_v<P>; ++i) {
        const C lane = C(p[i]);
        q[i] =
            E(std::isinf(largest) ? std::copysign(std::isinf(lane) ? C(1) : C(0), lane) : std::ldexp(lane, -exponent));
      }
      sum = sum_of_products(q, q);
    }
    const C root = std::sqrt(sum);
    for (std::size_t i = 0; i < element_count_v<P>; ++i) q[i] = E(C(q[i]) / root);
    return q;
  }
}

template <typename P> P fast_normalize(const P &p) {
  const float sum = sum_of_products(p, p);
  if (sum == 0.0f) return p;
  const float scale = 1.0f / std::sqrt(sum);
  return lanewise([scale](float v) { return v * scale; }, p);
}
}  // namespace detail

template <typename T1, typename T2>
detail::geometric_scalar_result_t<detail::is_geometric_v<T1>, T1, T2> dot(T1 p0, T2 p1) {
  return detail::element_type_t<T1>(detail::sum_of_products(detail::as_value(p0), detail::as_value(p1)));
}

// The cross product of the first three elements; a fourth is 0.
template <typename T1, typename T2>
detail::same_shape_result_t<detail::is_genfloat_v<T1> && detail::is_nonscalar_v<T1> &&
                                (detail::element_count_v<T1> == 3 || detail::element_count_v<T1> == 4),
                            T1, T2>
cross(T1 p0, T2 p1) {
  using E = detail::element_type_t<T1>;
  using C = detail::computation_t<E>;
  const auto &a = detail::as_value(p0);
  const auto &b = detail::as_value(p1);
  detail::vec_value_t<T1> result;
  result[0] = E(C(a[1]) * C(b[2]) - C(a[2]) * C(b[1]));
  result[1] = E(C(a[2]) * C(b[0]) - C(a[0]) * C(b[2]));
  result[2] = E(C(a[0]) * C(b[1]) - C(a[1]) * C(b[0]));
  if constexpr (detail::element_count_v<T1> == 4) result[3] = E(0);
  return result;
}

template <typename T> detail::geometric_scalar_result_t<detail::is_geometric_v<T>, T, T> length(T p) {
  return detail::element_type_t<T>(detail::length(detail::as_value(p)));
}
template <typename T1, typename T2>
detail::geometric_scalar_result_t<detail::is_geometric_v<T1>, T1, T2> distance(T1 p0, T2 p1) {
  return sycl::length(detail::lanewise_math([](auto a, auto b) { return a - b; }, p0, p1));
}
template <typename T> detail::geometric_result_t<detail::is_geometric_v<T>, T> normalize(T p) {
  return detail::normalize(detail::as_value(p));
}

// sqrt of the sum of squares, with no rescaling.
template <typename T> detail::geometric_scalar_result_t<detail::is_float_geometric_v<T>, T, T> fast_length(T p) {
  const auto &value = detail::as_value(p);
  return std::sqrt(detail::sum_of_products(value, value));
}
template <typename T1, typename T2>
detail::geometric_scalar_result_t<detail::is_float_geometric_v<T1>, T1, T2> fast_distance(T1 p0, T2 p1) {
  return sycl::fast_length(detail::lanewise([](float a, float b) { return a - b; }, p0, p1));
}
template <typename T> detail::geometric_result_t<detail::is_float_geometric_v<T>, T> fast_normalize(T p) {
  return detail::fast_normalize(detail::as_value(p));
}

}  // namespace sycl
