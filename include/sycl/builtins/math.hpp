// SYCL 2020 §4.17.4 math functions, for float, double and half scalars and
// for vec, swizzles and marray of them, on the host and in kernels.
//
// Each function is the C/C++ library function (or a short exact reduction
// around one) applied lane by lane (elementwise.hpp). In a kernel the JIT
// maps those calls to the device's math library: libdevice on NVIDIA GPUs,
// the C library on the CPU device. half lanes are computed in float and
// rounded back.
//
// Argument rules (§4.17.4): the arguments of an overload agree in shape and
// element type (two marray, or any mix of vec and swizzle); fmin, fmax and
// ldexp also take a NonScalar with one scalar; the int arguments of ldexp,
// pown and rootn are marray<int, N> for marray and vec<int32_t, N> for vec.
// The pointer arguments of fract, frexp, lgamma_r, modf, remquo and sincos
// are plain pointers or multi_ptr to the result's type (int for exponents,
// quotients and signs).
#pragma once

#include "../detail/builtins.hpp"
#include "elementwise.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace sycl {

namespace detail {
// An int argument matching x (ldexp, pown, rootn): marray<int, N> for an
// marray, vec<int32_t, N> or a swizzle of one for a vec.
template <typename T, typename K> using int_vector_result_t =
    std::enable_if_t<is_genfloat_v<T> && is_nonscalar_v<T> && std::is_same_v<vec_value_t<K>, rebind_t<T, int>>,
                     vec_value_t<T>>;
template <typename T> using genfloat_scalar_t = std::enable_if_t<is_genfloat_v<T> && !is_nonscalar_v<T>, T>;
template <typename T, typename Ptr, typename Out> using output_result_t =
    std::enable_if_t<is_genfloat_v<T> && is_output_pointer_v<T, Ptr, Out>, vec_value_t<T>>;
template <typename T> inline constexpr bool is_nan_code_v = is_one_of_v<T, std::uint16_t, std::uint32_t, std::uint64_t>;

// Lane implementations, for float and double (and half where noted); the
// public functions follow.
template <typename T> inline constexpr T pi_v = T(3.141592653589793238462643383279502884L);

template <typename T> T exp10(T x) {
  if constexpr (std::is_same_v<T, float>) return __builtin_exp10f(x);
  else return __builtin_exp10(x);
}

template <typename T> T maxmag(T x, T y) {
  T ax = std::fabs(x), ay = std::fabs(y);
  return ax > ay ? x : ay > ax ? y : std::fmax(x, y);
}
template <typename T> T minmag(T x, T y) {
  T ax = std::fabs(x), ay = std::fabs(y);
  return ax < ay ? x : ay < ax ? y : std::fmin(x, y);
}

// sin(pi x), cos(pi x), tan(pi x): x is split exactly into t in [-1/4, 1/4]
// and a count q of quarter turns (x = t + q/2), so pi * t keeps its
// relative precision whatever the size of x, and the results at integers and
// half-integers are exact, with OpenCL's signs of zero and infinity.
enum class pi_function { sin, cos, tan };
template <pi_function Fn, typename T> T trig_pi(T x) {
  constexpr T kEvenIntegers = T(2) / std::numeric_limits<T>::epsilon();  // from here on, every T is an even integer
  if (!(std::fabs(x) < kEvenIntegers)) {
    if (!std::isfinite(x)) return x - x;  // NaN
    if constexpr (Fn == pi_function::cos) return T(1);
    else return std::copysign(T(0), x);
  }
  const T halves = std::rint(x * T(2));
  const T t = x - halves * T(0.5);  // exact (Sterbenz)
  const int q = int(static_cast<long long>(halves) & 3);
  const T angle = pi_v<T> * t;
  if constexpr (Fn == pi_function::tan) {
    if (t == T(0)) {
      if (q & 1) return q == 1 ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
      return std::copysign(T(0), q == 0 ? x : -x);
    }
    const T tangent = std::tan(angle);
    return (q & 1) ? T(-1) / tangent : tangent;
  } else {
    // sin in quarter turn q is sin, cos, -sin, -cos of the angle; cos(pi x) is sin a quarter turn later.
    const int k = Fn == pi_function::sin ? q : (q + 1) & 3;
    T r = (k & 1) ? std::cos(angle) : std::sin(angle);
    if (k & 2) r = -r;
    if (r == T(0)) return Fn == pi_function::sin ? std::copysign(T(0), x) : T(0);
    return r;
  }
}

// x^n with n's parity deciding the sign (exact for every int, unlike pow(x, float(n))).
template <typename T> T pown(T x, int n) {
  const T magnitude = std::pow(std::fabs(x), T(n));
  return (n & 1) ? std::copysign(magnitude, x) : magnitude;
}

// x^(1/n): pow's exponent 1/n is rounded, an error that grows with |log x|;
// a Newton step on y^n = |x| removes it.
template <typename T> T rootn(T x, int n) {
  if (n == 0 || (x < T(0) && n % 2 == 0)) return std::numeric_limits<T>::quiet_NaN();
  if (n == 1) return x;
  if (n == 2) return std::sqrt(x);
  if (n == 3) return std::cbrt(x);
  const T magnitude = std::fabs(x);
  T y = std::pow(magnitude, T(1) / T(n));
  if (std::isfinite(y) && y != T(0) && std::isfinite(magnitude)) {
    const T power = std::pow(y, T(n));
    if (std::isfinite(power) && power != T(0)) y -= y * ((power - magnitude) / power) / T(n);
  }
  return (n & 1) ? std::copysign(y, x) : y;
}

// pow for x >= 0 only, computed as if exp2(y * log2(x)): OpenCL's powr, so
// 0^0, inf^0 and 1^inf are NaN where pow gives 1.
template <typename T> T powr(T x, T y) {
  const bool undefined = x < T(0) || std::isnan(x) || std::isnan(y) || ((x == T(0) || std::isinf(x)) && y == T(0)) ||
                         (x == T(1) && std::isinf(y));
  return undefined ? std::numeric_limits<T>::quiet_NaN() : std::pow(x, y);
}

template <typename T> T nextafter(T x, T y) {
  if constexpr (std::is_same_v<T, half>) {
    if (x != x || y != y) return half(float(x) + float(y));
    if (x == y) return y;
    std::uint16_t bits = __builtin_bit_cast(std::uint16_t, x);
    if (x == half(0.0f)) bits = y > x ? 0x0001 : 0x8001;  // the smallest denormal, towards y
    else if ((y > x) == (x > half(0.0f))) ++bits;         // away from zero
    else --bits;
    return __builtin_bit_cast(half, bits);
  } else {
    return std::nextafter(x, y);
  }
}

// For half: the product of two halves is exact in float, and the sum is
// rounded to odd (the last bit of an inexact sum set), so rounding it to
// half gives the correctly rounded a * b + c.
template <typename T> T fma(T a, T b, T c) {
  if constexpr (std::is_same_v<T, half>) {
    const float product = float(a) * float(b), addend = float(c), sum = product + addend;
    const float back = sum - product, error = (product - (sum - back)) + (addend - back);  // TwoSum: exact
    std::uint32_t bits = __builtin_bit_cast(std::uint32_t, sum);
    if (error != 0.0f && std::isfinite(sum) && (bits & 1u) == 0) {
      bits = (error > 0.0f) == (sum > 0.0f) ? bits + 1 : bits - 1;
      return half(__builtin_bit_cast(float, bits));
    }
    return half(sum);
  } else {
    return std::fma(a, b, c);
  }
}

template <typename T> T sincos(T x, T &cosine) {
  using C = computation_t<T>;
  cosine = T(std::cos(C(x)));
  return T(std::sin(C(x)));
}

template <typename T> T fract(T x, T &whole) {
  using C = computation_t<T>;
  const C value = C(x), floor_value = std::floor(value);
  whole = T(floor_value);
  if (std::isinf(value)) return T(std::copysign(C(0), value));
  // x - floor(x) can round up to 1: the spec caps it at the largest T below 1.
  const T below_one = T(C(1) - C(std::numeric_limits<T>::epsilon()) / C(2));
  const T fraction = T(value - floor_value);
  return fraction >= below_one ? below_one : fraction;
}

template <typename T> T modf(T x, T &whole) {
  using C = computation_t<T>;
  const C value = C(x), integral = std::trunc(value);
  whole = T(integral);
  return T(std::copysign(std::isinf(value) ? C(0) : value - integral, value));
}

// From ilogb and ldexp (exact) rather than the C library's frexp, whose
// pointer argument not every device library has.
template <typename T> T frexp(T x, int &exponent) {
  using C = computation_t<T>;
  const C value = C(x);
  if (value == C(0) || !std::isfinite(value)) {
    exponent = 0;
    return x;
  }
  exponent = std::ilogb(value) + 1;
  return T(std::ldexp(value, -exponent));
}

// The sign of gamma(x): negative between -2k-1 and -2k, and at -0.
template <typename T> T lgamma_r(T x, int &sign) {
  using C = computation_t<T>;
  const C value = C(x), below = std::floor(value);
  if (value == C(0)) sign = std::signbit(value) ? -1 : 1;
  else sign = value < C(0) && std::isfinite(value) && below != value && std::fmod(below, C(2)) != C(0) ? -1 : 1;
  return T(std::lgamma(value));
}

// The quotient's low 7 bits, as OpenCL (and so SYCL) asks (C's remquo and
// CUDA's promise only 3): |x| is first reduced modulo 128 |y| (exact), where
// the quotient is at most 128 and its rounding to an integer is exact.
template <typename T> T remquo(T x, T y, int &quotient) {
  using C = computation_t<T>;
  const C a = C(x), b = C(y);
  const C r = std::remainder(a, b);
  quotient = 0;
  if (std::isfinite(a) && std::isfinite(b) && b != C(0)) {
    const C magnitude = std::fabs(b), period = magnitude * C(128);  // exact unless it overflows
    const C reduced = std::isinf(period) ? std::fabs(a) : std::fmod(std::fabs(a), period);
    const C rest = std::remainder(reduced, magnitude);
    const int low = static_cast<int>(std::rint((reduced - rest) / magnitude)) & 0x7f;
    quotient = std::signbit(a) != std::signbit(b) ? -low : low;
  }
  return T(r);
}

// x - y if x > y, else +0 (NaN if either is): one correctly rounded
// subtraction on every device.
template <typename T> T fdim(T x, T y) {
  if (x != x || y != y) return x + y;
  return x > y ? T(x - y) : T(0);
}

template <typename Code> auto nan_with_code(Code code) {
  if constexpr (sizeof(Code) == 2) return __builtin_bit_cast(half, std::uint16_t(0x7e00u | (code & 0x01ffu)));
  else if constexpr (sizeof(Code) == 4)
    return __builtin_bit_cast(float, std::uint32_t(0x7fc00000u | (code & 0x003fffffu)));
  else return __builtin_bit_cast(double, std::uint64_t(0x7ff8000000000000ull | (code & 0x0007ffffffffffffull)));
}
}  // namespace detail

