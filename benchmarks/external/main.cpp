// external_jit.sh's program: the first launch (JIT included, no persistent
// cache) of a kernel calling three functions, defined in this TU
// (-DONEPASS_ONE_TU) or in three others. Prints the microseconds.
// The callees' loop count is a constant (16) of the kernel, which lets the
// one-TU build inline and unroll the callees at compile time (the other has
// that done by the JIT); with an argument, the count is that run-time value,
// so both builds leave the same work to the JIT and differ by the link only.
#include "callees.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#ifdef ONEPASS_ONE_TU
#include "callee.h"
ONEPASS_EXTERNAL_CALLEE(callee1, 1.0f)
ONEPASS_EXTERNAL_CALLEE(callee2, 2.0f)
ONEPASS_EXTERNAL_CALLEE(callee3, 3.0f)
#endif

// The kernel; `n` is the callees' loop count.
template <typename Count> std::chrono::microseconds firstLaunch(sycl::queue &q, float *out, Count n) {
  const auto start = std::chrono::steady_clock::now();
  q.parallel_for(sycl::range<1>(1024), [=](sycl::id<1> i) {
     const float x = static_cast<float>(i[0]) * 0.001f;
     out[i] = callee1(x, n) + callee2(x, n) * callee3(x, n);
   }).wait();
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
}

int main(int argc, char **argv) {
  sycl::queue q;
  float *out = sycl::malloc_shared<float>(1024, q);
  // A constant of the kernel, or (with an argument) a value it receives.
  const std::chrono::microseconds us = argc > 1 ? firstLaunch(q, out, std::atoi(argv[1]))
                                                : firstLaunch(q, out, std::integral_constant<int, 16>());
  std::printf("%lld\n", static_cast<long long>(us.count()));
  sycl::free(out, q);
  return out == nullptr;
}
