// dynamic_cast needs run-time type information: rejected where it is
// written (static_cast in the same kernel is fine).
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error: --implicit-check-not=note:

#include <sycl/sycl.hpp>

struct Shape {
  virtual ~Shape() = default;
};
struct Circle : Shape {
  float radius = 1.0f;
};

int main() {
  sycl::queue q;
  float *out = nullptr;
  Shape *shape = nullptr;
  // CHECK: [[FILE]]:[[@LINE+3]]:28: error: SYCL kernel code cannot use run-time type information ('dynamic_cast')
  // CHECK: [[FILE]]:[[@LINE+1]]:17: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE+1]]:17' defined here
  q.single_task([=] {
    const Circle *circle = dynamic_cast<const Circle *>(shape);
    const Circle *unchecked = static_cast<const Circle *>(shape);
    out[0] = circle ? circle->radius : unchecked->radius;
  });
  return 0;
}
// CHECK: 1 error generated.
