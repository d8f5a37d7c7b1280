// SYCL math in kernels (§4.17.4-4.17.6) computes what the same functions
// compute on the host, on whatever device runs it: on NVIDIA GPUs through
// libdevice, on the CPU device through the C library. Built twice: as is
// (precise; denormals kept) and with -ffast-math -fdenormal-fp-math=
// preserve-sign (math_fast: looser tolerances; on a GPU denormals flush).
#include "check.h"

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace {

#ifdef __FAST_MATH__
constexpr bool kFast = true;
#else
constexpr bool kFast = false;
#endif

// The inputs keep every result finite, so the fast-math build may assume it.
bool close(double actual, double expected, double relative, double absolute) {
  return std::fabs(actual - expected) <= absolute + relative * std::fabs(expected);
}

// Each row: a function name and its value at x, the same code on host and device.
template <typename T> constexpr int kFunctions = 34;

template <typename T> T evaluate(int function, T x) {
  const T y = T(0.75);
  switch (function) {
  case 0: return sycl::sin(x);
  case 1: return sycl::cos(x);
  case 2: return sycl::tan(x);
  case 3: return sycl::exp(x);
  case 4: return sycl::exp2(x);
  case 5: return sycl::exp10(x);
  case 6: return sycl::expm1(x);
  case 7: return sycl::log(x);
  case 8: return sycl::log2(x);
  case 9: return sycl::log10(x);
  case 10: return sycl::log1p(x);
  case 11: return sycl::pow(x, y);
  case 12: return sycl::sqrt(x);
  case 13: return sycl::rsqrt(x);
  case 14: return sycl::cbrt(x);
  case 15: return sycl::asin(x / T(4));
  case 16: return sycl::acos(x / T(4));
  case 17: return sycl::atan(x);
  case 18: return sycl::atan2(x, y);
  case 19: return sycl::sinh(x);
  case 20: return sycl::cosh(x);
  case 21: return sycl::tanh(x);
  case 22: return sycl::erf(x);
  case 23: return sycl::tgamma(x);
  case 24: return sycl::lgamma(x);
  case 25: return sycl::hypot(x, y);
  case 26: return sycl::fmod(x, y);
  case 27: return sycl::floor(x) + sycl::ceil(x) + sycl::round(x) + sycl::trunc(x);
  case 28: return sycl::fma(x, y, T(1));
  case 29: return sycl::sinpi(x) + sycl::cospi(x);
  case 30: return sycl::pown(x, 3) + sycl::rootn(x, 3);
  case 31: return sycl::fmin(x, y) + sycl::fmax(x, y) + sycl::min(x, y) + sycl::max(x, y);
  case 32: return sycl::clamp(x, T(0.5), T(2)) + sycl::smoothstep(T(0), T(3), x) + sycl::sign(x - y);
  case 33: return sycl::degrees(x) + sycl::radians(x) + sycl::mix(x, y, T(0.25)) + sycl::step(y, x);
  }
  return T(0);
}

template <typename T> void checkMath(sycl::queue &q, const char *type, double relative, double absolute) {
  const int inputs = 64, functions = kFunctions<T>;
  T *in = sycl::malloc_shared<T>(inputs, q);
  T *out = sycl::malloc_shared<T>(inputs * functions, q);
  for (int i = 0; i < inputs; ++i) in[i] = T(0.05) + T(i) * T(0.047);  // (0.05, 3.07)
  q.parallel_for(sycl::range<2>(inputs, functions), [=](sycl::item<2> it) {
     out[it.get_linear_id()] = evaluate<T>(int(it[1]), in[it[0]]);
   }).wait();
  int wrong = 0;
  for (int i = 0; i < inputs; ++i)
    for (int f = 0; f < functions; ++f) {
      const T expected = evaluate<T>(f, in[i]), actual = out[i * functions + f];
      if (close(actual, expected, relative, absolute)) continue;
      if (++wrong <= 8)
        onepass_test::fail(std::string(type) + " function " + std::to_string(f) + " at " + std::to_string(in[i]),
                           onepass_test::show(expected), onepass_test::show(actual));
    }
  onepass_test::checkEqual(std::string(type) + " results outside the tolerance", 0, wrong);
  sycl::free(in, q);
  sycl::free(out, q);
}

void checkNative(sycl::queue &q) {
  const int n = 64;
  float *in = sycl::malloc_shared<float>(n, q);
  float *out = sycl::malloc_shared<float>(n * 6, q);
  for (int i = 0; i < n; ++i) in[i] = -3.0f + 6.0f * float(i) / float(n);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
     float x = in[i];
     out[i * 6 + 0] = sycl::native::sin(x);
     out[i * 6 + 1] = sycl::native::cos(x);
     out[i * 6 + 2] = sycl::native::exp(x);
     out[i * 6 + 3] = sycl::native::log2(x + 4.0f);
     out[i * 6 + 4] = sycl::native::recip(x + 4.0f);
     out[i * 6 + 5] = sycl::native::sqrt(x + 4.0f);
   }).wait();
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const float x = in[i];
    const double expected[6] = {std::sin(x),        std::cos(x),     std::exp(x),
                                std::log2(x + 4.0), 1.0 / (x + 4.0), std::sqrt(x + 4.0)};
    for (int f = 0; f < 6; ++f)
      if (!close(out[i * 6 + f], expected[f], 1e-4, 1e-5) && ++wrong <= 8)
        onepass_test::fail("native function " + std::to_string(f) + " at " + std::to_string(x),
                           onepass_test::show(expected[f]), onepass_test::show(out[i * 6 + f]));
  }
  onepass_test::checkEqual("native results outside 1e-4", 0, wrong);
  sycl::free(in, q);
  sycl::free(out, q);
}

