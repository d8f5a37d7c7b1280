// SYCL 2020 §4.14.3: sycl::marray<DataT, NumElements>, a fixed-size array of
// numbers with element-wise operators, on the host and in kernels. Unlike
// vec it has any number of elements and no padding: its elements are laid
// out as in std::array<DataT, NumElements> (§4.14.3.3).
//
// Every operator is element-wise and gives an marray of the same type,
// except the logical (&&, ||, !) and comparison operators, which give
// marray<bool, NumElements>. %, the bitwise operators and the shifts exist
// only for integral element types (the spec's "DataT != float && DataT !=
// double && DataT != half"). Each element's result is converted back to
// DataT, as C++ promotes small integers (char + char is an int).
#pragma once

#include "detail/generic_types.hpp"
#include "detail/std_parts.hpp"
#include "half.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace sycl {

namespace detail {
// The element count an argument adds to marray's variadic constructor, or 0
// for an argument it does not take (§4.14.3.1, Table 126).
template <typename DataT, typename Arg> struct marray_argument_count {
  static constexpr std::size_t value = std::is_convertible_v<const Arg &, DataT> ? 1 : 0;
};
template <typename DataT, std::size_t N> struct marray_argument_count<DataT, marray<DataT, N>> {
  static constexpr std::size_t value = N;
};
}  // namespace detail

template <typename DataT, std::size_t NumElements> class marray {
  static_assert(NumElements >= 1, "an marray has at least one element (§4.14.3)");

  // The variadic constructor's arguments: scalars and marrays of DataT whose
  // element counts add up to NumElements.
  template <typename... Args>
  static constexpr bool fills_exactly = ((detail::marray_argument_count<DataT, Args>::value > 0) && ...) &&
                                        (detail::marray_argument_count<DataT, Args>::value + ... + 0) == NumElements;
  // What operator DataT() converts to when NumElements != 1: a type no one
  // can name, so that the conversion is never chosen.
  struct no_conversion {};

public:
  using value_type = DataT;
  using reference = DataT &;
  using const_reference = const DataT &;
  using iterator = DataT *;
  using const_iterator = const DataT *;

  // Each element value-initialized (zero for numbers).
  constexpr marray() : elements_{} {}
  explicit constexpr marray(const DataT &arg) : elements_{} {
    for (std::size_t i = 0; i < NumElements; ++i) elements_[i] = arg;
  }
  // Any mix of scalars and marrays of DataT, in order, filling every element.
  template <typename... ArgTN, typename = std::enable_if_t<fills_exactly<ArgTN...>>>
  constexpr marray(const ArgTN &...args) : elements_{} {
    std::size_t next = 0;
    (append(next, args), ...);
  }
  constexpr marray(const marray &rhs) = default;
  constexpr marray(marray &&rhs) = default;

  // Only for NumElements == 1: not a template, so that an marray<T, 1>
  // converts to whatever T converts to (Table 127).
  constexpr operator std::conditional_t<NumElements == 1, DataT, no_conversion>() const { return elements_[0]; }

  static constexpr std::size_t size() noexcept { return NumElements; }

  constexpr reference operator[](std::size_t index) { return elements_[index]; }
  constexpr const_reference operator[](std::size_t index) const { return elements_[index]; }

  constexpr marray &operator=(const marray &rhs) = default;
  constexpr marray &operator=(marray &&rhs) = default;
  constexpr marray &operator=(const DataT &rhs) {
    for (std::size_t i = 0; i < NumElements; ++i) elements_[i] = rhs;
    return *this;
  }

  constexpr iterator begin() { return elements_; }
  constexpr const_iterator begin() const { return elements_; }
  constexpr iterator end() { return elements_ + NumElements; }
  constexpr const_iterator end() const { return elements_ + NumElements; }
  constexpr const_iterator cbegin() const { return elements_; }
  constexpr const_iterator cend() const { return elements_ + NumElements; }

  // The operators (Table 128) follow the class.

private:
  // The variadic constructor's steps: one scalar, or every element of an
  // marray of DataT.
  template <typename Arg> constexpr void append(std::size_t &next, const Arg &arg) {
    if constexpr (detail::is_marray_v<Arg>) {
      for (std::size_t i = 0; i < Arg::size(); ++i) elements_[next++] = arg[i];
    } else {
      elements_[next++] = static_cast<DataT>(arg);
    }
  }

  DataT elements_[NumElements];
};

