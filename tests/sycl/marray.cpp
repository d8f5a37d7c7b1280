// sycl::marray (SYCL 2020 §4.14.3): types, aliases and layout; every
// constructor; every operator family, with marray and scalar on either side,
// for integer, floating-point, half and bool elements. Each family runs in a
// kernel and on the host, and both are checked against the same operation
// done element by element on scalars.
#include "check.h"

#include <sycl/sycl.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

using onepass_test::check;
using onepass_test::checkEqual;

namespace {

// §4.14.3.2 aliases and §4.14.3.3 layout.
static_assert(std::is_same_v<sycl::mchar4, sycl::marray<std::int8_t, 4>>);
static_assert(std::is_same_v<sycl::muchar2, sycl::marray<std::uint8_t, 2>>);
static_assert(std::is_same_v<sycl::mshort3, sycl::marray<std::int16_t, 3>>);
static_assert(std::is_same_v<sycl::mushort8, sycl::marray<std::uint16_t, 8>>);
static_assert(std::is_same_v<sycl::mint16, sycl::marray<std::int32_t, 16>>);
static_assert(std::is_same_v<sycl::muint4, sycl::marray<std::uint32_t, 4>>);
static_assert(std::is_same_v<sycl::mlong2, sycl::marray<std::int64_t, 2>>);
static_assert(std::is_same_v<sycl::mulong3, sycl::marray<std::uint64_t, 3>>);
static_assert(std::is_same_v<sycl::mhalf16, sycl::marray<sycl::half, 16>>);
static_assert(std::is_same_v<sycl::mfloat2, sycl::marray<float, 2>>);
static_assert(std::is_same_v<sycl::mdouble8, sycl::marray<double, 8>>);
static_assert(std::is_same_v<sycl::mbool4, sycl::marray<bool, 4>>);
static_assert(sizeof(sycl::mint3) == 3 * sizeof(int) && alignof(sycl::mint3) == alignof(int));
static_assert(sizeof(sycl::marray<double, 5>) == 40);
static_assert(sizeof(sycl::mhalf3) == 6 && sizeof(sycl::mbool3) == 3);
static_assert(sizeof(sycl::marray<char, 1>) == 1);
static_assert(std::is_trivially_copyable_v<sycl::mfloat3>);
static_assert(std::is_same_v<sycl::mint3::value_type, int> && std::is_same_v<sycl::mint3::reference, int &> &&
              std::is_same_v<sycl::mint3::const_reference, const int &> &&
              std::is_same_v<sycl::mint3::iterator, int *> && std::is_same_v<sycl::mint3::const_iterator, const int *>);
static_assert(sycl::marray<short, 7>::size() == 7);

// Results: element-wise operators of one type, and marray<bool> for the
// logical operators and comparisons.
static_assert(std::is_same_v<decltype(sycl::mint3() + sycl::mint3()), sycl::mint3>);
static_assert(std::is_same_v<decltype(sycl::muchar2() + std::uint8_t(1)), sycl::muchar2>);
static_assert(std::is_same_v<decltype(sycl::mfloat3() < 1.0f), sycl::mbool3>);
static_assert(std::is_same_v<decltype(sycl::mhalf2() && sycl::mhalf2()), sycl::mbool2>);
static_assert(std::is_same_v<decltype(!sycl::mdouble2()), sycl::mbool2>);
static_assert(std::is_same_v<decltype(std::declval<sycl::mint2 &>() += 1), sycl::mint2 &>);

// %, bitwise operators and shifts only for integral elements.
template <typename T, typename = void> struct has_remainder : std::false_type {};
template <typename T> struct has_remainder<T, std::void_t<decltype(std::declval<T>() % std::declval<T>())>>
    : std::true_type {};
template <typename T, typename = void> struct has_bit_and : std::false_type {};
template <typename T> struct has_bit_and<T, std::void_t<decltype(std::declval<T>() & std::declval<T>())>>
    : std::true_type {};
template <typename T, typename = void> struct has_shift : std::false_type {};
template <typename T> struct has_shift<T, std::void_t<decltype(std::declval<T &>() <<= 1)>> : std::true_type {};
template <typename T, typename = void> struct has_complement : std::false_type {};
template <typename T> struct has_complement<T, std::void_t<decltype(~std::declval<T>())>> : std::true_type {};
static_assert(has_remainder<sycl::mint2>::value && has_bit_and<sycl::mulong2>::value &&
              has_shift<sycl::mchar2>::value && has_complement<sycl::mbool2>::value);
static_assert(!has_remainder<sycl::mfloat2>::value && !has_remainder<sycl::mhalf2>::value &&
              !has_remainder<sycl::mdouble2>::value);
static_assert(!has_bit_and<sycl::mfloat2>::value && !has_shift<sycl::mdouble2>::value &&
              !has_complement<sycl::mhalf2>::value);

// Constructors: broadcast is explicit, the variadic one takes scalars and
// marrays whose counts add up; only a 1-element marray converts to DataT.
static_assert(!std::is_convertible_v<int, sycl::mint2> && std::is_constructible_v<sycl::mint2, int>);
static_assert(std::is_convertible_v<int, sycl::marray<int, 1>>);
static_assert(std::is_constructible_v<sycl::mint4, sycl::mint2, int, int>);
static_assert(!std::is_constructible_v<sycl::mint4, sycl::mint2, int>);
static_assert(!std::is_constructible_v<sycl::mint4, sycl::mint3, sycl::mint2>);
static_assert(std::is_convertible_v<sycl::marray<float, 1>, float> &&
              std::is_convertible_v<sycl::marray<int, 1>, double>);
static_assert(!std::is_convertible_v<sycl::mfloat2, float>);

// constexpr construction and operators.
constexpr sycl::mint3 kConst(1, sycl::marray<int, 2>(2, 3));
static_assert(kConst[0] == 1 && kConst[1] == 2 && kConst[2] == 3);
static_assert((kConst * 2 + 1)[2] == 7 && (kConst == sycl::mint3(1, 0, 3))[1] == false);

// One operator family: its name, what it does to marrays (in kernels and on
// the host), and what it does to one element (on the host, for reference).
template <typename M> struct Case {
  using T = typename M::value_type;
  const char *name;
  std::function<T(T, T, T)> scalar;  // element i of a, b, c
};

template <typename M> M fromBools(const sycl::marray<bool, M::size()> &m) {
  M result;
  for (std::size_t i = 0; i < M::size(); ++i) result[i] = m[i] ? 1 : 0;
  return result;
}

// ---------------------------------------------------------------------------
// Integral elements: a, b are any values (b has no zero); c is a shift count.
template <typename M> void integerOperators(const M &a, const M &b, const M &c, M *out) {
  using T = typename M::value_type;
  const T three = 3;
  const T positive = 6;
  std::size_t k = 0;
  out[k++] = a + b, out[k++] = a + three, out[k++] = three + a;
  out[k++] = a - b, out[k++] = a - three, out[k++] = three - a;
  out[k++] = a * b, out[k++] = a * three, out[k++] = three * a;
  out[k++] = a / b, out[k++] = a / three, out[k++] = T(100) / b;
  out[k++] = a % b, out[k++] = a % three, out[k++] = T(100) % b;
  out[k++] = a & b, out[k++] = a & three, out[k++] = three & a;
  out[k++] = a | b, out[k++] = a | three, out[k++] = three | a;
  out[k++] = a ^ b, out[k++] = a ^ three, out[k++] = three ^ a;
  out[k++] = (a & T(15)) << c, out[k++] = (a & T(15)) << three, out[k++] = positive << c;
  out[k++] = a >> c, out[k++] = a >> three, out[k++] = T(-64) >> c;
  M t = a;
  out[k++] = (t += b), out[k++] = (t -= three), out[k++] = (t *= b), out[k++] = (t /= three);
  out[k++] = (t = a, t %= b), out[k++] = (t %= three), out[k++] = (t &= b), out[k++] = (t |= three);
  out[k++] = (t ^= b), out[k++] = (t ^= three), out[k++] = (t &= T(7), t <<= c), out[k++] = (t <<= three);
  out[k++] = (t = a, t >>= c), out[k++] = (t >>= three);
  t = a;
  out[k++] = ++t, out[k++] = t++, out[k++] = t, out[k++] = --t, out[k++] = t--, out[k++] = t;
  out[k++] = +a, out[k++] = -a, out[k++] = ~a, out[k++] = fromBools<M>(!a);
  out[k++] = fromBools<M>(a && b), out[k++] = fromBools<M>(a && T(0)), out[k++] = fromBools<M>(T(1) && a);
  out[k++] = fromBools<M>(a || b), out[k++] = fromBools<M>(a || T(0)), out[k++] = fromBools<M>(T(0) || a);
  out[k++] = fromBools<M>(a == b), out[k++] = fromBools<M>(a == three), out[k++] = fromBools<M>(three == a);
  out[k++] = fromBools<M>(a != b), out[k++] = fromBools<M>(a != three), out[k++] = fromBools<M>(three != a);
  out[k++] = fromBools<M>(a < b), out[k++] = fromBools<M>(a < three), out[k++] = fromBools<M>(three < a);
  out[k++] = fromBools<M>(a > b), out[k++] = fromBools<M>(a > three), out[k++] = fromBools<M>(three > a);
  out[k++] = fromBools<M>(a <= b), out[k++] = fromBools<M>(a <= three), out[k++] = fromBools<M>(three <= a);
  out[k++] = fromBools<M>(a >= b), out[k++] = fromBools<M>(a >= three), out[k++] = fromBools<M>(three >= a);
}

template <typename M> std::vector<Case<M>> integerCases() {
  using T = typename M::value_type;
  const T three = 3;
  auto v = [](auto x) { return static_cast<T>(x); };
  // t after t = a, t %= b, t %= 3, t &= b, t |= 3, t ^= b, t ^= 3.
  auto chain = [=](T a, T b) { return v(v(v(v(v(v(a % b) % three) & b) | three) ^ b) ^ three); };
  return {
      {"a + b", [=](T a, T b, T) { return v(a + b); }},
      {"a + 3", [=](T a, T, T) { return v(a + three); }},
      {"3 + a", [=](T a, T, T) { return v(three + a); }},
      {"a - b", [=](T a, T b, T) { return v(a - b); }},
      {"a - 3", [=](T a, T, T) { return v(a - three); }},
      {"3 - a", [=](T a, T, T) { return v(three - a); }},
      {"a * b", [=](T a, T b, T) { return v(a * b); }},
      {"a * 3", [=](T a, T, T) { return v(a * three); }},
      {"3 * a", [=](T a, T, T) { return v(three * a); }},
      {"a / b", [=](T a, T b, T) { return v(a / b); }},
      {"a / 3", [=](T a, T, T) { return v(a / three); }},
      {"100 / b", [=](T, T b, T) { return v(T(100) / b); }},
      {"a % b", [=](T a, T b, T) { return v(a % b); }},
      {"a % 3", [=](T a, T, T) { return v(a % three); }},
      {"100 % b", [=](T, T b, T) { return v(T(100) % b); }},
      {"a & b", [=](T a, T b, T) { return v(a & b); }},
      {"a & 3", [=](T a, T, T) { return v(a & three); }},
      {"3 & a", [=](T a, T, T) { return v(three & a); }},
      {"a | b", [=](T a, T b, T) { return v(a | b); }},
      {"a | 3", [=](T a, T, T) { return v(a | three); }},
      {"3 | a", [=](T a, T, T) { return v(three | a); }},
      {"a ^ b", [=](T a, T b, T) { return v(a ^ b); }},
      {"a ^ 3", [=](T a, T, T) { return v(a ^ three); }},
      {"3 ^ a", [=](T a, T, T) { return v(three ^ a); }},
      {"(a & 15) << c", [=](T a, T, T c) { return v(v(a & T(15)) << c); }},
      {"(a & 15) << 3", [=](T a, T, T) { return v(v(a & T(15)) << three); }},
      {"6 << c", [=](T, T, T c) { return v(T(6) << c); }},
      {"a >> c", [=](T a, T, T c) { return v(a >> c); }},
      {"a >> 3", [=](T a, T, T) { return v(a >> three); }},
      {"-64 >> c", [=](T, T, T c) { return v(T(-64) >> c); }},
      {"t = a, t += b", [=](T a, T b, T) { return v(a + b); }},
      {"t -= 3", [=](T a, T b, T) { return v(v(a + b) - three); }},
      {"t *= b", [=](T a, T b, T) { return v(v(v(a + b) - three) * b); }},
      {"t /= 3", [=](T a, T b, T) { return v(v(v(v(a + b) - three) * b) / three); }},
      {"t = a, t %= b", [=](T a, T b, T) { return v(a % b); }},
      {"t %= 3", [=](T a, T b, T) { return v(v(a % b) % three); }},
      {"t &= b", [=](T a, T b, T) { return v(v(v(a % b) % three) & b); }},
      {"t |= 3", [=](T a, T b, T) { return v(v(v(v(a % b) % three) & b) | three); }},
      {"t ^= b", [=](T a, T b, T) { return v(v(v(v(v(a % b) % three) & b) | three) ^ b); }},
      {"t ^= 3", [=](T a, T b, T) { return v(v(v(v(v(v(a % b) % three) & b) | three) ^ b) ^ three); }},
      {"t &= 7, t <<= c", [=](T a, T b, T c) { return v(v(chain(a, b) & T(7)) << c); }},
      {"t <<= 3", [=](T a, T b, T c) { return v(v(v(chain(a, b) & T(7)) << c) << three); }},
      {"t = a, t >>= c", [=](T a, T, T c) { return v(a >> c); }},
      {"t >>= 3", [=](T a, T, T c) { return v(v(a >> c) >> three); }},
      {"++t", [=](T a, T, T) { return v(a + 1); }},
      {"t++ (old value)", [=](T a, T, T) { return v(a + 1); }},
      {"t after t++", [=](T a, T, T) { return v(a + 2); }},
      {"--t", [=](T a, T, T) { return v(a + 1); }},
      {"t-- (old value)", [=](T a, T, T) { return v(a + 1); }},
      {"t after t--", [=](T a, T, T) { return a; }},
      {"+a", [=](T a, T, T) { return v(+a); }},
      {"-a", [=](T a, T, T) { return v(-a); }},
      {"~a", [=](T a, T, T) { return v(~a); }},
      {"!a", [=](T a, T, T) { return v(!a); }},
      {"a && b", [=](T a, T b, T) { return v(a && b); }},
      {"a && 0", [=](T, T, T) { return v(0); }},
      {"1 && a", [=](T a, T, T) { return v(a != 0); }},
      {"a || b", [=](T a, T b, T) { return v(a || b); }},
      {"a || 0", [=](T a, T, T) { return v(a != 0); }},
      {"0 || a", [=](T a, T, T) { return v(a != 0); }},
      {"a == b", [=](T a, T b, T) { return v(a == b); }},
      {"a == 3", [=](T a, T, T) { return v(a == three); }},
      {"3 == a", [=](T a, T, T) { return v(three == a); }},
      {"a != b", [=](T a, T b, T) { return v(a != b); }},
      {"a != 3", [=](T a, T, T) { return v(a != three); }},
      {"3 != a", [=](T a, T, T) { return v(three != a); }},
      {"a < b", [=](T a, T b, T) { return v(a < b); }},
      {"a < 3", [=](T a, T, T) { return v(a < three); }},
      {"3 < a", [=](T a, T, T) { return v(three < a); }},
      {"a > b", [=](T a, T b, T) { return v(a > b); }},
      {"a > 3", [=](T a, T, T) { return v(a > three); }},
      {"3 > a", [=](T a, T, T) { return v(three > a); }},
      {"a <= b", [=](T a, T b, T) { return v(a <= b); }},
      {"a <= 3", [=](T a, T, T) { return v(a <= three); }},
      {"3 <= a", [=](T a, T, T) { return v(three <= a); }},
      {"a >= b", [=](T a, T b, T) { return v(a >= b); }},
      {"a >= 3", [=](T a, T, T) { return v(a >= three); }},
      {"3 >= a", [=](T a, T, T) { return v(three >= a); }},
  };
}

// ---------------------------------------------------------------------------
// Floating-point elements (float, double, half): c holds NaNs for the
// comparisons.
template <typename M> void floatingOperators(const M &a, const M &b, const M &c, M *out) {
  using T = typename M::value_type;
  const T two = 2;
  std::size_t k = 0;
  out[k++] = a + b, out[k++] = a + two, out[k++] = two + a;
  out[k++] = a - b, out[k++] = a - two, out[k++] = two - a;
  out[k++] = a * b, out[k++] = a * two, out[k++] = two * a;
  out[k++] = a / b, out[k++] = a / two, out[k++] = two / b;
  M t = a;
  out[k++] = (t += b), out[k++] = (t -= two), out[k++] = (t *= b), out[k++] = (t /= two);
  out[k++] = (t += two), out[k++] = (t -= b), out[k++] = (t *= two), out[k++] = (t /= b);
  t = a;
  out[k++] = ++t, out[k++] = t++, out[k++] = t, out[k++] = --t, out[k++] = t--, out[k++] = t;
  out[k++] = +a, out[k++] = -a, out[k++] = fromBools<M>(!(a - a + b));
  out[k++] = fromBools<M>(a && b), out[k++] = fromBools<M>(a && T(0)), out[k++] = fromBools<M>(T(1) && a);
  out[k++] = fromBools<M>(a || b), out[k++] = fromBools<M>(a || T(0)), out[k++] = fromBools<M>(T(0) || b);
  out[k++] = fromBools<M>(c == a), out[k++] = fromBools<M>(c == two), out[k++] = fromBools<M>(two == c);
  out[k++] = fromBools<M>(c != a), out[k++] = fromBools<M>(c != two), out[k++] = fromBools<M>(two != c);
  out[k++] = fromBools<M>(c < a), out[k++] = fromBools<M>(c < two), out[k++] = fromBools<M>(two < c);
  out[k++] = fromBools<M>(c > a), out[k++] = fromBools<M>(c > two), out[k++] = fromBools<M>(two > c);
  out[k++] = fromBools<M>(c <= a), out[k++] = fromBools<M>(c <= two), out[k++] = fromBools<M>(two <= c);
  out[k++] = fromBools<M>(c >= a), out[k++] = fromBools<M>(c >= two), out[k++] = fromBools<M>(two >= c);
}

template <typename M> std::vector<Case<M>> floatingCases() {
  using T = typename M::value_type;
  const T two = 2;
  auto v = [](auto x) { return static_cast<T>(x); };
  return {
      {"a + b", [=](T a, T b, T) { return v(a + b); }},
      {"a + 2", [=](T a, T, T) { return v(a + two); }},
      {"2 + a", [=](T a, T, T) { return v(two + a); }},
      {"a - b", [=](T a, T b, T) { return v(a - b); }},
      {"a - 2", [=](T a, T, T) { return v(a - two); }},
      {"2 - a", [=](T a, T, T) { return v(two - a); }},
      {"a * b", [=](T a, T b, T) { return v(a * b); }},
      {"a * 2", [=](T a, T, T) { return v(a * two); }},
      {"2 * a", [=](T a, T, T) { return v(two * a); }},
      {"a / b", [=](T a, T b, T) { return v(a / b); }},
      {"a / 2", [=](T a, T, T) { return v(a / two); }},
      {"2 / b", [=](T, T b, T) { return v(two / b); }},
      {"t = a, t += b", [=](T a, T b, T) { return v(a + b); }},
      {"t -= 2", [=](T a, T b, T) { return v(v(a + b) - two); }},
      {"t *= b", [=](T a, T b, T) { return v(v(v(a + b) - two) * b); }},
      {"t /= 2", [=](T a, T b, T) { return v(v(v(v(a + b) - two) * b) / two); }},
      {"t += 2", [=](T a, T b, T) { return v(v(v(v(v(a + b) - two) * b) / two) + two); }},
      {"t -= b", [=](T a, T b, T) { return v(v(v(v(v(v(a + b) - two) * b) / two) + two) - b); }},
      {"t *= 2", [=](T a, T b, T) { return v(v(v(v(v(v(v(a + b) - two) * b) / two) + two) - b) * two); }},
      {"t /= b", [=](T a, T b, T) { return v(v(v(v(v(v(v(v(a + b) - two) * b) / two) + two) - b) * two) / b); }},
      {"++t", [=](T a, T, T) { return v(a + T(1)); }},
      {"t++ (old value)", [=](T a, T, T) { return v(a + T(1)); }},
      {"t after t++", [=](T a, T, T) { return v(v(a + T(1)) + T(1)); }},
      {"--t", [=](T a, T, T) { return v(v(v(a + T(1)) + T(1)) - T(1)); }},
      {"t-- (old value)", [=](T a, T, T) { return v(v(v(a + T(1)) + T(1)) - T(1)); }},
      {"t after t--", [=](T a, T, T) { return v(v(v(v(a + T(1)) + T(1)) - T(1)) - T(1)); }},
      {"+a", [=](T a, T, T) { return a; }},
      {"-a", [=](T a, T, T) { return v(-a); }},
      {"!(a - a + b)", [=](T, T b, T) { return v(!static_cast<bool>(b)); }},
      {"a && b", [=](T a, T b, T) { return v(static_cast<bool>(a) && static_cast<bool>(b)); }},
      {"a && 0", [=](T, T, T) { return v(0); }},
      {"1 && a", [=](T a, T, T) { return v(static_cast<bool>(a)); }},
      {"a || b", [=](T a, T b, T) { return v(static_cast<bool>(a) || static_cast<bool>(b)); }},
      {"a || 0", [=](T a, T, T) { return v(static_cast<bool>(a)); }},
      {"0 || b", [=](T, T b, T) { return v(static_cast<bool>(b)); }},
      {"c == a", [=](T a, T, T c) { return v(c == a); }},
      {"c == 2", [=](T, T, T c) { return v(c == two); }},
      {"2 == c", [=](T, T, T c) { return v(two == c); }},
      {"c != a", [=](T a, T, T c) { return v(c != a); }},
      {"c != 2", [=](T, T, T c) { return v(c != two); }},
      {"2 != c", [=](T, T, T c) { return v(two != c); }},
      {"c < a", [=](T a, T, T c) { return v(c < a); }},
      {"c < 2", [=](T, T, T c) { return v(c < two); }},
      {"2 < c", [=](T, T, T c) { return v(two < c); }},
      {"c > a", [=](T a, T, T c) { return v(c > a); }},
      {"c > 2", [=](T, T, T c) { return v(c > two); }},
      {"2 > c", [=](T, T, T c) { return v(two > c); }},
      {"c <= a", [=](T a, T, T c) { return v(c <= a); }},
      {"c <= 2", [=](T, T, T c) { return v(c <= two); }},
      {"2 <= c", [=](T, T, T c) { return v(two <= c); }},
      {"c >= a", [=](T a, T, T c) { return v(c >= a); }},
      {"c >= 2", [=](T, T, T c) { return v(c >= two); }},
      {"2 >= c", [=](T, T, T c) { return v(two >= c); }},
  };
}

template <typename T> std::string text(const T &value) {
  if constexpr (std::is_same_v<T, sycl::half>) return onepass_test::show(static_cast<float>(value));
  else return onepass_test::show(value);
}

// Runs `operators` on the device (in a single_task) and on the host, and
// checks every element of both against the scalar reference of `cases`.
template <typename M, typename Operators> void checkFamily(sycl::queue &q, const std::string &what, const M &a,
                                                           const M &b, const M &c, const std::vector<Case<M>> &cases,
                                                           Operators operators) {
  const std::size_t count = cases.size();
  M *device = sycl::malloc_shared<M>(count + 1, q);
  std::vector<M> host(count + 1);
  q.single_task([=] { operators(a, b, c, device); }).wait();
  operators(a, b, c, host.data());
  for (std::size_t k = 0; k < count; ++k) {
    for (std::size_t i = 0; i < M::size(); ++i) {
      auto want = cases[k].scalar(a[i], b[i], c[i]);
      const std::string name = what + ": " + cases[k].name + " [" + std::to_string(i) + "]";
      if (!(device[k][i] == want) && !(device[k][i] != device[k][i] && want != want))
        onepass_test::fail(name + " in a kernel", text(want), text(device[k][i]));
      if (!(host[k][i] == want) && !(host[k][i] != host[k][i] && want != want))
        onepass_test::fail(name + " on the host", text(want), text(host[k][i]));
    }
  }
  sycl::free(device, q);
}

void integerFamilies(sycl::queue &q) {
  checkFamily(q, "mint4", sycl::mint4(7, -12, 100, 1), sycl::mint4(3, 5, -7, 9), sycl::mint4(0, 1, 2, 5),
              integerCases<sycl::mint4>(),
              [](const sycl::mint4 &a, const sycl::mint4 &b, const sycl::mint4 &c, sycl::mint4 *out) {
                integerOperators(a, b, c, out);
              });
  // Small types: each element's int result converted back (250 + 10 == 4).
  checkFamily(q, "muchar4", sycl::muchar4(250, 12, 100, 1), sycl::muchar4(10, 5, 7, 200), sycl::muchar4(0, 1, 2, 7),
              integerCases<sycl::muchar4>(),
              [](const sycl::muchar4 &a, const sycl::muchar4 &b, const sycl::muchar4 &c, sycl::muchar4 *out) {
                integerOperators(a, b, c, out);
              });
  checkFamily(q, "marray<short, 5>", sycl::marray<short, 5>(-30000, 12, 100, 1, -7),
              sycl::marray<short, 5>(10, -5, 7, 200, 3), sycl::marray<short, 5>(0, 1, 2, 7, 3),
              integerCases<sycl::marray<short, 5>>(),
              [](const sycl::marray<short, 5> &a, const sycl::marray<short, 5> &b, const sycl::marray<short, 5> &c,
                 sycl::marray<short, 5> *out) { integerOperators(a, b, c, out); });
  checkFamily(q, "mulong3", sycl::mulong3(~0ull, 1ull << 40, 5), sycl::mulong3(3, 1000, 2), sycl::mulong3(1, 20, 63),
              integerCases<sycl::mulong3>(),
              [](const sycl::mulong3 &a, const sycl::mulong3 &b, const sycl::mulong3 &c, sycl::mulong3 *out) {
                integerOperators(a, b, c, out);
              });
}

void floatingFamilies(sycl::queue &q) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  checkFamily(q, "mfloat4", sycl::mfloat4(1.5f, -2.25f, 8.0f, 0.0f), sycl::mfloat4(0.5f, 4.0f, -2.0f, 0.25f),
              sycl::mfloat4(nan, 2.0f, nan, -1.0f), floatingCases<sycl::mfloat4>(),
              [](const sycl::mfloat4 &a, const sycl::mfloat4 &b, const sycl::mfloat4 &c, sycl::mfloat4 *out) {
                floatingOperators(a, b, c, out);
              });
  checkFamily(q, "mdouble3", sycl::mdouble3(1.0 / 3.0, -1e300, 0.0), sycl::mdouble3(3.0, 1e-10, -0.5),
              sycl::mdouble3(2.0, std::nan(""), 1e300), floatingCases<sycl::mdouble3>(),
              [](const sycl::mdouble3 &a, const sycl::mdouble3 &b, const sycl::mdouble3 &c, sycl::mdouble3 *out) {
                floatingOperators(a, b, c, out);
              });
}

