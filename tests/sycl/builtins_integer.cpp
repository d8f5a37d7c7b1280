// SYCL 2020 §4.17.7 integer functions in kernels, for every integer type:
// each function at every pair (triple) of edge and ordinary values, against
// a host reference computed in 128-bit arithmetic from the spec's
// definitions; then the vec and marray overloads, lane by lane against the
// scalar results, and upsample, mul24 and mad24.
#include "check.h"

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using Wide = __int128;

const char *const kFunctionNames[] = {"abs",    "abs_diff", "add_sat",  "sub_sat", "hadd", "rhadd", "mad_hi", "mad_sat",
                                      "mul_hi", "rotate",   "popcount", "clz",     "ctz",  "clamp", "max",    "min"};
constexpr int kFunctions = 16;

// The functions under test, the same code on host and device.
template <typename T> T evaluate(int function, T x, T y, T z) {
  switch (function) {
  case 0: return sycl::abs(x);
  case 1: return sycl::abs_diff(x, y);
  case 2: return sycl::add_sat(x, y);
  case 3: return sycl::sub_sat(x, y);
  case 4: return sycl::hadd(x, y);
  case 5: return sycl::rhadd(x, y);
  case 6: return sycl::mad_hi(x, y, z);
  case 7: return sycl::mad_sat(x, y, z);
  case 8: return sycl::mul_hi(x, y);
  case 9: return sycl::rotate(x, y);
  case 10: return sycl::popcount(x);
  case 11: return sycl::clz(x);
  case 12: return sycl::ctz(x);
  case 13: return sycl::clamp(x, sycl::min(y, z), sycl::max(y, z));
  case 14: return sycl::max(x, y);
  case 15: return sycl::min(x, y);
  }
  return T(0);
}

