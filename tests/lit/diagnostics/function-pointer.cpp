// A function a kernel reaches through a function pointer is device code
// like any other: a throw in it must be reported (or the indirect call
// itself rejected).
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error: --implicit-check-not=note:

#include <sycl/sycl.hpp>

int checked(int x) {
  if (x < 0)
    // CHECK: [[FILE]]:[[@LINE+1]]:5: error: SYCL kernel code cannot throw exceptions
    throw x;
  return x;
}

int main() {
  sycl::queue q;
  int *out = nullptr;
  int n = 3;
  // CHECK: [[FILE]]:[[@LINE+1]]:17: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE+1]]:17' defined here
  q.single_task([=] {
    int (*operation)(int) = &checked;
    out[0] = operation(n);
  });
  return 0;
}
// CHECK: 1 error generated.
