// Compiled with -ffast-math -fdenormal-fp-math=preserve-sign: the JIT must
// carry both into the PTX (approximate instructions, flushed denormals).
#include <sycl/sycl.hpp>

void launchFast(sycl::queue &q, float *out, const float *in, float factor) {
  q.parallel_for<class fast_math>(
      sycl::range<1>(1), [out, in, factor](sycl::id<1> i) { out[i] = sycl::sin(in[i]) / in[i] + in[i] * factor; });
}
