// SYCL 2020 §4.17.10 relational functions in kernels: every comparison and
// classification at every pair of special values (NaN, infinities, zeros of
// both signs, denormals, the largest values, ordinary numbers) for float,
// double and half, against the IEEE 754 definitions on the host; the result
// types and -1/0 lanes of vec, marray<bool> for marray; any, all,
// bitselect and select.
#include "check.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace {

const char *const kNames[] = {"isequal",     "isnotequal",    "isgreater", "isgreaterequal", "isless",
                              "islessequal", "islessgreater", "isordered", "isunordered",    "isfinite",
                              "isinf",       "isnan",         "isnormal",  "signbit"};
constexpr int kFunctions = 14;

template <typename T> bool evaluate(int function, T x, T y) {
  switch (function) {
  case 0: return sycl::isequal(x, y);
  case 1: return sycl::isnotequal(x, y);
  case 2: return sycl::isgreater(x, y);
  case 3: return sycl::isgreaterequal(x, y);
  case 4: return sycl::isless(x, y);
  case 5: return sycl::islessequal(x, y);
  case 6: return sycl::islessgreater(x, y);
  case 7: return sycl::isordered(x, y);
  case 8: return sycl::isunordered(x, y);
  case 9: return sycl::isfinite(x);
  case 10: return sycl::isinf(x);
  case 11: return sycl::isnan(x);
  case 12: return sycl::isnormal(x);
  case 13: return sycl::signbit(x);
  }
  return false;
}

// The host's IEEE 754 answers, in double (exact for every half, float and
// double), with T's own normal range.
template <typename T> bool reference(int function, double x, double y) {
  const double smallestNormal = double(std::numeric_limits<T>::min());
  switch (function) {
  case 0: return x == y;
  case 1: return x != y;
  case 2: return x > y;
  case 3: return x >= y;
  case 4: return x < y;
  case 5: return x <= y;
  case 6: return x < y || x > y;
  case 7: return !std::isnan(x) && !std::isnan(y);
  case 8: return std::isnan(x) || std::isnan(y);
  case 9: return std::isfinite(x);
  case 10: return std::isinf(x);
  case 11: return std::isnan(x);
  case 12: return std::isfinite(x) && std::fabs(x) >= smallestNormal;
  case 13: return std::signbit(x);
  }
  return false;
}

template <typename T> std::vector<T> specials() {
  using L = std::numeric_limits<T>;
  return {T(0.0f),        -T(0.0f),        T(1.0f),  T(-1.5f),        T(2.0f),          L::infinity(), -L::infinity(),
          L::quiet_NaN(), -L::quiet_NaN(), L::min(), L::denorm_min(), -L::denorm_min(), L::max(),      L::lowest()};
}

template <typename T> void checkScalar(sycl::queue &q, const std::string &type) {
  static_assert(std::is_same_v<decltype(sycl::isequal(T(), T())), bool>);
  static_assert(std::is_same_v<decltype(sycl::isnan(T())), bool>);
  const std::vector<T> values = specials<T>();
  const std::size_t n = values.size();
  T *in = sycl::malloc_shared<T>(n, q);
  bool *out = sycl::malloc_shared<bool>(n * n * kFunctions, q);
  for (std::size_t i = 0; i < n; ++i) in[i] = values[i];
  q.parallel_for(sycl::range<2>(n * n, kFunctions), [=](sycl::item<2> it) {
     out[it.get_linear_id()] = evaluate<T>(int(it[1]), in[it[0] / n], in[it[0] % n]);
   }).wait();
  int wrong = 0;
  for (std::size_t p = 0; p < n * n; ++p)
    for (int f = 0; f < kFunctions; ++f) {
      const double x = double(values[p / n]), y = double(values[p % n]);
      const bool expected = reference<T>(f, x, y), actual = out[p * kFunctions + f];
      if (expected != actual && ++wrong <= 8)
        onepass_test::fail(type + " " + kNames[f] + "(" + onepass_test::show(x) + ", " + onepass_test::show(y) + ")",
                           onepass_test::show(expected), onepass_test::show(actual));
    }
  onepass_test::checkEqual(type + " relational results that differ from IEEE 754", 0, wrong);
  sycl::free(in, q);
  sycl::free(out, q);
}

