// A tile with a halo, as a stencil loads it: the work-items at a row's ends
// and the tile's first and last rows load one more value each. On the CPU
// (jit/targets/cpu/ParallelLoops.h, BarrierLowering.h):
// - every work-item stops at the barrier, whatever the halo branches, so the
//   launcher has no path for a group whose work-items stopped apart;
// - the branches on the row (the same for a row's work-items) are unswitched
//   out of the loops over a row, and the phase's loops run the row's ends
//   apart, so that every loop over work-items vectorizes.
// (Compiled, then linked: a sanitizer build of OnePass links with its
// sanitizers, and the kernels checked here must be compiled without them.)
// RUN: %onepass -fsycl-sscp -O2 -c %s -o %t.o
// RUN: %onepass -fsycl-sscp %t.o -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ONEPASS_DUMP_DIR=%t.dir ONEPASS_CACHE=0 ONEPASS_JIT_LLVM_ARGS="-pass-remarks=loop-vectorize -pass-remarks-missed=loop-vectorize" %t 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: cat %t.dir/*haloTile*.unoptimized.ll | FileCheck %s --check-prefix=LAUNCHER
#include <sycl/sycl.hpp>

#include <cstdio>

namespace {

constexpr std::size_t kTile = 16;

void haloTile(sycl::queue &q, const float *in, float *out, std::size_t n) {
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<float, 2> tile(sycl::range<2>(kTile + 2, kTile + 2), h);
     h.parallel_for(sycl::nd_range<2>({n, n}, {kTile, kTile}), [=](sycl::nd_item<2> it) {
       const std::size_t i = it.get_global_id(0), j = it.get_global_id(1);
       const std::size_t r = it.get_local_id(0) + 1, c = it.get_local_id(1) + 1;
       tile[r][c] = in[i * n + j];
       if (r == 1 && i > 0) tile[0][c] = in[(i - 1) * n + j];
       if (r == kTile && i + 1 < n) tile[kTile + 1][c] = in[(i + 1) * n + j];
       if (c == 1 && j > 0) tile[r][0] = in[i * n + j - 1];
       if (c == kTile && j + 1 < n) tile[r][kTile + 1] = in[i * n + j + 1];
       it.barrier(sycl::access::fence_space::local_space);
       if (i == 0 || j == 0 || i + 1 == n || j + 1 == n)
         out[i * n + j] = tile[r][c];
       else
         out[i * n + j] = tile[r - 1][c] + tile[r + 1][c] + tile[r][c - 1] + tile[r][c + 1] - 4 * tile[r][c];
     });
   }).wait();
}

}  // namespace

int main() {
  sycl::queue q{sycl::cpu_selector_v};
  const std::size_t n = 64;
  float *in = sycl::malloc_shared<float>(n * n, q), *out = sycl::malloc_shared<float>(n * n, q);
  for (std::size_t k = 0; k < n * n; ++k) in[k] = float((k * 7) % 13);
  haloTile(q, in, out, n);
  int wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const float *at = in + i * n + j;
      const float expected = i == 0 || j == 0 || i + 1 == n || j + 1 == n
                                 ? *at
                                 : at[-std::ptrdiff_t(n)] + at[n] + at[-1] + at[1] - 4 * *at;
      wrong += out[i * n + j] != expected;
    }
  std::printf("wrong: %d\n", wrong);
  sycl::free(in, q);
  sycl::free(out, q);
}

// Every loop over work-items vectorizes.
// RESULT-NOT: loop not vectorized
// RESULT: vectorized loop
// RESULT-NOT: loop not vectorized
// RESULT: wrong: 0

// No check of where each work-item stopped, and no phase for work-items apart.
// LAUNCHER: define void @__onepass_cpu_launch(
// LAUNCHER-NOT: phase.apart
// LAUNCHER-NOT: phase.check
// LAUNCHER: phase.from.1:
// LAUNCHER-NOT: phase.apart
// LAUNCHER-NOT: phase.check
