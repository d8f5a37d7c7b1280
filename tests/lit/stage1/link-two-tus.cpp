// Each translation unit carries its own image; the linker concatenates the
// .onepass.images sections, and the executable holds both images unchanged.
// This file is compiled twice: with FIRST_TU it is the main program.
// RUN: %onepass -fsycl-sscp -DFIRST_TU -c %s -o %t.first.o
// RUN: %onepass -fsycl-sscp -c %s -o %t.second.o
// RUN: %onepass -fsycl-sscp %t.first.o %t.second.o -o %t.out
// RUN: %onepass-kernels %t.first.o > %t.listing
// RUN: %onepass-kernels %t.second.o >> %t.listing
// RUN: %onepass-kernels %t.out >> %t.listing
// RUN: FileCheck %s --match-full-lines < %t.listing

// The two objects, one image each.
// CHECK:      image 0: id [[FIRST_ID:[0-9a-f]+]], 1 kernel, bitcode {{.*}}
// CHECK-NEXT:   kernel 0: FirstKernel
// CHECK:      image 0: id [[SECOND_ID:[0-9a-f]+]], 1 kernel, bitcode {{.*}}
// CHECK-NEXT:   kernel 0: SecondKernel
// The executable, both images in link order.
// CHECK:      image 0: id [[FIRST_ID]], 1 kernel, bitcode {{.*}}
// CHECK-NEXT:   kernel 0: FirstKernel
// CHECK-NEXT:     symbol: __onepass_kernel__ZN4sycl6detail24kernel_entry_single_taskI11FirstKernel{{.*}}
// CHECK-NEXT:     kind: single_task, dimensions: 0
// CHECK-NEXT:     source: {{.*}}link-two-tus.cpp:{{[0-9]+}}:30
// CHECK-NEXT:     object: 8 bytes, align 8
// CHECK-NEXT:     field 0: offset 0, size 8, pointer
// CHECK-NEXT: image 1: id [[SECOND_ID]], 1 kernel, bitcode {{.*}}
// CHECK-NEXT:   kernel 0: SecondKernel
// CHECK-NEXT:     symbol: __onepass_kernel__ZN4sycl6detail25kernel_entry_parallel_forI12SecondKernel{{.*}}
// CHECK-NEXT:     kind: parallel_for, dimensions: 1
// CHECK-NEXT:     source: {{.*}}link-two-tus.cpp:{{[0-9]+}}:51
// CHECK-NEXT:     object: 8 bytes, align 8
// CHECK-NEXT:     field 0: offset 0, size 8, pointer
// CHECK-NOT:  {{.}}

#include <sycl/sycl.hpp>

#ifdef FIRST_TU
class FirstKernel;
void run_second(sycl::queue &q, int *p);

int main() {
  sycl::queue q;
  int *p = nullptr;
  q.single_task<FirstKernel>([=] { p[0] = 1; });
  run_second(q, p);
  return 0;
}
#else
class SecondKernel;

void run_second(sycl::queue &q, int *p) {
  q.parallel_for<SecondKernel>(sycl::range<1>(4), [=](sycl::item<1> it) { p[it[0]] = 2; });
}
#endif
