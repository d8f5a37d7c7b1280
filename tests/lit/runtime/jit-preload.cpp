// A program that ran here before does not load the JIT library: the runtime
// skips its background preload once one of the program's CPU kernels is in
// the persistent cache, even if others are not (a run seldom launches every
// kernel of a program). A kernel that then misses the cache loads the JIT
// library when it is launched, and the others still come from the cache.
// (Compiled, then linked: a sanitizer build of OnePass links with its
// sanitizers, and the kernels checked here must be compiled without them.)
// RUN: %onepass -fsycl-sscp -O2 -c %s -o %t.o
// RUN: %onepass -fsycl-sscp %t.o -o %t
// RUN: rm -rf %t.cache
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t other 2>&1 | FileCheck %s --check-prefix=OTHER
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  sycl::queue q{sycl::cpu_selector_v};
  constexpr std::size_t n = 64;
  int *data = sycl::malloc_shared<int>(n, q);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] = static_cast<int>(i); }).wait();
  const bool other = argc > 1 && std::strcmp(argv[1], "other") == 0;
  if (other) q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] *= 3; }).wait();
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok = ok && data[i] == static_cast<int>(i) * (other ? 3 : 1);
  sycl::free(data, q);
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

// FIRST: loaded JIT library
// FIRST: for the host CPU: JIT {{[0-9]+}} us
// FIRST: PASSED

// AGAIN-NOT: loaded JIT library
// AGAIN: for the host CPU: binary from the cache in
// AGAIN-NOT: loaded JIT library
// AGAIN: PASSED

// OTHER: for the host CPU: binary from the cache in
// OTHER: loaded JIT library
// OTHER: for the host CPU: JIT {{[0-9]+}} us
// OTHER: PASSED
