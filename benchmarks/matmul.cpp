// nd_range kernels with local memory and barriers on the CPU device, against
// the same algorithms as plain OpenMP loops (issue 4's figures, target
// >= 0.7x): a tiled 1024 x 1024 matrix multiply and a 4096 x 4096 5-point
// stencil (benchmarks/matmul_kernels.h). Best of 5 each, alternating, one
// process; prints OpenMP time / OnePass time.
#include "matmul_kernels.h"
#include "timing.h"
#include "matmul_openmp_ref.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

using bench::best;
using bench::seconds;

int main() {
  sycl::queue q{sycl::cpu_selector_v};
  std::printf("nd_range kernels with local memory on the CPU (%s); OpenMP with %d threads\n",
              q.get_device().get_info<sycl::info::device::name>().c_str(), matmul_openmp_threads());
  {
    constexpr std::size_t n = 1024;
    float *a = sycl::malloc_shared<float>(n * n, q), *b = sycl::malloc_shared<float>(n * n, q);
    float *c = sycl::malloc_shared<float>(n * n, q), *reference = sycl::malloc_shared<float>(n * n, q);
    for (std::size_t i = 0; i < n * n; ++i) {
      a[i] = float(i % 7) * 0.25f;
      b[i] = float(i % 5) * 0.5f;
    }
    tiledMatmul(q, a, b, c, n).wait();  // JIT
    std::vector<double> ours, theirs;
    for (int round = 0; round < 5; ++round) {
      ours.push_back(seconds([&] { tiledMatmul(q, a, b, c, n).wait(); }));
      theirs.push_back(seconds([&] { matmul_openmp(a, b, reference, n); }));
    }
    const double flops = 2.0 * n * n * n;
    std::printf("matmul %zu x %zu (16 x 16 tiles)  OnePass %8.2f ms %7.1f GFLOP/s  OpenMP %8.2f ms %7.1f GFLOP/s  "
                "ratio %.3fx (target >= 0.7x) %s\n",
                n, n, best(ours) * 1e3, flops / best(ours) / 1e9, best(theirs) * 1e3, flops / best(theirs) / 1e9,
                best(theirs) / best(ours), bench::same(c, reference, n * n) ? "verified" : "WRONG");
    sycl::free(a, q);
    sycl::free(b, q);
    sycl::free(c, q);
    sycl::free(reference, q);
  }
  {
    constexpr std::size_t n = 4096;
    float *in = sycl::malloc_shared<float>(n * n, q), *out = sycl::malloc_shared<float>(n * n, q);
    float *reference = sycl::malloc_shared<float>(n * n, q);
    for (std::size_t i = 0; i < n * n; ++i) in[i] = float(i % 11);
    tiledStencil(q, in, out, n).wait();  // JIT
    std::vector<double> ours, theirs;
    for (int round = 0; round < 5; ++round) {
      ours.push_back(seconds([&] { tiledStencil(q, in, out, n).wait(); }));
      theirs.push_back(seconds([&] { stencil_openmp(in, reference, n); }));
    }
    const double bytes = 2.0 * n * n * sizeof(float);
    std::printf("stencil %zu x %zu (16 x 16 tiles) OnePass %8.2f ms %7.1f GB/s  OpenMP %8.2f ms %7.1f GB/s  "
                "ratio %.3fx (target >= 0.7x) %s\n",
                n, n, best(ours) * 1e3, bytes / best(ours) / 1e9, best(theirs) * 1e3, bytes / best(theirs) / 1e9,
                best(theirs) / best(ours), bench::same(out, reference, n * n) ? "verified" : "WRONG");
    sycl::free(in, q);
    sycl::free(out, q);
    sycl::free(reference, q);
  }
  return 0;
}
