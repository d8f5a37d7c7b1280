// Each kernel of a translation unit gets one record in the TU's image: the
// name users see (the kernel name type, or "lambda at file:line:column" for an
// unnamed lambda, SYCL 2020 §5.2), its kind and dimensions (0 for
// single_task), and where the kernel is defined.
// RUN: %onepass -fsycl-sscp -c %s -o %t.o
// RUN: %onepass-kernels %t.o | FileCheck %s -DFILE=%s --match-full-lines

#include <sycl/sycl.hpp>

namespace app {
class Scale;
template <typename T> class Typed;
}  // namespace app
class TopLevel;

// CHECK:      image 0: id {{[0-9a-f]+}}, 7 kernels, bitcode {{[0-9]+}} bytes{{.*}}

// A named function object is its own kernel name; its record's source is
// where the class is declared.
// CHECK-NEXT:   kernel 0: Functor
// CHECK-NEXT:     symbol: __onepass_kernel__ZN4sycl6detail24kernel_entry_single_taskI7FunctorS2_EEvPKT0_
// CHECK-NEXT:     kind: single_task, dimensions: 0
// CHECK-NEXT:     source: [[FILE]]:[[@LINE+1]]:8
struct Functor {
  int *out;
  void operator()() const { out[0] = 7; }
};
// CHECK-NEXT:     object: 8 bytes, align 8
// CHECK-NEXT:     field 0: offset 0, size 8, pointer

int main() {
  sycl::queue q;
  int *p = nullptr;
  q.single_task(Functor{p});

  // CHECK-NEXT:   kernel 1: TopLevel
  // CHECK-NEXT:     symbol: __onepass_kernel__ZN4sycl6detail24kernel_entry_single_taskI8TopLevel{{.*}}
  // CHECK-NEXT:     kind: single_task, dimensions: 0
  // CHECK-NEXT:     source: [[FILE]]:[[@LINE+1]]:27
  q.single_task<TopLevel>([=] { p[0] = 1; });
  // CHECK-NEXT:     object: 8 bytes, align 8
  // CHECK-NEXT:     field 0: offset 0, size 8, pointer

  // CHECK-NEXT:   kernel 2: app::Scale
  // CHECK-NEXT:     symbol: __onepass_kernel__ZN4sycl6detail24kernel_entry_single_taskIN3app5Scale{{.*}}
  // CHECK-NEXT:     kind: single_task, dimensions: 0
  // CHECK-NEXT:     source: [[FILE]]:[[@LINE+1]]:29
  q.single_task<app::Scale>([=] { p[0] = 2; });
  // CHECK-NEXT:     object: 8 bytes, align 8
  // CHECK-NEXT:     field 0: offset 0, size 8, pointer

  // CHECK-NEXT:   kernel 3: app::Typed<float>
  // CHECK-NEXT:     symbol: __onepass_kernel__ZN4sycl6detail25kernel_entry_parallel_forIN3app5TypedIfEE{{.*}}Li3EEEvPKT0_
  // CHECK-NEXT:     kind: parallel_for, dimensions: 3
  // CHECK-NEXT:     source: [[FILE]]:[[@LINE+1]]:62
  q.parallel_for<app::Typed<float>>(sycl::range<3>(1, 2, 3), [=](sycl::item<3> it) {
    p[it.get_linear_id()] = 3;
  });
  // CHECK-NEXT:     object: 8 bytes, align 8
  // CHECK-NEXT:     field 0: offset 0, size 8, pointer

  // An unnamed lambda is named after its location (line and column of '[').
  // CHECK-NEXT:   kernel 4: lambda at [[FILE]]:[[@LINE+4]]:40
  // CHECK-NEXT:     symbol: __onepass_kernel__ZN4sycl6detail25kernel_entry_parallel_for{{.*}}Li2EEEvPKT0_
  // CHECK-NEXT:     kind: parallel_for, dimensions: 2
  // CHECK-NEXT:     source: [[FILE]]:[[@LINE+1]]:40
  q.parallel_for(sycl::range<2>(2, 2), [=](sycl::item<2> it) { p[it[0]] = 5; });
  // CHECK-NEXT:     object: 8 bytes, align 8
  // CHECK-NEXT:     field 0: offset 0, size 8, pointer

  // A plain count is a 1-D range.
  // CHECK-NEXT:   kernel 5: lambda at [[FILE]]:[[@LINE+4]]:22
  // CHECK-NEXT:     symbol: __onepass_kernel__ZN4sycl6detail25kernel_entry_parallel_for{{.*}}Li1EEEvPKT0_
  // CHECK-NEXT:     kind: parallel_for, dimensions: 1
  // CHECK-NEXT:     source: [[FILE]]:[[@LINE+1]]:22
  q.parallel_for(16, [=](sycl::item<1> it) { p[it[0]] = 6; });
  // CHECK-NEXT:     object: 8 bytes, align 8
  // CHECK-NEXT:     field 0: offset 0, size 8, pointer

  // A lambda that captures nothing has an empty kernel object.
  // CHECK-NEXT:   kernel 6: lambda at [[FILE]]:[[@LINE+4]]:17
  // CHECK-NEXT:     symbol: __onepass_kernel__ZN4sycl6detail24kernel_entry_single_task{{.*}}
  // CHECK-NEXT:     kind: single_task, dimensions: 0
  // CHECK-NEXT:     source: [[FILE]]:[[@LINE+1]]:17
  q.single_task([] {});
  // CHECK-NEXT:     object: 1 bytes, align 1

  return 0;
}
// CHECK-NOT: {{.}}
