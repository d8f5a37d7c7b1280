// Integers wider than 64 bits in kernels: __int128 and _BitInt(65),
// _BitInt(100), in every operation the JIT splits into 64-bit halves for
// SPIR-V devices (jit/targets/spirv/WideIntegers.h: arithmetic, shifts by
// every amount, comparisons, min/max/abs, bit counts, extensions and
// truncations, loop-carried values, 128-bit loads and stores, and the 65-bit
// trip count the optimizer makes of a sum loop). On the CPU device and NVIDIA
// GPUs they are native. Each result is compared with the host's.
#include "check.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int kOperations = 24;
const char *const kNames[kOperations] = {
    "x + y", "x - y", "x * y", "x & y", "x | y", "x ^ y", "x << s", "x >> s (unsigned)", "x >> s (signed)",
    "x < y (unsigned)", "x <= y (signed)", "x == y", "x > y (signed)", "min (unsigned)", "max (signed)",
    "abs (signed)", "~x", "-x", "zext(trunc64(x))", "sext(trunc64(x))", "popcount", "clz", "ctz",
    "x * y + x (loop of s % 5)"};

// `S` and `U` are the signed and unsigned integers of one width: arithmetic
// in U (signed overflow is undefined), signed operations in S.
template <typename S, typename U> U operate(int op, U x, U y, unsigned s) {
  const S sx = S(x), sy = S(y);
  switch (op) {
  case 0: return x + y;
  case 1: return x - y;
  case 2: return x * y;
  case 3: return x & y;
  case 4: return x | y;
  case 5: return x ^ y;
  case 6: return x << s;
  case 7: return x >> s;
  case 8: return U(sx >> s);
  case 9: return U(x < y);
  case 10: return U(sx <= sy);
  case 11: return U(x == y);
  case 12: return U(sx > sy);
  case 13: return x < y ? x : y;
  case 14: return U(sx > sy ? sx : sy);
  case 15: return sx < 0 ? U(0) - x : x;
  case 16: return ~x;
  case 17: return U(0) - x;
  case 18: return U(std::uint64_t(x));
  case 19: return U(S(std::int64_t(std::uint64_t(x))));
  case 20: return U(__builtin_popcountg(x));
  case 21: return U(__builtin_clzg(x, -1));
  case 22: return U(__builtin_ctzg(x, -1));
  default: {
    U acc = x;
    for (unsigned k = 0; k < s % 5; ++k) acc = acc * y + x;
    return acc;
  }
  }
}

// Values of the type from (high 64 bits, low 64 bits) patterns: edges of
// both halves and of the type.
template <typename U> std::vector<U> samples() {
  const std::uint64_t halves[][2] = {
      {0, 0}, {0, 1}, {0, 2}, {0, 0xffffffffffffffff}, {1, 0}, {1, 1}, {0, 0x8000000000000000},
      {0, 0x7fffffffffffffff}, {0xffffffffffffffff, 0xffffffffffffffff}, {0xffffffffffffffff, 0},
      {0x8000000000000000, 0}, {0x7fffffffffffffff, 0xffffffffffffffff}, {0x0123456789abcdef, 0xfedcba9876543210},
      {0xdeadbeef, 0x00000000ffffffff}, {0xfffffffffffffffe, 0x8000000000000001}, {0, 0x100000000}};
  std::vector<U> values;
  for (const auto &h : halves) values.push_back(U((((unsigned __int128)h[0]) << 64) | h[1]));
  values.push_back(U(~U(0)) >> 1);           // the largest signed value
  values.push_back(U(U(~U(0)) >> 1) + 1);    // the smallest
  return values;
}

// Shift amounts below the width (a shift by the width or more is undefined).
template <typename U> std::vector<unsigned> shifts() {
  const unsigned width = unsigned(__builtin_popcountg(U(~U(0))));
  std::vector<unsigned> amounts;
  for (unsigned amount : {0u, 1u, 2u, 31u, 32u, 33u, 63u, 64u, 65u, width - 1, width / 2 + 3})
    if (amount < width) amounts.push_back(amount);
  return amounts;
}

