// Kernels cannot free memory dynamically either: a delete-expression is
// rejected where it is written.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error: --implicit-check-not=note:

#include <sycl/sycl.hpp>

int main() {
  sycl::queue q;
  int **slots = nullptr;
  q.single_task([=] {
    // CHECK: [[FILE]]:[[@LINE+1]]:5: error: SYCL kernel code cannot allocate memory dynamically ('delete')
    delete slots[0];
    slots[0] = nullptr;
  });
  // CHECK: [[FILE]]:[[@LINE-5]]:17: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE-5]]:17' defined here
  return 0;
}
// CHECK: 1 error generated.
