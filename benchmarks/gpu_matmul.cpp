// nd_range kernels with local memory and barriers on an NVIDIA GPU, against
// the same algorithms written in CUDA and compiled by nvcc (issue 4's
// figures, target >= 0.9x): a tiled 4096 x 4096 matrix multiply and an
// 8192 x 8192 5-point stencil (benchmarks/matmul_kernels.h), kernel times
// (submit to completion), best of 10 each, alternating, one process.
// Run with ONEPASS_DEVICE=gpu; exits 0 with a message without a GPU.
#include "gpu_matmul_cuda.h"
#include "matmul_kernels.h"
#include "timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

using bench::best;
using bench::seconds;

int main() {
  sycl::device gpu;
  try {
    gpu = sycl::device(sycl::gpu_selector_v);
  } catch (const sycl::exception &e) {
    std::printf("gpu_matmul: skipped, no GPU (%s)\n", e.what());
    return 0;
  }
  sycl::queue q{gpu, sycl::property::queue::in_order()};
  std::printf("gpu_matmul on %s: kernel times, best of 10\n", gpu.get_info<sycl::info::device::name>().c_str());
  bool right = true;
  {
    constexpr std::size_t n = 4096;
    std::vector<float> a(n * n), b(n * n), ours(n * n), theirs(n * n);
    for (std::size_t i = 0; i < n * n; ++i) {
      a[i] = float(i % 7) * 0.25f;
      b[i] = float(i % 5) * 0.5f;
    }
    if (!cuda_matmul_init(a.data(), b.data(), n)) {
      std::printf("gpu_matmul: skipped, the CUDA runtime is unusable here\n");
      return 0;
    }
    float *da = sycl::malloc_device<float>(n * n, q), *db = sycl::malloc_device<float>(n * n, q);
    float *dc = sycl::malloc_device<float>(n * n, q);
    q.memcpy(da, a.data(), n * n * sizeof(float));
    q.memcpy(db, b.data(), n * n * sizeof(float)).wait();
    tiledMatmul(q, da, db, dc, n).wait();  // JIT
    std::vector<double> mine, reference;
    for (int round = 0; round < 10; ++round) {
      mine.push_back(seconds([&] { tiledMatmul(q, da, db, dc, n).wait(); }));
      reference.push_back(cuda_matmul(theirs.data()));
    }
    q.memcpy(ours.data(), dc, n * n * sizeof(float)).wait();
    const bool ok = bench::same(ours.data(), theirs.data(), ours.size());
    right = right && ok;
    const double flops = 2.0 * n * n * n;
    std::printf("matmul %zu x %zu   OnePass %8.3f ms %8.1f GFLOP/s   CUDA %8.3f ms %8.1f GFLOP/s   ratio %.3fx "
                "(target >= 0.9x) %s\n",
                n, n, best(mine) * 1e3, flops / best(mine) / 1e9, best(reference) * 1e3, flops / best(reference) / 1e9,
                best(reference) / best(mine), ok ? "verified" : "WRONG");
    sycl::free(da, q);
    sycl::free(db, q);
    sycl::free(dc, q);
  }
  {
    constexpr std::size_t n = 8192;
    std::vector<float> in(n * n), ours(n * n), theirs(n * n);
    for (std::size_t i = 0; i < n * n; ++i) in[i] = float(i % 11);
    if (!cuda_stencil_init(in.data(), n)) return 0;
    float *din = sycl::malloc_device<float>(n * n, q), *dout = sycl::malloc_device<float>(n * n, q);
    q.memcpy(din, in.data(), n * n * sizeof(float)).wait();
    tiledStencil(q, din, dout, n).wait();  // JIT
    std::vector<double> mine, reference;
    for (int round = 0; round < 10; ++round) {
      mine.push_back(seconds([&] { tiledStencil(q, din, dout, n).wait(); }));
      reference.push_back(cuda_stencil(theirs.data()));
    }
    q.memcpy(ours.data(), dout, n * n * sizeof(float)).wait();
    const bool ok = bench::same(ours.data(), theirs.data(), ours.size());
    right = right && ok;
    const double bytes = 2.0 * n * n * sizeof(float);
    std::printf("stencil %zu x %zu  OnePass %8.3f ms %8.1f GB/s      CUDA %8.3f ms %8.1f GB/s      ratio %.3fx "
                "(target >= 0.9x) %s\n",
                n, n, best(mine) * 1e3, bytes / best(mine) / 1e9, best(reference) * 1e3, bytes / best(reference) / 1e9,
                best(reference) / best(mine), ok ? "verified" : "WRONG");
    // Where OnePass's time goes: the kernel on the device (profiling), and
    // the same launches back to back without a wait between them.
    sycl::queue profiled{
        gpu, sycl::property_list{sycl::property::queue::in_order(), sycl::property::queue::enable_profiling()}};
    std::vector<double> device, backToBack;
    for (int round = 0; round < 10; ++round) {
      sycl::event e = tiledStencil(profiled, din, dout, n);
      e.wait();
      device.push_back(double(e.get_profiling_info<sycl::info::event_profiling::command_end>() -
                              e.get_profiling_info<sycl::info::event_profiling::command_start>()) *
                       1e-9);
      backToBack.push_back(seconds([&] {
                             for (int k = 0; k < 10; ++k) tiledStencil(q, din, dout, n);
                             q.wait();
                           }) /
                           10);
    }
    std::printf("  (diagnostic) OnePass stencil: %.3f ms on the device (profiling), %.3f ms each of 10 back to back\n",
                best(device) * 1e3, best(backToBack) * 1e3);
    sycl::free(din, q);
    sycl::free(dout, q);
  }
  cuda_matmul_finish();
  return right ? 0 : 1;
}
