// Specialization constants (SYCL 2020 §4.9.5; issue 17's figure): the same
// kernel with its code path and loop length read from specialization
// constants, which the JIT folds in, vs read from kernel arguments. Prints
// each version's median time over interleaved rounds and the speed-up
// (argument time / specialization-constant time; >= 1 means the folded
// kernel is not slower), on the default device (ONEPASS_DEVICE picks it).
//   spec_constants [mode 0-3, default 1] [taps, default 8]
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr sycl::specialization_id<int> modeId(0);
constexpr sycl::specialization_id<int> tapsId(1);

// One element: `taps` terms of the function `mode` selects.
inline float apply(int mode, int taps, float x) {
  float sum = 0.0f;
  for (int k = 0; k < taps; ++k) {
    const float v = x + 0.125f * static_cast<float>(k);
    if (mode == 0) sum += v * v;
    else if (mode == 1) sum += 1.0f / (1.0f + v * v);
    else if (mode == 2) sum += std::sqrt(v * v + 1.0f);
    else sum += v * (v * (v * 0.25f + 0.5f) + 1.0f);
  }
  return sum;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char **argv) {
  sycl::queue q;
  const bool gpu = q.get_device().is_gpu();
  const std::size_t n = gpu ? (std::size_t(1) << 26) : (std::size_t(1) << 22);
  // Run-time values (from the command line), as in a real program: a value
  // the C++ compiler can see would be folded into both versions.
  const int mode = argc > 1 ? std::atoi(argv[1]) : 1, taps = argc > 2 ? std::atoi(argv[2]) : 8, rounds = 9;
  float *x = sycl::malloc_shared<float>(n, q);
  float *y = sycl::malloc_shared<float>(n, q);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 1000) * 0.001f;

  auto folded = [&] {
    q.submit([&](sycl::handler &h) {
       h.set_specialization_constant<modeId>(mode);
       h.set_specialization_constant<tapsId>(taps);
       h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i, sycl::kernel_handler kh) {
         y[i] = apply(kh.get_specialization_constant<modeId>(), kh.get_specialization_constant<tapsId>(), x[i]);
       });
     }).wait();
  };
  auto argument = [&] {
    const int m = mode, t = taps;
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { y[i] = apply(m, t, x[i]); }).wait();
  };
  auto seconds = [](auto &&work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  folded();  // first launches: JIT compiles
  const bool foldedRight = std::fabs(y[7] - apply(mode, taps, x[7])) <= 1e-4f * std::fabs(apply(mode, taps, x[7]));
  argument();
  const bool argumentRight = std::fabs(y[7] - apply(mode, taps, x[7])) <= 1e-4f * std::fabs(apply(mode, taps, x[7]));
  std::vector<double> foldedTimes, argumentTimes;
  for (int r = 0; r < rounds; ++r) {
    foldedTimes.push_back(seconds(folded));
    argumentTimes.push_back(seconds(argument));
  }
  const double f = median(foldedTimes), a = median(argumentTimes);
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  std::printf("%zu elements, mode %d, %d taps, median of %d rounds (kernel and wait)\n", n, mode, taps, rounds);
  std::printf("specialization constants  %8.3f ms\n", f * 1e3);
  std::printf("kernel arguments          %8.3f ms\n", a * 1e3);
  std::printf("speed-up of folding       %8.2fx\n", a / f);
  sycl::free(x, q);
  sycl::free(y, q);
  if (!foldedRight || !argumentRight) {
    std::printf("FAILED: wrong results\n");
    return 1;
  }
  return 0;
}
