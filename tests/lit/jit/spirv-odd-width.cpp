// SPIR-V: a 3-byte store (a marray<bool, 3>, which SROA turns into an i24)
// writes 3 bytes: LLVM's backend widens an i24 to 32 bits, so the store went
// byte by byte (SpirvTranslator's splitOddWidthAccesses). The 4-byte store
// wrote over the next element, another work-item's (found on PoCL with
// AVX-512, where work-groups ran on different threads).
// REQUIRES: spirv-tools
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.dir && onepass-jit --target=spirv %t -o %t.dir
// RUN: spirv-val %t.dir/*.spv
// RUN: FileCheck %s --check-prefix=IR < %t.dir/ir/$(ls %t.dir/ir | grep '\.spirv\.ll$' | grep -v unoptimized)
// RUN: spirv-dis %t.dir/*.spv | FileCheck %s
#include <sycl/sycl.hpp>

// IR-NOT: store i24
// IR: store i8
// IR: store i8
// IR: store i8
// IR-NOT: store i24
// Every store to global memory (CrossWorkgroup) is of a byte here.
// CHECK-DAG: %[[UCHAR:[a-z_0-9]+]] = OpTypeInt 8 0
// CHECK-NOT: OpTypeInt 32
// CHECK: OpFunctionEnd

int main() {
  sycl::queue q;
  sycl::mbool3 *signs = sycl::malloc_shared<sycl::mbool3>(64, q);
  const float *in = sycl::malloc_shared<float>(3 * 64, q);
  q.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) {
    const float *x = in + 3 * i[0];
    signs[i] = sycl::mfloat3(x[0], x[1], x[2]) > 0.0f;
  }).wait();
  return 0;
}
