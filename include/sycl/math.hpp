// SYCL 2020 math (§4.17.5), common (§4.17.6) and integer (§4.17.4) functions
// for scalar float and double (and integers where the spec has them), on the
// host and in kernels. Each one is the C/C++ math function or a short formula
// over them: in a kernel the JIT maps those to the device's math library
// (libdevice on NVIDIA GPUs, the C library on the CPU device). The
// sycl::native functions are the fast, less precise versions (GPUs use their
// approximate instructions); their precision is implementation-defined, as the
// spec allows. Vector and marray overloads, and the functions taking pointers
// (frexp, modf, sincos, remquo, lgamma_r, fract), are not implemented yet.
#pragma once

#include <cmath>
#include <cstdlib>
#include <limits>
#include <type_traits>

namespace sycl {

namespace detail {
template <typename T> inline constexpr bool is_genfloat_v = std::is_same_v<T, float> || std::is_same_v<T, double>;
template <typename T> using genfloat_t = std::enable_if_t<is_genfloat_v<T>, T>;
template <typename T> using geninteger_t = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, T>;
template <typename T> using arithmetic_t = std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, T>;
template <typename T> inline constexpr T pi_v = T(3.141592653589793238462643383279502884L);
}  // namespace detail

// --- math functions (§4.17.5) ---------------------------------------------
template <typename T> detail::genfloat_t<T> acos(T x) { return std::acos(x); }
template <typename T> detail::genfloat_t<T> acosh(T x) { return std::acosh(x); }
template <typename T> detail::genfloat_t<T> acospi(T x) { return std::acos(x) / detail::pi_v<T>; }
template <typename T> detail::genfloat_t<T> asin(T x) { return std::asin(x); }
template <typename T> detail::genfloat_t<T> asinh(T x) { return std::asinh(x); }
template <typename T> detail::genfloat_t<T> asinpi(T x) { return std::asin(x) / detail::pi_v<T>; }
template <typename T> detail::genfloat_t<T> atan(T y_over_x) { return std::atan(y_over_x); }
template <typename T> detail::genfloat_t<T> atan2(T y, T x) { return std::atan2(y, x); }
template <typename T> detail::genfloat_t<T> atanh(T x) { return std::atanh(x); }
template <typename T> detail::genfloat_t<T> atanpi(T x) { return std::atan(x) / detail::pi_v<T>; }
template <typename T> detail::genfloat_t<T> atan2pi(T y, T x) { return std::atan2(y, x) / detail::pi_v<T>; }
template <typename T> detail::genfloat_t<T> cbrt(T x) { return std::cbrt(x); }
template <typename T> detail::genfloat_t<T> ceil(T x) { return std::ceil(x); }
template <typename T> detail::genfloat_t<T> copysign(T x, T y) { return std::copysign(x, y); }
template <typename T> detail::genfloat_t<T> cos(T x) { return std::cos(x); }
template <typename T> detail::genfloat_t<T> cosh(T x) { return std::cosh(x); }
template <typename T> detail::genfloat_t<T> erf(T x) { return std::erf(x); }
template <typename T> detail::genfloat_t<T> erfc(T x) { return std::erfc(x); }
template <typename T> detail::genfloat_t<T> exp(T x) { return std::exp(x); }
template <typename T> detail::genfloat_t<T> exp2(T x) { return std::exp2(x); }
template <typename T> detail::genfloat_t<T> exp10(T x) {
  if constexpr (std::is_same_v<T, float>) return __builtin_exp10f(x);
  else return __builtin_exp10(x);
}
template <typename T> detail::genfloat_t<T> expm1(T x) { return std::expm1(x); }
template <typename T> detail::genfloat_t<T> fabs(T x) { return std::fabs(x); }
template <typename T> detail::genfloat_t<T> fdim(T x, T y) { return std::fdim(x, y); }
template <typename T> detail::genfloat_t<T> floor(T x) { return std::floor(x); }
template <typename T> detail::genfloat_t<T> fma(T a, T b, T c) { return std::fma(a, b, c); }
template <typename T> detail::genfloat_t<T> fmax(T x, T y) { return std::fmax(x, y); }
template <typename T> detail::genfloat_t<T> fmin(T x, T y) { return std::fmin(x, y); }
template <typename T> detail::genfloat_t<T> fmod(T x, T y) { return std::fmod(x, y); }
template <typename T> detail::genfloat_t<T> hypot(T x, T y) { return std::hypot(x, y); }
template <typename T> std::enable_if_t<detail::is_genfloat_v<T>, int> ilogb(T x) { return std::ilogb(x); }
template <typename T> detail::genfloat_t<T> ldexp(T x, int k) { return std::ldexp(x, k); }
template <typename T> detail::genfloat_t<T> lgamma(T x) { return std::lgamma(x); }
template <typename T> detail::genfloat_t<T> log(T x) { return std::log(x); }
template <typename T> detail::genfloat_t<T> log2(T x) { return std::log2(x); }
template <typename T> detail::genfloat_t<T> log10(T x) { return std::log10(x); }
template <typename T> detail::genfloat_t<T> log1p(T x) { return std::log1p(x); }
template <typename T> detail::genfloat_t<T> logb(T x) { return std::logb(x); }
template <typename T> detail::genfloat_t<T> mad(T a, T b, T c) { return a * b + c; }
template <typename T> detail::genfloat_t<T> maxmag(T x, T y) {
  T ax = std::fabs(x), ay = std::fabs(y);
  return ax > ay ? x : ay > ax ? y : std::fmax(x, y);
}
template <typename T> detail::genfloat_t<T> minmag(T x, T y) {
  T ax = std::fabs(x), ay = std::fabs(y);
  return ax < ay ? x : ay < ax ? y : std::fmin(x, y);
}
template <typename T> detail::genfloat_t<T> nextafter(T x, T y) { return std::nextafter(x, y); }
template <typename T> detail::genfloat_t<T> pow(T x, T y) { return std::pow(x, y); }
template <typename T> detail::genfloat_t<T> pown(T x, int n) { return std::pow(x, T(n)); }
template <typename T> detail::genfloat_t<T> powr(T x, T y) {
  return x < T(0) ? std::numeric_limits<T>::quiet_NaN() : std::pow(x, y);
}
template <typename T> detail::genfloat_t<T> remainder(T x, T y) { return std::remainder(x, y); }
template <typename T> detail::genfloat_t<T> rint(T x) { return std::rint(x); }
template <typename T> detail::genfloat_t<T> rootn(T x, int n) {
  if (n == 0) return std::numeric_limits<T>::quiet_NaN();
  if (x < T(0) && n % 2 == 0) return std::numeric_limits<T>::quiet_NaN();
  T root = std::pow(std::fabs(x), T(1) / T(n));
  return x < T(0) ? -root : root;
}
template <typename T> detail::genfloat_t<T> round(T x) { return std::round(x); }
template <typename T> detail::genfloat_t<T> rsqrt(T x) { return T(1) / std::sqrt(x); }
template <typename T> detail::genfloat_t<T> sin(T x) { return std::sin(x); }
template <typename T> detail::genfloat_t<T> sinh(T x) { return std::sinh(x); }
template <typename T> detail::genfloat_t<T> sqrt(T x) { return std::sqrt(x); }
template <typename T> detail::genfloat_t<T> tan(T x) { return std::tan(x); }
template <typename T> detail::genfloat_t<T> tanh(T x) { return std::tanh(x); }
template <typename T> detail::genfloat_t<T> tgamma(T x) { return std::tgamma(x); }
template <typename T> detail::genfloat_t<T> trunc(T x) { return std::trunc(x); }

// sin(pi x) and friends: x is first reduced exactly to [-1, 1] (x - 2 round(x/2)
// is exact in floating point), so large arguments keep their precision.
template <typename T> detail::genfloat_t<T> sinpi(T x) {
  T r = x - T(2) * std::rint(x * T(0.5));
  return r == T(0) || r == T(1) || r == T(-1) ? std::copysign(T(0), x) : std::sin(detail::pi_v<T> * r);
}
template <typename T> detail::genfloat_t<T> cospi(T x) {
  T r = std::fabs(x - T(2) * std::rint(x * T(0.5)));  // in [0, 1]
  return r == T(0.5) ? T(0) : std::cos(detail::pi_v<T> * r);
}
template <typename T> detail::genfloat_t<T> tanpi(T x) {
  T r = x - std::rint(x);  // tan has period pi: r in [-0.5, 0.5]
  return r == T(0) ? std::copysign(T(0), x) : std::tan(detail::pi_v<T> * r);
}

// --- common functions (§4.17.6) ---------------------------------------------
template <typename T> detail::genfloat_t<T> degrees(T radians) { return radians * (T(180) / detail::pi_v<T>); }
template <typename T> detail::genfloat_t<T> radians(T degrees) { return degrees * (detail::pi_v<T> / T(180)); }
template <typename T> detail::genfloat_t<T> mix(T x, T y, T a) { return x + (y - x) * a; }
template <typename T> detail::genfloat_t<T> step(T edge, T x) { return x < edge ? T(0) : T(1); }
template <typename T> detail::genfloat_t<T> smoothstep(T edge0, T edge1, T x) {
  T t = std::fmin(std::fmax((x - edge0) / (edge1 - edge0), T(0)), T(1));
  return t * t * (T(3) - T(2) * t);
}
template <typename T> detail::genfloat_t<T> sign(T x) {
  if (x != x) return T(0);
  return x > T(0) ? T(1) : x < T(0) ? T(-1) : x;  // keeps the sign of zero
}

// min, max and clamp: fmin/fmax semantics for floating point (§4.17.6),
// plain comparisons for integers (§4.17.4).
template <typename T> detail::arithmetic_t<T> min(T x, T y) {
  if constexpr (detail::is_genfloat_v<T>) return std::fmin(x, y);
  else return y < x ? y : x;
}
template <typename T> detail::arithmetic_t<T> max(T x, T y) {
  if constexpr (detail::is_genfloat_v<T>) return std::fmax(x, y);
  else return x < y ? y : x;
}
template <typename T> detail::arithmetic_t<T> clamp(T x, T minval, T maxval) {
  return sycl::min(sycl::max(x, minval), maxval);
}

// --- integer functions (§4.17.4) --------------------------------------------
template <typename T> std::make_unsigned_t<detail::geninteger_t<T>> abs(T x) {
  using U = std::make_unsigned_t<T>;
  if constexpr (std::is_signed_v<T>) return x < 0 ? U(0) - U(x) : U(x);
  else return x;
}
template <typename T> std::make_unsigned_t<detail::geninteger_t<T>> abs_diff(T x, T y) {
  using U = std::make_unsigned_t<T>;
  return x > y ? U(U(x) - U(y)) : U(U(y) - U(x));
}

// --- native functions (§4.17.5): fast, precision implementation-defined ------
// Compiled with fast floating point, so GPUs use their approximate
// instructions and libdevice's __nv_fast_* functions.
namespace native {
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
}  // namespace native

}  // namespace sycl
