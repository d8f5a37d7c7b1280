// Kernels cannot allocate memory dynamically: a new-expression is rejected
// where it is written. Placement new into existing storage allocates
// nothing and is accepted.
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error: --implicit-check-not=note:

#include <sycl/sycl.hpp>

#include <new>

struct Pair {
  int first, second;
};

int main() {
  sycl::queue q;
  int *out = nullptr;
  int n = 3;
  q.single_task([=] {
    alignas(Pair) unsigned char storage[sizeof(Pair)];
    Pair *inPlace = new (storage) Pair{n, n};
    // CHECK: [[FILE]]:[[@LINE+1]]:18: error: SYCL kernel code cannot allocate memory dynamically ('new')
    int *array = new int[4];
    out[0] = inPlace->first + array[0];
  });
  // CHECK: [[FILE]]:[[@LINE-7]]:17: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE-7]]:17' defined here
  return 0;
}
// CHECK: 1 error generated.
