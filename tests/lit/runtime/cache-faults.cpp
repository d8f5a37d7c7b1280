// Faults in the persistent kernel cache (issue 21): entries emptied,
// truncated, swapped (a whole, valid entry under another kernel's name),
// foreign files beside them, and a directory that cannot be created. Each is
// detected and the kernel rebuilt (never a bad binary loaded), or ignored;
// the program's results are right every time.
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.cache
// RUN: env ONEPASS_CACHE_DIR=%t.cache %t | FileCheck %s --check-prefix=RIGHT
// RUN: ls %t.cache/*.bin | wc -l | FileCheck %s --check-prefix=TWO
// Zero-length entries:
// RUN: for f in %t.cache/*.bin; do : > $f; done
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=REBUILT
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=CACHED
// Truncated entries:
// RUN: for f in %t.cache/*.bin; do truncate -s 100 $f; done
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=REBUILT
// One kernel's entry copied over the other's:
// RUN: cp $(ls %t.cache/*.bin | head -1) $(ls %t.cache/*.bin | tail -1)
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=SWAPPED
// Foreign files, and a directory where an entry would be:
// RUN: echo foreign > %t.cache/0123456789abcdef.bin && echo notes > %t.cache/README && mkdir -p %t.cache/sub.bin
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=CACHED
// A cache directory that cannot be made (even root cannot create one in /proc):
// RUN: env ONEPASS_CACHE_DIR=/proc/onepass-cache-test %t 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
#include <sycl/sycl.hpp>

#include <cstdio>

// RIGHT: right
// TWO: 2
// REBUILT: warning: kernel cache entry {{.*}}.bin is corrupt or stale; rebuilding it
// REBUILT: right
// CACHED-NOT: warning
// CACHED-NOT: : JIT
// CACHED: right
// SWAPPED-DAG: binary from the cache
// SWAPPED-DAG: warning: kernel cache entry {{.*}}.bin is corrupt or stale; rebuilding it
// SWAPPED: right
// UNWRITABLE: warning: kernel cache disabled: cannot create its directory '/proc/onepass-cache-test'
// UNWRITABLE-NOT: warning
// UNWRITABLE: right

int main() {
  sycl::queue q{sycl::cpu_selector_v};
  constexpr std::size_t n = 64;
  int *data = sycl::malloc_shared<int>(n, q);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] = static_cast<int>(i) * 3; }).wait();
  q.single_task([=] { data[0] = 1000; }).wait();
  bool ok = data[0] == 1000;
  for (std::size_t i = 1; i < n; ++i) ok = ok && data[i] == static_cast<int>(i) * 3;
  std::printf("%s\n", ok ? "right" : "WRONG");
  sycl::free(data, q);
}
