// Run-time type information is not available on devices: typeid is rejected
// where it is written.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error: --implicit-check-not=note:

#include <sycl/sycl.hpp>

#include <typeinfo>

class TypeName;

int main() {
  sycl::queue q;
  const char **out = nullptr;
  int n = 3;
  // CHECK: [[FILE]]:[[@LINE+2]]:42: error: SYCL kernel code cannot use run-time type information ('typeid')
  // CHECK: [[FILE]]:[[@LINE+1]]:27: note: in SYCL kernel 'TypeName' defined here
  q.single_task<TypeName>([=] { out[0] = typeid(n).name(); });
  return 0;
}
// CHECK: 1 error generated.