// --- One argument ----------------------------------------------------------------
template <typename T> detail::genfloat_result_t<T> acos(T x) {
  return detail::lanewise_math([](auto v) { return std::acos(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> acosh(T x) {
  return detail::lanewise_math([](auto v) { return std::acosh(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> acospi(T x) {
  return detail::lanewise_math([](auto v) { return std::acos(v) / detail::pi_v<decltype(v)>; }, x);
}
template <typename T> detail::genfloat_result_t<T> asin(T x) {
  return detail::lanewise_math([](auto v) { return std::asin(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> asinh(T x) {
  return detail::lanewise_math([](auto v) { return std::asinh(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> asinpi(T x) {
  return detail::lanewise_math([](auto v) { return std::asin(v) / detail::pi_v<decltype(v)>; }, x);
}
template <typename T> detail::genfloat_result_t<T> atan(T y_over_x) {
  return detail::lanewise_math([](auto v) { return std::atan(v); }, y_over_x);
}
template <typename T> detail::genfloat_result_t<T> atanh(T x) {
  return detail::lanewise_math([](auto v) { return std::atanh(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> atanpi(T x) {
  return detail::lanewise_math([](auto v) { return std::atan(v) / detail::pi_v<decltype(v)>; }, x);
}
template <typename T> detail::genfloat_result_t<T> cbrt(T x) {
  return detail::lanewise_math([](auto v) { return std::cbrt(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> ceil(T x) {
  return detail::lanewise_math([](auto v) { return std::ceil(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> cos(T x) {
  return detail::lanewise_math([](auto v) { return std::cos(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> cosh(T x) {
  return detail::lanewise_math([](auto v) { return std::cosh(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> cospi(T x) {
  return detail::lanewise_math([](auto v) { return detail::trig_pi<detail::pi_function::cos>(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> erf(T x) {
  return detail::lanewise_math([](auto v) { return std::erf(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> erfc(T x) {
  return detail::lanewise_math([](auto v) { return std::erfc(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> exp(T x) {
  return detail::lanewise_math([](auto v) { return std::exp(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> exp2(T x) {
  return detail::lanewise_math([](auto v) { return std::exp2(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> exp10(T x) {
  return detail::lanewise_math([](auto v) { return detail::exp10(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> expm1(T x) {
  return detail::lanewise_math([](auto v) { return std::expm1(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> fabs(T x) {
  return detail::lanewise_math([](auto v) { return std::fabs(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> floor(T x) {
  return detail::lanewise_math([](auto v) { return std::floor(v); }, x);
}
template <typename T> std::enable_if_t<detail::is_genfloat_v<T>, detail::rebind_t<T, int>> ilogb(T x) {
  return detail::lanewise_math([](auto v) { return std::ilogb(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> lgamma(T x) {
  return detail::lanewise_math([](auto v) { return std::lgamma(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> log(T x) {
  return detail::lanewise_math([](auto v) { return std::log(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> log2(T x) {
  return detail::lanewise_math([](auto v) { return std::log2(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> log10(T x) {
  return detail::lanewise_math([](auto v) { return std::log10(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> log1p(T x) {
  return detail::lanewise_math([](auto v) { return std::log1p(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> logb(T x) {
  return detail::lanewise_math([](auto v) { return std::logb(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> rint(T x) {
  return detail::lanewise_math([](auto v) { return std::rint(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> round(T x) {
  return detail::lanewise_math([](auto v) { return std::round(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> rsqrt(T x) {
  return detail::lanewise_math(
      [](auto v) {
        if constexpr (std::is_same_v<decltype(v), float>) return __onepass_rsqrtf(v);
        else return __onepass_rsqrt(v);
      },
      x);
}
template <typename T> detail::genfloat_result_t<T> sin(T x) {
  return detail::lanewise_math([](auto v) { return std::sin(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> sinh(T x) {
  return detail::lanewise_math([](auto v) { return std::sinh(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> sinpi(T x) {
  return detail::lanewise_math([](auto v) { return detail::trig_pi<detail::pi_function::sin>(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> sqrt(T x) {
  return detail::lanewise_math([](auto v) { return std::sqrt(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> tan(T x) {
  return detail::lanewise_math([](auto v) { return std::tan(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> tanh(T x) {
  return detail::lanewise_math([](auto v) { return std::tanh(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> tanpi(T x) {
  return detail::lanewise_math([](auto v) { return detail::trig_pi<detail::pi_function::tan>(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> tgamma(T x) {
  return detail::lanewise_math([](auto v) { return std::tgamma(v); }, x);
}
template <typename T> detail::genfloat_result_t<T> trunc(T x) {
  return detail::lanewise_math([](auto v) { return std::trunc(v); }, x);
}

// --- Two and three arguments of the same shape ----------------------------------------
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> atan2(T1 y, T2 x) {
  return detail::lanewise_math([](auto a, auto b) { return std::atan2(a, b); }, y, x);
}
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> atan2pi(T1 y, T2 x) {
  return detail::lanewise_math([](auto a, auto b) { return std::atan2(a, b) / detail::pi_v<decltype(a)>; }, y, x);
}
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> copysign(T1 x, T2 y) {
  return detail::lanewise_math([](auto a, auto b) { return std::copysign(a, b); }, x, y);
}
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> fdim(T1 x, T2 y) {
  return detail::lanewise_math([](auto a, auto b) { return detail::fdim(a, b); }, x, y);
}
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> fmod(T1 x, T2 y) {
  return detail::lanewise_math([](auto a, auto b) { return std::fmod(a, b); }, x, y);
}
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> hypot(T1 x, T2 y) {
  return detail::lanewise_math([](auto a, auto b) { return std::hypot(a, b); }, x, y);
}
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> maxmag(T1 x, T2 y) {
  return detail::lanewise_math([](auto a, auto b) { return detail::maxmag(a, b); }, x, y);
}
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> minmag(T1 x, T2 y) {
  return detail::lanewise_math([](auto a, auto b) { return detail::minmag(a, b); }, x, y);
}
// Not in float for half: the next half is not the next float.
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> nextafter(T1 x, T2 y) {
  return detail::lanewise([](auto a, auto b) { return detail::nextafter(a, b); }, x, y);
}
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> pow(T1 x, T2 y) {
  return detail::lanewise_math([](auto a, auto b) { return std::pow(a, b); }, x, y);
}
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> powr(T1 x, T2 y) {
  return detail::lanewise_math([](auto a, auto b) { return detail::powr(a, b); }, x, y);
}
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> remainder(T1 x, T2 y) {
  return detail::lanewise_math([](auto a, auto b) { return std::remainder(a, b); }, x, y);
}
// Correctly rounded for half too (detail::fma): not a float fma rounded twice.
template <typename T1, typename T2, typename T3> detail::genfloat_result_t<T1, T2, T3> fma(T1 a, T2 b, T3 c) {
  return detail::lanewise([](auto x, auto y, auto z) { return detail::fma(x, y, z); }, a, b, c);
}
// mad may be computed with any precision (§4.17.4): a product and a sum.
template <typename T1, typename T2, typename T3> detail::genfloat_result_t<T1, T2, T3> mad(T1 a, T2 b, T3 c) {
  return detail::lanewise_math([](auto x, auto y, auto z) { return x * y + z; }, a, b, c);
}

// fmin and fmax: two of the same shape, or a NonScalar and one scalar.
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> fmax(T1 x, T2 y) {
  return detail::lanewise_math([](auto a, auto b) { return std::fmax(a, b); }, x, y);
}
template <typename T> detail::nonscalar_genfloat_result_t<T> fmax(T x, detail::element_type_t<T> y) {
  return detail::lanewise_math([](auto a, auto b) { return std::fmax(a, b); }, x, y);
}
template <typename T1, typename T2> detail::genfloat_result_t<T1, T2> fmin(T1 x, T2 y) {
  return detail::lanewise_math([](auto a, auto b) { return std::fmin(a, b); }, x, y);
}
template <typename T> detail::nonscalar_genfloat_result_t<T> fmin(T x, detail::element_type_t<T> y) {
  return detail::lanewise_math([](auto a, auto b) { return std::fmin(a, b); }, x, y);
}

// The scalar forms of the above as functions of float, double and half (rev 10).
ONEPASS_SCALAR_FLOAT_FORMS_2(atan2)
ONEPASS_SCALAR_FLOAT_FORMS_2(atan2pi)
ONEPASS_SCALAR_FLOAT_FORMS_2(copysign)
ONEPASS_SCALAR_FLOAT_FORMS_2(fdim)
ONEPASS_SCALAR_FLOAT_FORMS_2(fmod)
ONEPASS_SCALAR_FLOAT_FORMS_2(hypot)
ONEPASS_SCALAR_FLOAT_FORMS_2(maxmag)
ONEPASS_SCALAR_FLOAT_FORMS_2(minmag)
ONEPASS_SCALAR_FLOAT_FORMS_2(nextafter)
ONEPASS_SCALAR_FLOAT_FORMS_2(pow)
ONEPASS_SCALAR_FLOAT_FORMS_2(powr)
ONEPASS_SCALAR_FLOAT_FORMS_2(remainder)
ONEPASS_SCALAR_FLOAT_FORMS_2(fmax)
ONEPASS_SCALAR_FLOAT_FORMS_2(fmin)
ONEPASS_SCALAR_FLOAT_FORMS_3(fma)
ONEPASS_SCALAR_FLOAT_FORMS_3(mad)

// --- An int argument: ldexp, pown, rootn ---------------------------------------
// ldexp(x, k) with one k for every lane of x too (§4.17.4 ldexp overload 5).
template <typename T> detail::genfloat_result_t<T> ldexp(T x, int k) {
  return detail::lanewise_math([](auto v, int n) { return std::ldexp(v, n); }, x, k);
}
template <typename T, typename K> detail::int_vector_result_t<T, K> ldexp(T x, K k) {
  return detail::lanewise_math([](auto v, int n) { return std::ldexp(v, n); }, x, k);
}
template <typename T> detail::genfloat_scalar_t<T> pown(T x, int y) {
  return detail::lanewise_math([](auto v, int n) { return detail::pown(v, n); }, x, y);
}
template <typename T, typename K> detail::int_vector_result_t<T, K> pown(T x, K y) {
  return detail::lanewise_math([](auto v, int n) { return detail::pown(v, n); }, x, y);
}
template <typename T> detail::genfloat_scalar_t<T> rootn(T x, int y) {
  return detail::lanewise_math([](auto v, int n) { return detail::rootn(v, n); }, x, y);
}
template <typename T, typename K> detail::int_vector_result_t<T, K> rootn(T x, K y) {
  return detail::lanewise_math([](auto v, int n) { return detail::rootn(v, n); }, x, y);
}

// --- A second result through a pointer ----------------------------------------------
// sincos: returns sin(x), stores cos(x).
template <typename T, typename Ptr> detail::output_result_t<T, Ptr, detail::element_type_t<T>> sincos(T x, Ptr cosval) {
  return detail::lanewise_with_output<detail::element_type_t<T>>(
      cosval, [](auto v, auto &cosine) { return detail::sincos(v, cosine); }, x);
}
// fract: returns fmin(x - floor(x), nextafter(1, 0)), stores floor(x).
template <typename T, typename Ptr> detail::output_result_t<T, Ptr, detail::element_type_t<T>> fract(T x, Ptr iptr) {
  return detail::lanewise_with_output<detail::element_type_t<T>>(
      iptr, [](auto v, auto &whole) { return detail::fract(v, whole); }, x);
}
// modf: returns the fractional part of x, stores the integral part (both with x's sign).
template <typename T, typename Ptr> detail::output_result_t<T, Ptr, detail::element_type_t<T>> modf(T x, Ptr iptr) {
  return detail::lanewise_with_output<detail::element_type_t<T>>(
      iptr, [](auto v, auto &whole) { return detail::modf(v, whole); }, x);
}
// frexp: returns the mantissa in [0.5, 1) (or x if zero, infinite or NaN), stores the exponent.
template <typename T, typename Ptr> detail::output_result_t<T, Ptr, int> frexp(T x, Ptr exp) {
  return detail::lanewise_with_output<int>(
      exp, [](auto v, int &e) { return detail::frexp(v, e); }, x);
}
// lgamma_r: returns lgamma(x), stores the sign of gamma(x) (+1 or -1).
template <typename T, typename Ptr> detail::output_result_t<T, Ptr, int> lgamma_r(T x, Ptr signp) {
  return detail::lanewise_with_output<int>(
      signp, [](auto v, int &sign) { return detail::lgamma_r(v, sign); }, x);
}
// remquo: returns remainder(x, y), stores the low 7 bits of the quotient x/y with its sign.
template <typename T1, typename T2, typename Ptr>
std::enable_if_t<detail::is_output_pointer_v<T1, Ptr, int>, detail::genfloat_result_t<T1, T2>> remquo(T1 x, T2 y,
                                                                                                      Ptr quo) {
  return detail::lanewise_with_output<int>(
      quo, [](auto a, auto b, int &q) { return detail::remquo(a, b, q); }, x, y);
}

// nan: a quiet NaN with nancode in its significand; uint16_t, uint32_t and
// uint64_t codes give half, float and double.
template <typename T, typename = std::enable_if_t<detail::is_nan_code_v<detail::element_type_t<T>>>>
auto nan(T nancode) {
  return detail::lanewise([](auto code) { return detail::nan_with_code(code); }, nancode);
}

// The scalar forms of the one-argument functions, of ldexp, pown and rootn,
// and of those with a pointer (rev 10; elementwise.hpp).
ONEPASS_SCALAR_FLOAT_FORMS_1(acos)
ONEPASS_SCALAR_FLOAT_FORMS_1(acosh)
ONEPASS_SCALAR_FLOAT_FORMS_1(acospi)
ONEPASS_SCALAR_FLOAT_FORMS_1(asin)
ONEPASS_SCALAR_FLOAT_FORMS_1(asinh)
ONEPASS_SCALAR_FLOAT_FORMS_1(asinpi)
ONEPASS_SCALAR_FLOAT_FORMS_1(atan)
ONEPASS_SCALAR_FLOAT_FORMS_1(atanh)
ONEPASS_SCALAR_FLOAT_FORMS_1(atanpi)
ONEPASS_SCALAR_FLOAT_FORMS_1(cbrt)
ONEPASS_SCALAR_FLOAT_FORMS_1(ceil)
ONEPASS_SCALAR_FLOAT_FORMS_1(cos)
ONEPASS_SCALAR_FLOAT_FORMS_1(cosh)
ONEPASS_SCALAR_FLOAT_FORMS_1(cospi)
ONEPASS_SCALAR_FLOAT_FORMS_1(erf)
ONEPASS_SCALAR_FLOAT_FORMS_1(erfc)
ONEPASS_SCALAR_FLOAT_FORMS_1(exp)
ONEPASS_SCALAR_FLOAT_FORMS_1(exp2)
ONEPASS_SCALAR_FLOAT_FORMS_1(exp10)
ONEPASS_SCALAR_FLOAT_FORMS_1(expm1)
ONEPASS_SCALAR_FLOAT_FORMS_1(fabs)
ONEPASS_SCALAR_FLOAT_FORMS_1(floor)
ONEPASS_SCALAR_FLOAT_FORMS_1(lgamma)
ONEPASS_SCALAR_FLOAT_FORMS_1(log)
ONEPASS_SCALAR_FLOAT_FORMS_1(log2)
ONEPASS_SCALAR_FLOAT_FORMS_1(log10)
ONEPASS_SCALAR_FLOAT_FORMS_1(log1p)
ONEPASS_SCALAR_FLOAT_FORMS_1(logb)
ONEPASS_SCALAR_FLOAT_FORMS_1(rint)
ONEPASS_SCALAR_FLOAT_FORMS_1(round)
ONEPASS_SCALAR_FLOAT_FORMS_1(rsqrt)
ONEPASS_SCALAR_FLOAT_FORMS_1(sin)
ONEPASS_SCALAR_FLOAT_FORMS_1(sinh)
ONEPASS_SCALAR_FLOAT_FORMS_1(sinpi)
ONEPASS_SCALAR_FLOAT_FORMS_1(sqrt)
ONEPASS_SCALAR_FLOAT_FORMS_1(tan)
ONEPASS_SCALAR_FLOAT_FORMS_1(tanh)
ONEPASS_SCALAR_FLOAT_FORMS_1(tanpi)
ONEPASS_SCALAR_FLOAT_FORMS_1(tgamma)
ONEPASS_SCALAR_FLOAT_FORMS_1(trunc)
ONEPASS_SCALAR_FLOAT_FORMS_1(ilogb)
ONEPASS_SCALAR_FLOAT_FORMS_1_INT(ldexp)
ONEPASS_SCALAR_FLOAT_FORMS_1_INT(pown)
ONEPASS_SCALAR_FLOAT_FORMS_1_INT(rootn)
ONEPASS_SCALAR_FLOAT_FORMS_PTR(fract)
ONEPASS_SCALAR_FLOAT_FORMS_PTR(frexp)
ONEPASS_SCALAR_FLOAT_FORMS_PTR(lgamma_r)
ONEPASS_SCALAR_FLOAT_FORMS_PTR(modf)
ONEPASS_SCALAR_FLOAT_FORMS_PTR(sincos)
template <typename Ptr> auto remquo(float x, float y, Ptr quo) -> decltype(remquo<float, float, Ptr>(x, y, quo)) {
  return remquo<float, float, Ptr>(x, y, quo);
}
template <typename Ptr> auto remquo(double x, double y, Ptr quo) -> decltype(remquo<double, double, Ptr>(x, y, quo)) {
  return remquo<double, double, Ptr>(x, y, quo);
}
template <typename Ptr> auto remquo(half x, half y, Ptr quo) -> decltype(remquo<half, half, Ptr>(x, y, quo)) {
  return remquo<half, half, Ptr>(x, y, quo);
}
// nan's scalar forms take the codes of each type: uint32_t (float),
// uint64_t (double), uint16_t (half).
namespace detail {
std::uint32_t nan_code_form(std::uint32_t);
std::uint64_t nan_code_form(std::uint64_t);
std::uint16_t nan_code_form(std::uint16_t);
}  // namespace detail
template <typename A, typename C = decltype(detail::nan_code_form(std::declval<A>())),
          typename = std::enable_if_t<!detail::is_nan_code_v<detail::element_type_t<A>>>>
auto nan(A nancode) -> decltype(nan<C>(std::declval<C>())) {
  return nan<C>(static_cast<C>(nancode));
}

}  // namespace sycl
