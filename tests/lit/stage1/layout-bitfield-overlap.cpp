// A bit-field that shares its first byte with an earlier bit-field must
// still have all its bytes passed to the device.
// RUN: %onepass -fsycl-sscp -c %s -o %t.o
// RUN: %onepass-kernels %t.o | FileCheck %s --match-full-lines

#include <sycl/sycl.hpp>

struct Bits {  // 4 bytes; a is bits 0..3, b bits 4..15
  int a : 4;
  int b : 12;
};
class ReadBits;

// CHECK:      kernel 0: ReadBits
// CHECK:          object: 16 bytes, align 8
// CHECK-NEXT:     field 0: offset 0, size 8, pointer
// CHECK-NEXT:     field 1: offset 8, size 2, int
// CHECK-NOT:  {{.}}

int main() {
  sycl::queue q;
  int *out = nullptr;
  Bits bits{1, 1000};
  q.single_task<ReadBits>([=] { out[0] = bits.b; });
  return 0;
}
