// sycl::reduction on an NVIDIA GPU against CUB (issue 4's figure): the sum of
// 2^28 floats in device memory, OnePass's parallel_for with a reduction
// (initialize_to_identity, the result copied to the host) against
// cub::DeviceReduce::Sum and a copy of its result to the host, in one
// process, best of 20 runs each, alternating.
// Run with ONEPASS_DEVICE=gpu; exits 0 with a message without a GPU.
#include "gpu_reduction_cuda.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  sycl::device gpu;
  try {
    gpu = sycl::device(sycl::gpu_selector_v);
  } catch (const sycl::exception &e) {
    std::printf("gpu_reduction: skipped, no GPU (%s)\n", e.what());
    return 0;
  }
  constexpr std::size_t n = std::size_t(1) << 28;
  constexpr float value = 0.5f;
  if (!cuda_reduction_init(n, value)) {
    std::printf("gpu_reduction: skipped, the CUDA runtime is unusable here\n");
    return 0;
  }
  sycl::queue q{gpu, sycl::property::queue::in_order()};
  float *data = sycl::malloc_device<float>(n, q);
  float *sum = sycl::malloc_device<float>(1, q);
  float result = 0;
  q.fill(data, value, n).wait();
  auto ours = [&] {
    auto start = std::chrono::steady_clock::now();
    q.parallel_for(sycl::range<1>(n),
                   sycl::reduction(sum, sycl::plus<float>(), sycl::property::reduction::initialize_to_identity()),
                   [=](sycl::id<1> i, auto &total) { total += data[i]; })
        .wait();
    q.memcpy(&result, sum, sizeof(float)).wait();  // to the host, as CUB's result
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // Diagnostic: the reduction kernel alone, its target zeroed before the timing.
  auto kernelAlone = [&] {
    q.memset(sum, 0, sizeof(float)).wait();
    auto start = std::chrono::steady_clock::now();
    q.parallel_for(sycl::range<1>(n), sycl::reduction(sum, sycl::plus<float>()), [=](sycl::id<1> i, auto &total) {
       total += data[i];
     }).wait();
    q.memcpy(&result, sum, sizeof(float)).wait();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  ours();  // JIT
  kernelAlone();
  float cudaSum = 0;
  cuda_reduction_sum(&cudaSum);
  std::vector<double> mine, theirs, alone;
  for (int round = 0; round < 20; ++round) {
    alone.push_back(kernelAlone());
    mine.push_back(ours());
    theirs.push_back(cuda_reduction_sum(&cudaSum));
  }
  const double expected = double(n) * value;
  const bool right =
      std::fabs(result - expected) <= 1e-5 * expected && std::fabs(cudaSum - expected) <= 1e-5 * expected;
  const double bytes = double(n) * sizeof(float);
  const double a = *std::min_element(mine.begin(), mine.end()), b = *std::min_element(theirs.begin(), theirs.end());
  std::printf("gpu_reduction on %s: sum of 2^28 floats, best of 20\n",
              gpu.get_info<sycl::info::device::name>().c_str());
  std::printf("  OnePass sycl::reduction   %8.3f ms  %7.1f GB/s\n", a * 1e3, bytes / a / 1e9);
  std::printf("  CUB DeviceReduce::Sum     %8.3f ms  %7.1f GB/s\n", b * 1e3, bytes / b / 1e9);
  const double c = *std::min_element(alone.begin(), alone.end());
  std::printf("  (diagnostic) OnePass without initialize_to_identity (target zeroed before) %8.3f ms\n", c * 1e3);
  std::printf("  ratio (CUB time / OnePass time) %.3fx (target >= 0.9x); results %s (%.1f, %.1f, expected %.1f)\n",
              b / a, right ? "verified" : "WRONG", double(result), double(cudaSum), expected);
  sycl::free(data, q);
  sycl::free(sum, q);
  cuda_reduction_finish();
  return right ? 0 : 1;
}
