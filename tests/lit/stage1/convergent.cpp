// Device code is convergent until shown otherwise (DeviceModuleBuilder.cpp,
// assumeConvergent): stage 1's simplification must not copy a call that
// reaches a barrier into both arms of a condition that differs between
// work-items. Here the value exchanged depends on `at < n`, and so does the
// store after it; jump threading used to thread the exchange (and, once
// inlined, its barrier) into both arms, which an OpenCL compiler for CPUs
// (PoCL) takes as uniform control flow and miscompiles. A function that
// reaches no barrier loses the attribute again (seen on the SYCL_EXTERNAL
// definitions, which stay in the image).
// RUN: %onepass -fsycl-sscp -O2 -c %s -o %t.o
// RUN: %onepass-kernels --dump-bitcode Exchange -o %t.bc %t.o
// RUN: llvm-dis %t.bc -o - | FileCheck %s
// RUN: llvm-dis %t.bc -o - | FileCheck %s --check-prefix=ATTRS

// One barrier in the kernel, reached on every path.
// CHECK:     define void @{{"?}}__onepass_kernel_{{.*}}Exchange
// CHECK:     call void @__onepass_group_barrier()
// CHECK-NOT: call void @__onepass_group_barrier()
// CHECK:     ret void

// ATTRS-DAG: define {{.*}}i32 @_Z8exchangeRKN4sycl7nd_itemILi1EEEPii({{.*}}) {{.*}}#[[EXCHANGE:[0-9]+]]
// ATTRS-DAG: define {{.*}}i32 @_Z5twicei(i32 {{.*}}) {{.*}}#[[TWICE:[0-9]+]]
// ATTRS-DAG: attributes #[[EXCHANGE]] = { convergent
// ATTRS-DAG: attributes #[[TWICE]] = { {{(mustprogress )?}}nofree

#include <sycl/sycl.hpp>

SYCL_EXTERNAL int exchange(const sycl::nd_item<1> &it, int *scratch, int value) {
  const std::size_t local = it.get_local_id(0);
  scratch[local] = value;
  sycl::group_barrier(it.get_group());
  return scratch[(local + 1) % it.get_local_range(0)];
}

SYCL_EXTERNAL int twice(int value) { return 2 * value; }

class Exchange;
class Plain;

int main() {
  sycl::queue q;
  const std::size_t n = 100;
  int *in = sycl::malloc_shared<int>(n, q), *out = sycl::malloc_shared<int>(n, q);
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> scratch(64, h);
    h.parallel_for<Exchange>(sycl::nd_range<1>(128, 64), [=](sycl::nd_item<1> it) {
      const std::size_t at = it.get_global_id(0);
      const int x = at < n ? in[at] : 0;
      const int y = exchange(it, &scratch[0], x);
      if (at < n) out[at] = y;
    });
  });
  q.parallel_for<Plain>(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = twice(in[i]); });
  q.wait();
  sycl::free(in, q);
  sycl::free(out, q);
}
