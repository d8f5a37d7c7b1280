// SYCL 2020 §4.17.4 math, §4.17.8 common and §4.17.9 geometric functions in
// kernels, for float, double and half:
//  - every scalar function at special inputs (NaN, infinities, zeros of
//    both signs, denormals, the largest values, huge arguments) and sampled
//    ones, against a long double reference on the host, within the spec's
//    ULP bounds (OpenCL 1.2 full profile; half results within 1 ulp);
//  - the vec and marray overloads, lane by lane equal to the scalar results;
//  - the functions with pointer arguments (plain pointers and multi_ptr),
//    nan, nextafter for half, and the geometric functions over their range.
#include "check.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using LD = long double;
constexpr LD kPi = 3.141592653589793238462643383279502884L;

template <typename T> struct ElementOf { using type = T; };
template <typename E, int N> struct ElementOf<sycl::vec<E, N>> { using type = E; };
template <typename E, std::size_t N> struct ElementOf<sycl::marray<E, N>> { using type = E; };
template <typename T> struct IntsOf { using type = int; };
template <typename E, int N> struct IntsOf<sycl::vec<E, N>> { using type = sycl::vec<int, N>; };
template <typename E, std::size_t N> struct IntsOf<sycl::marray<E, N>> { using type = sycl::marray<int, N>; };

// Function f of the table at (x, y, z), for a scalar T or a vec/marray of
// them: the same call either way. The same code runs on host and device.
constexpr int kFunctions = 74;
template <typename T> T evaluate(int f, T x, T y, T z) {
  using E = typename ElementOf<T>::type;
  using Ints = typename IntsOf<T>::type;
  switch (f) {
  case 0: return sycl::acos(x);
  case 1: return sycl::acosh(x);
  case 2: return sycl::acospi(x);
  case 3: return sycl::asin(x);
  case 4: return sycl::asinh(x);
  case 5: return sycl::asinpi(x);
  case 6: return sycl::atan(x);
  case 7: return sycl::atanh(x);
  case 8: return sycl::atanpi(x);
  case 9: return sycl::cbrt(x);
  case 10: return sycl::ceil(x);
  case 11: return sycl::cos(x);
  case 12: return sycl::cosh(x);
  case 13: return sycl::cospi(x);
  case 14: return sycl::erf(x);
  case 15: return sycl::erfc(x);
  case 16: return sycl::exp(x);
  case 17: return sycl::exp2(x);
  case 18: return sycl::exp10(x);
  case 19: return sycl::expm1(x);
  case 20: return sycl::fabs(x);
  case 21: return sycl::floor(x);
  case 22: return sycl::log(x);
  case 23: return sycl::log2(x);
  case 24: return sycl::log10(x);
  case 25: return sycl::log1p(x);
  case 26: return sycl::logb(x);
  case 27: return sycl::rint(x);
  case 28: return sycl::round(x);
  case 29: return sycl::rsqrt(x);
  case 30: return sycl::sin(x);
  case 31: return sycl::sinh(x);
  case 32: return sycl::sinpi(x);
  case 33: return sycl::sqrt(x);
  case 34: return sycl::tan(x);
  case 35: return sycl::tanh(x);
  case 36: return sycl::tanpi(x);
  case 37: return sycl::tgamma(x);
  case 38: return sycl::trunc(x);
  case 39: return sycl::atan2(x, y);
  case 40: return sycl::atan2pi(x, y);
  case 41: return sycl::copysign(x, y);
  case 42: return sycl::fdim(x, y);
  case 43: return sycl::fmax(x, y);
  case 44: return sycl::fmin(x, y);
  case 45: return sycl::fmod(x, y);
  case 46: return sycl::hypot(x, y);
  case 47: return sycl::maxmag(x, y);
  case 48: return sycl::minmag(x, y);
  case 49: return sycl::nextafter(x, y);
  case 50: return sycl::pow(x, y);
  case 51: return sycl::powr(x, y);
  case 52: return sycl::remainder(x, y);
  case 53: return sycl::fma(x, y, z);
  case 54: return sycl::pown(x, Ints(3));
  case 55: return sycl::pown(x, Ints(-2));
  case 56: return sycl::rootn(x, Ints(3));
  case 57: return sycl::rootn(x, Ints(-4));
  case 58: return sycl::ldexp(x, Ints(5));
  case 59: return sycl::ldexp(x, -20);  // one int for every lane
  case 60: return sycl::fmax(x, E(0.5f));
  case 61: return sycl::fmin(x, E(0.5f));
  case 62: return sycl::clamp(x, sycl::fmin(y, z), sycl::fmax(y, z));
  case 63: return sycl::degrees(x);
  case 64: return sycl::radians(x);
  case 65: return sycl::max(x, y);
  case 66: return sycl::min(x, y);
  case 67: return sycl::step(x, y);
  case 68: return sycl::sign(x);
  case 69: return sycl::clamp(x, E(-1.0f), E(1.0f));
  case 70: return sycl::step(E(0.5f), x);
  case 71: return sycl::smoothstep(T(E(-1.0f)), T(E(2.0f)), x);
  case 72: return sycl::mix(x, y, E(0.25f));
  case 73: return sycl::mad(x, y, z);
  }
  return x;
}

const char *const kNames[kFunctions] = {
    "acos",    "acosh",   "acospi",  "asin",     "asinh",     "asinpi",    "atan",       "atanh",     "atanpi",
    "cbrt",    "ceil",    "cos",     "cosh",     "cospi",     "erf",       "erfc",       "exp",       "exp2",
    "exp10",   "expm1",   "fabs",    "floor",    "log",       "log2",      "log10",      "log1p",     "logb",
    "rint",    "round",   "rsqrt",   "sin",      "sinh",      "sinpi",     "sqrt",       "tan",       "tanh",
    "tanpi",   "tgamma",  "trunc",   "atan2",    "atan2pi",   "copysign",  "fdim",       "fmax",      "fmin",
    "fmod",    "hypot",   "maxmag",  "minmag",   "nextafter", "pow",       "powr",       "remainder", "fma",
    "pown 3",  "pown -2", "rootn 3", "rootn -4", "ldexp 5",   "ldexp -20", "fmax 0.5",   "fmin 0.5",  "clamp",
    "degrees", "radians", "max",     "min",      "step",      "sign",      "clamp -1 1", "step 0.5",  "smoothstep",
    "mix",     "mad"};

