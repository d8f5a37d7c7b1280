// long double (80-bit x87 or 128-bit on the host) has no device representation:
// capturing one, directly or inside a struct, is rejected at the capture
// (where the lambda first uses the variable).
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error:

#include <sycl/sycl.hpp>

struct Precise {
  double coarse;
  long double fine;
};

int main() {
  sycl::queue q;
  double *out = nullptr;
  long double scale = 2.0L;
  Precise precise{1.0, 0.5L};
  // CHECK: [[FILE]]:[[@LINE+1]]:52: error: SYCL kernel captures 'scale' of type 'long double', which cannot be passed to a device: this floating-point type has no device representation
  q.single_task([=] { out[0] = static_cast<double>(scale); });
  // Inside a struct, the error names the captured variable and the member's type.
  // CHECK: [[FILE]]:[[@LINE+1]]:52: error: SYCL kernel captures 'precise' of type 'long double', which cannot be passed to a device: this floating-point type has no device representation
  q.single_task([=] { out[0] = static_cast<double>(precise.fine); });
  return 0;
}
// CHECK: 2 errors generated.