namespace detail {
// Element i of an operand: an marray's own, or the scalar for every i.
template <typename T, std::size_t N> constexpr const T &marray_element(const marray<T, N> &m, std::size_t i) {
  return m[i];
}
template <typename T> constexpr const T &marray_element(const T &scalar, std::size_t) { return scalar; }

// marray<Result, N> with element i = op(operands' elements i...), each
// converted to Result.
template <typename Result, std::size_t N, typename Op, typename... Operands>
constexpr marray<Result, N> marray_apply(Op op, const Operands &...operands) {
  marray<Result, N> result;
  for (std::size_t i = 0; i < N; ++i) result[i] = static_cast<Result>(op(marray_element(operands, i)...));
  return result;
}

template <typename T> struct marray_non_deduced { using type = T; };
template <typename T> using marray_non_deduced_t = typename marray_non_deduced<T>::type;
template <typename T> using marray_any_if = int;
// Operators only integral element types have (%, &, |, ^, <<, >>, ~).
template <typename T> using marray_integral_if = std::enable_if_t<std::is_integral_v<T>, int>;

struct marray_shift_left {
  template <typename A, typename B> constexpr auto operator()(const A &a, const B &b) const { return a << b; }
};
struct marray_shift_right {
  template <typename A, typename B> constexpr auto operator()(const A &a, const B &b) const { return a >> b; }
};
struct marray_logical_and {
  template <typename A> constexpr bool operator()(const A &a, const A &b) const {
    return static_cast<bool>(a) && static_cast<bool>(b);
  }
};
struct marray_logical_or {
  template <typename A> constexpr bool operator()(const A &a, const A &b) const {
    return static_cast<bool>(a) || static_cast<bool>(b);
  }
};
}  // namespace detail

// --- operators (§4.14.3.1, Table 128) ----------------------------------------
// The spec makes them hidden friends; here they are function templates of
// namespace sycl that accept only marrays (see vec.hpp: clang compares hidden
// friends pairwise across a TU's instantiations). The parameter that is not
// deduced converts as a hidden friend's would (a scalar to DataT).
#define ONEPASS_MARRAY_BINARY(op, function, result, enable_if)                                                         \
  template <typename T, std::size_t N, enable_if<T> = 0> constexpr marray<result, N> operator op(                      \
      const marray<T, N> &a, const detail::marray_non_deduced_t<marray<T, N>> &b) {                                    \
    return detail::marray_apply<result, N>(function, a, b);                                                            \
  }                                                                                                                    \
  template <typename T, std::size_t N, enable_if<T> = 0>                                                               \
  constexpr marray<result, N> operator op(const marray<T, N> &a, const detail::marray_non_deduced_t<T> &b) {           \
    return detail::marray_apply<result, N>(function, a, b);                                                            \
  }                                                                                                                    \
  template <typename T, std::size_t N, enable_if<T> = 0>                                                               \
  constexpr marray<result, N> operator op(const detail::marray_non_deduced_t<T> &a, const marray<T, N> &b) {           \
    return detail::marray_apply<result, N>(function, a, b);                                                            \
  }
#define ONEPASS_MARRAY_COMPOUND(op, enable_if)                                                                         \
  template <typename T, std::size_t N, enable_if<T> = 0>                                                               \
  constexpr marray<T, N> &operator op##=(marray<T, N> &a, const detail::marray_non_deduced_t<marray<T, N>> &b) {       \
    return a = a op b;                                                                                                 \
  }                                                                                                                    \
  template <typename T, std::size_t N, enable_if<T> = 0>                                                               \
  constexpr marray<T, N> &operator op##=(marray<T, N> &a, const detail::marray_non_deduced_t<T> &b) {                  \
    return a = a op b;                                                                                                 \
  }
