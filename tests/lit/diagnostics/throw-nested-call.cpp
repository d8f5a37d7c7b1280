// A throw is found however deep in the kernel's call graph it is: here two
// calls away from the kernel, in a function shared with host code. The note
// names the kernel, by its name type.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error: --implicit-check-not=note:

#include <sycl/sycl.hpp>

int checked(int x) {
  if (x < 0)
    // CHECK: [[FILE]]:[[@LINE+1]]:5: error: SYCL kernel code cannot throw exceptions
    throw x;
  return x;
}

int twice_checked(int x) { return 2 * checked(x); }

class Compute;

int main() {
  sycl::queue q;
  int *out = nullptr;
  int n = 3;
  // CHECK: [[FILE]]:[[@LINE+1]]:26: note: in SYCL kernel 'Compute' defined here
  q.single_task<Compute>([=] { out[0] = twice_checked(n); });
  return checked(1) - 1;
}
// CHECK: 1 error generated.