template <typename S, typename U> void checkWidth(sycl::queue &q, const std::string &type) {
  const std::vector<U> values = samples<U>();
  const std::vector<unsigned> amounts = shifts<U>();
  const std::size_t n = values.size(), a = amounts.size(), cases = n * n * a;
  U *in = sycl::malloc_shared<U>(n, q);
  unsigned *shiftIn = sycl::malloc_shared<unsigned>(a, q);
  U *out = sycl::malloc_shared<U>(cases * kOperations, q);
  for (std::size_t i = 0; i < n; ++i) in[i] = values[i];
  for (std::size_t i = 0; i < a; ++i) shiftIn[i] = amounts[i];
  q.parallel_for(sycl::range<2>(cases, kOperations), [=](sycl::item<2> it) {
     const std::size_t c = it[0];
     out[it.get_linear_id()] = operate<S, U>(int(it[1]), in[c / (n * a)], in[c / a % n], shiftIn[c % a]);
   }).wait();
  int wrong = 0;
  for (std::size_t c = 0; c < cases; ++c)
    for (int op = 0; op < kOperations; ++op) {
      const U x = values[c / (n * a)], y = values[c / a % n];
      const unsigned s = amounts[c % a];
      const U expected = operate<S, U>(op, x, y, s), actual = out[c * kOperations + op];
      if (expected == actual) continue;
      if (++wrong <= 8) {
        auto hex = [](U v) {
          char text[48];
          const unsigned __int128 w = (unsigned __int128)v;
          std::snprintf(text, sizeof text, "0x%016llx%016llx", (unsigned long long)(w >> 64), (unsigned long long)w);
          return std::string(text);
        };
        onepass_test::fail(type + " " + kNames[op] + " with x = " + hex(x) + ", y = " + hex(y) +
                               ", s = " + std::to_string(s),
                           hex(expected), hex(actual));
      }
    }
  onepass_test::checkEqual(type + ": results that differ from the host's", 0, wrong);
  sycl::free(in, q);
  sycl::free(shiftIn, q);
  sycl::free(out, q);
}

// sum of 0..count-1: the optimizer replaces the loop by count * (count - 1) / 2,
// computed in 65 bits (the product of two 64-bit values halved).
void checkClosedFormSum(sycl::queue &q) {
  const std::vector<std::uint64_t> counts = {0, 1, 2, 3, 1000, 65536, 4294967296ull + 7, 0x7fffffffffffffffull,
                                             0xffffffffffffffffull};
  std::uint64_t *in = sycl::malloc_shared<std::uint64_t>(counts.size(), q);
  std::uint64_t *out = sycl::malloc_shared<std::uint64_t>(counts.size(), q);
  for (std::size_t i = 0; i < counts.size(); ++i) in[i] = counts[i];
  q.parallel_for(sycl::range<1>(counts.size()), [=](sycl::id<1> i) {
     std::uint64_t sum = 0;
     const std::uint64_t count = in[i];
     for (std::uint64_t k = 0; k < count; ++k) sum += k;
     out[i] = sum;
   }).wait();
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const unsigned __int128 c = counts[i];
    const std::uint64_t expected = c == 0 ? 0 : std::uint64_t(c * (c - 1) / 2);
    onepass_test::checkEqual("sum of 0.." + std::to_string(counts[i]) + " - 1 (mod 2^64)", expected, out[i]);
  }
  sycl::free(in, q);
  sycl::free(out, q);
}

}  // namespace

int main() {
  sycl::queue q;
  std::printf("wide integers on '%s'\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  onepass_test::runPart("__int128", [&] { checkWidth<__int128, unsigned __int128>(q, "__int128"); });
  onepass_test::runPart("_BitInt(65)", [&] { checkWidth<_BitInt(65), unsigned _BitInt(65)>(q, "_BitInt(65)"); });
  onepass_test::runPart("_BitInt(100)", [&] { checkWidth<_BitInt(100), unsigned _BitInt(100)>(q, "_BitInt(100)"); });
  onepass_test::runPart("closed-form sum", [&] { checkClosedFormSum(q); });
  return onepass_test::report();
}