ONEPASS_MARRAY_BINARY(+, std::plus<>(), T, detail::marray_any_if)
ONEPASS_MARRAY_BINARY(-, std::minus<>(), T, detail::marray_any_if)
ONEPASS_MARRAY_BINARY(*, std::multiplies<>(), T, detail::marray_any_if)
ONEPASS_MARRAY_BINARY(/, std::divides<>(), T, detail::marray_any_if)
ONEPASS_MARRAY_BINARY(%, std::modulus<>(), T, detail::marray_integral_if)
ONEPASS_MARRAY_BINARY(&, std::bit_and<>(), T, detail::marray_integral_if)
ONEPASS_MARRAY_BINARY(|, std::bit_or<>(), T, detail::marray_integral_if)
ONEPASS_MARRAY_BINARY(^, std::bit_xor<>(), T, detail::marray_integral_if)
ONEPASS_MARRAY_BINARY(<<, detail::marray_shift_left(), T, detail::marray_integral_if)
ONEPASS_MARRAY_BINARY(>>, detail::marray_shift_right(), T, detail::marray_integral_if)
ONEPASS_MARRAY_COMPOUND(+, detail::marray_any_if)
ONEPASS_MARRAY_COMPOUND(-, detail::marray_any_if)
ONEPASS_MARRAY_COMPOUND(*, detail::marray_any_if)
ONEPASS_MARRAY_COMPOUND(/, detail::marray_any_if)
ONEPASS_MARRAY_COMPOUND(%, detail::marray_integral_if)
ONEPASS_MARRAY_COMPOUND(&, detail::marray_integral_if)
ONEPASS_MARRAY_COMPOUND(|, detail::marray_integral_if)
ONEPASS_MARRAY_COMPOUND(^, detail::marray_integral_if)
ONEPASS_MARRAY_COMPOUND(<<, detail::marray_integral_if)
ONEPASS_MARRAY_COMPOUND(>>, detail::marray_integral_if)
// Logical operators element by element (no short-circuit: both sides are
// evaluated before the call); comparisons false with a NaN, except != (IEEE
// 754, as C++ compares).
ONEPASS_MARRAY_BINARY(&&, detail::marray_logical_and(), bool, detail::marray_any_if)
ONEPASS_MARRAY_BINARY(||, detail::marray_logical_or(), bool, detail::marray_any_if)
ONEPASS_MARRAY_BINARY(==, std::equal_to<>(), bool, detail::marray_any_if)
ONEPASS_MARRAY_BINARY(!=, std::not_equal_to<>(), bool, detail::marray_any_if)
ONEPASS_MARRAY_BINARY(<, std::less<>(), bool, detail::marray_any_if)
ONEPASS_MARRAY_BINARY(>, std::greater<>(), bool, detail::marray_any_if)
ONEPASS_MARRAY_BINARY(<=, std::less_equal<>(), bool, detail::marray_any_if)
ONEPASS_MARRAY_BINARY(>=, std::greater_equal<>(), bool, detail::marray_any_if)
#undef ONEPASS_MARRAY_BINARY
#undef ONEPASS_MARRAY_COMPOUND

// Increment and decrement: every element by one (also for bool, where C++
// has no ++: true stays true, and -- flips it as x - 1 converted back does).
template <typename T, std::size_t N> constexpr marray<T, N> &operator++(marray<T, N> &v) { return v += T(1); }
template <typename T, std::size_t N> constexpr marray<T, N> &operator--(marray<T, N> &v) { return v -= T(1); }
template <typename T, std::size_t N> constexpr marray<T, N> operator++(marray<T, N> &v, int) {
  marray<T, N> old = v;
  ++v;
  return old;
}
template <typename T, std::size_t N> constexpr marray<T, N> operator--(marray<T, N> &v, int) {
  marray<T, N> old = v;
  --v;
  return old;
}