// vec lanes are -1 or 0 in the signed integer of the element's size;
// marray lanes are bool. Each lane must equal the scalar function's answer.
template <typename V, typename Lane> void checkNonScalar(sycl::queue &q, const std::string &type) {
  using T = typename V::value_type;
  constexpr std::size_t N = V::size();
  static_assert(std::is_same_v<typename decltype(sycl::isless(V(), V()))::value_type, Lane>);
  static_assert(decltype(sycl::isnan(V()))::size() == N);
  const std::vector<T> values = specials<T>();
  V *in = sycl::malloc_shared<V>(2, q);
  using Result = decltype(sycl::isless(V(), V()));
  Result *out = sycl::malloc_shared<Result>(kFunctions, q);
  for (std::size_t i = 0; i < N; ++i) {
    in[0][i] = values[(i * 5 + 2) % values.size()];
    in[1][i] = values[(i * 3 + 7) % values.size()];
  }
  q.single_task([=] {
     const V x = in[0], y = in[1];
     out[0] = sycl::isequal(x, y);
     out[1] = sycl::isnotequal(x, y);
     out[2] = sycl::isgreater(x, y);
     out[3] = sycl::isgreaterequal(x, y);
     out[4] = sycl::isless(x, y);
     out[5] = sycl::islessequal(x, y);
     out[6] = sycl::islessgreater(x, y);
     out[7] = sycl::isordered(x, y);
     out[8] = sycl::isunordered(x, y);
     out[9] = sycl::isfinite(x);
     out[10] = sycl::isinf(x);
     out[11] = sycl::isnan(x);
     out[12] = sycl::isnormal(x);
     out[13] = sycl::signbit(x);
   }).wait();
  int wrong = 0;
  for (int f = 0; f < kFunctions; ++f)
    for (std::size_t i = 0; i < N; ++i) {
      const bool truth = reference<T>(f, double(in[0][i]), double(in[1][i]));
      const Lane expected = std::is_same_v<Lane, bool> ? Lane(truth) : Lane(truth ? -1 : 0);
      if (expected != out[f][i] && ++wrong <= 8)
        onepass_test::fail(type + " " + kNames[f] + " lane " + std::to_string(i), onepass_test::show(expected),
                           onepass_test::show(out[f][i]));
    }
  onepass_test::checkEqual(type + " lanes that differ", 0, wrong);
  sycl::free(in, q);
  sycl::free(out, q);
}

