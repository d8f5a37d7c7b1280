// What vec (vec.hpp) computes with: each element type's lane type, the
// clang vector of N lanes that one vec operation becomes (so a float4 add is
// one `fadd <4 x float>` and a float4 copy one 128-bit access), and the
// element conversions of vec::convert with SYCL 2020's rounding modes
// (§4.14.2.5).
#pragma once

#include "generic_types.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

// The element accessors of a vec and of a swizzle (§4.14.2.1, §4.14.2.4.4):
// X(name, index, condition on the element count M), expanded by each class.
#define ONEPASS_VEC_ELEMENT_ACCESSORS(X)                                                                               \
  X(x, 0, M <= 4)                                                                                                      \
  X(y, 1, M >= 2 && M <= 4)                                                                                            \
  X(z, 2, M >= 3 && M <= 4)                                                                                            \
  X(w, 3, M == 4)                                                                                                      \
  X(r, 0, M == 4)                                                                                                      \
  X(g, 1, M == 4)                                                                                                      \
  X(b, 2, M == 4)                                                                                                      \
  X(a, 3, M == 4)                                                                                                      \
  X(s0, 0, M >= 1)                                                                                                     \
  X(s1, 1, M >= 2)                                                                                                     \
  X(s2, 2, M >= 3)                                                                                                     \
  X(s3, 3, M >= 4)                                                                                                     \
  X(s4, 4, M >= 8)                                                                                                     \
  X(s5, 5, M >= 8)                                                                                                     \
  X(s6, 6, M >= 8)                                                                                                     \
  X(s7, 7, M >= 8)                                                                                                     \
  X(s8, 8, M >= 16)                                                                                                    \
  X(s9, 9, M >= 16)                                                                                                    \
  X(sA, 10, M >= 16)                                                                                                   \
  X(sB, 11, M >= 16)                                                                                                   \
  X(sC, 12, M >= 16)                                                                                                   \
  X(sD, 13, M >= 16)                                                                                                   \
  X(sE, 14, M >= 16)                                                                                                   \
  X(sF, 15, M >= 16)

