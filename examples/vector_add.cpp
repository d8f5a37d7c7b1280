// The OnePass walking-skeleton example: vector addition with USM, compiled by
// `onepass++ -fsycl-sscp` and run on the default device (the CPU unless
// ONEPASS_DEVICE says otherwise). Prints the device and a verified result.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

int main() {
  constexpr size_t n = 1 << 20;
  sycl::queue q;
  std::printf("Running on: %s (%s)\n", q.get_device().get_info<sycl::info::device::name>().c_str(),
              q.get_device().is_cpu() ? "CPU device" : "GPU device");

  float *a = sycl::malloc_shared<float>(n, q);
  float *b = sycl::malloc_shared<float>(n, q);
  float *c = sycl::malloc_shared<float>(n, q);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = 2.0f * float(i);
  }

  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { c[i] = a[i] + b[i]; }).wait();

  size_t errors = 0;
  for (size_t i = 0; i < n; ++i)
    if (c[i] != 3.0f * float(i)) ++errors;
  std::printf("vector_add of %zu floats: %s\n", n, errors == 0 ? "PASSED" : "FAILED");

  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(c, q);
  return errors == 0 ? 0 : 1;
}
