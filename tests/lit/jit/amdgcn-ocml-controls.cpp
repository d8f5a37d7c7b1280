// AMD GPU kernels with math link AMD's ocml, whose control variables
// (__oclc_*, the ROCm device libraries' oclc_*.bc) follow the kernel's
// flags as a HIP compiler's choice of those files does (issue 18): finite
// only with -ffinite-math-only, unsafe math where every call may be
// approximated (-funsafe-math-optimizations, -ffast-math, sycl::native),
// denormals as zero where floats flush them (-fdenormal-fp-math=preserve-sign).
// REQUIRES: rocm-device-libs
// RUN: %onepass -fsycl-sscp -O2 %s -o %t.plain
// RUN: rm -rf %t.d1 && onepass-jit --target=amdgcn --kernel=plainKernel %t.plain -o %t.d1
// RUN: cat %t.d1/ir/*.unoptimized.ll | FileCheck %s --check-prefix=PLAIN
// RUN: rm -rf %t.d2 && onepass-jit --target=amdgcn --kernel=nativeKernel %t.plain -o %t.d2
// RUN: cat %t.d2/ir/*.unoptimized.ll | FileCheck %s --check-prefix=NATIVE
// RUN: %onepass -fsycl-sscp -O2 -ffast-math -fdenormal-fp-math=preserve-sign %s -o %t.fast
// RUN: rm -rf %t.d3 && onepass-jit --target=amdgcn --kernel=plainKernel %t.fast -o %t.d3
// RUN: cat %t.d3/ir/*.unoptimized.ll | FileCheck %s --check-prefix=FAST
// RUN: %onepass -fsycl-sscp -O2 -ffinite-math-only %s -o %t.finite
// RUN: rm -rf %t.d4 && onepass-jit --target=amdgcn --kernel=plainKernel %t.finite -o %t.d4
// RUN: cat %t.d4/ir/*.unoptimized.ll | FileCheck %s --check-prefix=FINITE
#include <sycl/sycl.hpp>

// PLAIN-DAG: @__oclc_finite_only_opt = {{.*}} i8 0
// PLAIN-DAG: @__oclc_unsafe_math_opt = {{.*}} i8 0
// PLAIN-DAG: @__oclc_daz_opt = {{.*}} i8 0
// NATIVE-DAG: @__oclc_unsafe_math_opt = {{.*}} i8 1
// NATIVE-DAG: @__oclc_daz_opt = {{.*}} i8 0
// FAST-DAG: @__oclc_finite_only_opt = {{.*}} i8 1
// FAST-DAG: @__oclc_unsafe_math_opt = {{.*}} i8 1
// FAST-DAG: @__oclc_daz_opt = {{.*}} i8 1
// FINITE-DAG: @__oclc_finite_only_opt = {{.*}} i8 1
// FINITE-DAG: @__oclc_unsafe_math_opt = {{.*}} i8 0
// FINITE-DAG: @__oclc_daz_opt = {{.*}} i8 0

class plainKernel;
class nativeKernel;

int main() {
  sycl::queue q{sycl::cpu_selector_v};
  float *data = sycl::malloc_shared<float>(64, q);
  for (int i = 0; i < 64; ++i) data[i] = float(i) / 8;
  q.parallel_for<plainKernel>(sycl::range<1>(64), [=](sycl::id<1> i) {
     data[i] = sycl::exp(data[i]) + sycl::sin(data[i]) + sycl::log(data[i] + 1.0f);
   }).wait();
  q.parallel_for<nativeKernel>(sycl::range<1>(64), [=](sycl::id<1> i) {
     data[i] = sycl::native::exp(data[i]) + sycl::native::sin(data[i]);
   }).wait();
  sycl::free(data, q);
  return 0;
}