namespace sycl {

// SYCL 2020 §4.14.2.5.
enum class rounding_mode { automatic, rte, rtz, rtp, rtn };

namespace detail {

// The lane type of an element type: what the compiler's vectors hold. bool
// lanes are bytes holding 0 or 1.
template <typename T> struct lane { using type = T; };
template <> struct lane<half> { using type = _Float16; };
template <> struct lane<std::byte> { using type = unsigned char; };
template <> struct lane<bool> { using type = signed char; };
template <typename T> using lane_t = typename lane<T>::type;

#ifdef __clang__
template <typename T, int N> using native_vec_t = lane_t<T> __attribute__((ext_vector_type(N)));
#else
// vec needs clang's vector extension: SYCL code is compiled by onepass++
// (clang). Other compilers may read these headers for the rest of the API.
template <typename T, int N> struct vec_needs_clang_ext_vector_type;
template <typename T, int N> using native_vec_t = typename vec_needs_clang_ext_vector_type<T, N>::type;
#endif

// The element type of relational and logical results (§4.14.2.1): a signed
// integer of the element's size, -1 for true and 0 for false.
template <std::size_t Bytes> struct signed_of_size;
template <> struct signed_of_size<1> { using type = std::int8_t; };
template <> struct signed_of_size<2> { using type = std::int16_t; };
template <> struct signed_of_size<4> { using type = std::int32_t; };
template <> struct signed_of_size<8> { using type = std::int64_t; };
template <typename T> using rel_t = typename signed_of_size<sizeof(T)>::type;

// Whether the bitwise, shift and % operators exist for an element type.
template <typename T> inline constexpr bool integral_lanes_v = !is_sycl_floating_v<T>;

template <typename T> inline constexpr bool is_vec_element_v =
    std::is_same_v<T, bool> || std::is_same_v<T, char> || std::is_same_v<T, signed char> ||
    std::is_same_v<T, unsigned char> || std::is_same_v<T, short> || std::is_same_v<T, unsigned short> ||
    std::is_same_v<T, int> || std::is_same_v<T, unsigned int> || std::is_same_v<T, long> ||
    std::is_same_v<T, unsigned long> || std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long> ||
    std::is_same_v<T, std::byte> || std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, double>;

// --- element conversions (vec::convert) -----------------------------------

template <typename T> constexpr bool is_float_lane_v = std::is_floating_point_v<T> || std::is_same_v<T, _Float16>;

// The next value of a floating type after x towards +inf (up) or -inf.
template <typename F> F step_float(F x, bool up) {
  if constexpr (std::is_same_v<F, float>) return __builtin_nextafterf(x, up ? __builtin_inff() : -__builtin_inff());
  else if constexpr (std::is_same_v<F, double>) return __builtin_nextafter(x, up ? __builtin_inf() : -__builtin_inf());
  else {
    // _Float16: step the bit pattern (x is finite here).
    std::uint16_t bits = __builtin_bit_cast(std::uint16_t, x);
    if ((bits & 0x7fffu) == 0) return __builtin_bit_cast(F, std::uint16_t(up ? 0x0001u : 0x8001u));
    bool positive = (bits & 0x8000u) == 0;
    bits = std::uint16_t(positive == up ? bits + 1 : bits - 1);
    return __builtin_bit_cast(F, bits);
  }
}

// Compares a value of type From with one of type To exactly: -1, 0 or 1
// (x is finite or an integer; r is the nearest To, so comparing through
// the wider of the two, or through long double, is exact here).
template <typename To, typename From> int compare_exact(To r, From x) {
  if constexpr (std::is_integral_v<From> && sizeof(From) == 8) {
    // r may not convert back to From (2^63); compare in long double, which
    // holds every 64-bit integer and every float/double/half exactly.
    long double a = static_cast<long double>(r), b = static_cast<long double>(x);
    return a < b ? -1 : a > b ? 1 : 0;
  } else {
    double a = static_cast<double>(r), b = static_cast<double>(x);
    return a < b ? -1 : a > b ? 1 : 0;
  }
}

// One element of vec::convert to a floating-point lane type To, rounded in
// a directed Mode (rtz, rtp, rtn); To and From are lane types.
template <typename To, typename From, rounding_mode Mode> To convert_lane(From x) {
  static_assert(is_float_lane_v<To>, "vec::convert rounds to integers with vector operations");
  {
    To r = static_cast<To>(x);  // round to nearest even
    constexpr bool directed = Mode == rounding_mode::rtz || Mode == rounding_mode::rtp || Mode == rounding_mode::rtn;
    constexpr bool can_lose = sizeof(From) >= sizeof(To) || !is_float_lane_v<From>;
    if constexpr (directed && can_lose && !std::is_same_v<To, From>) {
      if (x != x || x == From(0)) return r;  // NaN, and zero, convert exactly
      if (__builtin_isinf(static_cast<double>(r)) &&
          !(is_float_lane_v<From> && __builtin_isinf(static_cast<double>(x)))) {
        // Overflowed to infinity: directed modes may stop at the largest finite value.
        bool positive = static_cast<double>(r) > 0;
        bool keep = Mode == rounding_mode::rtp ? positive : Mode == rounding_mode::rtn ? !positive : false;
        if (!keep) return step_float(r, !positive);
        return r;
      }
      int order = compare_exact(r, x);  // r above (1) or below (-1) x
      bool down = Mode == rounding_mode::rtn || (Mode == rounding_mode::rtz && static_cast<double>(r) > 0);
      bool up = Mode == rounding_mode::rtp || (Mode == rounding_mode::rtz && static_cast<double>(r) < 0);
      if (order > 0 && down) return step_float(r, false);
      if (order < 0 && up) return step_float(r, true);
    }
    return r;
  }
}

}  // namespace detail
}  // namespace sycl
