// sycl::float4 and sycl::half kernels on the CPU device against the same
// loops in OpenMP C++ compiled by g++ -O3 -march=native -fopenmp
// (vec_cpu_openmp_ref.cpp), alternating in one process:
//   - an all-pairs N-body step over 4096 bodies (float4 positions and
//     velocities, sycl::rsqrt; the reference: a 16-byte float4 struct and
//     1 / std::sqrt, which is what sycl::rsqrt is on the CPU device);
//   - a half axpy y[i] = a * x[i] + y[i] over 2^26 halves (the reference in
//     _Float16: both round the product and the sum to half);
//   - the same axpy over 2^23 float4s.
// Prints best and median times and OpenMP time / OnePass time (target >= 0.9x).
// OnePass uses its default thread count (all cores); set OMP_NUM_THREADS to
// the core count for the reference.
#include "gpu_vec_kernels.h"
#include "timing.h"
#include "vec_cpu_openmp_ref.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr std::size_t kBodies = 4096;
constexpr std::size_t kHalves = std::size_t(1) << 26;
constexpr std::size_t kFloat4s = std::size_t(1) << 23;
constexpr int kWarmups = 2;
constexpr int kReps = 10;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

struct Timings {
  std::vector<double> onepass, openmp;  // seconds
};

// Runs both sides kWarmups times, then kReps timed runs of each,
// alternating, the first side swapping every round.
Timings alternate(const std::function<void()> &onepass, const std::function<void()> &openmp) {
  for (int i = 0; i < kWarmups; ++i) {
    onepass();
    openmp();
  }
  Timings t;
  for (int round = 0; round < kReps; ++round)
    for (int k = 0; k < 2; ++k) {
      if ((round + k) % 2 == 0) t.onepass.push_back(bench::secondsAfterIdle(onepass));
      else t.openmp.push_back(bench::secondsAfterIdle(openmp));
    }
  return t;
}

// Whether every x[i] is within relative + absolute of y[i].
template <typename T> bool agree(const T *x, const T *y, std::size_t count, double relative, double absolute) {
  for (std::size_t i = 0; i < count; ++i) {
    const double a = double(x[i]), b = double(y[i]);
    if (!(std::fabs(a - b) <= relative * std::fabs(b) + absolute)) {
      std::printf("  mismatch at %zu: OnePass %.9g, OpenMP %.9g\n", i, a, b);
      return false;
    }
  }
  return true;
}

template <typename T> T *allocateAligned(std::size_t count) {
  void *memory = std::aligned_alloc(64, (count * sizeof(T) + 63) / 64 * 64);
  if (!memory) {
    std::fprintf(stderr, "vec_cpu: allocation of %zu bytes failed\n", count * sizeof(T));
    std::exit(1);
  }
  return static_cast<T *>(memory);
}

struct Row {
  std::string name;
  std::string work;  // what one run does, for the throughput column
  double workPerRun;
  Timings t;
  bool right;
};

void print(const Row &r) {
  const double ours = bench::best(r.t.onepass), theirs = bench::best(r.t.openmp);
  std::printf("%-12s OnePass %9.3f ms (median %9.3f)  OpenMP %9.3f ms (median %9.3f)  %8.2f / %8.2f %-8s ratio best "
              "%.3fx median %.3fx %s\n",
              r.name.c_str(), ours * 1e3, median(r.t.onepass) * 1e3, theirs * 1e3, median(r.t.openmp) * 1e3,
              r.workPerRun / ours / 1e9, r.workPerRun / theirs / 1e9, r.work.c_str(), theirs / ours,
              median(r.t.openmp) / median(r.t.onepass), r.right ? "verified" : "WRONG");
}

Row nbody(sycl::queue &q) {
  std::vector<float> positions, velocities;
  vec_bench::nbodyBodies(kBodies, positions, velocities);
  const std::size_t bytes = kBodies * sizeof(sycl::float4);
  sycl::float4 *pos = sycl::malloc_shared<sycl::float4>(kBodies, q),
               *vel = sycl::malloc_shared<sycl::float4>(kBodies, q);
  sycl::float4 *newPos = sycl::malloc_shared<sycl::float4>(kBodies, q);
  sycl::float4 *newVel = sycl::malloc_shared<sycl::float4>(kBodies, q);
  q.memcpy(pos, positions.data(), bytes);
  q.memcpy(vel, velocities.data(), bytes).wait();
  float *refNewPos = allocateAligned<float>(4 * kBodies), *refNewVel = allocateAligned<float>(4 * kBodies);

  Row row{"nbody", "G int/s", double(kBodies) * double(kBodies), {}, false};
  row.t = alternate([&] { vec_bench::nbodyStep(q, pos, vel, newPos, newVel, kBodies).wait(); },
                    [&] {
                      nbody_openmp(positions.data(), velocities.data(), refNewPos, refNewVel, kBodies,
                                   vec_bench::kSoftening2, vec_bench::kDt);
                    });
  const float *ourPos = reinterpret_cast<const float *>(newPos), *ourVel = reinterpret_cast<const float *>(newVel);
  row.right = agree(ourPos, refNewPos, 4 * kBodies, 1e-5, 1e-6) && agree(ourVel, refNewVel, 4 * kBodies, 1e-5, 1e-6);
  for (sycl::float4 *p : {pos, vel, newPos, newVel}) sycl::free(p, q);
  std::free(refNewPos);
  std::free(refNewVel);
  return row;
}

