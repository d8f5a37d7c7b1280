// A vec in device code is the target's vector registers (SYCL 2020 §4.14.2;
// issue: a float4 load or store is one 128-bit access on NVIDIA GPUs), and
// sycl::half arithmetic is half instructions there. The kernels are compiled
// to PTX through the fake NVIDIA driver (tests/fake_cuda), which runs no
// kernel code: only the PTX the JIT made is checked.
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env LD_LIBRARY_PATH=%{fake_cuda_dir} ONEPASS_DEVICE=gpu ONEPASS_CACHE=0 ONEPASS_DUMP_DIR=%t.dir %t | FileCheck %s --check-prefix=LAUNCH
// RUN: cat %t.dir/*float4Scale*.ptx | FileCheck %s --check-prefix=FLOAT4
// RUN: cat %t.dir/*halfAxpy*.ptx | FileCheck %s --check-prefix=HALF
#include <sycl/sycl.hpp>

#include <cstdio>

// LAUNCH: launched on
// FLOAT4: ld.global.v4.{{f32|b32}}
// FLOAT4: st.global.v4.{{f32|b32}}
// HALF: {{(mul|fma)}}.rn.f16
class float4Scale;
class halfAxpy;

int main() {
  sycl::queue q;
  const std::size_t n = 1024;
  sycl::float4 *v = sycl::malloc_device<sycl::float4>(n, q);
  sycl::half *x = sycl::malloc_device<sycl::half>(n, q);
  sycl::half *y = sycl::malloc_device<sycl::half>(n, q);
  q.parallel_for<float4Scale>(sycl::range<1>(n), [=](sycl::id<1> i) { v[i] = v[i].swizzle<3, 2, 1, 0>() * 2.0f + v[i]; });
  q.parallel_for<halfAxpy>(sycl::range<1>(n), [=](sycl::id<1> i) { y[i] = sycl::half(3) * x[i] + y[i]; });
  q.wait();
  std::printf("launched on %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  sycl::free(v, q);
  sycl::free(x, q);
  sycl::free(y, q);
}