// half arithmetic needs aspect::fp16 on the device.
void halfFamily(sycl::queue &q) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  checkFamily(q, "mhalf4", sycl::mhalf4(1.5f, -2.25f, 1000.0f, 0.0f), sycl::mhalf4(0.5f, 4.0f, 3.0f, 0.125f),
              sycl::mhalf4(sycl::half(nan), 2.0f, -0.5f, 2.0f), floatingCases<sycl::mhalf4>(),
              [](const sycl::mhalf4 &a, const sycl::mhalf4 &b, const sycl::mhalf4 &c, sycl::mhalf4 *out) {
                floatingOperators(a, b, c, out);
              });
}

// bool elements: the logical and bitwise operators, comparisons, and ~ as
// C++ computes it (an int never 0, converted back: true).
void boolOperators(const sycl::mbool4 &a, const sycl::mbool4 &b, sycl::mbool4 *out) {
  std::size_t k = 0;
  out[k++] = a && b, out[k++] = a || b, out[k++] = !a, out[k++] = ~a;
  out[k++] = a & b, out[k++] = a | b, out[k++] = a ^ b, out[k++] = a ^ true;
  out[k++] = a == b, out[k++] = a != b, out[k++] = a < b, out[k++] = true == a;
  sycl::mbool4 t = a;
  out[k++] = (t &= b), out[k++] = (t |= true), out[k++] = (t ^= a);
}

