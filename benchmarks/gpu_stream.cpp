// BabelStream-style memory bandwidth on a GPU: copy, mul, add, triad and dot
// over 2^25 and 2^28 doubles in USM device allocations, OnePass against the
// same kernels compiled by nvcc (gpu_stream_cuda.cu), in one process and one
// run. dot is the same algorithm on both sides: 4 work-groups of 1024 per
// multiprocessor, each summing a grid-stride share in local memory and
// writing a partial sum to pinned host memory, which the host adds up.
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

constexpr std::size_t kDotGroupSize = 1024;

// dot on the OnePass side: the partial sums of `groups` work-groups land in
// `sums` (host memory); returns their total.
double onepassDot(sycl::queue &q, const double *a, const double *b, double *sums, std::size_t groups, std::size_t n) {
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<double, 1> partial(sycl::range<1>(kDotGroupSize), h);
     h.parallel_for(sycl::nd_range<1>(groups * kDotGroupSize, kDotGroupSize), [=](sycl::nd_item<1> it) {
       const std::size_t local = it.get_local_id(0), stride = it.get_global_range(0);
       double sum = 0.0;
       for (std::size_t i = it.get_global_id(0); i < n; i += stride) sum += a[i] * b[i];
       partial[local] = sum;
       for (std::size_t half = kDotGroupSize / 2; half > 0; half /= 2) {
         it.barrier(sycl::access::fence_space::local_space);
         if (local < half) partial[local] += partial[local + half];
       }
       if (local == 0) sums[it.get_group(0)] = partial[0];
     });
   }).wait();
  double total = 0.0;
  for (std::size_t g = 0; g < groups; ++g) total += sums[g];
  return total;
}

bool runSize(sycl::queue *queue, size_t n, Sides sides) {
  double *a = nullptr, *b = nullptr, *c = nullptr, *sums = nullptr;
  std::size_t dotGroups = 0;
  if (sides.onepass) {
    sycl::queue &q = *queue;
    a = sycl::malloc_device<double>(n, q);
    b = sycl::malloc_device<double>(n, q);
    c = sycl::malloc_device<double>(n, q);
    dotGroups = q.get_device().get_info<sycl::info::device::max_compute_units>() * kDotBlocksPerMultiprocessor;
    sums = sycl::malloc_host<double>(dotGroups, q);
    if (!a || !b || !c || !sums) {
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
                                 {"triad", 3 * array, {}, {}},
                                 {"dot", 2 * array, {}, {}}};
  double dotOnepass = 0, dotCuda = 0;
  const double s = kScalar;
  sycl::range<1> range(n);
  for (int iteration = 0; iteration <= kIterations; ++iteration) {  // iteration 0 warms up (and JIT-compiles)
    double t[5] = {1, 1, 1, 1, 1}, u[5] = {1, 1, 1, 1, 1};
    if (sides.onepass) {
      sycl::queue &q = *queue;
      t[0] = seconds([&] { q.parallel_for(range, [=](sycl::id<1> i) { c[i] = a[i]; }).wait(); });
      t[1] = seconds([&] { q.parallel_for(range, [=](sycl::id<1> i) { b[i] = s * c[i]; }).wait(); });
      t[2] = seconds([&] { q.parallel_for(range, [=](sycl::id<1> i) { c[i] = a[i] + b[i]; }).wait(); });
      t[3] = seconds([&] { q.parallel_for(range, [=](sycl::id<1> i) { a[i] = b[i] + s * c[i]; }).wait(); });
      t[4] = seconds([&] { dotOnepass = onepassDot(q, a, b, sums, dotGroups, n); });
    }
    if (sides.cuda) {
      u[0] = cuda_stream_copy();
      u[1] = cuda_stream_mul(s);
      u[2] = cuda_stream_add();
      u[3] = cuda_stream_triad(s);
      u[4] = cuda_stream_dot(dotCuda);
    }
    if (iteration == 0) continue;
    for (int k = 0; k < 5; ++k) {
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
  // dot ran after the last triad: sum of a * b over the arrays.
  const double expectedDot = expectedA * expectedB * double(n);
  auto dotRight = [&](double dot) { return std::fabs(dot - expectedDot) <= 1e-8 * std::fabs(expectedDot); };
  bool correct = true;
  if (sides.onepass) {
    double lastA = 0;
    queue->memcpy(&lastA, a + n - 1, sizeof(double)).wait();
    correct = std::fabs(lastA - expectedA) < 1e-9 && dotRight(dotOnepass);
  }
  if (sides.cuda) correct = correct && std::fabs(cuda_stream_read_a(n - 1) - expectedA) < 1e-9 && dotRight(dotCuda);

  std::printf("n = 2^%d doubles (%.0f MiB per array), best of %d\n", int(std::log2(double(n))), array / 1048576.0,
              kIterations);
  std::printf("%-8s %14s %14s %10s\n", "kernel", "OnePass GB/s", "CUDA GB/s", "ratio");
  for (const Result &r : results) {
    double ours = r.bytesPerIteration / best(r.onepass) / 1e9;
    double theirs = r.bytesPerIteration / best(r.cuda) / 1e9;
    if (sides.onepass && sides.cuda)
      std::printf("%-8s %14.1f %14.1f %9.3fx\n", r.name.c_str(), ours, theirs, ours / theirs);
    else
      std::printf("%-8s %14.1f %14.1f %10s\n", r.name.c_str(), sides.onepass ? ours : 0.0, sides.cuda ? theirs : 0.0,
                  "-");
  }
  std::printf("results %s\n\n", correct ? "verified" : "WRONG");
  if (sides.onepass) {
    sycl::free(a, *queue);
    sycl::free(b, *queue);
    sycl::free(c, *queue);
    sycl::free(sums, *queue);
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