// OpenCL 1.2 full-profile bounds in ulp (float, double); 0 is correctly
// rounded; -1: no bound (mix, mad, smoothstep: checked lane by lane only).
struct Bound {
  double single, dbl;
};
Bound bound(int f) {
  static const Bound table[kFunctions] = {
      {4, 4},   {4, 4},   {5, 5},   {4, 4},   {4, 4},   {5, 5},   {5, 5},   {5, 5},   {5, 5}, {2, 2}, {0, 0},
      {4, 4},   {4, 4},   {4, 4},   {16, 16}, {16, 16}, {3, 3},   {3, 3},   {3, 3},   {3, 3}, {0, 0}, {0, 0},
      {3, 3},   {3, 3},   {3, 3},   {2, 2},   {0, 0},   {0, 0},   {0, 0},   {2, 2},   {4, 4}, {4, 4}, {4, 4},
      {3, 0},   {5, 5},   {5, 5},   {6, 6},   {16, 16}, {0, 0},   {6, 6},   {6, 6},   {0, 0}, {0, 0}, {0, 0},
      {0, 0},   {0, 0},   {4, 4},   {0, 0},   {0, 0},   {0, 0},   {16, 16}, {16, 16}, {0, 0}, {0, 0}, {16, 16},
      {16, 16}, {16, 16}, {16, 16}, {0, 0},   {0, 0},   {0, 0},   {0, 0},   {0, 0},   {2, 2}, {2, 2}, {0, 0},
      {0, 0},   {0, 0},   {0, 0},   {0, 0},   {0, 0},   {-1, -1}, {-1, -1}, {-1, -1}};
  return table[f];
}

LD sinpiReference(LD x) {
  if (!std::isfinite(x)) return NAN;
  LD r = std::fmod(x, 2.0L);  // exact, in (-2, 2)
  if (r > 1) r -= 2;
  if (r < -1) r += 2;
  if (r > 0.5L) r = 1 - r;
  else if (r < -0.5L) r = -1 - r;
  return std::sin(kPi * r);
}
LD cospiReference(LD x) { return std::isfinite(x) ? sinpiReference(std::fmod(x, 2.0L) + 0.5L) : NAN; }

// The definitions, in long double, for an element type with `digits` bits.
LD reference(int f, LD x, LD y, LD z, int digits) {
  const LD step = y < x ? 0 : 1;  // step(edge x, value y)
  switch (f) {
  case 0: return std::acos(x);
  case 1: return std::acosh(x);
  case 2: return std::acos(x) / kPi;
  case 3: return std::asin(x);
  case 4: return std::asinh(x);
  case 5: return std::asin(x) / kPi;
  case 6: return std::atan(x);
  case 7: return std::atanh(x);
  case 8: return std::atan(x) / kPi;
  case 9: return std::cbrt(x);
  case 10: return std::ceil(x);
  case 11: return std::cos(x);
  case 12: return std::cosh(x);
  case 13: return cospiReference(x);
  case 14: return std::erf(x);
  case 15: return std::erfc(x);
  case 16: return std::exp(x);
  case 17: return std::exp2(x);
  case 18: return std::pow(10.0L, x);
  case 19: return std::expm1(x);
  case 20: return std::fabs(x);
  case 21: return std::floor(x);
  case 22: return std::log(x);
  case 23: return std::log2(x);
  case 24: return std::log10(x);
  case 25: return std::log1p(x);
  case 26: return std::logb(x);
  case 27: return std::rint(x);
  case 28: return std::round(x);
  case 29: return 1 / std::sqrt(x);
  case 30: return std::sin(x);
  case 31: return std::sinh(x);
  case 32: return sinpiReference(x);
  case 33: return std::sqrt(x);
  case 34: return std::tan(x);
  case 35: return std::tanh(x);
  case 36: return sinpiReference(x) / cospiReference(x);
  case 37: return std::tgamma(x);
  case 38: return std::trunc(x);
  case 39: return std::atan2(x, y);
  case 40: return std::atan2(x, y) / kPi;
  case 41: return std::copysign(x, y);
  case 42: return std::fdim(x, y);
  case 43: return std::fmax(x, y);
  case 44: return std::fmin(x, y);
  case 45: return std::fmod(x, y);
  case 46: return std::hypot(x, y);
  case 47: return std::fabs(x) > std::fabs(y) ? x : std::fabs(y) > std::fabs(x) ? y : std::fmax(x, y);
  case 48: return std::fabs(x) < std::fabs(y) ? x : std::fabs(y) < std::fabs(x) ? y : std::fmin(x, y);
  case 49: return NAN;  // checked in T itself (nextafterInT)
  case 50: return std::pow(x, y);
  case 51:
    if (x < 0 || std::isnan(x) || std::isnan(y) || ((x == 0 || std::isinf(x)) && y == 0) || (x == 1 && std::isinf(y)))
      return NAN;
    return std::pow(x, y);
  case 52: return std::remainder(x, y);
  case 53: return std::fma(x, y, z);  // exact for two factors of `digits` <= 53 bits and a third
  case 54: return std::pow(x, 3.0L);
  case 55: return std::pow(x, -2.0L);
  case 56: return std::cbrt(x);
  case 57: return x < 0 ? NAN : std::pow(x, -0.25L);
  case 58: return std::ldexp(x, 5);
  case 59: return std::ldexp(x, -20);
  case 60: return std::fmax(x, 0.5L);
  case 61: return std::fmin(x, 0.5L);
  case 62: return std::fmin(std::fmax(x, std::fmin(y, z)), std::fmax(y, z));
  case 63: return x * (180 / kPi);
  case 64: return x * (kPi / 180);
  case 65: return std::fmax(x, y);
  case 66: return std::fmin(x, y);
  case 67: return step;
  case 68: return std::isnan(x) ? 0 : x > 0 ? 1 : x < 0 ? -1 : x;
  case 69: return std::fmin(std::fmax(x, -1.0L), 1.0L);
  case 70: return x < 0.5L ? 0 : 1;
  }
  (void)digits;
  return NAN;
}

