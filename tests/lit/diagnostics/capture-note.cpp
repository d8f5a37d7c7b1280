// Like every other kernel error, an error in the kernel object (a capture
// by reference, a member of an unsupported type) must be followed by the
// note naming the kernel. It matters most for a function object, where the
// error points at a member declaration far from any launch.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error: --implicit-check-not=note:

#include <sycl/sycl.hpp>

// CHECK: [[FILE]]:[[@LINE+4]]:8: error: SYCL kernel captures 'total' by reference; kernels must capture by value
// CHECK: [[FILE]]:[[@LINE+1]]:8: note: in SYCL kernel 'Accumulate' defined here
struct Accumulate {
  int *out;
  int &total;
  void operator()() const { out[0] = total; }
};

int main() {
  sycl::queue q;
  int *out = nullptr;
  int total = 0;
  q.single_task(Accumulate{out, total});
  q.single_task([&, out] {
    // CHECK: [[FILE]]:[[@LINE+1]]:14: error: SYCL kernel captures 'total' by reference; kernels must capture by value
    out[0] = total;
  });
  // CHECK: [[FILE]]:[[@LINE-4]]:17: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE-4]]:17' defined here
  return 0;
}
// CHECK: 2 errors generated.
