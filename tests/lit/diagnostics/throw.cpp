// SYCL 2020 §5.4: device code cannot throw. The error points at the throw,
// and a note names the kernel it is reached from.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error: --implicit-check-not=note:

#include <sycl/sycl.hpp>

int main() {
  sycl::queue q;
  int *out = nullptr;
  int n = 3;
  // CHECK: [[FILE]]:[[@LINE+4]]:7: error: SYCL kernel code cannot throw exceptions
  // CHECK: [[FILE]]:[[@LINE+1]]:17: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE+1]]:17' defined here
  q.single_task([=] {
    if (n < 0)
      throw n;
    out[0] = n;
  });
  return 0;
}
// CHECK: 1 error generated.