// The error of `actual` against the exact value, in ulp of T at that value.
template <typename T> double ulpError(T actual, LD exact) {
  using L = std::numeric_limits<T>;
  const LD value = LD(actual);
  if (std::isnan(exact) || std::isnan(value)) return std::isnan(exact) && std::isnan(value) ? 0 : INFINITY;
  const LD largest = LD(L::max()), beyond = std::ldexp(1.0L, L::max_exponent);  // infinity counts as 2^emax
  const LD a = std::isinf(value) ? std::copysign(beyond, value) : value;
  const LD e = std::fabs(exact) > beyond ? std::copysign(beyond, exact) : exact;
  if (a == e) return 0;
  const int exponent = std::max(std::ilogb(std::fmin(std::fabs(e), largest)), L::min_exponent - 1);
  return double(std::fabs(a - e) / std::ldexp(1.0L, exponent - (L::digits - 1)));
}

// Half's next value towards y, through the order of its bit patterns as
// integers (independent of the header's implementation).
sycl::half nextafterInT(sycl::half x, sycl::half y) {
  if (x != x || y != y) return std::numeric_limits<sycl::half>::quiet_NaN();
  if (x == y) return y;
  auto key = [](sycl::half h) {
    std::uint16_t b;
    std::memcpy(&b, &h, 2);
    return b & 0x8000 ? -int(b & 0x7fff) : int(b);
  };
  const int next = key(x) + (float(y) > float(x) ? 1 : -1);
  const bool negative = next < 0 || (next == 0 && key(x) < 0);  // towards zero from below ends at -0
  const std::uint16_t bits = std::uint16_t(negative ? 0x8000 | -next : next);
  sycl::half h;
  std::memcpy(&h, &bits, 2);
  return h;
}
template <typename T> T nextafterInT(T x, T y) { return std::nextafter(x, y); }

// Inputs: specials and samples of every magnitude, each against a few
// partners, and all pairs of a smaller special set.
template <typename T> std::vector<T> inputTriples() {
  using L = std::numeric_limits<T>;
  const T nan = L::quiet_NaN(), inf = L::infinity();
  std::vector<T> singles = {T(0.0f),          -T(0.0f),  nan,       inf,      -inf,        L::denorm_min(),
                            -L::denorm_min(), L::min(),  -L::min(), L::max(), L::lowest(), T(1.0f),
                            T(-1.0f),         T(0.5f),   T(-0.5f),  T(2.0f),  T(-2.5f),    T(3.0f),
                            T(0.75f),         T(-0.25f), T(1.5f),   T(10.0f), T(-100.0f),  T(1000.0f)};
  const float magnitudes[] = {1e-30f, 1e-7f, 1e-3f, 0.3f, 0.999f, 1.001f, 7.3f, 31.7f, 123.4f, 1e5f, 1e9f, 1e30f};
  for (float m : magnitudes)
    if (std::isfinite(float(T(m))) && T(m) != T(0.0f)) {
      singles.push_back(T(m));
      singles.push_back(T(-m));
    }
  if constexpr (std::is_same_v<T, double>)
    for (double m : {1e-300, 1e100, 1e300, 1e-310, 4.5e15, 2.0e22}) singles.push_back(T(m));
  std::uint32_t seed = 12345;
  for (int i = 0; i < 40; ++i) {
    seed = seed * 1664525u + 1013904223u;
    singles.push_back(T(float(int(seed >> 8) - (1 << 23)) / float(1 << 20)));  // (-8, 8)
  }
  const T partners[] = {T(0.75f), T(-2.0f), T(3.0f)};
  std::vector<T> triples;
  for (T x : singles)
    for (T y : partners) triples.insert(triples.end(), {x, y, T(1.25f)});
  const T pairs[] = {T(0.0f), -T(0.0f), nan, inf, -inf, T(1.0f), T(-1.0f), T(2.5f), L::denorm_min(), L::max()};
  for (T x : pairs)
    for (T y : pairs) triples.insert(triples.end(), {x, y, T(-0.5f)});
  return triples;
}

template <typename T> bool sameValue(T a, T b) {
  return (a != a && b != b) || (a == b && std::signbit(float(a)) == std::signbit(float(b)));
}
// fmin and fmax may return either zero for (+0, -0): IEEE 754 leaves it open.
bool zeroSignIsOpen(int f) {
  return f == 43 || f == 44 || f == 60 || f == 61 || f == 62 || f == 65 || f == 66 || f == 69;
}

