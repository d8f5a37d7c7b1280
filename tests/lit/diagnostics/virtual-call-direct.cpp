// Calls of virtual functions that need no dispatch are direct calls and
// compile: a qualified call (Base::f()), a method marked final, and any
// method of a final class.
// RUN: %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s --allow-empty \
// RUN:   --implicit-check-not=error: --implicit-check-not=warning:
// The device code calls each function directly and needs no vtable: stage 1
// inlines the three calls (Shape::area is 0, Square::area side * side,
// Circle::scale 3).
// RUN: %onepass-kernels --dump-bitcode 0:0 -o %t.bc %t.o
// RUN: llvm-dis %t.bc -o - | FileCheck %s --check-prefix=IR --implicit-check-not=_ZTV
// IR:      store float 0.000000e+00, ptr %0
// IR:      [[SIDE:%[0-9]+]] = load float
// IR-NEXT: [[AREA:%[0-9]+]] = fmul float [[SIDE]], [[SIDE]]
// IR:      store float [[AREA]]
// IR:      store float 3.000000e+00

#include <sycl/sycl.hpp>

struct Shape {
  virtual float area() const { return 0.0f; }
  virtual float scale() const { return 1.0f; }
};
struct Square : Shape {
  float side = 2.0f;
  float area() const final { return side * side; }
  float scale() const override { return 2.0f; }
};
struct Circle final : Shape {
  float radius = 1.0f;
  float area() const override { return 3.0f * radius * radius; }
  float scale() const override { return 3.0f; }
};

int main() {
  sycl::queue q;
  float *out = nullptr;
  const Square *square = nullptr;
  const Circle *circle = nullptr;
  q.single_task([=] {
    out[0] = square->Shape::area();  // qualified: no dispatch
    out[1] = square->area();         // final method
    out[2] = circle->scale();        // method of a final class
  });
  return 0;
}
