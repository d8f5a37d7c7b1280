// The SPIR-V target (issue 18): onepass-jit lowers an nd_range kernel with a
// local accessor, a barrier, a sub-group shuffle and a float atomic to a
// module spirv-val accepts, with the entry jit_api.h describes.
// REQUIRES: spirv-tools
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.dir && onepass-jit --target=spirv %t -o %t.dir | FileCheck %s --check-prefix=TOOL
// RUN: spirv-val %t.dir/*.spv
// RUN: spirv-dis %t.dir/*.spv | FileCheck %s
// RUN: not onepass-jit --target=hip %t -o %t.dir 2>&1 | FileCheck %s --check-prefix=BADTARGET
// RUN: not onepass-jit --target=spirv %s -o %t.dir 2>&1 | FileCheck %s --check-prefix=NOTELF
// RUN: not onepass-jit --target=ptx --arch=sm_90a %t -o %t.dir 2>&1 | FileCheck %s --check-prefix=BADARCH
// RUN: not onepass-jit --target=x86 --arch=sm_90 %t -o %t.dir 2>&1 | FileCheck %s --check-prefix=X86ARCH
#include <sycl/sycl.hpp>

// TOOL: ok 0:0 {{.*}} lambda at {{.*}}spirv-entry.cpp:[[#@LINE+26]]
// TOOL: 1 kernels compiled for spirv (median {{.*}}), 0 failed
// BADTARGET: onepass-jit: error: --target is ptx, spirv, amdgcn or x86, not 'hip'
// NOTELF: onepass-jit: error: {{.*}}spirv-entry.cpp: {{.*}}ELF
// BADARCH: onepass-jit: error: --arch for ptx is an NVIDIA architecture such as sm_90, not 'sm_90a'
// X86ARCH: onepass-jit: error: --arch does not go with --target x86

// CHECK: OpCapability Kernel
// CHECK-NOT: OpPtrEqual
// CHECK-NOT: OpIAddCarry
// CHECK: OpEntryPoint Kernel %[[ENTRY:[a-z_0-9]+]] "__onepass_spirv_kernel"
// CHECK: OpExecutionMode %[[ENTRY]] LocalSize 64 1 1
// CHECK: %[[ENTRY]] = OpFunction %void
// Fields (the output pointer, the local accessor's range), then local memory:
// CHECK-NEXT: OpFunctionParameter %ulong
// CHECK: OpFunctionParameter %_ptr_Workgroup_uchar
// CHECK: OpControlBarrier %uint_2 %uint_2 %uint_776
// CHECK: OpGroupNonUniformShuffle %uint %uint_3
// CHECK: OpAtomicCompareExchange
// CHECK: OpFunctionEnd

int main() {
  sycl::queue q;
  float *out = sycl::malloc_shared<float>(256, q);
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<float, 1> tile(sycl::range<1>(64), h);
     h.parallel_for(sycl::nd_range<1>(256, 64), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(64)]] {
       const size_t local = it.get_local_id(0);
       tile[local] = float(it.get_global_id(0));
       sycl::group_barrier(it.get_group());
       float value = sycl::shift_group_left(it.get_sub_group(), tile[63 - local], 1);
       sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device> sum(out[0]);
       sum.fetch_add(value);
       out[it.get_global_id(0)] += value;
     });
   }).wait();
  sycl::free(out, q);
}
