// SYCL 2020 §4.17.2 function objects, and the known identities of §4.9.2.2
// (sycl::known_identity) for the reductions and group algorithms.
#pragma once

#include "half.hpp"

#include <limits>
#include <type_traits>

namespace sycl {

template <typename T = void> struct plus {
  T operator()(const T &x, const T &y) const { return x + y; }
};
template <typename T = void> struct multiplies {
  T operator()(const T &x, const T &y) const { return x * y; }
};
template <typename T = void> struct bit_and {
  T operator()(const T &x, const T &y) const { return x & y; }
};
template <typename T = void> struct bit_or {
  T operator()(const T &x, const T &y) const { return x | y; }
};
template <typename T = void> struct bit_xor {
  T operator()(const T &x, const T &y) const { return x ^ y; }
};
template <typename T = void> struct logical_and {
  T operator()(const T &x, const T &y) const { return x && y; }
};
template <typename T = void> struct logical_or {
  T operator()(const T &x, const T &y) const { return x || y; }
};
template <typename T = void> struct minimum {
  T operator()(const T &x, const T &y) const { return y < x ? y : x; }
};
template <typename T = void> struct maximum {
  T operator()(const T &x, const T &y) const { return x < y ? y : x; }
};

// The transparent forms (T = void): the operand types are deduced.
#define ONEPASS_TRANSPARENT_FUNCTION_OBJECT(name, expression)                                                          \
  template <> struct name<void> {                                                                                      \
    template <typename T, typename U> auto operator()(T &&x, U &&y) const { return expression; }                       \
  };
ONEPASS_TRANSPARENT_FUNCTION_OBJECT(plus, x + y)
ONEPASS_TRANSPARENT_FUNCTION_OBJECT(multiplies, x *y)
ONEPASS_TRANSPARENT_FUNCTION_OBJECT(bit_and, x &y)
ONEPASS_TRANSPARENT_FUNCTION_OBJECT(bit_or, x | y)
ONEPASS_TRANSPARENT_FUNCTION_OBJECT(bit_xor, x ^ y)
ONEPASS_TRANSPARENT_FUNCTION_OBJECT(logical_and, x &&y)
ONEPASS_TRANSPARENT_FUNCTION_OBJECT(logical_or, x || y)
#undef ONEPASS_TRANSPARENT_FUNCTION_OBJECT

namespace detail {
// minimum<>/maximum<> of two vecs or marrays (whose `<` gives a mask, no
// bool): element by element, the result of the type `false ? x : y` has.
template <bool Max, typename T, typename U> auto select_extreme(const T &x, const U &y) {
  if constexpr (std::is_convertible_v<decltype(y < x), bool>) {
    if constexpr (Max) return x < y ? y : x;
    else return y < x ? y : x;
  } else {
    std::decay_t<decltype(false ? x : y)> result = x;
    for (int i = 0; i < static_cast<int>(result.size()); ++i) {
      auto a = x[i], b = y[i];
      result[i] = Max ? (a < b ? b : a) : (b < a ? b : a);
    }
    return result;
  }
}
}  // namespace detail
template <> struct minimum<void> {
  template <typename T, typename U> auto operator()(T &&x, U &&y) const { return detail::select_extreme<false>(x, y); }
};
template <> struct maximum<void> {
  template <typename T, typename U> auto operator()(T &&x, U &&y) const { return detail::select_extreme<true>(x, y); }
};

namespace detail {
template <template <typename> class Family, typename Op> struct is_family : std::false_type {};
template <template <typename> class Family, typename T> struct is_family<Family, Family<T>> : std::true_type {};
template <template <typename> class Family, typename Op> inline constexpr bool is_family_v =
    is_family<Family, std::remove_cv_t<Op>>::value;
}  // namespace detail

// §4.9.2.2: whether BinaryOperation has an identity OnePass knows for T.
// (Table 101: the arithmetic types and sycl::half.)
template <typename BinaryOperation, typename AccumulatorT> struct has_known_identity {
  static constexpr bool value =
      ((std::is_arithmetic_v<AccumulatorT> || std::is_same_v<std::remove_cv_t<AccumulatorT>, half>) &&
       (detail::is_family_v<plus, BinaryOperation> || detail::is_family_v<multiplies, BinaryOperation> ||
        detail::is_family_v<minimum, BinaryOperation> || detail::is_family_v<maximum, BinaryOperation> ||
        detail::is_family_v<logical_and, BinaryOperation> || detail::is_family_v<logical_or, BinaryOperation>)) ||
      (std::is_integral_v<AccumulatorT> &&
       (detail::is_family_v<bit_and, BinaryOperation> || detail::is_family_v<bit_or, BinaryOperation> ||
        detail::is_family_v<bit_xor, BinaryOperation>));
};
template <typename BinaryOperation, typename AccumulatorT> inline constexpr bool has_known_identity_v =
    has_known_identity<BinaryOperation, AccumulatorT>::value;

template <typename BinaryOperation, typename AccumulatorT> struct known_identity {
  static_assert(has_known_identity_v<BinaryOperation, AccumulatorT>,
                "no known identity for this operation and type: give the reduction an identity");
  static constexpr AccumulatorT compute() {
    using T = AccumulatorT;
    if constexpr (detail::is_family_v<plus, BinaryOperation> || detail::is_family_v<bit_or, BinaryOperation> ||
                  detail::is_family_v<bit_xor, BinaryOperation> || detail::is_family_v<logical_or, BinaryOperation>)
      return T(0);
    else if constexpr (detail::is_family_v<multiplies, BinaryOperation> ||
                       detail::is_family_v<logical_and, BinaryOperation>)
      return T(1);
    else if constexpr (detail::is_family_v<bit_and, BinaryOperation>) return T(~T(0));
    else if constexpr (detail::is_family_v<minimum, BinaryOperation>)
      return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
    else
      return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                  : std::numeric_limits<T>::lowest();
  }
  static constexpr AccumulatorT value = compute();
};
template <typename BinaryOperation, typename AccumulatorT> inline constexpr AccumulatorT known_identity_v =
    known_identity<BinaryOperation, AccumulatorT>::value;

}  // namespace sycl