void boolFamily(sycl::queue &q) {
  using B = sycl::mbool4;
  std::vector<Case<B>> cases = {
      {"a && b", [](bool a, bool b, bool) { return a && b; }},
      {"a || b", [](bool a, bool b, bool) { return a || b; }},
      {"!a", [](bool a, bool, bool) { return !a; }},
      {"~a", [](bool, bool, bool) { return true; }},
      {"a & b", [](bool a, bool b, bool) { return a && b; }},
      {"a | b", [](bool a, bool b, bool) { return a || b; }},
      {"a ^ b", [](bool a, bool b, bool) { return a != b; }},
      {"a ^ true", [](bool a, bool, bool) { return !a; }},
      {"a == b", [](bool a, bool b, bool) { return a == b; }},
      {"a != b", [](bool a, bool b, bool) { return a != b; }},
      {"a < b", [](bool a, bool b, bool) { return !a && b; }},
      {"true == a", [](bool a, bool, bool) { return a; }},
      {"t = a, t &= b", [](bool a, bool b, bool) { return a && b; }},
      {"t |= true", [](bool, bool, bool) { return true; }},
      {"t ^= a", [](bool a, bool, bool) { return !a; }},
  };
  checkFamily(q, "mbool4", B(true, true, false, false), B(true, false, true, false), B(), cases,
              [](const B &a, const B &b, const B &, B *out) { boolOperators(a, b, out); });
}

