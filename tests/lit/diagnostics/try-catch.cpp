// Exception handling is rejected at the 'try', even with nothing to catch.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error: --implicit-check-not=note:

#include <sycl/sycl.hpp>

int main() {
  sycl::queue q;
  int *out = nullptr;
  int n = 3;
  // CHECK: [[FILE]]:[[@LINE+3]]:5: error: SYCL kernel code cannot use exception handling ('try')
  // CHECK: [[FILE]]:[[@LINE+1]]:17: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE+1]]:17' defined here
  q.single_task([=] {
    try {
      out[0] = n;
    } catch (...) {
      out[0] = -1;
    }
  });
  return 0;
}
// CHECK: 1 error generated.
