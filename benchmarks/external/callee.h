// One callee of external_jit.sh's kernel: some arithmetic and a loop, so
// that compiling it costs what a real helper function does.
#define ONEPASS_EXTERNAL_CALLEE(name, k)                                                                               \
  SYCL_EXTERNAL float name(float x, int n) {                                                                           \
    float sum = 0.0f;                                                                                                  \
    for (int i = 0; i < n; ++i) {                                                                                      \
      const float v = x + static_cast<float>(i) * (0.25f + k);                                                         \
      sum += v > 1.0f ? sycl::sqrt(v) : v * v * (3.0f - 2.0f * v);                                                    \
      if (sum > 1e6f) sum = sycl::fmod(sum, 1000.0f);                                                                  \
    }                                                                                                                  \
    return sum;                                                                                                        \
  }
