// A program compiled with -fsanitize=undefined carries UBSan's checks in its
// kernels' device code too. On the CPU device the kernel calls the program's
// UBSan runtime, so undefined behaviour in a kernel is reported at its source
// line; for NVIDIA GPUs the JIT drops the checks (no GPU has the runtime)
// instead of failing the build on `__ubsan_handle_*`. The GPU part runs
// through the fake driver (tests/fake_cuda), which compiles but runs no kernel.
// RUN: %onepass -fsycl-sscp -O2 -fsanitize=undefined %s -o %t
// (UBSAN_OPTIONS: the default, recovering, also under scripts/sanitize.sh.)
// RUN: env UBSAN_OPTIONS=print_stacktrace=0 ONEPASS_DEVICE=cpu ONEPASS_CACHE=0 %t 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env UBSAN_OPTIONS=print_stacktrace=0 LD_LIBRARY_PATH=%{fake_cuda_dir} ONEPASS_DEVICE=gpu ONEPASS_CACHE=0 ONEPASS_DUMP_DIR=%t.dir %t 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: cat %t.dir/*shiftKernel*.ptx | FileCheck %s --check-prefix=PTX
#include <sycl/sycl.hpp>

#include <cstdio>

// CPU: sanitized-program.cpp:[[#@LINE+12]]:{{[0-9]+}}: runtime error: shift exponent {{[0-9]+}} is too large
// CPU: done
// GPU-NOT: __ubsan
// GPU: done
// PTX: .entry
// PTX-NOT: __ubsan
class shiftKernel;

int main() {
  sycl::queue q;
  int *data = sycl::malloc_shared<int>(4, q);
  for (int i = 0; i < 4; ++i) data[i] = 37 + i;  // shifts of 37..40 bits: undefined for an int
  q.parallel_for<shiftKernel>(sycl::range<1>(4), [=](sycl::id<1> i) { data[i] = 1 << data[i]; }).wait();
  std::printf("done\n");
  sycl::free(data, q);
  return 0;
}
