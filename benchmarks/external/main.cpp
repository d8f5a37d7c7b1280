// external_jit.sh's program: the first launch (JIT included, no persistent
// cache) of a kernel calling three functions, defined in this TU
// (-DONEPASS_ONE_TU) or in three others. Prints the microseconds.
#include "callees.h"

#include <chrono>
#include <cstdio>

#ifdef ONEPASS_ONE_TU
#include "callee.h"
ONEPASS_EXTERNAL_CALLEE(callee1, 1.0f)
ONEPASS_EXTERNAL_CALLEE(callee2, 2.0f)
ONEPASS_EXTERNAL_CALLEE(callee3, 3.0f)
#endif

int main() {
  sycl::queue q;
  float *out = sycl::malloc_shared<float>(1024, q);
  const int n = 16;
  const auto start = std::chrono::steady_clock::now();
  q.parallel_for(sycl::range<1>(1024), [=](sycl::id<1> i) {
     const float x = static_cast<float>(i[0]) * 0.001f;
     out[i] = callee1(x, n) + callee2(x, n) * callee3(x, n);
   }).wait();
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
  std::printf("%lld\n", static_cast<long long>(us.count()));
  sycl::free(out, q);
  return out == nullptr;
}
