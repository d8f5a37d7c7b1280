// A virtual call dispatches through a vtable the device does not have: a
// call through a base reference or pointer is rejected at the member name.
// (Calls that need no dispatch are accepted: virtual-call-direct.cpp.) The
// errors of one kernel come in the order the checker walks its call graph.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error: --implicit-check-not=note:

#include <sycl/sycl.hpp>

struct Shape {
  virtual float area() const { return 0.0f; }
  virtual float perimeter() const { return 0.0f; }
};

float describe(const Shape &shape) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:16: error: SYCL kernel code cannot call virtual function 'Shape::area'
  return shape.area();
}

int main() {
  sycl::queue q;
  float *out = nullptr;
  const Shape *shape = nullptr;
  q.single_task([=] {
    out[0] = describe(*shape);
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:21: error: SYCL kernel code cannot call virtual function 'Shape::perimeter'
    out[1] = shape->perimeter();
  });
  // CHECK: [[FILE]]:[[@LINE-5]]:17: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE-5]]:17' defined here
  return 0;
}
// CHECK: 2 errors generated.
