// Values stage 1 cannot type field by field travel as naturally aligned
// integer chunks of at most 8 bytes: bool and enums, unions, bit-fields (the
// bytes their bits occupy) and arrays of more than 64 scalars. Empty members
// and empty bases take no field; _Float16 and _Complex parts are floats.
// RUN: %onepass -fsycl-sscp -c %s -o %t.o
// RUN: %onepass-kernels %t.o | FileCheck %s --match-full-lines

#include <sycl/sycl.hpp>

enum class Color : short { Red, Green };
union Number {  // 8 bytes
  int i;
  float f;
  char bytes[6];
};
struct Flags {  // a and b share byte 0, c is byte 1
  unsigned a : 3;
  unsigned b : 5;
  unsigned c : 8;
};
struct Empty {};
struct WithEmpty {
  [[no_unique_address]] Empty e;
  int x;
};
struct DerivedFromEmpty : Empty {
  float y;
};
class Opaque;

// CHECK:      image 0: id {{[0-9a-f]+}}, 1 kernel, bitcode {{[0-9]+}} bytes{{.*}}
// CHECK-NEXT:   kernel 0: Opaque
// CHECK-NEXT:     symbol: __onepass_kernel_{{.*}}6Opaque{{.*}}
// CHECK-NEXT:     kind: single_task, dimensions: 0
// CHECK-NEXT:     source: {{.*}}
// CHECK-NEXT:     object: 120 bytes, align 8
// CHECK-NEXT:     field 0: offset 0, size 8, pointer
// flag
// CHECK-NEXT:     field 1: offset 8, size 1, int
// color
// CHECK-NEXT:     field 2: offset 10, size 2, int
// number
// CHECK-NEXT:     field 3: offset 12, size 4, int
// CHECK-NEXT:     field 4: offset 16, size 4, int
// flags
// CHECK-NEXT:     field 5: offset 20, size 1, int
// CHECK-NEXT:     field 6: offset 21, size 1, int
// withEmpty, derivedFromEmpty
// CHECK-NEXT:     field 7: offset 24, size 4, int
// CHECK-NEXT:     field 8: offset 28, size 4, float
// bytes[72]
// CHECK-NEXT:     field 9: offset 32, size 8, int
// CHECK-NEXT:     field 10: offset 40, size 8, int
// CHECK-NEXT:     field 11: offset 48, size 8, int
// CHECK-NEXT:     field 12: offset 56, size 8, int
// CHECK-NEXT:     field 13: offset 64, size 8, int
// CHECK-NEXT:     field 14: offset 72, size 8, int
// CHECK-NEXT:     field 15: offset 80, size 8, int
// CHECK-NEXT:     field 16: offset 88, size 8, int
// CHECK-NEXT:     field 17: offset 96, size 8, int
// half
// CHECK-NEXT:     field 18: offset 104, size 2, float
// complexValue
// CHECK-NEXT:     field 19: offset 108, size 4, float
// CHECK-NEXT:     field 20: offset 112, size 4, float
// CHECK-NOT:  {{.}}

int main() {
  sycl::queue q;
  int *out = nullptr;
  bool flag = true;
  Color color = Color::Green;
  Number number{};
  Flags flags{};
  WithEmpty withEmpty{};
  DerivedFromEmpty derivedFromEmpty{};
  unsigned char bytes[72] = {};
  _Float16 half = 1;
  _Complex float complexValue = 0;
  q.single_task<Opaque>([=] {
    out[0] = flag + int(color) + number.i + flags.c + withEmpty.x + derivedFromEmpty.y + bytes[70] +
             float(half) + __real__ complexValue;
  });
  return 0;
}