// Scalars against the reference; then V's lanes against the scalars.
template <typename T, typename V> void checkMath(sycl::queue &q, const std::string &type, const std::string &vtype) {
  static_assert(std::is_same_v<decltype(sycl::sin(V())), V>);
  static_assert(std::is_same_v<decltype(sycl::fmax(V(), T())), V>);
  static_assert(std::is_same_v<decltype(sycl::ilogb(V())), typename IntsOf<V>::type>);
  constexpr std::size_t N = V::size();
  std::vector<T> triples = inputTriples<T>();
  while (triples.size() % (3 * N)) triples.insert(triples.end(), {T(1.0f), T(1.0f), T(1.0f)});
  const std::size_t count = triples.size() / 3, groups = count / N;
  T *in = sycl::malloc_shared<T>(triples.size(), q);
  T *out = sycl::malloc_shared<T>(count * kFunctions, q);
  V *laneOut = sycl::malloc_shared<V>(groups * kFunctions, q);
  std::copy(triples.begin(), triples.end(), in);
  q.parallel_for(sycl::range<2>(count, kFunctions), [=](sycl::item<2> it) {
     const T *t = in + 3 * it[0];
     out[it.get_linear_id()] = evaluate<T>(int(it[1]), t[0], t[1], t[2]);
   }).wait();
  q.parallel_for(sycl::range<2>(groups, kFunctions), [=](sycl::item<2> it) {
     V x, y, z;
     for (std::size_t i = 0; i < N; ++i) {
       const T *t = in + 3 * (it[0] * N + i);
       x[i] = t[0];
       y[i] = t[1];
       z[i] = t[2];
     }
     laneOut[it.get_linear_id()] = evaluate<V>(int(it[1]), x, y, z);
   }).wait();

  const bool isHalf = std::is_same_v<T, sycl::half>;
  std::vector<int> wrong(kFunctions, 0);
  double worst[kFunctions] = {};
  for (std::size_t c = 0; c < count; ++c) {
    const T x = in[3 * c], y = in[3 * c + 1], z = in[3 * c + 2];
    for (int f = 0; f < kFunctions; ++f) {
      const T actual = out[c * kFunctions + f];
      const Bound b = bound(f);
      double allowed = std::is_same_v<T, double> ? b.dbl : b.single;
      if (allowed < 0) continue;
      if (isHalf) allowed = allowed == 0 ? 0 : 1;
      double error;
      if (f == 49) error = sameValue(actual, nextafterInT(x, y)) ? 0 : INFINITY;
      else error = ulpError(actual, reference(f, LD(x), LD(y), LD(z), std::numeric_limits<T>::digits));
      worst[f] = std::max(worst[f], error);
      if (error <= std::max(allowed, 0.5) + 1e-3) continue;
      if (++wrong[f] <= 3)
        onepass_test::fail(type + " " + kNames[f] + "(" + onepass_test::show(double(x)) + ", " +
                               onepass_test::show(double(y)) + ", " + onepass_test::show(double(z)) + ") within " +
                               std::to_string(allowed) + " ulp",
                           onepass_test::show(double(reference(f, LD(x), LD(y), LD(z), 0))),
                           onepass_test::show(double(actual)) + " (" + std::to_string(error) + " ulp)");
    }
  }
  int total = 0;
  for (int f = 0; f < kFunctions; ++f) total += wrong[f];
  onepass_test::checkEqual(type + " results outside the ULP bounds", 0, total);

  int laneMismatches = 0;
  for (std::size_t g = 0; g < groups; ++g)
    for (int f = 0; f < kFunctions; ++f)
      for (std::size_t i = 0; i < N; ++i) {
        const T scalar = out[(g * N + i) * kFunctions + f], lane = laneOut[g * kFunctions + f][i];
        const bool same =
            zeroSignIsOpen(f) ? scalar == lane || (scalar != scalar && lane != lane) : sameValue(scalar, lane);
        if (!same && ++laneMismatches <= 8)
          onepass_test::fail(vtype + " " + kNames[f] + " lane " + std::to_string(i) + " of group " + std::to_string(g),
                             onepass_test::show(double(scalar)), onepass_test::show(double(lane)));
      }
  onepass_test::checkEqual(vtype + " lanes that differ from the scalar function", 0, laneMismatches);
  sycl::free(in, q);
  sycl::free(out, q);
  sycl::free(laneOut, q);
}

// sincos, fract, modf, frexp, lgamma_r, remquo through plain pointers and
// multi_ptr, nan, ilogb, on scalars and on vec/marray lanes.
template <typename T, typename V> void checkPointerFunctions(sycl::queue &q, const std::string &type) {
  using Ints = typename IntsOf<V>::type;
  constexpr std::size_t N = V::size();
  const T inputs[] = {T(2.75f),
                      T(-2.5f),
                      T(0.0f),
                      -T(0.0f),
                      T(-0.25f),
                      T(7.0f),
                      T(1e-3f),
                      T(-1.5f),
                      T(100.5f),
                      T(-3.75f),
                      std::numeric_limits<T>::infinity(),
                      T(5.0f)};
  constexpr std::size_t n = sizeof(inputs) / sizeof(inputs[0]);
  static_assert(n % N == 0);
  T *x = sycl::malloc_shared<T>(n, q);
  T *values = sycl::malloc_shared<T>(n * 12, q);
  int *ints = sycl::malloc_shared<int>(n * 8, q);
  std::copy(inputs, inputs + n, x);
  q.single_task([=] {
     for (std::size_t i = 0; i < n; ++i) {
       T second;
       int exponent;
       values[i * 12 + 0] = sycl::sincos(x[i], &second);
       values[i * 12 + 1] = second;
       values[i * 12 + 2] = sycl::fract(
           x[i],
           sycl::address_space_cast<sycl::access::address_space::private_space, sycl::access::decorated::no>(&second));
       values[i * 12 + 3] = second;
       values[i * 12 + 4] = sycl::modf(x[i], &second);
       values[i * 12 + 5] = second;
       values[i * 12 + 6] = sycl::frexp(x[i], &exponent);
       ints[i * 8 + 0] = exponent;
       values[i * 12 + 7] = sycl::lgamma_r(x[i], &exponent);
       ints[i * 8 + 1] = exponent;
       values[i * 12 + 8] = sycl::remquo(x[i], T(0.75f), &exponent);
       ints[i * 8 + 2] = exponent;
       ints[i * 8 + 3] = sycl::ilogb(x[i]);
     }
     for (std::size_t g = 0; g < n / N; ++g) {
       V v, second;
       Ints exponent;
       for (std::size_t i = 0; i < N; ++i) v[i] = x[g * N + i];
       const V s = sycl::sincos(v, &second);
       const V c = second;
       const V fr = sycl::fract(v, &second);
       const V whole = second;
       const V mant = sycl::frexp(
           v, sycl::address_space_cast<sycl::access::address_space::generic_space, sycl::access::decorated::yes>(
                  &exponent));
       const Ints exps = exponent;
       const V lg = sycl::lgamma_r(v, &exponent);
       const Ints signs = exponent;
       const V rem = sycl::remquo(v, V(T(0.75f)), &exponent);
       const Ints quotients = exponent;
       const Ints logbs = sycl::ilogb(v);
       for (std::size_t i = 0; i < N; ++i) {
         T *lanes = values + (g * N + i) * 12;
         int *laneInts = ints + (g * N + i) * 8;
         auto same = [](T a, T b) { return a == b || (a != a && b != b); };
         lanes[9] = same(s[i], lanes[0]) && same(c[i], lanes[1]) && same(fr[i], lanes[2]) && same(whole[i], lanes[3]) &&
                            same(mant[i], lanes[6]) && same(lg[i], lanes[7]) && same(rem[i], lanes[8])
                        ? T(1.0f)
                        : T(0.0f);
         laneInts[4] = exps[i] == laneInts[0] && signs[i] == laneInts[1] && quotients[i] == laneInts[2] &&
                       logbs[i] == laneInts[3];
       }
     }
   }).wait();
  for (std::size_t i = 0; i < n; ++i) {
    const LD v = LD(x[i]);
    const T *r = values + i * 12;
    const int *k = ints + i * 8;
    const std::string at = type + " at " + onepass_test::show(double(v)) + ": ";
    onepass_test::check(at + "sincos's sin within 4 ulp", ulpError(r[0], std::sin(v)) <= 4);
    onepass_test::check(at + "sincos's cos within 4 ulp", ulpError(r[1], std::cos(v)) <= 4);
    const LD floorV = std::floor(v);
    const LD fraction = std::isinf(v) ? 0 : std::fmin(LD(T(v - floorV)), 1 - LD(std::numeric_limits<T>::epsilon()) / 2);
    onepass_test::check(at + "fract", ulpError(r[2], fraction) == 0 && ulpError(r[3], floorV) == 0);
    LD whole;
    const LD frac = std::modf(v, &whole);
    onepass_test::check(at + "modf", sameValue(r[4], T(frac)) && sameValue(r[5], T(whole)));
    int exponent;
    const LD mantissa = std::frexp(v, &exponent);
    onepass_test::check(at + "frexp", ulpError(r[6], mantissa) == 0 && (std::isinf(v) || k[0] == exponent));
    int sign = 1;
    const LD lg = lgammal_r(v, &sign);
    if (!(v <= 0 && std::floor(v) == v))  // poles: the sign is not defined
      onepass_test::check(at + "lgamma_r (" + std::to_string(k[1]) + ")",
                          k[1] == sign && (ulpError(r[7], lg) <= 16 || std::fabs(LD(r[7]) - lg) < 1e-3L));
    int quotient;
    const LD remainder = std::remquo(v, LD(T(0.75f)), &quotient);
    // SYCL (as OpenCL) gives the quotient's low 7 bits, C's remquo only 3:
    // the whole quotient is (v - remainder) / 0.75, an integer.
    if (std::isfinite(v)) quotient = static_cast<int>(std::llrint((v - remainder) / LD(T(0.75f))) % 128);
    onepass_test::check(at + "remquo",
                        ulpError(r[8], remainder) == 0 &&
                            (std::isinf(v) || ((k[2] & 127) == (quotient & 127) && (k[2] < 0) == (quotient < 0))));
    if (v != 0 && std::isfinite(v)) onepass_test::checkEqual(at + "ilogb", std::ilogb(v), k[3]);
    onepass_test::check(at + "vec/marray lanes of the pointer functions equal the scalars", r[9] == T(1.0f) && k[4]);
  }
  sycl::free(x, q);
  sycl::free(values, q);
  sycl::free(ints, q);
}

