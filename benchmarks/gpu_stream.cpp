// BabelStream-style memory bandwidth on a GPU: copy, mul, add and triad over
// 2^25 and 2^28 doubles in USM device allocations, OnePass against the same
// kernels compiled by nvcc (gpu_stream_cuda.cu), in one process and one run.
// (dot needs reductions, which arrive with nd_range kernels.)
// Run with ONEPASS_DEVICE=gpu; prints GB/s and OnePass/CUDA ratios.
//   gpu_stream [onepass|cuda]   one side only: the same work as that side does
//                               in the joint run, for whole-process timings
//                               (scripts/device/run.sh compares them).
#include "gpu_stream_cuda.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace {

constexpr double kScalar = 0.4;
constexpr int kIterations = 50;

double seconds(const std::function<void()> &work) {
  auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Result {
  std::string name;
  double bytesPerIteration;
  std::vector<double> onepass, cuda;  // seconds
};

double best(const std::vector<double> &times) { return *std::min_element(times.begin(), times.end()); }

struct Sides {
  bool onepass = true, cuda = true;
};

bool runSize(sycl::queue *queue, size_t n, Sides sides) {
  double *a = nullptr, *b = nullptr, *c = nullptr;
  if (sides.onepass) {
    sycl::queue &q = *queue;
    a = sycl::malloc_device<double>(n, q);
    b = sycl::malloc_device<double>(n, q);
    c = sycl::malloc_device<double>(n, q);
    if (!a || !b || !c) {
      std::printf("allocation of 3 x %zu doubles failed\n", n);
      return false;
    }
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
       a[i] = 0.1;
       b[i] = 0.2;
       c[i] = 0.0;
     }).wait();
  }
  if (sides.cuda && !cuda_stream_init(n)) {
    std::printf("CUDA allocation of 3 x %zu doubles failed\n", n);
    return false;
  }

  const double array = double(n) * sizeof(double);
  std::vector<Result> results = {{"copy", 2 * array, {}, {}},
                                 {"mul", 2 * array, {}, {}},
                                 {"add", 3 * array, {}, {}},
                                 {"triad", 3 * array, {}, {}}};
  const double s = kScalar;
  sycl::range<1> range(n);
  for (int iteration = 0; iteration <= kIterations; ++iteration) {  // iteration 0 warms up (and JIT-compiles)
    double t[4] = {1, 1, 1, 1}, u[4] = {1, 1, 1, 1};
    if (sides.onepass) {
      sycl::queue &q = *queue;
      t[0] = seconds([&] { q.parallel_for(range, [=](sycl::id<1> i) { c[i] = a[i]; }).wait(); });
      t[1] = seconds([&] { q.parallel_for(range, [=](sycl::id<1> i) { b[i] = s * c[i]; }).wait(); });
      t[2] = seconds([&] { q.parallel_for(range, [=](sycl::id<1> i) { c[i] = a[i] + b[i]; }).wait(); });
      t[3] = seconds([&] { q.parallel_for(range, [=](sycl::id<1> i) { a[i] = b[i] + s * c[i]; }).wait(); });
    }
    if (sides.cuda) {
      u[0] = cuda_stream_copy();
      u[1] = cuda_stream_mul(s);
      u[2] = cuda_stream_add();
      u[3] = cuda_stream_triad(s);
    }
    if (iteration == 0) continue;
    for (int k = 0; k < 4; ++k) {
      results[k].onepass.push_back(t[k]);
      results[k].cuda.push_back(u[k]);
    }
  }

  // Both sides ran the same sequence from the same start: same final values.
  double expectedA = 0.1, expectedB = 0.2, expectedC = 0.0;
  for (int iteration = 0; iteration <= kIterations; ++iteration) {
    expectedC = expectedA;
    expectedB = s * expectedC;
    expectedC = expectedA + expectedB;
    expectedA = expectedB + s * expectedC;
  }
  bool correct = true;
  if (sides.onepass) {
    double lastA = 0;
    queue->memcpy(&lastA, a + n - 1, sizeof(double)).wait();
    correct = std::fabs(lastA - expectedA) < 1e-9;
  }
  if (sides.cuda) correct = correct && std::fabs(cuda_stream_read_a(n - 1) - expectedA) < 1e-9;

  std::printf("n = 2^%d doubles (%.0f MiB per array), best of %d\n", int(std::log2(double(n))), array / 1048576.0,
              kIterations);
  std::printf("%-8s %14s %14s %10s\n", "kernel", "OnePass GB/s", "CUDA GB/s", "ratio");
  for (const Result &r : results) {
    double ours = r.bytesPerIteration / best(r.onepass) / 1e9;
    double theirs = r.bytesPerIteration / best(r.cuda) / 1e9;
    if (sides.onepass && sides.cuda) std::printf("%-8s %14.1f %14.1f %9.3fx\n", r.name.c_str(), ours, theirs, ours / theirs);
    else std::printf("%-8s %14.1f %14.1f %10s\n", r.name.c_str(), sides.onepass ? ours : 0.0, sides.cuda ? theirs : 0.0, "-");
  }
  std::printf("results %s\n\n", correct ? "verified" : "WRONG");
  if (sides.onepass) {
    sycl::free(a, *queue);
    sycl::free(b, *queue);
    sycl::free(c, *queue);
  }
  if (sides.cuda) cuda_stream_finish();
  return correct;
}

}  // namespace

int main(int argc, char **argv) {
  Sides sides;
  const std::string only = argc > 1 ? argv[1] : "";
  if (only == "onepass") sides.cuda = false;
  else if (only == "cuda") sides.onepass = false;
  else if (!only.empty()) {
    std::fprintf(stderr, "usage: %s [onepass|cuda]\n", argv[0]);
    return 2;
  }
  std::optional<sycl::queue> q;
  if (sides.onepass) {
    q.emplace();
    std::printf("OnePass device: %s\n", q->get_device().get_info<sycl::info::device::name>().c_str());
    if (!q->get_device().is_gpu()) {
      std::printf("not a GPU: run with ONEPASS_DEVICE=gpu on a machine with an NVIDIA GPU\n");
      return 77;
    }
  }
  sycl::queue *queue = q ? &*q : nullptr;
  bool ok = runSize(queue, size_t(1) << 25, sides);
  ok = runSize(queue, size_t(1) << 28, sides) && ok;
  return ok ? 0 : 1;
}
