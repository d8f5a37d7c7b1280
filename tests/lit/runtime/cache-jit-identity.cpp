// The persistent kernel cache knows the JIT library by its GNU build ID
// (issue 19): a copy of the same library (an identical install elsewhere)
// finds the entries, a different build of the JIT (same OnePass version)
// does not use them and compiles afresh.
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.cache %t.jit && mkdir -p %t.jit
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=COMPILED
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=CACHED
// The same library under another path:
// RUN: cp %{onepass_prefix}/lib/onepass/libonepass-jit.so %t.jit/same.so && cp -r %{onepass_prefix}/lib/onepass/bitcode %t.jit/
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_JIT_LIBRARY=%t.jit/same.so ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=CACHED
// Another build (its build ID changed):
// RUN: %python %S/Inputs/change-build-id.py %t.jit/same.so %t.jit/other.so
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_JIT_LIBRARY=%t.jit/other.so ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=COMPILED
// RUN: rm -rf %t.jit
#include <sycl/sycl.hpp>

#include <cstdio>

// COMPILED: : JIT {{[0-9]+}} us
// COMPILED: right
// CACHED-NOT: : JIT
// CACHED: right

int main() {
  sycl::queue q(sycl::cpu_selector_v);
  int *out = sycl::malloc_shared<int>(4, q);
  q.parallel_for(4, [=](sycl::item<1> i) { out[i] = static_cast<int>(i[0]) * 3; }).wait();
  const bool right = out[0] == 0 && out[1] == 3 && out[2] == 6 && out[3] == 9;
  std::printf(right ? "right\n" : "wrong\n");
  sycl::free(out, q);
  return right ? 0 : 1;
}