void checkNanAndHalfSteps(sycl::queue &q) {
  static_assert(std::is_same_v<decltype(sycl::nan(std::uint16_t())), sycl::half>);
  static_assert(std::is_same_v<decltype(sycl::nan(sycl::vec<std::uint64_t, 2>())), sycl::vec<double, 2>>);
  static_assert(std::is_same_v<decltype(sycl::nan(sycl::marray<std::uint32_t, 3>())), sycl::marray<float, 3>>);
  std::uint32_t *bits = sycl::malloc_shared<std::uint32_t>(8, q);
  sycl::half *steps = sycl::malloc_shared<sycl::half>(6, q);
  q.single_task([=] {
     bits[0] = sycl::bit_cast<std::uint32_t>(sycl::nan(7u));
     const sycl::vec<double, 2> d = sycl::nan(sycl::vec<std::uint64_t, 2>(1, 2));
     bits[1] = std::uint32_t(sycl::bit_cast<std::uint64_t>(d[1]) >> 32);
     bits[2] = sycl::bit_cast<std::uint16_t>(sycl::nan(std::uint16_t(3)));
     const sycl::half one(1.0f), zero(0.0f), two(2.0f);
     steps[0] = sycl::nextafter(one, two);
     steps[1] = sycl::nextafter(one, zero);
     steps[2] = sycl::nextafter(zero, -one);
     steps[3] = sycl::nextafter(std::numeric_limits<sycl::half>::max(), std::numeric_limits<sycl::half>::infinity());
     // (1 + 2^-5)(1 + 2^-6) is halfway between two halves; the denormal
     // 2^-24 decides the rounding, though a float sum would drop it.
     steps[4] = sycl::fma(sycl::half(1.03125f), sycl::half(1.015625f), std::numeric_limits<sycl::half>::denorm_min());
     sycl::half whole;
     const sycl::half fraction = sycl::fract(sycl::half(-1e-4f), &whole);  // 1 - 1e-4 rounds to 1 in half
     steps[5] = fraction < one && fraction > sycl::half(0.99f) && whole == -one ? one : zero;
   }).wait();
  onepass_test::checkEqual("nan(7u) is a quiet NaN with the code", 0x7fc00007u, bits[0]);
  onepass_test::checkEqual("nan(uint64 2) high word", 0x7ff80000u, bits[1]);
  onepass_test::checkEqual("nan(uint16 3)", 0x7e03u, bits[2]);
  const float expected[6] = {1.0f + 1.0f / 1024, 1.0f - 1.0f / 2048, -5.9604644775390625e-08f,
                             INFINITY,           1.0478515625f,      1.0f};
  onepass_test::checkArray("half nextafter, fma and fract", 6, steps,
                           [&](std::size_t i) { return sycl::half(expected[i]); });
  sycl::free(bits, q);
  sycl::free(steps, q);
}

