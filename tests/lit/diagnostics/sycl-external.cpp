// SYCL 2020 §5.10.1: a function declared SYCL_EXTERNAL may be defined in
// another translation unit; a kernel may call it. The call stays a
// declaration in the image, for the device link to resolve.
// RUN: %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s --allow-empty \
// RUN:   --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %onepass-kernels --dump-bitcode 0:0 -o %t.bc %t.o
// RUN: llvm-dis %t.bc -o - | FileCheck %s --check-prefix=IR
// IR: declare noundef float @_Z9elsewheref(float noundef)

#include <sycl/sycl.hpp>

SYCL_EXTERNAL float elsewhere(float x);  // defined in another file

int main() {
  sycl::queue q;
  float *out = nullptr;
  float x = 2.0f;
  q.single_task([=] { out[0] = elsewhere(x); });
  return 0;
}