// A product below FLT_MIN: a denormal, kept by default, flushed to zero on a
// GPU when the program asks for it (-fdenormal-fp-math=preserve-sign).
void checkDenormals(sycl::queue &q) {
  float *values = sycl::malloc_shared<float>(3, q);
  values[0] = 1e-30f;
  values[1] = 1e-10f;
  q.single_task([=] { values[2] = values[0] * values[1]; }).wait();
  const bool gpu = q.get_device().is_gpu();
  if (!kFast) onepass_test::check("the denormal product 1e-40 is kept", values[2] > 0.0f && values[2] < 1.2e-38f);
  else if (gpu) onepass_test::checkEqual("the denormal product, flushed on the GPU", 0.0f, values[2]);
  else std::printf("note: the CPU device computes denormals itself (%g): flushing is a GPU feature\n", values[2]);
  sycl::free(values, q);
}

// Integer functions (§4.17.4) are exact.
void checkIntegers(sycl::queue &q) {
  int *out = sycl::malloc_shared<int>(8, q);
  unsigned *magnitude = sycl::malloc_shared<unsigned>(2, q);
  q.single_task([=] {
     out[0] = sycl::min(3, -4);
     out[1] = sycl::max(3, -4);
     out[2] = sycl::clamp(17, 0, 10);
     out[3] = sycl::clamp(-17, 0, 10);
     magnitude[0] = sycl::abs(-2147483647 - 1);
     magnitude[1] = sycl::abs_diff(-5, 7);
   }).wait();
  const int expected[4] = {-4, 3, 10, 0};
  onepass_test::checkArray("integer min/max/clamp", 4, out, [&](std::size_t i) { return expected[i]; });
  onepass_test::checkEqual("abs(INT_MIN)", 2147483648u, magnitude[0]);
  onepass_test::checkEqual("abs_diff(-5, 7)", 12u, magnitude[1]);
  sycl::free(out, q);
  sycl::free(magnitude, q);
}

}  // namespace

int main() {
  sycl::queue q;
  std::printf("device: %s%s\n", q.get_device().get_info<sycl::info::device::name>().c_str(),
              kFast ? " (-ffast-math, flushed denormals)" : "");
  // Precise: a few ulp between libraries (libdevice, glibc). Fast math: the
  // GPU's approximate functions.
  onepass_test::runPart("float math", [&] { checkMath<float>(q, "float", kFast ? 2e-3 : 4e-6, kFast ? 1e-4 : 1e-6); });
  if (q.get_device().has(sycl::aspect::fp64))
    onepass_test::runPart("double math",
                          [&] { checkMath<double>(q, "double", kFast ? 1e-9 : 1e-13, kFast ? 1e-12 : 1e-15); });
  onepass_test::runPart("native math", [&] { checkNative(q); });
  onepass_test::runPart("denormals", [&] { checkDenormals(q); });
  onepass_test::runPart("integer functions", [&] { checkIntegers(q); });
  return onepass_test::report();
}