// smoothstep of half is OpenCL's formula in half arithmetic, operation by
// operation (the CTS allows 1e-5 of that, under a half ulp): exactly the
// host's half result for 2048 random triples, scalar and marray.
void checkHalfSmoothstep(sycl::queue &q) {
  constexpr std::size_t n = 2048;
  auto *in = sycl::malloc_shared<sycl::half>(3 * n, q);
  auto *out = sycl::malloc_shared<sycl::half>(2 * n, q);
  std::uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 16777216.0f;
  };
  for (std::size_t i = 0; i < n; ++i) {
    float a = next(), b = next();
    if (a > b) std::swap(a, b);
    if (sycl::half(a) == sycl::half(b)) b = a + 0.25f;
    in[3 * i] = sycl::half(a);
    in[3 * i + 1] = sycl::half(b);
    in[3 * i + 2] = sycl::half(next() * 1.2f - 0.1f);
  }
  // The CTS's case 1300141, where rounding once (in float) gives 1 ulp more.
  in[0] = sycl::half(0.3991507449f);
  in[1] = sycl::half(0.7130365772f);
  in[2] = sycl::half(0.4567896435f);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> id) {
     const std::size_t i = id[0];
     out[i] = sycl::smoothstep(in[3 * i], in[3 * i + 1], in[3 * i + 2]);
     const sycl::marray<sycl::half, 5> lanes = sycl::smoothstep(sycl::marray<sycl::half, 5>(in[3 * i]),
                                                                sycl::marray<sycl::half, 5>(in[3 * i + 1]),
                                                                sycl::marray<sycl::half, 5>(in[3 * i + 2]));
     out[n + i] = lanes[i % 5];
   }).wait();
  onepass_test::checkArray("smoothstep(half) as half arithmetic", 2 * n, out, [&](std::size_t k) {
    const std::size_t i = k % n;
    const sycl::half a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    sycl::half t = (c - a) / (b - a);
    t = t < sycl::half(0) ? sycl::half(0) : t > sycl::half(1) ? sycl::half(1) : t;
    return t * t * (sycl::half(3) - sycl::half(2) * t);
  });
  sycl::free(in, q);
  sycl::free(out, q);
}

// §4.17.9: dot, cross, length, distance, normalize and the fast_ versions,
// including sums of squares that overflow or underflow T.
template <typename V> void checkGeometric(sycl::queue &q, const std::string &type) {
  using T = typename V::value_type;
  constexpr std::size_t N = V::size();
  static_assert(std::is_same_v<decltype(sycl::length(V())), T>);
  static_assert(std::is_same_v<decltype(sycl::normalize(V())), V>);
  const double scales[] = {1.0, 1e-3, 3e2,
                           std::is_same_v<T, double>  ? 1e200
                           : std::is_same_v<T, float> ? 1e30
                                                      : 1e4,
                           std::is_same_v<T, double>  ? 1e-200
                           : std::is_same_v<T, float> ? 1e-30
                                                      : 1e-3};
  constexpr std::size_t cases = sizeof(scales) / sizeof(scales[0]);
  V *in = sycl::malloc_shared<V>(2 * cases, q);
  V *vectors = sycl::malloc_shared<V>(2 * cases, q);
  T *scalars = sycl::malloc_shared<T>(3 * cases, q);
  for (std::size_t c = 0; c < cases; ++c)
    for (std::size_t i = 0; i < N; ++i) {
      using Wide = std::conditional_t<std::is_same_v<T, double>, double, float>;
      in[2 * c][i] = T(Wide(scales[c] * (1.5 - 0.75 * double(i))));
      in[2 * c + 1][i] = T(Wide(scales[c] * (0.25 + double(i * i))));
    }
  q.parallel_for(sycl::range<1>(cases), [=](sycl::id<1> c) {
     const V a = in[2 * c], b = in[2 * c + 1];
     scalars[3 * c] = sycl::dot(a, b);
     scalars[3 * c + 1] = sycl::length(a);
     scalars[3 * c + 2] = sycl::distance(a, b);
     vectors[2 * c] = sycl::normalize(a);
     if constexpr (N >= 3) vectors[2 * c + 1] = sycl::cross(a, b);
   }).wait();
  const double eps = double(std::numeric_limits<T>::epsilon());
  for (std::size_t c = 0; c < cases; ++c) {
    LD dot = 0, magnitude = 0, squares = 0, distance = 0;
    for (std::size_t i = 0; i < N; ++i) {
      const LD a = LD(in[2 * c][i]), b = LD(in[2 * c + 1][i]);
      dot += a * b;
      magnitude += std::fabs(a * b);
      squares += a * a;
      distance += (a - b) * (a - b);
    }
    const std::string at = type + " case " + std::to_string(c) + ": ";
    if (std::isfinite(double(dot)) && std::fabs(dot) < LD(std::numeric_limits<T>::max()))
      onepass_test::check(at + "dot", std::fabs(LD(scalars[3 * c]) - dot) <=
                                          LD(N * eps) * magnitude + LD(std::numeric_limits<T>::denorm_min()));
    onepass_test::check(at + "length within 3 ulp (" +
                            std::to_string(ulpError(scalars[3 * c + 1], std::sqrt(squares))) + ")",
                        ulpError(scalars[3 * c + 1], std::sqrt(squares)) <= 3);
    onepass_test::check(at + "distance within 4 ulp", ulpError(scalars[3 * c + 2], std::sqrt(distance)) <= 4);
    for (std::size_t i = 0; i < N; ++i)
      onepass_test::check(at + "normalize lane " + std::to_string(i),
                          ulpError(vectors[2 * c][i], LD(in[2 * c][i]) / std::sqrt(squares)) <= 4);
    if constexpr (N >= 3) {
      const LD a[3] = {LD(in[2 * c][0]), LD(in[2 * c][1]), LD(in[2 * c][2])};
      const LD b[3] = {LD(in[2 * c + 1][0]), LD(in[2 * c + 1][1]), LD(in[2 * c + 1][2])};
      const LD cross[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
      for (int i = 0; i < 3; ++i) {
        const LD bound =
            2 * LD(eps) * (std::fabs(a[(i + 1) % 3] * b[(i + 2) % 3]) + std::fabs(a[(i + 2) % 3] * b[(i + 1) % 3]));
        if (std::fabs(cross[i]) + bound < LD(std::numeric_limits<T>::max()))
          onepass_test::check(at + "cross lane " + std::to_string(i),
                              std::fabs(LD(vectors[2 * c + 1][i]) - cross[i]) <=
                                  bound + LD(std::numeric_limits<T>::denorm_min()));
      }
      if constexpr (N == 4) onepass_test::check(at + "cross's fourth lane is 0", vectors[2 * c + 1][3] == T(0.0f));
    }
  }
  sycl::free(in, q);
  sycl::free(vectors, q);
  sycl::free(scalars, q);
}

void checkGeometricSpecials(sycl::queue &q) {
  float *out = sycl::malloc_shared<float>(16, q);
  q.single_task([=] {
     const sycl::vec<float, 3> zero(0.0f), withInf(1.0f, -INFINITY, 2.0f);
     const sycl::vec<float, 3> z = sycl::normalize(zero), i = sycl::normalize(withInf);
     out[0] = z[0] + z[1] + z[2];
     out[1] = i[0];
     out[2] = i[1];
     out[3] = sycl::length(withInf);
     out[4] = sycl::length(sycl::marray<float, 2>(3e-45f, 4e-45f));  // 2 and 3 denorm_min: sqrt(13) = 3.6 of them
     out[5] = sycl::dot(2.0f, 3.0f);
     out[6] = sycl::length(-4.0f);
     out[7] = sycl::normalize(-4.0f);
     out[8] = sycl::fast_length(sycl::vec<float, 2>(3.0f, 4.0f));
     out[9] = sycl::fast_distance(sycl::vec<float, 4>(1.0f), sycl::vec<float, 4>(2.0f));
     const sycl::marray<float, 2> n = sycl::fast_normalize(sycl::marray<float, 2>(3.0f, 4.0f));
     out[10] = n[0];
     out[11] = n[1];
     const sycl::vec<float, 3> fz = sycl::fast_normalize(zero);
     out[12] = fz[0];
     out[15] = sycl::fast_length(2.0f);
   }).wait();
  const float expected[16] = {0, 0, -1, INFINITY, 5.605194e-45f, 6, 4, -1, 5, 2, 0.6f, 0.8f, 0, 5, 6, 2};
  // (Lanes of half: arithmetic in half, aspect::fp16.)
  const bool halves = q.get_device().has(sycl::aspect::fp16);
  onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "half geometric specials", [&] {
    q.single_task([=] {
       out[13] = float(sycl::length(sycl::vec<sycl::half, 2>(sycl::half(3.0f), sycl::half(4.0f))));
       out[14] = float(
           sycl::dot(sycl::marray<sycl::half, 3>(sycl::half(1.0f)), sycl::marray<sycl::half, 3>(sycl::half(2.0f))));
     }).wait();
  });
  for (int i = 0; i < 16; ++i) {
    if ((i == 13 || i == 14) && !halves) continue;
    const bool fast = i >= 8 && i <= 12;
    const float tolerance = fast ? 8192 * std::numeric_limits<float>::epsilon() * std::fabs(expected[i]) : 0.0f;
    if (i == 4) onepass_test::check("length of denormals", out[4] == 4 * std::numeric_limits<float>::denorm_min());
    else
      onepass_test::check("geometric special " + std::to_string(i) + ": " + onepass_test::show(out[i]),
                          out[i] == expected[i] || std::fabs(out[i] - expected[i]) <= tolerance);
  }
  sycl::free(out, q);
}

