// SYCL 2020 §4.17.10 relational functions.
//
// Comparisons and classifications of float, double and half give bool for
// scalars, marray<bool, N> for marray, and for vec (or a swizzle) a vec of
// the signed integer of the element's size holding -1 (true) or 0
// (elementwise.hpp: lanewise_relational). Comparisons with a NaN are false,
// except isnotequal's and isunordered's. any and all read marray<bool>, or
// the most significant bits of signed integer vec. bitselect and select
// take the spec's "generic scalar types" and vec/marray of them.
#pragma once

#include "elementwise.hpp"

#include <cmath>
#include <type_traits>

namespace sycl {

namespace detail {
// The spec's "generic scalar type" (§4.17.10): integers and floating point.
template <typename T> inline constexpr bool is_generic_scalar_v = is_float_element_v<T> || is_integer_element_v<T>;

template <typename T> using relational_t =
    std::conditional_t<is_vec_v<vec_value_t<T>>, rebind_t<T, fixed_signed_t<sizeof(element_type_t<T>)>>,
                       rebind_t<T, bool>>;
template <typename T, typename... Others> using relational_result_t =
    std::enable_if_t<is_genfloat_v<T> && (std::is_same_v<vec_value_t<T>, vec_value_t<Others>> && ...), relational_t<T>>;

template <typename T> computation_t<T> widen(T x) { return computation_t<T>(x); }

// Normal for T itself: a half denormal is a normal float.
template <typename T> bool isnormal(T x) {
  if constexpr (std::is_same_v<T, half>) {
    const float value = std::fabs(float(x));
    return value >= 6.103515625e-05f && value <= 65504.0f;  // half's smallest normal and largest finite values
  } else {
    return std::isnormal(x);
  }
}

// any and all: marray<bool>; vec or swizzle of signed integers (result int);
// deprecated: a signed integer or marray of them (result bool).
template <typename T> inline constexpr bool
    is_any_all_argument_v = (is_marray_v<T> && std::is_same_v<element_type_t<T>, bool>) ||
                            (is_integer_element_v<element_type_t<T>> && std::is_signed_v<element_type_t<T>>);
template <typename Lane> bool is_set(Lane lane) {
  if constexpr (std::is_same_v<Lane, bool>) return lane;
  else return fixed_unsigned_t<sizeof(Lane)>(lane) >> (sizeof(Lane) * 8 - 1);  // the most significant bit
}
template <bool All, typename T> auto any_or_all(const T &x) {
  bool result = All;
  for (std::size_t i = 0; i < element_count_v<T>; ++i)
    if (is_set(lane_of(x, i)) != All) result = !All;
  if constexpr (is_vec_v<T>) return int(result);
  else return result;
}

template <typename T> T bitselect(T a, T b, T c) {
  using Bits = fixed_unsigned_t<sizeof(T)>;
  const Bits mask = __builtin_bit_cast(Bits, c);
  return __builtin_bit_cast(T,
                            Bits((__builtin_bit_cast(Bits, a) & Bits(~mask)) | (__builtin_bit_cast(Bits, b) & mask)));
}

// select's condition: marray<bool, N> for marray; for vec, a vec or swizzle
// of integers of the element's size (signed or unsigned), read by their most
// significant bit.
template <typename T, typename Mask>
inline constexpr bool is_select_mask_v = is_marray_v<T> ? std::is_same_v<Mask, rebind_t<T, bool>>
                                                        : is_vec_v<vec_value_t<Mask>> &&same_layout_v<T, Mask> &&
                                                                  is_integer_element_v<element_type_t<Mask>> &&
                                                              sizeof(element_type_t<Mask>) == sizeof(element_type_t<T>);
}  // namespace detail

template <typename T1, typename T2> detail::relational_result_t<T1, T2> isequal(T1 x, T2 y) {
  return detail::lanewise_relational([](auto a, auto b) { return a == b; }, x, y);
}
template <typename T1, typename T2> detail::relational_result_t<T1, T2> isnotequal(T1 x, T2 y) {
  return detail::lanewise_relational([](auto a, auto b) { return a != b; }, x, y);
}
template <typename T1, typename T2> detail::relational_result_t<T1, T2> isgreater(T1 x, T2 y) {
  return detail::lanewise_relational([](auto a, auto b) { return a > b; }, x, y);
}
template <typename T1, typename T2> detail::relational_result_t<T1, T2> isgreaterequal(T1 x, T2 y) {
  return detail::lanewise_relational([](auto a, auto b) { return a >= b; }, x, y);
}
template <typename T1, typename T2> detail::relational_result_t<T1, T2> isless(T1 x, T2 y) {
  return detail::lanewise_relational([](auto a, auto b) { return a < b; }, x, y);
}
template <typename T1, typename T2> detail::relational_result_t<T1, T2> islessequal(T1 x, T2 y) {
  return detail::lanewise_relational([](auto a, auto b) { return a <= b; }, x, y);
}
template <typename T1, typename T2> detail::relational_result_t<T1, T2> islessgreater(T1 x, T2 y) {
  return detail::lanewise_relational([](auto a, auto b) { return a < b || a > b; }, x, y);
}
template <typename T> detail::relational_result_t<T> isfinite(T x) {
  return detail::lanewise_relational([](auto a) { return std::isfinite(detail::widen(a)); }, x);
}
template <typename T> detail::relational_result_t<T> isinf(T x) {
  return detail::lanewise_relational([](auto a) { return std::isinf(detail::widen(a)); }, x);
}
template <typename T> detail::relational_result_t<T> isnan(T x) {
  return detail::lanewise_relational([](auto a) { return a != a; }, x);
}
template <typename T> detail::relational_result_t<T> isnormal(T x) {
  return detail::lanewise_relational([](auto a) { return detail::isnormal(a); }, x);
}
template <typename T1, typename T2> detail::relational_result_t<T1, T2> isordered(T1 x, T2 y) {
  return detail::lanewise_relational([](auto a, auto b) { return a == a && b == b; }, x, y);
}
template <typename T1, typename T2> detail::relational_result_t<T1, T2> isunordered(T1 x, T2 y) {
  return detail::lanewise_relational([](auto a, auto b) { return a != a || b != b; }, x, y);
}
template <typename T> detail::relational_result_t<T> signbit(T x) {
  return detail::lanewise_relational([](auto a) { return std::signbit(detail::widen(a)); }, x);
}

template <typename T, typename = std::enable_if_t<detail::is_any_all_argument_v<T>>> auto any(T x) {
  return detail::any_or_all<false>(detail::as_value(x));
}
template <typename T, typename = std::enable_if_t<detail::is_any_all_argument_v<T>>> auto all(T x) {
  return detail::any_or_all<true>(detail::as_value(x));
}

// Each bit from b where c's bit is 1, else from a (floating point: the bits
// of its representation).
template <typename T1, typename T2, typename T3>
detail::same_shape_result_t<detail::is_generic_scalar_v<detail::element_type_t<T1>>, T1, T2, T3> bitselect(T1 a, T2 b,
                                                                                                           T3 c) {
  return detail::lanewise([](auto x, auto y, auto z) { return detail::bitselect(x, y, z); }, a, b, c);
}

// c ? b : a, lane by lane.
template <typename T>
std::enable_if_t<detail::is_generic_scalar_v<T> && !detail::is_nonscalar_v<T>, T> select(T a, T b, bool c) {
  return c ? b : a;
}
template <typename T1, typename T2, typename T3>
std::enable_if_t<detail::is_nonscalar_v<T1> && detail::is_select_mask_v<T1, T3>,
                 detail::same_shape_result_t<detail::is_generic_scalar_v<detail::element_type_t<T1>>, T1, T2>>
select(T1 a, T2 b, T3 c) {
  return detail::lanewise([](auto x, auto y, auto mask) { return detail::is_set(mask) ? y : x; }, a, b, c);
}


// The scalar forms (rev 10; elementwise.hpp).
ONEPASS_SCALAR_FLOAT_FORMS_1(isfinite)
ONEPASS_SCALAR_FLOAT_FORMS_1(isinf)
ONEPASS_SCALAR_FLOAT_FORMS_1(isnan)
ONEPASS_SCALAR_FLOAT_FORMS_1(isnormal)
ONEPASS_SCALAR_FLOAT_FORMS_1(signbit)
ONEPASS_SCALAR_FLOAT_FORMS_2(isequal)
ONEPASS_SCALAR_FLOAT_FORMS_2(isnotequal)
ONEPASS_SCALAR_FLOAT_FORMS_2(isgreater)
ONEPASS_SCALAR_FLOAT_FORMS_2(isgreaterequal)
ONEPASS_SCALAR_FLOAT_FORMS_2(isless)
ONEPASS_SCALAR_FLOAT_FORMS_2(islessequal)
ONEPASS_SCALAR_FLOAT_FORMS_2(islessgreater)
ONEPASS_SCALAR_FLOAT_FORMS_2(isordered)
ONEPASS_SCALAR_FLOAT_FORMS_2(isunordered)

}  // namespace sycl
