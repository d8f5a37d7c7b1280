// Site caches and write modes (issue 19): ONEPASS_CACHE_READONLY_DIRS is
// searched after the user's cache and never written; ONEPASS_CACHE_WRITE=0
// stores nothing, =rank0 stores only in MPI rank 0.
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.site %t.user && mkdir -p %t.user
// RUN: env ONEPASS_CACHE_DIR=%t.site %t
// RUN: env ONEPASS_CACHE_DIR=%t.user ONEPASS_CACHE_READONLY_DIRS=/nonexistent:%t.site ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=SITE
// RUN: ls %t.user | wc -l | FileCheck %s --check-prefix=NONE
// RUN: env ONEPASS_CACHE_DIR=%t.user ONEPASS_CACHE_WRITE=0 ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=JIT
// RUN: ls %t.user | wc -l | FileCheck %s --check-prefix=NONE
// RUN: env ONEPASS_CACHE_DIR=%t.user ONEPASS_CACHE_WRITE=rank0 OMPI_COMM_WORLD_RANK=3 %t
// RUN: ls %t.user | wc -l | FileCheck %s --check-prefix=NONE
// RUN: env ONEPASS_CACHE_DIR=%t.user ONEPASS_CACHE_WRITE=rank0 OMPI_COMM_WORLD_RANK=0 %t
// RUN: ls %t.user/*.bin | wc -l | FileCheck %s --check-prefix=TWO
#include <sycl/sycl.hpp>

#include <cstdio>

// SITE-NOT: : JIT
// SITE: binary from the cache
// SITE-NOT: : JIT
// SITE: right
// NONE: {{^}}0{{$}}
// JIT: : JIT
// JIT: right
// TWO: {{^}}2{{$}}

int main() {
  sycl::queue q(sycl::cpu_selector_v);
  int *x = sycl::malloc_shared<int>(4, q);
  for (int i = 0; i < 4; ++i)
    x[i] = 0; // malloc_shared memory is not zeroed
  q.single_task([=] { x[0] = 1; }).wait();
  q.parallel_for(4, [=](sycl::item<1> i) { x[i] += 2; }).wait();
  std::printf(x[0] == 3 && x[3] == 2 ? "right\n" : "wrong\n");
  sycl::free(x, q);
  return 0;
}
