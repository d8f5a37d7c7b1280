// GPU reductions whose target is shared USM or a buffer, with an identity and
// few groups, are combined on the host (reduction_kernel.hpp): each group
// stores its value in a cell, and for a buffer the kernel does not access it
// at all (its accessor in the kernel's copy is an empty one). Submitted
// through the fake NVIDIA driver (tests/fake_cuda), which runs no kernel
// code: every submission must succeed (the runtime's check of the kernel's
// captured accessors must agree with the requirement taken back) and the
// kernels are compiled (the cell store is in their PTX).
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env LD_LIBRARY_PATH=%{fake_cuda_dir} ONEPASS_DEVICE=gpu ONEPASS_CACHE=0 ONEPASS_DUMP_DIR=%t.dir %t | FileCheck %s --check-prefix=SUBMIT
// RUN: cat %t.dir/*bufferDot*.ptx | FileCheck %s --check-prefix=PTX
#include <sycl/sycl.hpp>

#include <cstdio>

// SUBMIT: submitted 3 reductions on
// PTX: st.global.b64
// PTX: atom.global.add.f64
class sharedDot;
class bufferDot;
class deviceDot;

int main() {
  sycl::queue q;
  const std::size_t n = 1 << 16;
  double *a = sycl::malloc_device<double>(n, q);
  double *shared = sycl::malloc_shared<double>(1, q);
  double *device = sycl::malloc_device<double>(1, q);
  sycl::buffer<double, 1> result(sycl::range<1>(1));
  const auto identity = sycl::property::reduction::initialize_to_identity();
  q.submit([&](sycl::handler &h) {
    h.parallel_for<sharedDot>(sycl::range<1>(n), sycl::reduction(shared, sycl::plus<double>(), identity),
                              [=](sycl::id<1> i, auto &sum) { sum += a[i] * a[i]; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<bufferDot>(sycl::range<1>(n), sycl::reduction(result, h, sycl::plus<double>(), identity),
                              [=](sycl::id<1> i, auto &sum) { sum += a[i] * a[i]; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<deviceDot>(sycl::range<1>(n), sycl::reduction(device, sycl::plus<double>(), identity),
                              [=](sycl::id<1> i, auto &sum) { sum += a[i] * a[i]; });
  });
  q.wait_and_throw();
  { sycl::host_accessor read(result); }
  std::printf("submitted 3 reductions on %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  sycl::free(a, q);
  sycl::free(shared, q);
  sycl::free(device, q);
}
