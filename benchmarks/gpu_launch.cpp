// Launch overhead on an NVIDIA GPU: OnePass against raw cuLaunchKernel, in one
// process, rounds alternating (issue 5's figures).
//   steady state: 10,000 back-to-back launches of an empty kernel on an
//     in-order queue, then one wait, per launch (target <= 1.15x raw);
//   submit+wait: one empty kernel and a wait for it (target <= 1 us more).
// The feeder thread (ONEPASS_GPU_FEEDER) makes the driver calls of OnePass's
// back-to-back launches; "until the last launch returned" shows the
// submitting thread's own pace.
// Exits 0 with a message when there is no CUDA device.
// `gpu_launch onepass-only`: the OnePass steady state alone, no CUDA runtime
// (with the fake driver of tests/fake-cuda: the runtime's own cost per launch).
#include "gpu_launch_cuda.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {
double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}
double seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

namespace {
// OnePass's steady state, back-to-back launches of an empty kernel.
double oursBackToBack(sycl::queue &q, int launches, double *submitted = nullptr) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < launches; ++i) q.parallel_for(sycl::range<1>(1), [](sycl::id<1>) {});
  if (submitted) *submitted = seconds(start) / launches;
  q.wait();
  return seconds(start) / launches;
}
}  // namespace

int main(int argc, char **argv) {
  const bool onepassOnly = argc > 1 && std::string(argv[1]) == "onepass-only";
  sycl::device gpu;
  try {
    gpu = sycl::device(sycl::gpu_selector_v);
  } catch (const sycl::exception &e) {
    std::printf("gpu_launch: skipped, no GPU (%s)\n", e.what());
    return 0;
  }
  if (onepassOnly) {
    sycl::queue q{gpu, sycl::property::queue::in_order()};
    oursBackToBack(q, 1);  // JIT and load once
    std::vector<double> ours;
    for (int round = 0; round < 7; ++round) ours.push_back(oursBackToBack(q, 200000));
    std::printf("gpu_launch onepass-only: %.3f us per launch (median of 7 rounds of 200000)\n", median(ours) * 1e6);
    return 0;
  }
  if (!cuda_launch_init()) {
    std::printf("gpu_launch: skipped, the CUDA runtime is unusable here\n");
    return 0;
  }
  sycl::queue q{gpu, sycl::property::queue::in_order()};
  std::printf("gpu_launch on %s\n", gpu.get_info<sycl::info::device::name>().c_str());
  auto empty = [&] { return q.parallel_for(sycl::range<1>(1), [](sycl::id<1>) {}); };
  oursBackToBack(q, 1);  // JIT and load once

  constexpr int kLaunches = 10000, kRounds = 7, kSingles = 3000;
  std::vector<double> raw, ours, rawSubmitted, oursSubmitted;
  for (int round = 0; round < kRounds; ++round) {
    double submitted = 0;
    raw.push_back(cuda_launch_back_to_back(kLaunches, &submitted) / kLaunches);
    rawSubmitted.push_back(submitted / kLaunches);
    ours.push_back(oursBackToBack(q, kLaunches, &submitted));
    oursSubmitted.push_back(submitted);
  }
  double rawSteady = median(raw), oursSteady = median(ours);
  raw.clear();
  ours.clear();
  for (int i = 0; i < kSingles; ++i) {
    raw.push_back(cuda_launch_and_wait());
    auto start = std::chrono::steady_clock::now();
    empty().wait();
    ours.push_back(seconds(start));
  }
  double rawSingle = median(raw), oursSingle = median(ours);
  std::printf("steady state, %d back-to-back launches (median of %d rounds):\n", kLaunches, kRounds);
  std::printf("  raw cuLaunchKernel  %6.2f us per launch\n", rawSteady * 1e6);
  std::printf("  OnePass in-order    %6.2f us per launch  = %.2fx raw (target <= 1.15x)\n", oursSteady * 1e6,
              oursSteady / rawSteady);
  static const char *const kVariants[] = {"", "3 arguments, 256 threads", "2 cuCtxSetCurrent per launch",
                                          "event every 16, polled every 20 us", "1 cuCtxGetCurrent per launch"};
  std::printf("  (diagnostic) until the last launch returned: raw %.2f us, OnePass %.2f us per launch\n",
              median(rawSubmitted) * 1e6, median(oursSubmitted) * 1e6);
  for (int variant = 1; variant <= 4; ++variant) {
    std::vector<double> times;
    for (int round = 0; round < 3; ++round) times.push_back(cuda_launch_variant(kLaunches, variant) / kLaunches);
    std::printf("  (diagnostic) raw + %-34s %6.2f us per launch\n", kVariants[variant], median(times) * 1e6);
  }
  std::printf("submit+wait of one empty kernel (median of %d):\n", kSingles);
  std::printf("  raw cuLaunchKernel + cuStreamSynchronize  %6.2f us\n", rawSingle * 1e6);
  std::printf("  OnePass parallel_for(...).wait()          %6.2f us  = %+.2f us (target <= +1 us)\n", oursSingle * 1e6,
              (oursSingle - rawSingle) * 1e6);
  return 0;
}