// A swizzle is accepted wherever its vec is, and the result is that vec.
void checkSwizzles(sycl::queue &q) {
  using Swizzle = decltype(std::declval<sycl::vec<float, 4> &>().swizzle<1, 0>());
  static_assert(std::is_same_v<decltype(sycl::fabs(std::declval<Swizzle>())), sycl::vec<float, 2>>);
  static_assert(
      std::is_same_v<decltype(sycl::isless(std::declval<Swizzle>(), sycl::vec<float, 2>())), sycl::vec<int, 2>>);
  float *out = sycl::malloc_shared<float>(8, q);
  q.single_task([=] {
     sycl::vec<float, 4> v(1.0f, -2.0f, 3.0f, 0.25f);
     const sycl::vec<float, 2> magnitude = sycl::fabs(v.swizzle<1, 0>());
     const sycl::vec<float, 2> power = sycl::pow(v.swizzle<1, 3>(), sycl::vec<float, 2>(2.0f));
     const sycl::vec<float, 2> larger = sycl::fmax(v.swizzle<1, 3>(), 0.5f);
     const sycl::vec<int, 2> less = sycl::isless(v.swizzle<1, 2>(), v.swizzle<0, 0>());
     const sycl::vec<int, 4> ints(1, 2, 3, 4);
     out[0] = magnitude[0];
     out[1] = power[1];
     out[2] = larger[0];
     out[3] = float(less[0] + 2 * less[1]);
     out[4] = sycl::length(v.swizzle<0, 1>());
     out[5] = float(sycl::clz(ints.swizzle<3, 0>())[0]);
     out[6] = sycl::cross(v.swizzle<0, 1, 2>(), sycl::vec<float, 3>(0.0f, 0.0f, 1.0f))[1];
     out[7] = float(sycl::any(less));
   }).wait();
  const float expected[8] = {2.0f, 0.0625f, 0.5f, -1.0f, std::sqrt(5.0f), 29.0f, -1.0f, 1.0f};
  onepass_test::checkArray("builtins on swizzles", 8, out, [&](std::size_t i) { return expected[i]; });
  sycl::free(out, q);
}

// SYCL 2020 rev 10: the scalar forms are functions of float, double and
// half, so mixed arguments convert as in any call (sycl::pow(x, 2)).
void checkScalarConversions(sycl::queue &q) {
  static_assert(std::is_same_v<decltype(sycl::pow(1.0f, 2)), float>);
  static_assert(std::is_same_v<decltype(sycl::pow(2, 1.0f)), float>);
  static_assert(std::is_same_v<decltype(sycl::pow(1.0, 2)), double>);
  static_assert(std::is_same_v<decltype(sycl::pow(sycl::half(1), sycl::half(2))), sycl::half>);
  static_assert(std::is_same_v<decltype(sycl::clamp(1.0f, 0, 1)), float>);
  static_assert(std::is_same_v<decltype(sycl::fma(1.0f, 2, 1)), float>);
  static_assert(std::is_same_v<decltype(sycl::max(1.0f, 0)), float>);
  // Integer arguments keep the integer functions.
  static_assert(std::is_same_v<decltype(sycl::max(1, 2)), int>);
  static_assert(std::is_same_v<decltype(sycl::min(std::size_t(1), std::size_t(2))), std::size_t>);
  float *out = sycl::malloc_shared<float>(8, q);
  out[7] = 3.0f;
  q.single_task([=] {
     const float x = out[7];  // 3, unknown to the compiler
     out[0] = sycl::pow(x, 2);
     out[1] = sycl::clamp(x, 0, 1);
     out[2] = sycl::fmax(x, 5);
     out[3] = sycl::fma(x, 2, 1);
     out[4] = sycl::mix(x, 5, 0.5f);
     out[5] = sycl::step(2, x);
     out[6] = float(sycl::hypot(double(x), 4));  // hypot(double, double)
   }).wait();
  const float expected[7] = {9.0f, 1.0f, 5.0f, 7.0f, 4.0f, 1.0f, 5.0f};
  onepass_test::checkArray("scalar builtins with mixed arguments", 7, out, [&](std::size_t i) { return expected[i]; });
  sycl::free(out, q);
}

