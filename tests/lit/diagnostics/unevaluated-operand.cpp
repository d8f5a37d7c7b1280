// Operands of sizeof, decltype and noexcept are never evaluated: a function
// named only there is not called (nor odr-used) and needs no definition.
// RUN: %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s --allow-empty \
// RUN:   --implicit-check-not=error: --implicit-check-not=warning:

#include <sycl/sycl.hpp>

double elsewhere(int x);  // defined in another file, never called here

int main() {
  sycl::queue q;
  int *out = nullptr;
  int n = 3;
  q.single_task([=] {
    decltype(elsewhere(n)) scale = 2.0;
    out[0] = int(sizeof(elsewhere(n)) * scale) + noexcept(elsewhere(n));
  });
  return 0;
}
