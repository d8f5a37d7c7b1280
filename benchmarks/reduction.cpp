// sycl::reduction on the CPU device against an OpenMP reduction (issue 4's
// figure): the sum of 2^26 floats, best of 10 runs each, alternating, in one
// process. Prints the ratio (OpenMP time / OnePass time; target >= 0.9x).
#include "reduction_openmp_ref.h"
#include "timing.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  sycl::queue q{sycl::cpu_selector_v};
  constexpr std::size_t n = std::size_t(1) << 26;
  float *data = sycl::malloc_shared<float>(n, q);
  float *sum = sycl::malloc_shared<float>(1, q);
  q.fill(data, 0.5f, n).wait();
  auto ours = [&] {
    q.parallel_for(sycl::range<1>(n),
                   sycl::reduction(sum, sycl::plus<float>(), sycl::property::reduction::initialize_to_identity()),
                   [=](sycl::id<1> i, auto &total) { total += data[i]; })
        .wait();
  };
  float reference = 0;
  ours();  // JIT
  std::vector<double> mine, theirs;
  for (int round = 0; round < 10; ++round) {
    mine.push_back(bench::secondsAfterIdle(ours));
    theirs.push_back(bench::secondsAfterIdle([&] { reference = reduction_openmp_sum(data, n); }));
  }
  const double expected = double(n) * 0.5;
  const bool right =
      std::fabs(*sum - expected) <= 1e-4 * expected && std::fabs(reference - expected) <= 1e-4 * expected;
  const double a = *std::min_element(mine.begin(), mine.end()), b = *std::min_element(theirs.begin(), theirs.end());
  std::printf("reduction on the CPU (%s), sum of 2^26 floats, best of 10; OpenMP with %d threads\n",
              q.get_device().get_info<sycl::info::device::name>().c_str(), reduction_openmp_threads());
  std::printf("  OnePass sycl::reduction  %8.3f ms  %6.1f GB/s\n", a * 1e3, n * 4.0 / a / 1e9);
  std::printf("  OpenMP reduction         %8.3f ms  %6.1f GB/s\n", b * 1e3, n * 4.0 / b / 1e9);
  std::printf("  ratio (OpenMP time / OnePass time) %.3fx (target >= 0.9x); results %s\n", b / a,
              right ? "verified" : "WRONG");
  sycl::free(data, q);
  sycl::free(sum, q);
  return right ? 0 : 1;
}
