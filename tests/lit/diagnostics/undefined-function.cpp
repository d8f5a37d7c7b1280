// A kernel can only call functions whose definition stage 1 sees: one that
// is declared but not defined in this translation unit (and not declared
// SYCL_EXTERNAL, see sycl-external.cpp) is rejected at the call, in the
// kernel and in the functions it calls, constructors included.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error: --implicit-check-not=note:

#include <sycl/sycl.hpp>

float elsewhere(float x);  // defined in another file
struct Accumulator {
  Accumulator();  // defined in another file
  float total = 0.0f;
};

float helper(float x) {
  // CHECK-DAG: [[FILE]]:[[@LINE+1]]:10: error: SYCL kernel code calls 'elsewhere', which is not defined in this translation unit and is not declared SYCL_EXTERNAL
  return elsewhere(x) + 1.0f;
}

int main() {
  sycl::queue q;
  float *out = nullptr;
  float x = 2.0f;
  q.single_task([=] {
    // CHECK-DAG: [[FILE]]:[[@LINE+1]]:17: error: SYCL kernel code calls 'Accumulator::Accumulator', which is not defined in this translation unit and is not declared SYCL_EXTERNAL
    Accumulator accumulator;
    out[0] = helper(x) + accumulator.total;
  });
  // CHECK: [[FILE]]:[[@LINE-5]]:17: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE-5]]:17' defined here
  return 0;
}
// CHECK: 2 errors generated.
