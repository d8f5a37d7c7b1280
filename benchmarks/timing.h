// Timing and checking helpers shared by the benchmarks.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <thread>
#include <vector>

namespace bench {

// Wall seconds of one call of `work`.
template <typename Work> double seconds(Work &&work) {
  auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// libgomp's threads spin for milliseconds after a parallel region: an idle
// gap before each timed run keeps them from taking a core from the next one
// (on the GPU machine's 16-core host they took the reduction benchmark from
// 0.95-0.97x to 0.72-0.92x of OpenMP, the tiled matmul from 0.98x to 0.62x).
inline constexpr std::chrono::milliseconds kIdleGap(20);

// Wall seconds of one call of `work`, started after kIdleGap of quiet.
template <typename Work> double secondsAfterIdle(Work &&work) {
  std::this_thread::sleep_for(kIdleGap);
  return seconds(work);
}

// Seconds per launch: one launch and `wait()` to warm up, then the best of
// `rounds` rounds of `launches` launches and one `wait()`.
template <typename Launch, typename Wait> double bestPerLaunch(int rounds, int launches, Launch &&launch, Wait &&wait) {
  launch();
  wait();
  double bestSeconds = 1e30;
  for (int round = 0; round < rounds; ++round) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i) launch();
    wait();
    bestSeconds = std::min(bestSeconds,
                           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / launches);
  }
  return bestSeconds;
}

inline double best(const std::vector<double> &times) { return *std::min_element(times.begin(), times.end()); }

// Whether x and y agree to 1e-3 relative (float sums in different orders).
inline bool same(const float *x, const float *y, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i)
    if (std::fabs(x[i] - y[i]) > 1e-3f * std::max(1.0f, std::fabs(y[i]))) return false;
  return true;
}

}  // namespace bench
