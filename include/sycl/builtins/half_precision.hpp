// SYCL 2020 §4.17.6 half precision math functions (sycl::half_precision),
// for float and for vec, swizzles and marray of float. The spec lets them
// trade accuracy for speed down to 8192 ulp; GPUs' approximate instructions
// (sycl::native) miss that bound near zeros of sin, cos and tan, so these are
// the full-precision §4.17.4 functions, which always meet it.
#pragma once

#include "math.hpp"

namespace sycl::half_precision {

inline float cos(float x) { return sycl::cos(x); }
inline float divide(float x, float y) { return x / y; }
inline float exp(float x) { return sycl::exp(x); }
inline float exp2(float x) { return sycl::exp2(x); }
inline float exp10(float x) { return sycl::exp10(x); }
inline float log(float x) { return sycl::log(x); }
inline float log2(float x) { return sycl::log2(x); }
inline float log10(float x) { return sycl::log10(x); }
inline float powr(float x, float y) { return sycl::powr(x, y); }
inline float recip(float x) { return 1.0f / x; }
inline float rsqrt(float x) { return sycl::rsqrt(x); }
inline float sin(float x) { return sycl::sin(x); }
inline float sqrt(float x) { return sycl::sqrt(x); }
inline float tan(float x) { return sycl::tan(x); }

// The same, lane by lane.
template <typename T> detail::float_nonscalar_result_t<T> cos(T x) {
  return detail::lanewise([](float v) { return half_precision::cos(v); }, x);
}
template <typename T1, typename T2> detail::float_nonscalar_result_t<T1, T2> divide(T1 x, T2 y) {
  return detail::lanewise([](float a, float b) { return half_precision::divide(a, b); }, x, y);
}
template <typename T> detail::float_nonscalar_result_t<T> exp(T x) {
  return detail::lanewise([](float v) { return half_precision::exp(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> exp2(T x) {
  return detail::lanewise([](float v) { return half_precision::exp2(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> exp10(T x) {
  return detail::lanewise([](float v) { return half_precision::exp10(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> log(T x) {
  return detail::lanewise([](float v) { return half_precision::log(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> log2(T x) {
  return detail::lanewise([](float v) { return half_precision::log2(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> log10(T x) {
  return detail::lanewise([](float v) { return half_precision::log10(v); }, x);
}
template <typename T1, typename T2> detail::float_nonscalar_result_t<T1, T2> powr(T1 x, T2 y) {
  return detail::lanewise([](float a, float b) { return half_precision::powr(a, b); }, x, y);
}
template <typename T> detail::float_nonscalar_result_t<T> recip(T x) {
  return detail::lanewise([](float v) { return half_precision::recip(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> rsqrt(T x) {
  return detail::lanewise([](float v) { return half_precision::rsqrt(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> sin(T x) {
  return detail::lanewise([](float v) { return half_precision::sin(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> sqrt(T x) {
  return detail::lanewise([](float v) { return half_precision::sqrt(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> tan(T x) {
  return detail::lanewise([](float v) { return half_precision::tan(v); }, x);
}
}  // namespace sycl::half_precision
