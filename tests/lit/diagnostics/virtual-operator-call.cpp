// A virtual call written as an operator (a virtual operator() or operator[]
// called through a base reference) dispatches like any other virtual call
// and must be rejected the same way.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error: --implicit-check-not=note:

#include <sycl/sycl.hpp>

struct Transform {
  virtual float operator()(float x) const { return x; }
};

float apply(const Transform &transform, float x) {
  // CHECK: [[FILE]]:[[@LINE+1]]:10: error: SYCL kernel code cannot call virtual function 'Transform::operator()'
  return transform(x);
}

int main() {
  sycl::queue q;
  float *out = nullptr;
  const Transform *transform = nullptr;
  float x = 2.0f;
  // CHECK: [[FILE]]:[[@LINE+1]]:17: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE+1]]:17' defined here
  q.single_task([=] { out[0] = apply(*transform, x); });
  return 0;
}
// CHECK: 1 error generated.
