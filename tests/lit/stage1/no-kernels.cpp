// A translation unit without kernels compiles with -fsycl-sscp exactly as
// without it: no image section, no registration with the runtime.
// RUN: %onepass -fsycl-sscp -c %s -o %t.o
// RUN: llvm-objdump -h %t.o | FileCheck %s --check-prefix=SECTIONS --implicit-check-not=.onepass
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=SYMBOLS --implicit-check-not=__onepass
// RUN: not %onepass-kernels %t.o 2>&1 | FileCheck %s --check-prefix=TOOL

// SECTIONS: .text
// SYMBOLS-DAG: T main
// SYMBOLS-DAG: T _Z5twicei
// TOOL: onepass-kernels: error: {{.*}}.o: contains no OnePass kernel images

// The SYCL headers and host-side API use alone do not make a kernel.
#include <sycl/sycl.hpp>

int twice(int x) { return 2 * x; }

int main() {
  sycl::queue q;
  int *data = sycl::malloc_shared<int>(4, q);
  q.memset(data, 0, 4 * sizeof(int)).wait();
  sycl::free(data, q);
  return twice(1);
}