// Constructors, assignment, iteration and the 1-element conversion, in a
// kernel: the results are written out as ints.
template <typename Out> void constructorsAndMembers(Out *out) {
  std::size_t k = 0;
  sycl::mint2 two(1, 2);
  sycl::marray<int, 7> mixed(two, 3, sycl::mint3(4, 5, 6), 7);  // any mix adding up to 7
  for (int x : mixed) out[k++] = x;
  sycl::mint3 broadcast(9);
  for (std::size_t i = 0; i < broadcast.size(); ++i) out[k++] = broadcast[i];
  sycl::mint3 copy(broadcast);
  copy = 4;  // assigns every element
  copy[1] = -1;
  for (const int *it = copy.cbegin(); it != copy.cend(); ++it) out[k++] = *it;
  sycl::mfloat3 converted(1, 2.5, 'a');  // scalars convertible to float
  out[k++] = static_cast<int>(converted[0] * 10), out[k++] = static_cast<int>(converted[1] * 10);
  out[k++] = static_cast<int>(converted[2]);
  sycl::marray<int, 1> one = 42;  // implicit from the scalar
  int scalar = one;               // and back (§4.14.3.1, Table 127)
  long widened = one;
  out[k++] = scalar, out[k++] = static_cast<int>(widened);
  sycl::mint4 defaulted;  // zero
  int sum = 0;
  for (int x : defaulted) sum += x;
  out[k++] = sum;
  const sycl::mint4 constant(2, 4, 6, 8);
  out[k++] = static_cast<int>(constant.end() - constant.begin()), out[k++] = *(constant.begin() + 3);
  out[k++] = &constant[1] == &constant[0] + 1 ? 1 : 0;  // contiguous (§4.14.3.3)
  sycl::mhalf3 h(sycl::half(1.5f), 2, 0.25f);
  // (Summed as floats: half arithmetic needs aspect::fp16, halfFamily has it.)
  out[k++] = static_cast<int>((static_cast<float>(h[0]) + static_cast<float>(h[1]) + static_cast<float>(h[2])) * 4);
}
const int kConstructorResults[] = {1, 2, 3, 4, 5, 6, 7, 9, 9, 9, 4, -1, 4, 10, 25, 97, 42, 42, 0, 4, 8, 1, 15};

