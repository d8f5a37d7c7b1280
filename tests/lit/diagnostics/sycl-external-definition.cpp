// A SYCL_EXTERNAL definition is device code (SYCL 2020 §5.10.1), whatever
// calls it: it is checked like a kernel's code, with a note naming it.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s
#include <sycl/sycl.hpp>

namespace lib {
SYCL_EXTERNAL int checked(int x) {
  // CHECK: [[FILE]]:[[@LINE+1]]:14: error: SYCL kernel code cannot throw exceptions
  if (x < 0) throw 1;
  return x;
}
// CHECK: [[FILE]]:[[@LINE-5]]:19: note: in SYCL_EXTERNAL function 'lib::checked' defined here
// CHECK-NOT: error:
}  // namespace lib

int hostOnly(int x) {
  if (x < 0) throw 2;  // host code: not checked
  return x;
}
