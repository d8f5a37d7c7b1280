// SYCL 2020 §4.17.8 common functions, for float, double and half scalars and
// vec, swizzles and marray of them. The integer overloads of clamp, max and
// min (§4.17.7) are in integer.hpp.
//
// Arguments agree in shape (elementwise.hpp); clamp, max, min, mix, step and
// smoothstep also take a NonScalar with scalars of its element type, as the
// spec's overloads (2) list them.
#pragma once

#include "elementwise.hpp"

#include <cmath>

namespace sycl {

namespace detail {
template <typename T> inline constexpr T degrees_per_radian_v = T(57.29577951308232087679815481410517033L);
template <typename T> inline constexpr T radians_per_degree_v = T(0.01745329251994329576923690768488612713L);

// In T, operation by operation (OpenCL's formula), for half too: the CTS
// compares half results with that sequence's within 1e-5, less than a half
// ulp. (2t is exact, so a fused 3 - 2t rounds the same.)
template <typename T> T smoothstep(T edge0, T edge1, T x) {
  const T t = std::fmin(std::fmax((x - edge0) / (edge1 - edge0), T(0)), T(1));
  return t * t * (T(3) - T(2) * t);
}
// 1, -1, the zero x is (keeping its sign), or 0 for NaN.
template <typename T> T sign(T x) {
  if (x != x) return T(0);
  return x > T(0) ? T(1) : x < T(0) ? T(-1) : x;
}
}  // namespace detail

// clamp: fmin(fmax(x, minval), maxval).
template <typename T1, typename T2, typename T3>
detail::genfloat_result_t<T1, T2, T3> clamp(T1 x, T2 minval, T3 maxval) {
  return detail::lanewise_math([](auto v, auto lo, auto hi) { return std::fmin(std::fmax(v, lo), hi); }, x, minval,
                               maxval);
}
template <typename T>
detail::nonscalar_genfloat_result_t<T> clamp(T x, detail::element_type_t<T> minval, detail::element_type_t<T> maxval) {
  return detail::lanewise_math([](auto v, auto lo, auto hi) { return std::fmin(std::fmax(v, lo), hi); }, x, minval,
                               maxval);
}

template <typename T> detail::genfloat_result_t<T> degrees(T radians) {
  return detail::lanewise_math([](auto v) { return v * detail::degrees_per_radian_v<decltype(v)>; }, radians);
}
template <typename T> detail::genfloat_result_t<T> radians(T degrees) {
  return detail::lanewise_math([](auto v) { return v * detail::radians_per_degree_v<decltype(v)>; }, degrees);
}

// max and min: the spec leaves infinities and NaN out (preconditions); these
// are fmax and fmin, which also order those.
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> max(T1 x, T2 y) {
  return detail::lanewise_math([](auto a, auto b) { return std::fmax(a, b); }, x, y);
}
template <typename T> detail::nonscalar_genfloat_result_t<T> max(T x, detail::element_type_t<T> y) {
  return detail::lanewise_math([](auto a, auto b) { return std::fmax(a, b); }, x, y);
}
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> min(T1 x, T2 y) {
  return detail::lanewise_math([](auto a, auto b) { return std::fmin(a, b); }, x, y);
}
template <typename T> detail::nonscalar_genfloat_result_t<T> min(T x, detail::element_type_t<T> y) {
  return detail::lanewise_math([](auto a, auto b) { return std::fmin(a, b); }, x, y);
}

// mix: x + (y - x) * a.
template <typename T1, typename T2, typename T3> detail::genfloat_result_t<T1, T2, T3> mix(T1 x, T2 y, T3 a) {
  return detail::lanewise_math([](auto u, auto v, auto w) { return u + (v - u) * w; }, x, y, a);
}
template <typename T1, typename T2>
detail::same_shape_result_t<detail::is_nonscalar_v<T1> && detail::is_genfloat_v<T1>, T1, T2>
mix(T1 x, T2 y, detail::element_type_t<T1> a) {
  return detail::lanewise_math([](auto u, auto v, auto w) { return u + (v - u) * w; }, x, y, a);
}

// step: 0 if x < edge, else 1.
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> step(T1 edge, T2 x) {
  return detail::lanewise_math([](auto e, auto v) { return v < e ? decltype(v)(0) : decltype(v)(1); }, edge, x);
}
template <typename T> detail::nonscalar_genfloat_result_t<T> step(detail::element_type_t<T> edge, T x) {
  return detail::lanewise_math([](auto e, auto v) { return v < e ? decltype(v)(0) : decltype(v)(1); }, edge, x);
}

// smoothstep: Hermite interpolation between 0 (x <= edge0) and 1 (x >= edge1).
// (Lane by lane in the element type, half too: detail::smoothstep.)
template <typename T1, typename T2, typename T3>
detail::genfloat_result_t<T1, T2, T3> smoothstep(T1 edge0, T2 edge1, T3 x) {
  return detail::lanewise([](auto e0, auto e1, auto v) { return detail::smoothstep(e0, e1, v); }, edge0, edge1, x);
}
template <typename T> detail::nonscalar_genfloat_result_t<T> smoothstep(detail::element_type_t<T> edge0,
                                                                        detail::element_type_t<T> edge1, T x) {
  return detail::lanewise([](auto e0, auto e1, auto v) { return detail::smoothstep(e0, e1, v); }, edge0, edge1, x);
}

template <typename T> detail::genfloat_result_t<T> sign(T x) {
  return detail::lanewise_math([](auto v) { return detail::sign(v); }, x);
}

// The scalar forms as functions of float, double and half (rev 10).
ONEPASS_SCALAR_FLOAT_FORMS_1(degrees)
ONEPASS_SCALAR_FLOAT_FORMS_1(radians)
ONEPASS_SCALAR_FLOAT_FORMS_1(sign)
ONEPASS_SCALAR_FLOAT_FORMS_3(clamp)
ONEPASS_SCALAR_FLOAT_FORMS_2(max)
ONEPASS_SCALAR_FLOAT_FORMS_2(min)
ONEPASS_SCALAR_FLOAT_FORMS_3(mix)
ONEPASS_SCALAR_FLOAT_FORMS_2(step)
ONEPASS_SCALAR_FLOAT_FORMS_3(smoothstep)

}  // namespace sycl
