// SYCL 2020 §4.17.5 native precision math functions (sycl::native), for
// float and for vec, swizzles and marray of float: fast versions whose
// precision and input range are implementation-defined, as the spec allows.
// They are compiled with fast floating point, so NVIDIA GPUs use their
// approximate instructions and libdevice's __nv_fast_* functions.
#pragma once

#include "elementwise.hpp"

namespace sycl::native {

#ifdef __clang__
#pragma float_control(push)
#pragma float_control(precise, off)
#endif
inline float cos(float x) { return __builtin_cosf(x); }
inline float divide(float x, float y) { return x / y; }
inline float exp(float x) { return __builtin_expf(x); }
inline float exp2(float x) { return __builtin_exp2f(x); }
inline float exp10(float x) { return __builtin_exp10f(x); }
inline float log(float x) { return __builtin_logf(x); }
inline float log2(float x) { return __builtin_log2f(x); }
inline float log10(float x) { return __builtin_log10f(x); }
inline float powr(float x, float y) { return __builtin_powf(x, y); }
inline float recip(float x) { return 1.0f / x; }
inline float rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
inline float sin(float x) { return __builtin_sinf(x); }
inline float sqrt(float x) { return __builtin_sqrtf(x); }
inline float tan(float x) { return __builtin_tanf(x); }
#ifdef __clang__
#pragma float_control(pop)
#endif

// The same, lane by lane.
template <typename T> detail::float_nonscalar_result_t<T> cos(T x) {
  return detail::lanewise([](float v) { return native::cos(v); }, x);
}
template <typename T1, typename T2> detail::float_nonscalar_result_t<T1, T2> divide(T1 x, T2 y) {
  return detail::lanewise([](float a, float b) { return native::divide(a, b); }, x, y);
}
template <typename T> detail::float_nonscalar_result_t<T> exp(T x) {
  return detail::lanewise([](float v) { return native::exp(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> exp2(T x) {
  return detail::lanewise([](float v) { return native::exp2(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> exp10(T x) {
  return detail::lanewise([](float v) { return native::exp10(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> log(T x) {
  return detail::lanewise([](float v) { return native::log(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> log2(T x) {
  return detail::lanewise([](float v) { return native::log2(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> log10(T x) {
  return detail::lanewise([](float v) { return native::log10(v); }, x);
}
template <typename T1, typename T2> detail::float_nonscalar_result_t<T1, T2> powr(T1 x, T2 y) {
  return detail::lanewise([](float a, float b) { return native::powr(a, b); }, x, y);
}
template <typename T> detail::float_nonscalar_result_t<T> recip(T x) {
  return detail::lanewise([](float v) { return native::recip(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> rsqrt(T x) {
  return detail::lanewise([](float v) { return native::rsqrt(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> sin(T x) {
  return detail::lanewise([](float v) { return native::sin(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> sqrt(T x) {
  return detail::lanewise([](float v) { return native::sqrt(v); }, x);
}
template <typename T> detail::float_nonscalar_result_t<T> tan(T x) {
  return detail::lanewise([](float v) { return native::tan(v); }, x);
}
}  // namespace sycl::native
