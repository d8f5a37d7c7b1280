// A kernel runs where the host's stack is not: a capture by reference is
// rejected at the capture, implicit ([&]: where the variable is first used)
// or explicit ([&name]: at the name).
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error:
// (The note naming the kernel is checked in capture-note.cpp.)

#include <sycl/sycl.hpp>

int main() {
  sycl::queue q;
  int *out = nullptr;
  int count = 3;
  int limit = 4;
  q.single_task([&, out] {
    // CHECK: [[FILE]]:[[@LINE+1]]:14: error: SYCL kernel captures 'count' by reference; kernels must capture by value
    out[0] = count;
  });
  // CHECK: [[FILE]]:[[@LINE+1]]:24: error: SYCL kernel captures 'limit' by reference; kernels must capture by value
  q.single_task([out, &limit] { out[0] = limit; });
  return 0;
}
// CHECK: 2 errors generated.
