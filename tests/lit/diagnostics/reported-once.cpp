// An error in a function several kernels reach is reported once, with the
// note naming the first kernel that reaches it; the second kernel's walk
// does not repeat it.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error:

#include <sycl/sycl.hpp>

int elsewhere(int x);  // defined in another file

int validate(int x) {
  if (x < 0)
    // CHECK: [[FILE]]:[[@LINE+1]]:5: error: SYCL kernel code cannot throw exceptions
    throw x;
  // CHECK: [[FILE]]:[[@LINE+1]]:10: error: SYCL kernel code calls 'elsewhere', which is not defined in this translation unit and is not declared SYCL_EXTERNAL
  return elsewhere(x);
}

class First;
class Second;

int main() {
  sycl::queue q;
  int *out = nullptr;
  int n = 3;
  // CHECK: [[FILE]]:[[@LINE+1]]:24: note: in SYCL kernel 'First' defined here
  q.single_task<First>([=] { out[0] = validate(n) + validate(n + 1); });
  q.single_task<Second>([=] { out[1] = validate(n); });
  return 0;
}
// CHECK: 2 errors generated.
