// A specialization constant is compiled into the kernel (SYCL 2020 §4.9.5;
// the JIT folds the command group's values): the PTX multiplies by the
// value as an immediate, and a branch on a constant flag leaves only the
// path taken. Compiled through the fake NVIDIA driver (tests/fake_cuda),
// which runs no kernel code: only the PTX is checked.
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env LD_LIBRARY_PATH=%{fake_cuda_dir} ONEPASS_DEVICE=gpu ONEPASS_CACHE=0 ONEPASS_DUMP_DIR=%t.dir %t | FileCheck %s --check-prefix=LAUNCH
// RUN: cat %t.dir/*specScale*.ptx | FileCheck %s --check-prefix=PTX
#include <sycl/sycl.hpp>

#include <cstdio>

// LAUNCH: launched
// PTX: .entry
// PTX: {{mul.lo.s32|mul.wide.s32|mad.lo.s32}} {{.*}}7919
// PTX-NOT: sin.approx
// PTX-NOT: __nv_sinf
// PTX: ret;
class specScale;

constexpr sycl::specialization_id<int> factor(1);
constexpr sycl::specialization_id<bool> useSine(true);

int main() {
  sycl::queue q;
  const std::size_t n = 1024;
  int *v = sycl::malloc_device<int>(n, q);
  float *f = sycl::malloc_device<float>(n, q);
  q.submit([&](sycl::handler &h) {
    h.set_specialization_constant<factor>(7919);
    h.set_specialization_constant<useSine>(false);
    h.parallel_for<specScale>(sycl::range<1>(n), [=](sycl::id<1> i, sycl::kernel_handler kh) {
      v[i] = v[i] * kh.get_specialization_constant<factor>();
      if (kh.get_specialization_constant<useSine>()) f[i] = sycl::sin(f[i]);
      else f[i] = f[i] + 1.0f;
    });
  });
  q.wait();
  std::printf("launched\n");
  sycl::free(v, q);
  sycl::free(f, q);
}
