// Compile-time benchmark input (compile_time.sh): a small SYCL program, one
// vector-add kernel over USM. It measures the fixed cost OnePass adds to a
// compile (plugin load, one device module, the embedded image).
#include <sycl/sycl.hpp>

#include <cstdio>

int main() {
  constexpr size_t n = 1 << 20;
  sycl::queue q;

  float *x = sycl::malloc_shared<float>(n, q);
  float *y = sycl::malloc_shared<float>(n, q);
  float *sum = sycl::malloc_shared<float>(n, q);
  for (size_t i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = 0.5f * float(i);
  }

  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { sum[i] = x[i] + y[i]; }).wait();

  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    if (sum[i] != 1.5f * float(i)) ++wrong;
  std::printf("%s\n", wrong == 0 ? "PASSED" : "FAILED");

  sycl::free(x, q);
  sycl::free(y, q);
  sycl::free(sum, q);
  return wrong == 0 ? 0 : 1;
}
