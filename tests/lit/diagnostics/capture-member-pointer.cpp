// A pointer to member has no device representation: capturing one is
// rejected at the capture, naming the variable and its type.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error:

#include <sycl/sycl.hpp>

struct Point {
  int x, y;
};

int main() {
  sycl::queue q;
  Point *points = nullptr;
  int Point::*coordinate = &Point::y;
  q.single_task([=] {
    // CHECK: [[FILE]]:[[@LINE+1]]:16: error: SYCL kernel captures 'coordinate' of type 'int Point::*', which cannot be passed to a device: member pointers are not supported in kernels
    points[0].*coordinate = 1;
  });
  return 0;
}
// CHECK: 1 error generated.