// A class that converts to one floating-point type is that type for every
// scalar form (as for functions of float, double and half), and the
// pointer forms take their Ptr as the one template argument.
template <typename T> struct ConvertsTo {
  T value;
  operator T() const { return value; }
};
void checkScalarFormTemplates(sycl::queue &q) {
  static_assert(std::is_same_v<decltype(sycl::sqrt(ConvertsTo<float>{})), float>);
  static_assert(std::is_same_v<decltype(sycl::cospi(ConvertsTo<double>{})), double>);
  static_assert(std::is_same_v<decltype(sycl::exp(ConvertsTo<sycl::half>{})), sycl::half>);
  static_assert(std::is_same_v<decltype(sycl::isnan(ConvertsTo<float>{})), decltype(sycl::isnan(1.0f))>);
  static_assert(std::is_same_v<decltype(sycl::isless(ConvertsTo<double>{}, 1)), decltype(sycl::isless(1.0, 1.0))>);
  static_assert(std::is_same_v<decltype(sycl::degrees(ConvertsTo<float>{})), float>);
  static_assert(std::is_same_v<decltype(sycl::ldexp(ConvertsTo<double>{}, 3)), double>);
  static_assert(std::is_same_v<decltype(sycl::nan(ConvertsTo<std::uint64_t>{})), double>);
  using local_int = sycl::multi_ptr<int, sycl::access::address_space::local_space, sycl::access::decorated::no>;
  static_assert(std::is_same_v<decltype(sycl::frexp<local_int>(1.0f, std::declval<local_int>())), float>);
  static_assert(std::is_same_v<decltype(sycl::remquo<int *>(1.0, 2.0, nullptr)), double>);
  double *out = sycl::malloc_shared<double>(8, q);
  int *exponent = sycl::malloc_shared<int>(2, q);
  out[7] = 0.25;
  q.single_task([=] {
     const ConvertsTo<double> x{out[7]};  // 0.25, unknown to the compiler
     out[0] = sycl::sqrt(x);
     out[1] = sycl::ilogb(x);
     out[2] = sycl::pown(x, 2);
     out[3] = sycl::frexp<int *>(double(x), exponent);
     out[4] = sycl::isgreater(x, 0) ? 1.0 : 0.0;
     out[5] = sycl::sign(ConvertsTo<float>{-2.0f});
     int quotient = 0;
     out[6] = sycl::remquo(7.0, double(x) * 8, &quotient);
     exponent[1] = quotient;
   }).wait();
  // pown is within 16 ulp (§4.17.5), the others exact.
  const double pownError = std::fabs(out[2] - 0.0625) / (0.0625 * std::numeric_limits<double>::epsilon());
  onepass_test::check("scalar forms of convertible arguments: pown within 16 ulp", pownError <= 16);
  out[2] = 0.0625;
  const double expected[7] = {0.5, -2.0, 0.0625, 0.5, 1.0, -1.0, -1.0};
  onepass_test::checkArray("scalar forms of convertible arguments", 7, out, [&](std::size_t i) { return expected[i]; });
  onepass_test::checkEqual("frexp's exponent", -1, exponent[0]);
  onepass_test::checkEqual("remquo's quotient", 4, exponent[1]);
  sycl::free(out, q);
  sycl::free(exponent, q);
}

}  // namespace

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  onepass_test::runPart("scalar form templates", [&] { checkScalarFormTemplates(q); });
  onepass_test::runPart("float", [&] { checkMath<float, sycl::vec<float, 4>>(q, "float", "vec<float, 4>"); });
  onepass_test::runPart("float marray",
                        [&] { checkMath<float, sycl::marray<float, 5>>(q, "float", "marray<float, 5>"); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "half",
                               [&] { checkMath<sycl::half, sycl::vec<sycl::half, 8>>(q, "half", "vec<half, 8>"); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp64, "fp64", "double",
                               [&] { checkMath<double, sycl::vec<double, 3>>(q, "double", "vec<double, 3>"); });
  onepass_test::runPart("pointers float", [&] { checkPointerFunctions<float, sycl::vec<float, 4>>(q, "float"); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "pointers half",
                               [&] { checkPointerFunctions<sycl::half, sycl::marray<sycl::half, 3>>(q, "half"); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp64, "fp64", "pointers double",
                               [&] { checkPointerFunctions<double, sycl::marray<double, 2>>(q, "double"); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "nan, half steps", [&] { checkNanAndHalfSteps(q); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "half smoothstep", [&] { checkHalfSmoothstep(q); });
  onepass_test::runPart("geometric vec<float, 3>", [&] { checkGeometric<sycl::vec<float, 3>>(q, "vec<float, 3>"); });
  onepass_test::runPart("geometric vec<float, 4>", [&] { checkGeometric<sycl::vec<float, 4>>(q, "vec<float, 4>"); });
  onepass_test::runPart("geometric marray<float, 2>",
                        [&] { checkGeometric<sycl::marray<float, 2>>(q, "marray<float, 2>"); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "geometric vec<half, 3>",
                               [&] { checkGeometric<sycl::vec<sycl::half, 3>>(q, "vec<half, 3>"); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp64, "fp64", "geometric marray<double, 4>",
                               [&] { checkGeometric<sycl::marray<double, 4>>(q, "marray<double, 4>"); });
  onepass_test::runPart("geometric specials", [&] { checkGeometricSpecials(q); });
  onepass_test::runPart("swizzles", [&] { checkSwizzles(q); });
  onepass_test::runPart("scalar conversions", [&] { checkScalarConversions(q); });
  return onepass_test::report();
}
