// ext::oneapi::experimental::printf in a PTX kernel is CUDA's vprintf, its
// arguments packed in one buffer at their natural alignment (a float is
// passed as a double). Compiled through the fake NVIDIA driver
// (tests/fake_cuda), which runs no kernel code: only the PTX is checked.
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env LD_LIBRARY_PATH=%{fake_cuda_dir} ONEPASS_DEVICE=gpu ONEPASS_CACHE=0 ONEPASS_DUMP_DIR=%t.dir %t | FileCheck %s --check-prefix=LAUNCH
// RUN: cat %t.dir/*printKernel*.ptx | FileCheck %s --check-prefix=PTX
#include <sycl/sycl.hpp>

#include <cstdio>

// LAUNCH: launched
// PTX: .extern .func (.param .b32 func_retval0) vprintf
// PTX: st.local.{{(v2.)?}}{{u32|b32}}
// PTX: st.local.{{f64|b64}}
// PTX: call{{(.uni)?}} (retval0), vprintf,
class printKernel;

int main() {
  sycl::queue q;
  q.parallel_for<printKernel>(sycl::range<1>(4), [=](sycl::id<1> i) {
    sycl::ext::oneapi::experimental::printf("work-item %d: %f\n", static_cast<int>(i[0]), 0.5f * i[0]);
  });
  q.wait();
  std::printf("launched\n");
}