Row axpyHalf(sycl::queue &q) {
  const std::vector<std::uint16_t> x = vec_bench::halfValues(kHalves, 1), y = vec_bench::halfValues(kHalves, 2);
  const std::size_t bytes = kHalves * sizeof(sycl::half);
  sycl::half *ourX = sycl::malloc_shared<sycl::half>(kHalves, q), *ourY = sycl::malloc_shared<sycl::half>(kHalves, q);
  _Float16 *refX = allocateAligned<_Float16>(kHalves), *refY = allocateAligned<_Float16>(kHalves);
  auto reset = [&] {
    q.memcpy(ourX, x.data(), bytes);
    q.memcpy(ourY, y.data(), bytes).wait();
    fill_half_openmp(refX, reinterpret_cast<const _Float16 *>(x.data()), kHalves);
    fill_half_openmp(refY, reinterpret_cast<const _Float16 *>(y.data()), kHalves);
  };
  reset();
  const sycl::half a = vec_bench::kAxpyScale;
  Row row{"half axpy", "GB/s", 3.0 * double(bytes), {}, false};
  row.t = alternate([&] { vec_bench::axpyHalf(q, a, ourX, ourY, kHalves).wait(); },
                    [&] { axpy_half_openmp(vec_bench::kAxpyScale, refX, refY, kHalves); });
  // One run of each from the initial data, checked against the same
  // arithmetic on the host (sycl::half's operators).
  reset();
  vec_bench::axpyHalf(q, a, ourX, ourY, kHalves).wait();
  axpy_half_openmp(vec_bench::kAxpyScale, refX, refY, kHalves);
  std::vector<float> ours(kHalves), theirs(kHalves), expected(kHalves);
  for (std::size_t i = 0; i < kHalves; ++i) {
    ours[i] = float(ourY[i]);
    theirs[i] = float(refY[i]);
    expected[i] = float(a * __builtin_bit_cast(sycl::half, x[i]) + __builtin_bit_cast(sycl::half, y[i]));
  }
  // One half ulp (2^-10 relative) of slack: a fused multiply-add rounds once.
  row.right =
      agree(ours.data(), theirs.data(), kHalves, 1e-3, 0.0) && agree(ours.data(), expected.data(), kHalves, 1e-3, 0.0);
  sycl::free(ourX, q);
  sycl::free(ourY, q);
  std::free(refX);
  std::free(refY);
  return row;
}

Row axpyFloat4(sycl::queue &q) {
  std::vector<float> x(4 * kFloat4s), y(4 * kFloat4s);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = vec_bench::uniform(std::uint32_t(i), 5);
    y[i] = vec_bench::uniform(std::uint32_t(i), 6);
  }
  const std::size_t bytes = kFloat4s * sizeof(sycl::float4);
  sycl::float4 *ourX = sycl::malloc_shared<sycl::float4>(kFloat4s, q);
  sycl::float4 *ourY = sycl::malloc_shared<sycl::float4>(kFloat4s, q);
  float *refX = allocateAligned<float>(4 * kFloat4s), *refY = allocateAligned<float>(4 * kFloat4s);
  auto reset = [&] {
    q.memcpy(ourX, x.data(), bytes);
    q.memcpy(ourY, y.data(), bytes).wait();
    fill_float_openmp(refX, x.data(), 4 * kFloat4s);
    fill_float_openmp(refY, y.data(), 4 * kFloat4s);
  };
  reset();
  const float a = vec_bench::kAxpyScale;
  Row row{"float4 axpy", "GB/s", 3.0 * double(bytes), {}, false};
  row.t = alternate([&] { vec_bench::axpyFloat4(q, a, ourX, ourY, kFloat4s).wait(); },
                    [&] { axpy_float4_openmp(a, refX, refY, kFloat4s); });
  reset();
  vec_bench::axpyFloat4(q, a, ourX, ourY, kFloat4s).wait();
  axpy_float4_openmp(a, refX, refY, kFloat4s);
  std::vector<float> expected(4 * kFloat4s);
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = a * x[i] + y[i];
  const float *ours = reinterpret_cast<const float *>(ourY);
  row.right = agree(ours, refY, 4 * kFloat4s, 1e-6, 0.0) && agree(ours, expected.data(), 4 * kFloat4s, 1e-6, 0.0);
  sycl::free(ourX, q);
  sycl::free(ourY, q);
  std::free(refX);
  std::free(refY);
  return row;
}

}  // namespace

int main() {
  sycl::queue q{sycl::cpu_selector_v};
  std::printf("vec_cpu on %s (%u compute units); OpenMP reference (g++ -O3 -march=native): %d threads; best and "
              "median of %d runs, alternating\n",
              q.get_device().get_info<sycl::info::device::name>().c_str(),
              q.get_device().get_info<sycl::info::device::max_compute_units>(), vec_openmp_threads(), kReps);
  std::printf("nbody: %zu bodies, one step; half axpy: 2^26 halves; float4 axpy: 2^23 float4s\n", kBodies);
  std::vector<Row> rows;
  rows.push_back(nbody(q));
  rows.push_back(axpyHalf(q));
  rows.push_back(axpyFloat4(q));
  bool right = true;
  for (const Row &r : rows) {
    print(r);
    right = right && r.right;
  }
  auto ratio = [](const Row &r) { return bench::best(r.t.openmp) / bench::best(r.t.onepass); };
  std::printf("vec_cpu ratio OpenMP/OnePass (best) nbody=%.2fx half_axpy=%.2fx float4_axpy=%.2fx (target >= 0.9x)\n",
              ratio(rows[0]), ratio(rows[1]), ratio(rows[2]));
  if (!right) {
    std::printf("FAILED: the two sides computed different results\n");
    return 1;
  }
  return 0;
}
