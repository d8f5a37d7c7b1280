// SYCL 2020 §4.17.7 integer functions, for every "generic integer type":
// char, signed and unsigned char, short, int, long and long long, and vec,
// swizzles and marray of them. All are exact. The arguments of an overload
// agree in shape and element type (elementwise.hpp); clamp, max and min also
// take a NonScalar with scalars of its element type.
//
// Results have the type of the first argument, as in the spec (abs(INT_MIN)
// and abs_diff beyond the type's range wrap: the spec leaves them undefined).
#pragma once

#include "elementwise.hpp"

#include <cstdint>
#include <limits>
#include <type_traits>

namespace sycl {

namespace detail {
template <typename T> constexpr std::make_unsigned_t<T> to_unsigned(T x) { return std::make_unsigned_t<T>(x); }
template <typename T> inline constexpr int bit_width_v = int(sizeof(T) * 8);

// Twice as wide as T (mul_hi, mad_sat), with T's signedness.
template <typename T> using wide_t =
    std::conditional_t<(sizeof(T) < 8), std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>,
                       std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>>;

template <typename T> T abs(T x) {
  if constexpr (std::is_signed_v<T>) return T(x < 0 ? to_unsigned(T(0)) - to_unsigned(x) : to_unsigned(x));
  else return x;
}
template <typename T> T abs_diff(T x, T y) {
  return T(x > y ? to_unsigned(x) - to_unsigned(y) : to_unsigned(y) - to_unsigned(x));
}
// (x + y) >> 1 and (x + y + 1) >> 1 without overflowing the sum.
template <typename T> T hadd(T x, T y) { return T((x >> 1) + (y >> 1) + (x & y & 1)); }
template <typename T> T rhadd(T x, T y) { return T((x >> 1) + (y >> 1) + ((x | y) & 1)); }
template <typename T> T mul_hi(T x, T y) { return T((wide_t<T>(x) * wide_t<T>(y)) >> bit_width_v<T>); }
template <typename T> T mad_sat(T a, T b, T c) {
  const wide_t<T> exact = wide_t<T>(a) * wide_t<T>(b) + wide_t<T>(c);  // cannot overflow the wide type
  if (exact > wide_t<T>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  if (exact < wide_t<T>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  return T(exact);
}
// The count is taken modulo the width (OpenCL 1.2 §6.3), as the rotate instructions do.
template <typename T> T rotate(T v, T count) {
  if constexpr (sizeof(T) == 1) return T(__builtin_rotateleft8(to_unsigned(v), to_unsigned(count)));
  else if constexpr (sizeof(T) == 2) return T(__builtin_rotateleft16(to_unsigned(v), to_unsigned(count)));
  else if constexpr (sizeof(T) == 4) return T(__builtin_rotateleft32(to_unsigned(v), to_unsigned(count)));
  else return T(__builtin_rotateleft64(to_unsigned(v), to_unsigned(count)));
}
// ((wide)hi << bits) | lo, wide being signed if hi is.
template <typename Hi, typename Lo> auto upsample(Hi hi, Lo lo) {
  using Wide =
      std::conditional_t<std::is_signed_v<Hi>, fixed_signed_t<2 * sizeof(Hi)>, fixed_unsigned_t<2 * sizeof(Hi)>>;
  using UnsignedWide = std::make_unsigned_t<Wide>;
  return Wide((UnsignedWide(to_unsigned(hi)) << bit_width_v<Hi>) | UnsignedWide(lo));
}

// min(max(x, minval), maxval), as the spec defines it.
template <typename T> T clamp(T x, T minval, T maxval) {
  const T at_least_min = x < minval ? minval : x;
  return maxval < at_least_min ? maxval : at_least_min;
}

template <typename T> inline constexpr bool is_int32_element_v = is_one_of_v<T, std::int32_t, std::uint32_t>;
template <typename T, typename... Others> using int32_result_t =
    same_shape_result_t<is_int32_element_v<element_type_t<T>>, T, Others...>;

// upsample's arguments: hi of 8, 16 or 32 bits, lo unsigned of the same
// size, both scalars, both marray or both vec/swizzle, with as many elements.
template <typename Hi, typename Lo> inline constexpr bool
    is_upsample_pair_v = is_integer_element_v<element_type_t<Hi>> &&is_integer_element_v<element_type_t<Lo>> &&
                             std::is_unsigned_v<element_type_t<Lo>> &&
                         sizeof(element_type_t<Hi>) == sizeof(element_type_t<Lo>) &&
                         sizeof(element_type_t<Hi>) <= 4 && same_layout_v<Hi, Lo>;
}  // namespace detail

template <typename T> detail::geninteger_result_t<T> abs(T x) {
  return detail::lanewise([](auto v) { return detail::abs(v); }, x);
}
template <typename T1, typename T2> detail::geninteger_result_t<T1, T2> abs_diff(T1 x, T2 y) {
  return detail::lanewise([](auto a, auto b) { return detail::abs_diff(a, b); }, x, y);
}
template <typename T1, typename T2> detail::geninteger_result_t<T1, T2> add_sat(T1 x, T2 y) {
  return detail::lanewise([](auto a, auto b) { return __builtin_elementwise_add_sat(a, b); }, x, y);
}
template <typename T1, typename T2> detail::geninteger_result_t<T1, T2> sub_sat(T1 x, T2 y) {
  return detail::lanewise([](auto a, auto b) { return __builtin_elementwise_sub_sat(a, b); }, x, y);
}
template <typename T1, typename T2> detail::geninteger_result_t<T1, T2> hadd(T1 x, T2 y) {
  return detail::lanewise([](auto a, auto b) { return detail::hadd(a, b); }, x, y);
}
template <typename T1, typename T2> detail::geninteger_result_t<T1, T2> rhadd(T1 x, T2 y) {
  return detail::lanewise([](auto a, auto b) { return detail::rhadd(a, b); }, x, y);
}
template <typename T1, typename T2, typename T3> detail::geninteger_result_t<T1, T2, T3> mad_hi(T1 a, T2 b, T3 c) {
  return detail::lanewise(
      [](auto x, auto y, auto z) {
        return decltype(x)(detail::to_unsigned(detail::mul_hi(x, y)) + detail::to_unsigned(z));
      },
      a, b, c);
}
template <typename T1, typename T2, typename T3> detail::geninteger_result_t<T1, T2, T3> mad_sat(T1 a, T2 b, T3 c) {
  return detail::lanewise([](auto x, auto y, auto z) { return detail::mad_sat(x, y, z); }, a, b, c);
}
template <typename T1, typename T2> detail::geninteger_result_t<T1, T2> mul_hi(T1 x, T2 y) {
  return detail::lanewise([](auto a, auto b) { return detail::mul_hi(a, b); }, x, y);
}
template <typename T1, typename T2> detail::geninteger_result_t<T1, T2> rotate(T1 v, T2 count) {
  return detail::lanewise([](auto a, auto n) { return detail::rotate(a, n); }, v, count);
}
template <typename T> detail::geninteger_result_t<T> popcount(T x) {
  return detail::lanewise([](auto v) { return decltype(v)(__builtin_popcountg(detail::to_unsigned(v))); }, x);
}
// Leading and trailing zero bits; the width for 0.
template <typename T> detail::geninteger_result_t<T> clz(T x) {
  return detail::lanewise(
      [](auto v) { return decltype(v)(__builtin_clzg(detail::to_unsigned(v), detail::bit_width_v<decltype(v)>)); }, x);
}
template <typename T> detail::geninteger_result_t<T> ctz(T x) {
  return detail::lanewise(
      [](auto v) { return decltype(v)(__builtin_ctzg(detail::to_unsigned(v), detail::bit_width_v<decltype(v)>)); }, x);
}

// upsample(hi, lo): 8+8, 16+16 or 32+32 bits into one integer twice as wide.
template <typename Hi, typename Lo, typename = std::enable_if_t<detail::is_upsample_pair_v<Hi, Lo>>>
auto upsample(Hi hi, Lo lo) {
  return detail::lanewise([](auto h, auto l) { return detail::upsample(h, l); }, hi, lo);
}

// mul24 and mad24: 32-bit integers whose operands fit in 24 bits (a
// precondition); the product wraps to 32 bits.
template <typename T1, typename T2> detail::int32_result_t<T1, T2> mul24(T1 x, T2 y) {
  return detail::lanewise([](auto a, auto b) { return decltype(a)(detail::to_unsigned(a) * detail::to_unsigned(b)); },
                          x, y);
}
template <typename T1, typename T2, typename T3> detail::int32_result_t<T1, T2, T3> mad24(T1 x, T2 y, T3 z) {
  return detail::lanewise(
      [](auto a, auto b, auto c) {
        return decltype(a)(detail::to_unsigned(a) * detail::to_unsigned(b) + detail::to_unsigned(c));
      },
      x, y, z);
}

// clamp, max and min (§4.17.7; the floating-point ones are in common.hpp).
template <typename T1, typename T2, typename T3>
detail::geninteger_result_t<T1, T2, T3> clamp(T1 x, T2 minval, T3 maxval) {
  return detail::lanewise([](auto v, auto lo, auto hi) { return detail::clamp(v, lo, hi); }, x, minval, maxval);
}
template <typename T> detail::nonscalar_geninteger_result_t<T> clamp(T x, detail::element_type_t<T> minval,
                                                                     detail::element_type_t<T> maxval) {
  return detail::lanewise([](auto v, auto lo, auto hi) { return detail::clamp(v, lo, hi); }, x, minval, maxval);
}
template <typename T1, typename T2> detail::geninteger_result_t<T1, T2> max(T1 x, T2 y) {
  return detail::lanewise([](auto a, auto b) { return a < b ? b : a; }, x, y);
}
template <typename T> detail::nonscalar_geninteger_result_t<T> max(T x, detail::element_type_t<T> y) {
  return detail::lanewise([](auto a, auto b) { return a < b ? b : a; }, x, y);
}
template <typename T1, typename T2> detail::geninteger_result_t<T1, T2> min(T1 x, T2 y) {
  return detail::lanewise([](auto a, auto b) { return b < a ? b : a; }, x, y);
}
template <typename T> detail::nonscalar_geninteger_result_t<T> min(T x, detail::element_type_t<T> y) {
  return detail::lanewise([](auto a, auto b) { return b < a ? b : a; }, x, y);
}

}  // namespace sycl
