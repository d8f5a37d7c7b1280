// nd_range kernels with local memory and barriers on the CPU device, against
// the same algorithms as plain OpenMP loops (issue 4's figures, target
// >= 0.7x): a tiled 1024 x 1024 matrix multiply and a 4096 x 4096 5-point
// stencil (benchmarks/matmul_kernels.h); and against faster OpenMP loops
// without tiles that compute the same results. Best of 5 each, alternating,
// one process; prints OpenMP time / OnePass time.
#include "matmul_kernels.h"
#include "timing.h"
#include "matmul_openmp_ref.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

using bench::best;
using bench::secondsAfterIdle;

namespace {

// Prints OnePass's best time against each reference's (OpenMP time / OnePass
// time): the same tiled algorithm first (issue 4's figure), then the faster
// loops without tiles.
void report(const char *what, const std::vector<double> &ours, const std::vector<double> &tiled,
            const std::vector<double> &direct, const char *directName, bool verified) {
  std::printf("%s  OnePass %8.2f ms\n", what, best(ours) * 1e3);
  std::printf("  vs the same tiled algorithm in OpenMP %8.2f ms  ratio %.3fx (target >= 0.7x) %s\n", best(tiled) * 1e3,
              best(tiled) / best(ours), verified ? "verified" : "WRONG");
  std::printf("  vs OpenMP %-27s %8.2f ms  ratio %.3fx\n", directName, best(direct) * 1e3, best(direct) / best(ours));
}

}  // namespace

int main() {
  sycl::queue q{sycl::cpu_selector_v};
  std::printf("nd_range kernels with local memory on the CPU (%s); OpenMP with %d threads\n",
              q.get_device().get_info<sycl::info::device::name>().c_str(), matmul_openmp_threads());
  {
    constexpr std::size_t n = 1024;
    float *a = sycl::malloc_shared<float>(n * n, q), *b = sycl::malloc_shared<float>(n * n, q);
    float *c = sycl::malloc_shared<float>(n * n, q), *tiled = sycl::malloc_shared<float>(n * n, q);
    float *direct = sycl::malloc_shared<float>(n * n, q);
    for (std::size_t i = 0; i < n * n; ++i) {
      a[i] = float(i % 7) * 0.25f;
      b[i] = float(i % 5) * 0.5f;
    }
    tiledMatmul(q, a, b, c, n).wait();  // JIT
    std::vector<double> ours, theirsTiled, theirsDirect;
    for (int round = 0; round < 5; ++round) {
      ours.push_back(secondsAfterIdle([&] { tiledMatmul(q, a, b, c, n).wait(); }));
      theirsTiled.push_back(secondsAfterIdle([&] { matmul_tiled_openmp(a, b, tiled, n); }));
      theirsDirect.push_back(secondsAfterIdle([&] { matmul_openmp(a, b, direct, n); }));
    }
    report("matmul 1024 x 1024 (16 x 16 tiles)", ours, theirsTiled, theirsDirect, "i-k-j loops (no tiles)",
           bench::same(c, tiled, n * n) && bench::same(c, direct, n * n));
    sycl::free(a, q);
    sycl::free(b, q);
    sycl::free(c, q);
    sycl::free(tiled, q);
    sycl::free(direct, q);
  }
  {
    constexpr std::size_t n = 4096;
    float *in = sycl::malloc_shared<float>(n * n, q), *out = sycl::malloc_shared<float>(n * n, q);
    float *tiled = sycl::malloc_shared<float>(n * n, q), *direct = sycl::malloc_shared<float>(n * n, q);
    for (std::size_t i = 0; i < n * n; ++i) in[i] = float(i % 11);
    tiledStencil(q, in, out, n).wait();  // JIT
    std::vector<double> ours, theirsTiled, theirsDirect;
    for (int round = 0; round < 5; ++round) {
      ours.push_back(secondsAfterIdle([&] { tiledStencil(q, in, out, n).wait(); }));
      theirsTiled.push_back(secondsAfterIdle([&] { stencil_tiled_openmp(in, tiled, n); }));
      theirsDirect.push_back(secondsAfterIdle([&] { stencil_openmp(in, direct, n); }));
    }
    report("stencil 4096 x 4096 (16 x 16 tiles)", ours, theirsTiled, theirsDirect, "direct stencil (no tiles)",
           bench::same(out, tiled, n * n) && bench::same(out, direct, n * n));
    sycl::free(in, q);
    sycl::free(out, q);
    sycl::free(tiled, q);
    sycl::free(direct, q);
  }
  return 0;
}