void checkSelection(sycl::queue &q) {
  static_assert(std::is_same_v<decltype(sycl::any(sycl::vec<int, 4>())), int>);
  static_assert(std::is_same_v<decltype(sycl::all(sycl::marray<bool, 3>())), bool>);
  static_assert(std::is_same_v<decltype(sycl::select(sycl::vec<float, 2>(), sycl::vec<float, 2>(),
                                                     sycl::vec<std::uint32_t, 2>())),
                               sycl::vec<float, 2>>);
  int *out = sycl::malloc_shared<int>(16, q);
  float *values = sycl::malloc_shared<float>(8, q);
  double *doubles = sycl::malloc_shared<double>(3, q);
  q.single_task([=] {
     out[0] = sycl::any(sycl::vec<int, 4>(0, 1, 2, 0x7fffffff));  // no sign bit set
     out[1] = sycl::any(sycl::vec<std::int8_t, 3>(0, -128, 1));   // one set
     out[2] = sycl::all(sycl::vec<std::int64_t, 2>(-1, -5));
     out[3] = sycl::all(sycl::vec<std::int16_t, 4>(-1, -1, 0, -1));
     out[4] = sycl::any(sycl::marray<bool, 3>(false, true, false));
     out[5] = sycl::all(sycl::marray<bool, 3>(true, true, false));
     out[6] = sycl::any(-3);  // deprecated: the sign bit of a scalar
     out[7] = sycl::all(sycl::marray<short, 2>(-1, 4));
     out[8] = sycl::bitselect(0x0f0f0f0f, 0x7070f0f0, 0x00ff00ff);
     const sycl::vec<unsigned, 2> bits =
         sycl::bitselect(sycl::vec<unsigned, 2>(0xffff0000u, 0u), sycl::vec<unsigned, 2>(0x0000ffffu, ~0u),
                         sycl::vec<unsigned, 2>(0xffffffffu, 0x80000001u));
     out[9] = int(bits[0]);
     out[10] = int(bits[1]);
     out[11] = sycl::select(5, 9, true);
     out[12] = sycl::select(5, 9, false);
     values[0] = sycl::bitselect(2.0f, -2.0f, -0.0f);  // only the sign bit from b
     const sycl::vec<float, 4> chosen =
         sycl::select(sycl::vec<float, 4>(1, 2, 3, 4), sycl::vec<float, 4>(-1, -2, -3, -4),
                      sycl::vec<std::int32_t, 4>(-1, 0, 0x80000000, 0x7fffffff));
     for (int i = 0; i < 4; ++i) values[1 + i] = chosen[i];
     const sycl::marray<float, 3> picked = sycl::select(
         sycl::marray<float, 3>(1, 2, 3), sycl::marray<float, 3>(7, 8, 9), sycl::marray<bool, 3>(true, false, true));
     for (int i = 0; i < 3; ++i) values[5 + i] = picked[i];
     const sycl::vec<double, 3> d = sycl::select(sycl::vec<double, 3>(1.0), sycl::vec<double, 3>(2.0),
                                                 sycl::vec<std::uint64_t, 3>(0, 1ull << 63, 1));
     for (int i = 0; i < 3; ++i) doubles[i] = d[i];
   }).wait();
  const int expected[13] = {0,
                            1,
                            1,
                            0,
                            1,
                            0,
                            1,
                            0,
                            int(0x0f0f0f0f & ~0x00ff00ff) | int(0x7070f0f0 & 0x00ff00ff),
                            0x0000ffff,
                            int(0x80000001u),
                            9,
                            5};
  onepass_test::checkArray("any, all, integer bitselect and select", 13, out,
                           [&](std::size_t i) { return expected[i]; });
  const float expectedValues[8] = {-2.0f, -1, 2, -3, 4, 7, 2, 9};
  onepass_test::checkArray("float bitselect and select", 8, values, [&](std::size_t i) { return expectedValues[i]; });
  const double expectedDoubles[3] = {1.0, 2.0, 1.0};
  onepass_test::checkArray("vec<double> select", 3, doubles, [&](std::size_t i) { return expectedDoubles[i]; });
  sycl::free(out, q);
  sycl::free(values, q);
  sycl::free(doubles, q);
}

}  // namespace

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  onepass_test::runPart("float", [&] { checkScalar<float>(q, "float"); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "half", [&] { checkScalar<sycl::half>(q, "half"); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp64, "fp64", "double", [&] { checkScalar<double>(q, "double"); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp64, "fp64", "vec<double, 3>",
                               [&] { checkNonScalar<sycl::vec<double, 3>, std::int64_t>(q, "vec<double, 3>"); });
  onepass_test::runPart("vec<float, 16>",
                        [&] { checkNonScalar<sycl::vec<float, 16>, std::int32_t>(q, "vec<float, 16>"); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "vec<half, 4>",
                               [&] { checkNonScalar<sycl::vec<sycl::half, 4>, std::int16_t>(q, "vec<half, 4>"); });
  onepass_test::runPart("marray<float, 7>",
                        [&] { checkNonScalar<sycl::marray<float, 7>, bool>(q, "marray<float, 7>"); });
  onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "marray<half, 5>",
                               [&] { checkNonScalar<sycl::marray<sycl::half, 5>, bool>(q, "marray<half, 5>"); });
  onepass_test::runPart("any, all, bitselect, select", [&] { checkSelection(q); });
  return onepass_test::report();
}