// The spec's definitions, computed exactly (T has at most 64 bits), then
// wrapped or saturated to T.
template <typename T> T saturate(Wide value) {
  if (value > Wide(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  if (value < Wide(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  return T(value);
}
template <typename T> T wrap(Wide value) {
  using U = std::make_unsigned_t<T>;
  return T(U(static_cast<unsigned __int128>(value)));
}
template <typename T> Wide product(T x, T y) {
  if constexpr (std::is_unsigned_v<T> && sizeof(T) == 8)  // up to 2^128 - 2^65: only unsigned 128-bit holds it
    return Wide((unsigned __int128)x * (unsigned __int128)y >> 1);  // halved: callers of this case shift it back
  else return Wide(x) * Wide(y);
}
template <typename T> T reference(int function, T x, T y, T z) {
  constexpr int bits = int(sizeof(T) * 8);
  using U = std::make_unsigned_t<T>;
  const Wide a = x, b = y, c = z;
  auto highHalf = [&](T p, T q) -> Wide {
    if constexpr (std::is_unsigned_v<T> && sizeof(T) == 8) return product(p, q) >> (bits - 1);
    else return product(p, q) >> bits;  // floor division, as the high half of a two's complement product
  };
  int count = 0;
  switch (function) {
  case 0: return wrap<T>(a < 0 ? -a : a);
  case 1: return wrap<T>(a > b ? a - b : b - a);
  case 2: return saturate<T>(a + b);
  case 3: return saturate<T>(a - b);
  case 4: return T((a + b) >> 1);
  case 5: return T((a + b + 1) >> 1);
  case 6: return wrap<T>(highHalf(x, y) + c);
  case 7:
    if constexpr (std::is_unsigned_v<T> && sizeof(T) == 8) {
      const unsigned __int128 exact = (unsigned __int128)x * y + z;
      return exact > std::numeric_limits<T>::max() ? std::numeric_limits<T>::max() : T(exact);
    } else {
      return saturate<T>(a * b + c);
    }
  case 8: return wrap<T>(highHalf(x, y));
  case 9: {
    U value = U(x);
    for (U turns = U(U(y) % U(bits)); turns > 0; --turns) value = U(U(value << 1) | U(value >> (bits - 1)));
    return T(value);
  }
  case 10:
    for (U value = U(x); value; value = U(value >> 1)) count += int(value & 1);
    return T(count);
  case 11:
    for (int bit = bits - 1; bit >= 0 && !((U(x) >> bit) & 1); --bit) ++count;
    return T(count);
  case 12:
    for (int bit = 0; bit < bits && !((U(x) >> bit) & 1); ++bit) ++count;
    return T(count);
  case 13: {
    const Wide low = b < c ? b : c, high = b < c ? c : b;
    return T(a < low ? low : a > high ? high : a);
  }
  case 14: return T(a > b ? a : b);
  case 15: return T(a < b ? a : b);
  }
  return T(0);
}

// Edge values of T and a few ordinary ones.
template <typename T> std::vector<T> samples() {
  using L = std::numeric_limits<T>;
  std::vector<T> values = {T(0), T(1), T(2), T(3), T(7), L::max(), T(L::max() - 1), T(L::max() / 2), T(L::max() / 3)};
  if constexpr (std::is_signed_v<T>)
    for (T v : {T(-1), T(-2), T(-7), L::min(), T(L::min() + 1), T(L::min() / 2)}) values.push_back(v);
  else values.push_back(T(L::max() - 6));
  return values;
}

template <typename T> void checkType(sycl::queue &q, const std::string &type) {
  const std::vector<T> values = samples<T>();
  const std::size_t n = values.size(), triples = n * n * n;
  T *in = sycl::malloc_shared<T>(n, q);
  T *out = sycl::malloc_shared<T>(triples * kFunctions, q);
  for (std::size_t i = 0; i < n; ++i) in[i] = values[i];
  q.parallel_for(sycl::range<2>(triples, kFunctions), [=](sycl::item<2> it) {
     const std::size_t t = it[0];
     const T x = in[t / (n * n)], y = in[t / n % n], z = in[t % n];
     out[it.get_linear_id()] = evaluate<T>(int(it[1]), x, y, z);
   }).wait();
  int wrong = 0;
  for (std::size_t t = 0; t < triples; ++t)
    for (int f = 0; f < kFunctions; ++f) {
      const T x = values[t / (n * n)], y = values[t / n % n], z = values[t % n];
      const T expected = reference<T>(f, x, y, z), actual = out[t * kFunctions + f];
      if (expected == actual) continue;
      if (++wrong <= 8)
        onepass_test::fail(type + " " + kFunctionNames[f] + "(" + onepass_test::show(x) + ", " + onepass_test::show(y) +
                               ", " + onepass_test::show(z) + ")",
                           onepass_test::show(expected), onepass_test::show(actual));
    }
  onepass_test::checkEqual(type + " integer results that differ from the reference", 0, wrong);
  sycl::free(in, q);
  sycl::free(out, q);
}

// vec and marray: each lane equals the scalar function of its lanes, the
// scalar overloads (2) of clamp, max and min broadcast, and the types are
// the spec's.
template <typename V> void checkNonScalar(sycl::queue &q, const std::string &type) {
  using T = typename V::value_type;
  constexpr std::size_t N = V::size();
  static_assert(std::is_same_v<decltype(sycl::abs(V())), V>);
  static_assert(std::is_same_v<decltype(sycl::clz(V())), V>);
  static_assert(std::is_same_v<decltype(sycl::max(V(), T())), V>);
  const std::vector<T> values = samples<T>();
  V *in = sycl::malloc_shared<V>(3, q);
  V *out = sycl::malloc_shared<V>(kFunctions + 3, q);
  for (std::size_t v = 0; v < 3; ++v)
    for (std::size_t i = 0; i < N; ++i) in[v][i] = values[(v * 5 + i * 3 + 1) % values.size()];
  q.single_task([=] {
     const V x = in[0], y = in[1], z = in[2];
     out[0] = sycl::abs(x);
     out[1] = sycl::abs_diff(x, y);
     out[2] = sycl::add_sat(x, y);
     out[3] = sycl::sub_sat(x, y);
     out[4] = sycl::hadd(x, y);
     out[5] = sycl::rhadd(x, y);
     out[6] = sycl::mad_hi(x, y, z);
     out[7] = sycl::mad_sat(x, y, z);
     out[8] = sycl::mul_hi(x, y);
     out[9] = sycl::rotate(x, y);
     out[10] = sycl::popcount(x);
     out[11] = sycl::clz(x);
     out[12] = sycl::ctz(x);
     out[13] = sycl::clamp(x, sycl::min(y, z), sycl::max(y, z));
     out[14] = sycl::max(x, y);
     out[15] = sycl::min(x, y);
     out[16] = sycl::clamp(x, T(1), T(7));
     out[17] = sycl::max(x, T(2));
     out[18] = sycl::min(x, T(2));
   }).wait();
  int wrong = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const T x = in[0][i], y = in[1][i], z = in[2][i];
    for (int f = 0; f < kFunctions + 3; ++f) {
      const T expected = f < kFunctions    ? reference<T>(f, x, y, z)
                         : f == kFunctions ? reference<T>(13, x, T(1), T(7))
                                           : reference<T>(f == kFunctions + 1 ? 14 : 15, x, T(2), T(0));
      if (expected != out[f][i] && ++wrong <= 8)
        onepass_test::fail(type + " function " + std::to_string(f) + " lane " + std::to_string(i),
                           onepass_test::show(expected), onepass_test::show(out[f][i]));
    }
  }
  onepass_test::checkEqual(type + " lanes that differ from the reference", 0, wrong);
  sycl::free(in, q);
  sycl::free(out, q);
}

void checkWidening(sycl::queue &q) {
  static_assert(std::is_same_v<decltype(sycl::upsample(std::uint8_t(), std::uint8_t())), std::uint16_t>);
  static_assert(std::is_same_v<decltype(sycl::upsample(std::int16_t(), std::uint16_t())), std::int32_t>);
  static_assert(std::is_same_v<decltype(sycl::upsample(sycl::vec<std::int32_t, 2>(), sycl::vec<std::uint32_t, 2>())),
                               sycl::vec<std::int64_t, 2>>);
  static_assert(
      std::is_same_v<decltype(sycl::upsample(sycl::marray<std::uint8_t, 3>(), sycl::marray<std::uint8_t, 3>())),
                     sycl::marray<std::uint16_t, 3>>);
  std::int64_t *out = sycl::malloc_shared<std::int64_t>(12, q);
  q.single_task([=] {
     out[0] = sycl::upsample(std::uint8_t(0xAB), std::uint8_t(0xCD));
     out[1] = sycl::upsample(std::int8_t(-2), std::uint8_t(0x10));
     out[2] = sycl::upsample(std::uint16_t(0xBEEF), std::uint16_t(0x1234));
     out[3] = sycl::upsample(std::int16_t(-1), std::uint16_t(0xFFFE));
     out[4] = std::int64_t(sycl::upsample(std::uint32_t(0x89ABCDEFu), std::uint32_t(0x01234567u)));
     out[5] = sycl::upsample(std::int32_t(-3), std::uint32_t(5));
     const sycl::vec<std::int32_t, 2> v =
         sycl::upsample(sycl::vec<std::int16_t, 2>(-1, 3), sycl::vec<std::uint16_t, 2>(1, 2));
     out[6] = v[0];
     out[7] = v[1];
     out[8] = sycl::mul24(std::int32_t(-8388608), std::int32_t(8388607));  // wraps to 32 bits
     out[9] = sycl::mul24(std::uint32_t(16777215), std::uint32_t(3));
     out[10] = sycl::mad24(std::int32_t(-1000), std::int32_t(1000), std::int32_t(7));
     const sycl::marray<std::uint32_t, 2> m =
         sycl::mad24(sycl::marray<std::uint32_t, 2>(4096u), sycl::marray<std::uint32_t, 2>(4096u),
                     sycl::marray<std::uint32_t, 2>(1u, 2u));
     out[11] = m[1];
   }).wait();
  const std::int64_t expected[12] = {0xABCD,
                                     -2 * 256 + 0x10,
                                     0xBEEF1234,
                                     -2,
                                     std::int64_t(0x89ABCDEF01234567ull),
                                     -3ll * 4294967296ll + 5,
                                     -65536 + 1,
                                     3 * 65536 + 2,
                                     std::int32_t(std::uint32_t(-8388608ll * 8388607ll)),
                                     std::int64_t(std::uint32_t(16777215ull * 3)),
                                     -1000000 + 7,
                                     4096 * 4096 + 2};
  onepass_test::checkArray("upsample, mul24, mad24", 12, out, [&](std::size_t i) { return expected[i]; });
  sycl::free(out, q);
}

}  // namespace

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  onepass_test::runPart("char", [&] { checkType<char>(q, "char"); });
  onepass_test::runPart("signed char", [&] { checkType<signed char>(q, "signed char"); });
  onepass_test::runPart("unsigned char", [&] { checkType<unsigned char>(q, "unsigned char"); });
  onepass_test::runPart("short", [&] { checkType<short>(q, "short"); });
  onepass_test::runPart("unsigned short", [&] { checkType<unsigned short>(q, "unsigned short"); });
  onepass_test::runPart("int", [&] { checkType<int>(q, "int"); });
  onepass_test::runPart("unsigned", [&] { checkType<unsigned>(q, "unsigned"); });
  onepass_test::runPart("long", [&] { checkType<long>(q, "long"); });
  onepass_test::runPart("unsigned long", [&] { checkType<unsigned long>(q, "unsigned long"); });
  onepass_test::runPart("long long", [&] { checkType<long long>(q, "long long"); });
  onepass_test::runPart("unsigned long long", [&] { checkType<unsigned long long>(q, "unsigned long long"); });
  onepass_test::runPart("vec<int, 4>", [&] { checkNonScalar<sycl::vec<int, 4>>(q, "vec<int, 4>"); });
  onepass_test::runPart("vec<int8_t, 16>", [&] { checkNonScalar<sycl::vec<std::int8_t, 16>>(q, "vec<int8_t, 16>"); });
  onepass_test::runPart("vec<uint64_t, 3>",
                        [&] { checkNonScalar<sycl::vec<std::uint64_t, 3>>(q, "vec<uint64_t, 3>"); });
  onepass_test::runPart("marray<unsigned char, 5>",
                        [&] { checkNonScalar<sycl::marray<unsigned char, 5>>(q, "marray<unsigned char, 5>"); });
  onepass_test::runPart("marray<long, 2>", [&] { checkNonScalar<sycl::marray<long, 2>>(q, "marray<long, 2>"); });
  onepass_test::runPart("upsample, mul24, mad24", [&] { checkWidening(q); });
  return onepass_test::report();
}