// Unary operators, element by element as C++ computes them and converted
// back to T: for bool elements ~x is an int that is never 0, so true (what the
// CTS expects, as std::valarray<bool> gives).
template <typename T, std::size_t N> constexpr marray<T, N> operator+(const marray<T, N> &v) {
  return detail::marray_apply<T, N>([](const auto &x) { return +x; }, v);
}
template <typename T, std::size_t N> constexpr marray<T, N> operator-(const marray<T, N> &v) {
  return detail::marray_apply<T, N>(std::negate<>(), v);
}
template <typename T, std::size_t N, detail::marray_integral_if<T> = 0>
constexpr marray<T, N> operator~(const marray<T, N> &v) {
  return detail::marray_apply<T, N>(std::bit_not<>(), v);
}
template <typename T, std::size_t N> constexpr marray<bool, N> operator!(const marray<T, N> &v) {
  return detail::marray_apply<bool, N>([](const T &x) { return !static_cast<bool>(x); }, v);
}

// §4.14.3.2: m<type><elems> for elems 2, 3, 4, 8 and 16.
using mchar2 = marray<std::int8_t, 2>;
using mchar3 = marray<std::int8_t, 3>;
using mchar4 = marray<std::int8_t, 4>;
using mchar8 = marray<std::int8_t, 8>;
using mchar16 = marray<std::int8_t, 16>;
using muchar2 = marray<std::uint8_t, 2>;
using muchar3 = marray<std::uint8_t, 3>;
using muchar4 = marray<std::uint8_t, 4>;
using muchar8 = marray<std::uint8_t, 8>;
using muchar16 = marray<std::uint8_t, 16>;
using mshort2 = marray<std::int16_t, 2>;
using mshort3 = marray<std::int16_t, 3>;
using mshort4 = marray<std::int16_t, 4>;
using mshort8 = marray<std::int16_t, 8>;
using mshort16 = marray<std::int16_t, 16>;
using mushort2 = marray<std::uint16_t, 2>;
using mushort3 = marray<std::uint16_t, 3>;
using mushort4 = marray<std::uint16_t, 4>;
using mushort8 = marray<std::uint16_t, 8>;
using mushort16 = marray<std::uint16_t, 16>;
using mint2 = marray<std::int32_t, 2>;
using mint3 = marray<std::int32_t, 3>;
using mint4 = marray<std::int32_t, 4>;
using mint8 = marray<std::int32_t, 8>;
using mint16 = marray<std::int32_t, 16>;
using muint2 = marray<std::uint32_t, 2>;
using muint3 = marray<std::uint32_t, 3>;
using muint4 = marray<std::uint32_t, 4>;
using muint8 = marray<std::uint32_t, 8>;
using muint16 = marray<std::uint32_t, 16>;
using mlong2 = marray<std::int64_t, 2>;
using mlong3 = marray<std::int64_t, 3>;
using mlong4 = marray<std::int64_t, 4>;
using mlong8 = marray<std::int64_t, 8>;
using mlong16 = marray<std::int64_t, 16>;
using mulong2 = marray<std::uint64_t, 2>;
using mulong3 = marray<std::uint64_t, 3>;
using mulong4 = marray<std::uint64_t, 4>;
using mulong8 = marray<std::uint64_t, 8>;
using mulong16 = marray<std::uint64_t, 16>;
using mhalf2 = marray<half, 2>;
using mhalf3 = marray<half, 3>;
using mhalf4 = marray<half, 4>;
using mhalf8 = marray<half, 8>;
using mhalf16 = marray<half, 16>;
using mfloat2 = marray<float, 2>;
using mfloat3 = marray<float, 3>;
using mfloat4 = marray<float, 4>;
using mfloat8 = marray<float, 8>;
using mfloat16 = marray<float, 16>;
using mdouble2 = marray<double, 2>;
using mdouble3 = marray<double, 3>;
using mdouble4 = marray<double, 4>;
using mdouble8 = marray<double, 8>;
using mdouble16 = marray<double, 16>;
using mbool2 = marray<bool, 2>;
using mbool3 = marray<bool, 3>;
using mbool4 = marray<bool, 4>;
using mbool8 = marray<bool, 8>;
using mbool16 = marray<bool, 16>;

}  // namespace sycl
