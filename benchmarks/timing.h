// Timing and checking helpers shared by the matmul benchmarks (CPU and GPU).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <vector>

namespace bench {

// Wall seconds of one call of `work`.
template <typename Work> double seconds(Work &&work) {
  auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

inline double best(const std::vector<double> &times) { return *std::min_element(times.begin(), times.end()); }

// Whether x and y agree to 1e-3 relative (float sums in different orders).
inline bool same(const float *x, const float *y, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i)
    if (std::fabs(x[i] - y[i]) > 1e-3f * std::max(1.0f, std::fabs(y[i]))) return false;
  return true;
}

}  // namespace bench
