// The kernel function in the image carries the translation unit's
// floating-point environment (-ffast-math, -fdenormal-fp-math), which the JIT
// puts on the device entry it builds; without the flags, none of it.
// RUN: %onepass -fsycl-sscp -O2 -ffast-math -fdenormal-fp-math=preserve-sign -c %s -o %t.fast.o
// RUN: %onepass-kernels --dump-bitcode Scale -o %t.fast.bc %t.fast.o
// RUN: llvm-dis %t.fast.bc -o - | FileCheck %s --check-prefix=FAST
// RUN: %onepass -fsycl-sscp -O2 -c %s -o %t.precise.o
// RUN: %onepass-kernels --dump-bitcode Scale -o %t.precise.bc %t.precise.o
// RUN: llvm-dis %t.precise.bc -o - | FileCheck %s --check-prefix=PRECISE
#include <sycl/sycl.hpp>

class Scale;

// FAST:      define void @{{"?}}__onepass_kernel_{{[^(]*}}Scale{{[^(]*}}(ptr {{[^%]*}}%0, float %1) {{.*}}#[[KERNEL:[0-9]+]]
// FAST:      attributes #[[KERNEL]] = { {{[^"]*}}nounwind {{[^"]*}}
// FAST-SAME: "denormal-fp-math"="preserve-sign,preserve-sign"
// FAST-SAME: "no-infs-fp-math"="true" "no-nans-fp-math"="true" "no-signed-zeros-fp-math"="true"
// PRECISE:   define void @{{"?}}__onepass_kernel_{{[^(]*}}Scale{{[^(]*}}(ptr {{[^%]*}}%0, float %1) {{.*}}#[[KERNEL:[0-9]+]]
// PRECISE:   attributes #[[KERNEL]] = { {{[^"]*}}nounwind {{[^"]*}}"no-trapping-math"="true" }

int main() {
  sycl::queue q;
  float *data = nullptr;
  float factor = 2.0f;
  q.parallel_for<Scale>(sycl::range<1>(4), [=](sycl::id<1> i) { data[i] = data[i] / factor; });
}
