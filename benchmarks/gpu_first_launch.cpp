// First launch of a new kernel on an NVIDIA GPU (issue 5's figures): the time
// from its first submit to its completion, in a fresh process whose GPU is
// already set up (context created, memory allocated), as in a program that
// prepares its data first.
//   gpu_first_launch onepass [setup-ms]   OnePass; `setup-ms` of host work
//                                         between the queue's creation and the
//                                         first submit (default 0)
//   gpu_first_launch cuda                 the same kernel compiled by nvcc
// Prints "first launch: <us> us". Each run is one sample: the first launch
// happens once per process, so gpu_first_launch.sh runs the program several
// times per setting (empty cache, warm cache, CUDA) and prints the medians and
// their differences.
#include "gpu_first_launch_cuda.h"

#include <sycl/sycl.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {
constexpr int kItems = 4096;

int runOnePass(int setupMilliseconds) {
  sycl::device gpu;
  try {
    gpu = sycl::device(sycl::gpu_selector_v);
  } catch (const sycl::exception &e) {
    std::printf("no GPU: %s\n", e.what());
    return 77;
  }
  sycl::queue q{gpu, sycl::property::queue::in_order{}};
  int *data = sycl::malloc_device<int>(kItems, q);
  q.memset(data, 0, kItems * sizeof(int)).wait();
  // The program's own preparation (reading input, initializing data).
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(setupMilliseconds);
  while (std::chrono::steady_clock::now() < until) {
  }

  auto start = std::chrono::steady_clock::now();
  q.parallel_for(sycl::range<1>(kItems), [=](sycl::id<1> i) { data[i] = 2 * int(i[0]); }).wait();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::vector<int> host(kItems);
  q.memcpy(host.data(), data, kItems * sizeof(int)).wait();
  for (int i = 0; i < kItems; ++i)
    if (host[i] != 2 * i) {
      std::printf("WRONG result at %d: %d\n", i, host[i]);
      return 1;
    }
  sycl::free(data, q);
  std::printf("first launch: %.1f us\n", seconds * 1e6);
  return 0;
}

int runCuda() {
  if (!cuda_first_launch_init(kItems)) {
    std::printf("no CUDA device\n");
    return 77;
  }
  double seconds = cuda_first_launch_run(kItems);
  if (!cuda_first_launch_verify(kItems)) {
    std::printf("WRONG result\n");
    return 1;
  }
  std::printf("first launch: %.1f us\n", seconds * 1e6);
  return 0;
}
}  // namespace

int main(int argc, char **argv) {
  if (argc >= 2 && std::strcmp(argv[1], "onepass") == 0) return runOnePass(argc >= 3 ? std::atoi(argv[2]) : 0);
  if (argc == 2 && std::strcmp(argv[1], "cuda") == 0) return runCuda();
  std::fprintf(stderr, "usage: %s onepass [setup-ms] | cuda\n", argv[0]);
  return 2;
}
