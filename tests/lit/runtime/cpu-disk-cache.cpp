// The CPU device goes through the kernel provider like every device
// (runtime/core/KernelProvider.h), so its kernels reach the persistent cache:
// a second process loads them from disk instead of compiling them, an
// nd_range kernel has one entry per work-group range (the CPU compiles the
// range in), a corrupt entry is detected and rebuilt, never executed, and
// ONEPASS_CACHE=0 compiles every time and leaves the cache alone.
// (Compiled, then linked: a sanitizer build of OnePass links with its
// sanitizers, and the kernels checked here must be compiled without them.)
// RUN: %onepass -fsycl-sscp -O2 -c %s -o %t.o
// RUN: %onepass -fsycl-sscp %t.o -o %t
// RUN: rm -rf %t.cache
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: ls %t.cache/*.bin | wc -l | FileCheck %s --check-prefix=ENTRIES
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: for f in %t.cache/*.bin; do printf 'garbage' | dd of=$f bs=1 seek=100 conv=notrunc 2>/dev/null; done
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=CORRUPT
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=SECOND
// The JIT's LLVM options are part of the key: other options, other binaries.
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info ONEPASS_JIT_LLVM_ARGS=-pass-remarks=loop-vectorize %t 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: rm -rf %t.off && env ONEPASS_CACHE_DIR=%t.off ONEPASS_CACHE=0 ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: not ls %t.off/*.bin
#include <sycl/sycl.hpp>

#include <cstdio>

int main() {
  sycl::queue q{sycl::cpu_selector_v};
  constexpr std::size_t n = 256;
  int *data = sycl::malloc_shared<int>(n, q);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] = static_cast<int>(i) * 2; }).wait();
  // One nd_range kernel, two work-group ranges: two binaries.
  for (std::size_t group : {16, 32})
    q.parallel_for(sycl::nd_range<1>(n, group), [=](sycl::nd_item<1> it) {
       data[it.get_global_id(0)] += static_cast<int>(it.get_local_range(0));
     }).wait();
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok = ok && data[i] == static_cast<int>(i) * 2 + 48;
  sycl::free(data, q);
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

// FIRST-NOT: from the cache
// FIRST-COUNT-3: for the host CPU: JIT {{[0-9]+}} us, load
// FIRST-NOT: from the cache
// FIRST: PASSED

// ENTRIES: 3

// SECOND-NOT: JIT {{[0-9]+}} us
// SECOND-COUNT-3: for the host CPU: binary from the cache in
// SECOND-NOT: JIT {{[0-9]+}} us
// SECOND: PASSED

// CORRUPT-COUNT-3: is corrupt or stale; rebuilding it
// CORRUPT: PASSED

// ARGS-NOT: from the cache
// ARGS: remark: {{.*}}vectorized loop
// ARGS-NOT: from the cache
// ARGS: PASSED
