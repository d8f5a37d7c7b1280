// SPIR-V: integers of 65 to 128 bits become pairs of 64-bit halves
// (jit/targets/spirv/WideIntegers.h): a 64x64->128-bit product's high half
// is four 32-bit partial products, and an __int128 is loaded as two i64.
// Division of such integers is not split: an error naming the kernel.
// tests/sycl/wide_integers.cpp checks the results on a device.
// REQUIRES: spirv-tools
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.dir %t.div && onepass-jit --target=spirv --kernel=MulHigh %t -o %t.dir
// RUN: spirv-val %t.dir/*.spv
// RUN: FileCheck %s < %t.dir/ir/$(ls %t.dir/ir | grep '\.spirv\.ll$')
// RUN: not onepass-jit --target=spirv --kernel=Divide %t -o %t.div | FileCheck %s --check-prefix=DIVIDE
#include <sycl/sycl.hpp>

// CHECK-LABEL: define spir_kernel void @__onepass_spirv_kernel
// CHECK-NOT: i128
// CHECK: load i64
// CHECK: load i64
// CHECK: lshr i64 %{{.*}}, 32
// CHECK-COUNT-4: mul i64
// CHECK-NOT: i128
// CHECK: ret void

// DIVIDE: FAILED 0:2 Divide
// DIVIDE-NEXT: kernel 'Divide' divides i128 values, which SPIR-V devices cannot do

int main() {
  sycl::queue q;
  unsigned long *a = sycl::malloc_shared<unsigned long>(65, q);
  __int128 *w = sycl::malloc_shared<__int128>(65, q);
  q.parallel_for<class MulHigh>(sycl::range<1>(64), [=](sycl::id<1> i) {
    a[i] = (unsigned long)(((unsigned __int128)a[i] * a[i + 1]) >> 64);
  }).wait();
  q.parallel_for<class Store128>(sycl::range<1>(64), [=](sycl::id<1> i) { w[i] = w[i + 1] + 1; }).wait();
  q.parallel_for<class Divide>(sycl::range<1>(64), [=](sycl::id<1> i) { w[i] = w[i] / w[i + 1]; }).wait();
  return 0;
}
