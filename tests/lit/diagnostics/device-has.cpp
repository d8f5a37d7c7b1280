// [[sycl::device_has(...)]] (SYCL 2020 §5.8.1): an argument that is no
// sycl::aspect value is an error at the attribute; a kernel that uses double
// precision, half arithmetic or 64-bit atomics without listing aspect::fp64,
// fp16 or atomic64 gets a warning (half only stored or converted does not
// count); on a device function
// that is no kernel (§5.8.2) the attribute is accepted silently.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s --check-prefix=BAD \
// RUN:   --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %onepass -fsycl-sscp -DGOOD -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s --check-prefix=GOOD \
// RUN:   --implicit-check-not=error: --implicit-check-not=warning:

#include <sycl/sycl.hpp>

[[sycl::device_has(sycl::aspect::fp16)]] SYCL_EXTERNAL float helper(float x);

void submit(sycl::queue &q, double *d, int *out, sycl::half *h, long *counter) {
#ifndef GOOD
  // BAD: [[FILE]]:[[@LINE+2]]:45: error: the arguments of 'sycl::device_has' must be sycl::aspect values; 99 is none (SYCL 2020 §5.8.1)
  // BAD: note: in SYCL kernel
  q.parallel_for(8, [=](sycl::item<1> it) [[sycl::device_has(sycl::aspect::gpu, 99)]] { out[it[0]] = 1; });
#endif
  // GOOD: warning: OnePass: kernel 'lambda at [[FILE]]:[[@LINE+1]]:21' ({{.*}}) uses double precision, but its {{\[\[}}sycl::device_has{{\]\]}} does not list aspect::fp64 (SYCL 2020 §5.8.1)
  q.parallel_for(8, [=](sycl::item<1> it) [[sycl::device_has(sycl::aspect::cpu)]] { d[it[0]] = it[0] * 0.5; });
  q.parallel_for(8, [=](sycl::item<1> it) [[sycl::device_has(sycl::aspect::fp64)]] { d[it[0]] = it[0] * 0.5; });
  // GOOD: warning: OnePass: kernel 'lambda at [[FILE]]:[[@LINE+1]]:21' ({{.*}}) uses half precision arithmetic, but its {{\[\[}}sycl::device_has{{\]\]}} does not list aspect::fp16 (SYCL 2020 §5.8.1)
  q.parallel_for(8, [=](sycl::item<1> it) [[sycl::device_has(sycl::aspect::cpu)]] { h[it[0]] = h[it[0]] * h[it[0]]; });
  q.parallel_for(8, [=](sycl::item<1> it) [[sycl::device_has(sycl::aspect::fp16)]] { h[it[0]] = h[it[0]] * h[it[0]]; });
  q.parallel_for(8, [=](sycl::item<1> it) [[sycl::device_has(sycl::aspect::cpu)]] { h[it[0]] = float(it[0]) * 0.5f; });
  // GOOD: warning: OnePass: kernel 'lambda at [[FILE]]:[[@LINE+1]]:21' ({{.*}}) uses 64-bit atomic operations, but its {{\[\[}}sycl::device_has{{\]\]}} does not list aspect::atomic64 (SYCL 2020 §5.8.1)
  q.parallel_for(8, [=](sycl::item<1>) [[sycl::device_has(sycl::aspect::cpu)]] {
    sycl::atomic_ref<long, sycl::memory_order::relaxed, sycl::memory_scope::device> c(*counter);
    c.fetch_add(1);
  });
  q.parallel_for(8, [=](sycl::item<1>) [[sycl::device_has(sycl::aspect::atomic64)]] {
    sycl::atomic_ref<long, sycl::memory_order::relaxed, sycl::memory_scope::device> c(*counter);
    c.fetch_add(1);
  });
}