void constructors(sycl::queue &q) {
  const std::size_t n = sizeof(kConstructorResults) / sizeof(int);
  int *device = sycl::malloc_shared<int>(n, q);
  q.single_task([=] { constructorsAndMembers(device); }).wait();
  std::vector<int> host(n);
  constructorsAndMembers(host.data());
  onepass_test::checkArray("constructors and members in a kernel", n, device,
                           [](std::size_t i) { return kConstructorResults[i]; });
  onepass_test::checkArray("constructors and members on the host", n, host.data(),
                           [](std::size_t i) { return kConstructorResults[i]; });
  sycl::free(device, q);
}

// marrays in buffers, one per work-item: the layout is the same on the host
// and the device.
void inBuffers(sycl::queue &q) {
  const std::size_t n = 1000;
  std::vector<sycl::mfloat3> input(n);
  for (std::size_t i = 0; i < n; ++i) input[i] = sycl::mfloat3(float(i), float(i) * 0.5f, -float(i));
  std::vector<sycl::mfloat3> output(n);
  std::vector<sycl::mbool3> signs(n);
  {
    sycl::buffer<sycl::mfloat3> in(input.data(), sycl::range<1>(n));
    sycl::buffer<sycl::mfloat3> out(output.data(), sycl::range<1>(n));
    sycl::buffer<sycl::mbool3> positive(signs.data(), sycl::range<1>(n));
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(in, h, sycl::read_only);
      sycl::accessor r(out, h, sycl::write_only, sycl::no_init);
      sycl::accessor p(positive, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
        sycl::mfloat3 x = a[i];
        r[i] = x * 2.0f + sycl::mfloat3(1.0f, 2.0f, 3.0f);
        p[i] = x > 0.0f;
      });
    });
  }
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sycl::mfloat3 want(float(2 * i + 1), float(i) + 2.0f, -2.0f * float(i) + 3.0f);
    for (std::size_t e = 0; e < 3; ++e) wrong += output[i][e] != want[e];
    wrong += signs[i][0] != (i > 0) || signs[i][1] != (i > 0) || signs[i][2];
  }
  checkEqual("mfloat3 buffers (x * 2 + (1, 2, 3)) and mbool3 buffers (x > 0): elements that differ", std::size_t(0),
             wrong);
}

}  // namespace

int main() {
  sycl::queue q;
  onepass_test::runPart("integer operators", [&] { integerFamilies(q); });
  onepass_test::runPart("floating-point operators", [&] { floatingFamilies(q); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "half operators", [&] { halfFamily(q); });
  onepass_test::runPart("bool operators", [&] { boolFamily(q); });
  onepass_test::runPart("constructors", [&] { constructors(q); });
  onepass_test::runPart("buffers of marrays", [&] { inBuffers(q); });
  return onepass_test::report();
}
