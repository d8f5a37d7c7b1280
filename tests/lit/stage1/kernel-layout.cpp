// Stage 1 flattens each kernel object into scalar fields (offset, size,
// kind) that become the device kernel's parameters: pointers, integers and
// floating-point values at the offsets the host compiler laid the object out
// with, through padding, arrays, nested structs and base classes.
// RUN: %onepass -fsycl-sscp -c %s -o %t.o
// RUN: %onepass-kernels %t.o | FileCheck %s --match-full-lines
// The device kernel takes the fields as its parameters, in the same order.
// RUN: %onepass-kernels --dump-bitcode Captures -o %t.bc %t.o
// RUN: llvm-dis %t.bc -o - | FileCheck %s --check-prefix=IR

#include <sycl/sycl.hpp>

struct Padded {  // 24 bytes: 7 bytes of padding after `tag`, 6 after `count`
  char tag;
  double value;
  short count;
};
struct Inner {  // 8 bytes
  short s;
  float f;
};
struct Outer {  // 32 bytes
  char c;
  Inner inner;  // at 4
  double d[2];  // at 16
};

// A named function object: its members, its base class's first.
struct KernelBase {
  const int *in;
};
struct Functor : KernelBase {
  long long *out;
  char c;
  float weights[2];  // at 20
  void operator()() const { out[0] = in[0] + c + weights[1]; }
};

class Captures;
class FloatsOnly;

// CHECK:      image 0: id {{[0-9a-f]+}}, 3 kernels, bitcode {{[0-9]+}} bytes{{.*}}
// CHECK-NEXT:   kernel 0: Captures
// CHECK-NEXT:     symbol: __onepass_kernel_{{.*}}8Captures{{.*}}
// CHECK-NEXT:     kind: single_task, dimensions: 0
// CHECK-NEXT:     source: {{.*}}
// CHECK-NEXT:     object: 104 bytes, align 8
// The lambda's captures, in the order the body first uses them.
// CHECK-NEXT:     field 0: offset 0, size 8, pointer
// CHECK-NEXT:     field 1: offset 8, size 4, int
// CHECK-NEXT:     field 2: offset 12, size 4, float
// CHECK-NEXT:     field 3: offset 16, size 8, float
// pad (Padded) at 24; its padding bytes are not fields.
// CHECK-NEXT:     field 4: offset 24, size 1, int
// CHECK-NEXT:     field 5: offset 32, size 8, float
// CHECK-NEXT:     field 6: offset 40, size 2, int
// arr (int[3]) at 48, one field per element.
// CHECK-NEXT:     field 7: offset 48, size 4, int
// CHECK-NEXT:     field 8: offset 52, size 4, int
// CHECK-NEXT:     field 9: offset 56, size 4, int
// outer (Outer) at 64, its nested Inner flattened in place.
// CHECK-NEXT:     field 10: offset 64, size 1, int
// CHECK-NEXT:     field 11: offset 68, size 2, int
// CHECK-NEXT:     field 12: offset 72, size 4, float
// CHECK-NEXT:     field 13: offset 80, size 8, float
// CHECK-NEXT:     field 14: offset 88, size 8, float
// results
// CHECK-NEXT:     field 15: offset 96, size 8, pointer

// CHECK-NEXT:   kernel 1: FloatsOnly
// CHECK-NEXT:     symbol: __onepass_kernel_{{.*}}
// CHECK-NEXT:     kind: parallel_for, dimensions: 1
// CHECK-NEXT:     source: {{.*}}
// CHECK-NEXT:     object: 24 bytes, align 8
// results, d, f: the body uses `results` first.
// CHECK-NEXT:     field 0: offset 0, size 8, pointer
// CHECK-NEXT:     field 1: offset 8, size 8, float
// CHECK-NEXT:     field 2: offset 16, size 4, float

// CHECK-NEXT:   kernel 2: Functor
// CHECK-NEXT:     symbol: __onepass_kernel_{{.*}}
// CHECK-NEXT:     kind: single_task, dimensions: 0
// CHECK-NEXT:     source: {{.*}}
// CHECK-NEXT:     object: 32 bytes, align 8
// in (from KernelBase), out, c, weights[0..1]
// CHECK-NEXT:     field 0: offset 0, size 8, pointer
// CHECK-NEXT:     field 1: offset 8, size 8, pointer
// CHECK-NEXT:     field 2: offset 16, size 1, int
// CHECK-NEXT:     field 3: offset 20, size 4, float
// CHECK-NEXT:     field 4: offset 24, size 4, float
// CHECK-NOT:  {{.}}

// IR:      define void @"__onepass_kernel_{{[^"]*}}8Captures{{[^"]*}}"(ptr {{[^%]*}}%0, i32 %1, float %2, double %3, i8 %4, double %5,
// IR-SAME:   i16 %6, i32 %7, i32 %8, i32 %9, i8 %10, i16 %11, float %12, double %13, double %14, ptr {{[^%]*}}%15)

int main() {
  sycl::queue q;
  float *out = nullptr;
  double *results = nullptr;
  int n = 3;
  float f = 1.5f;
  double d = 2.25;
  Padded pad{'a', 0.5, 7};
  int arr[3] = {1, 2, 3};
  Outer outer{};
  q.single_task<Captures>([=] {
    out[0] = n + f + d + pad.tag + pad.value + pad.count + arr[0] + arr[1] + arr[2] + outer.c +
             outer.inner.s + outer.inner.f + outer.d[1];
    results[0] = out[0];
  });
  q.parallel_for<FloatsOnly>(sycl::range<1>(4), [=](sycl::item<1> it) { results[it[0]] = d * f; });
  q.single_task(Functor{{&n}, nullptr, 'c', {1.0f, 2.0f}});
  return 0;
}
