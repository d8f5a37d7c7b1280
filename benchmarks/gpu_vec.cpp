// sycl::float4, sycl::half and the math builtins on an NVIDIA GPU, against
// the same kernels written in CUDA and compiled by nvcc -O3 -arch=sm_90
// (gpu_vec_cuda.cu), alternating in one process (target >= 0.95x):
//   - an all-pairs N-body step over 16384 bodies (float4 positions with the
//     mass in w, acceleration through sycl::rsqrt; CUDA: float4 and rsqrtf),
//     gpu_vec_kernels.h's nbodyStep, 256-work-item groups as CUDA's blocks;
//   - a half axpy y[i] = a * x[i] + y[i] over 2^26 halves (sycl::half's
//     operators; CUDA: __hmul_rn then __hadd_rn, the same two roundings);
//   - out[i] = f(in[i]) over 2^24 floats in [0.1, 10) for sycl::sin, exp,
//     log and pow(x, 1.7f) (CUDA: sinf, expf, logf, powf, no -use_fast_math).
// Each kernel: one warm-up launch per side (OnePass JIT-compiles it), then
// 20 launches per side, alternating. Prints the kernel's time on the device
// (profiling events / CUDA events) and the wall time from submit to the end
// of the wait, best and median, and CUDA time / OnePass time.
// Run with ONEPASS_DEVICE=gpu; exits 77 where there is no GPU.
#include "gpu_vec_cuda.h"
#include "gpu_vec_kernels.h"
#include "timing.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr std::size_t kBodies = 16384;
constexpr std::size_t kHalves = std::size_t(1) << 26;
constexpr std::size_t kMathFloats = std::size_t(1) << 24;
constexpr int kReps = 20;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

struct Samples {
  std::vector<double> wall, device;  // seconds
};

struct Row {
  std::string name;
  Samples onepass, cuda;
  bool right = false;
  double deviceRatio() const { return bench::best(cuda.device) / bench::best(onepass.device); }
  double wallRatio() const { return bench::best(cuda.wall) / bench::best(onepass.wall); }
};

// One OnePass launch on a profiling queue, timed both ways.
void timeOnePass(Samples &s, const std::function<sycl::event()> &submit) {
  sycl::event e;
  s.wall.push_back(bench::seconds([&] {
    e = submit();
    e.wait();
  }));
  s.device.push_back(double(e.get_profiling_info<sycl::info::event_profiling::command_end>() -
                            e.get_profiling_info<sycl::info::event_profiling::command_start>()) *
                     1e-9);
}

// A warm-up launch per side, then kReps of each, alternating (the side that
// goes first swaps every round).
void alternate(Row &row, const std::function<sycl::event()> &onepass, const std::function<CudaKernelTime()> &cuda) {
  onepass().wait();
  cuda();
  for (int round = 0; round < kReps; ++round)
    for (int k = 0; k < 2; ++k) {
      if ((round + k) % 2 == 0) {
        timeOnePass(row.onepass, onepass);
      } else {
        const CudaKernelTime t = cuda();
        row.cuda.wall.push_back(t.wallSeconds);
        row.cuda.device.push_back(t.deviceSeconds);
      }
    }
}

// Whether every x[i] is within relative + absolute of y[i]; prints the first
// that is not.
template <typename T>
bool agree(const char *what, const T *x, const T *y, std::size_t count, double relative, double absolute) {
  for (std::size_t i = 0; i < count; ++i) {
    const double a = double(x[i]), b = double(y[i]);
    if (!(std::fabs(a - b) <= relative * std::fabs(b) + absolute)) {
      std::printf("  %s: mismatch at %zu: %.9g vs %.9g\n", what, i, a, b);
      return false;
    }
  }
  return true;
}

Row nbody(sycl::queue &q) {
  Row row{"nbody", {}, {}, false};
  std::vector<float> positions, velocities;
  vec_bench::nbodyBodies(kBodies, positions, velocities);
  if (!cuda_nbody_init(positions.data(), velocities.data(), kBodies, vec_bench::kSoftening2, vec_bench::kDt)) {
    std::printf("  CUDA allocation for the N-body step failed\n");
    return row;
  }
  const std::size_t bytes = kBodies * sizeof(sycl::float4);
  sycl::float4 *pos = sycl::malloc_device<sycl::float4>(kBodies, q),
               *vel = sycl::malloc_device<sycl::float4>(kBodies, q);
  sycl::float4 *newPos = sycl::malloc_device<sycl::float4>(kBodies, q);
  sycl::float4 *newVel = sycl::malloc_device<sycl::float4>(kBodies, q);
  q.memcpy(pos, positions.data(), bytes);
  q.memcpy(vel, velocities.data(), bytes).wait();
  alternate(
      row, [&] { return vec_bench::nbodyStep(q, pos, vel, newPos, newVel, kBodies); }, cuda_nbody);

  std::vector<float> ourPos(4 * kBodies), ourVel(4 * kBodies), theirPos(4 * kBodies), theirVel(4 * kBodies);
  q.memcpy(ourPos.data(), newPos, bytes);
  q.memcpy(ourVel.data(), newVel, bytes).wait();
  cuda_nbody_result(theirPos.data(), theirVel.data());
  // Same sums in the same order; rsqrtf is approximate (about 2 ulp), and
  // the compilers may fuse multiplies and adds differently.
  row.right = agree("nbody positions", ourPos.data(), theirPos.data(), ourPos.size(), 1e-5, 1e-6) &&
              agree("nbody velocities", ourVel.data(), theirVel.data(), ourVel.size(), 1e-5, 1e-6);
  for (sycl::float4 *p : {pos, vel, newPos, newVel}) sycl::free(p, q);
  return row;
}

Row axpyHalf(sycl::queue &q) {
  Row row{"half_axpy", {}, {}, false};
  const std::vector<std::uint16_t> x = vec_bench::halfValues(kHalves, 1), y = vec_bench::halfValues(kHalves, 2);
  if (!cuda_axpy_half_init(x.data(), y.data(), kHalves)) {
    std::printf("  CUDA allocation for the half axpy failed\n");
    return row;
  }
  const std::size_t bytes = kHalves * sizeof(sycl::half);
  sycl::half *ourX = sycl::malloc_device<sycl::half>(kHalves, q), *ourY = sycl::malloc_device<sycl::half>(kHalves, q);
  q.memcpy(ourX, x.data(), bytes);
  q.memcpy(ourY, y.data(), bytes).wait();
  const sycl::half a = vec_bench::kAxpyScale;
  alternate(
      row, [&] { return vec_bench::axpyHalf(q, a, ourX, ourY, kHalves); },
      [] { return cuda_axpy_half(vec_bench::kAxpyScale); });

  // One run of each from the initial y, checked against each other and the
  // same arithmetic on the host (sycl::half's operators).
  q.memcpy(ourY, y.data(), bytes).wait();
  cuda_axpy_half_reset(y.data());
  vec_bench::axpyHalf(q, a, ourX, ourY, kHalves).wait();
  cuda_axpy_half(vec_bench::kAxpyScale);
  std::vector<std::uint16_t> ourBits(kHalves), theirBits(kHalves);
  q.memcpy(ourBits.data(), ourY, bytes).wait();
  cuda_axpy_half_result(theirBits.data());
  std::vector<float> ours(kHalves), theirs(kHalves), expected(kHalves);
  for (std::size_t i = 0; i < kHalves; ++i) {
    ours[i] = float(__builtin_bit_cast(sycl::half, ourBits[i]));
    theirs[i] = float(__builtin_bit_cast(sycl::half, theirBits[i]));
    expected[i] = float(a * __builtin_bit_cast(sycl::half, x[i]) + __builtin_bit_cast(sycl::half, y[i]));
  }
  // One half ulp (2^-10 relative) of slack, in case a side fuses the two.
  row.right = agree("half axpy", ours.data(), theirs.data(), kHalves, 1e-3, 0.0) &&
              agree("half axpy (host)", ours.data(), expected.data(), kHalves, 1e-3, 0.0);
  sycl::free(ourX, q);
  sycl::free(ourY, q);
  return row;
}

// The math kernels: out[i] = f(in[i]).
sycl::event mathKernel(sycl::queue &q, MathFunction f, const float *in, float *out, std::size_t n) {
  const sycl::range<1> r(n);
  switch (f) {
  case MathFunction::sin: return q.parallel_for(r, [=](sycl::id<1> i) { out[i] = sycl::sin(in[i]); });
  case MathFunction::exp: return q.parallel_for(r, [=](sycl::id<1> i) { out[i] = sycl::exp(in[i]); });
  case MathFunction::log: return q.parallel_for(r, [=](sycl::id<1> i) { out[i] = sycl::log(in[i]); });
  case MathFunction::pow: break;
  }
  return q.parallel_for(r, [=](sycl::id<1> i) { out[i] = sycl::pow(in[i], kPowExponent); });
}

double hostMath(MathFunction f, double x) {
  switch (f) {
  case MathFunction::sin: return std::sin(x);
  case MathFunction::exp: return std::exp(x);
  case MathFunction::log: return std::log(x);
  case MathFunction::pow: break;
  }
  return std::pow(x, double(kPowExponent));
}

std::vector<Row> math(sycl::queue &q) {
  std::vector<float> in(kMathFloats);
  for (std::size_t i = 0; i < kMathFloats; ++i) in[i] = 0.1f + 9.9f * vec_bench::uniform(std::uint32_t(i), 7);
  std::vector<Row> rows;
  if (!cuda_math_init(in.data(), kMathFloats)) {
    std::printf("  CUDA allocation for the math kernels failed\n");
    return rows;
  }
  float *ourIn = sycl::malloc_device<float>(kMathFloats, q), *ourOut = sycl::malloc_device<float>(kMathFloats, q);
  q.memcpy(ourIn, in.data(), kMathFloats * sizeof(float)).wait();
  const std::pair<MathFunction, const char *> functions[] = {
      {MathFunction::sin, "sin"}, {MathFunction::exp, "exp"}, {MathFunction::log, "log"}, {MathFunction::pow, "pow"}};
  std::vector<float> ours(kMathFloats), theirs(kMathFloats);
  for (const auto &[f, name] : functions) {
    Row row{name, {}, {}, false};
    alternate(
        row, [&, f = f] { return mathKernel(q, f, ourIn, ourOut, kMathFloats); }, [f = f] { return cuda_math(f); });
    q.memcpy(ours.data(), ourOut, kMathFloats * sizeof(float)).wait();
    cuda_math_result(theirs.data());
    // Both are single-precision functions within a few ulp; a sample against
    // the host's double precision catches both sides being wrong alike.
    row.right = agree(name, ours.data(), theirs.data(), kMathFloats, 1e-5, 1e-6);
    for (std::size_t i = 0; row.right && i < kMathFloats; i += 4099)
      row.right = std::fabs(double(ours[i]) - hostMath(f, in[i])) <= 1e-5 * std::fabs(hostMath(f, in[i])) + 1e-6;
    if (!row.right) std::printf("  %s: differs from the host's result\n", name);
    rows.push_back(std::move(row));
  }
  sycl::free(ourIn, q);
  sycl::free(ourOut, q);
  return rows;
}

void print(const Row &r) {
  std::printf("%-11s %10.4f %10.4f %10.4f %10.4f %9.3fx %9.3fx   %10.4f %10.4f %9.3fx  %s\n", r.name.c_str(),
              bench::best(r.onepass.device) * 1e3, median(r.onepass.device) * 1e3, bench::best(r.cuda.device) * 1e3,
              median(r.cuda.device) * 1e3, r.deviceRatio(), median(r.cuda.device) / median(r.onepass.device),
              bench::best(r.onepass.wall) * 1e3, bench::best(r.cuda.wall) * 1e3, r.wallRatio(),
              r.right ? "verified" : "WRONG");
}

}  // namespace

int main() {
  std::optional<sycl::queue> queue;
  try {
    queue.emplace(sycl::property_list{sycl::property::queue::in_order(), sycl::property::queue::enable_profiling()});
  } catch (const sycl::exception &e) {
    std::printf("gpu_vec: no SYCL device (%s): run with ONEPASS_DEVICE=gpu on a machine with an NVIDIA GPU\n",
                e.what());
    return 77;
  }
  sycl::queue &q = *queue;
  const std::string device = q.get_device().get_info<sycl::info::device::name>();
  if (!q.get_device().is_gpu()) {
    std::printf("gpu_vec: OnePass device is %s, not a GPU: run with ONEPASS_DEVICE=gpu on a machine with an NVIDIA "
                "GPU\n",
                device.c_str());
    return 77;
  }
  const char *why = "";
  if (!cuda_vec_available(&why)) {
    std::printf("gpu_vec: %s\n", why);
    return 77;
  }
  std::printf("gpu_vec on %s: nbody %zu bodies (one step), half_axpy 2^26 halves, sin/exp/log/pow(x, 1.7f) 2^24 "
              "floats; %d launches per side, alternating\n",
              device.c_str(), kBodies, kReps);
  std::vector<Row> rows;
  rows.push_back(nbody(q));
  rows.push_back(axpyHalf(q));
  for (Row &r : math(q)) rows.push_back(std::move(r));
  cuda_vec_finish();

  std::printf("%-11s %21s %21s %21s   %32s\n", "", "OnePass kernel ms", "CUDA kernel ms", "CUDA/OnePass",
              "wall ms (submit to wait), best");
  std::printf("%-11s %10s %10s %10s %10s %10s %10s   %10s %10s %10s\n", "kernel", "best", "median", "best", "median",
              "best", "median", "OnePass", "CUDA", "ratio");
  bool right = rows.size() == 6;
  for (const Row &r : rows) {
    if (r.onepass.device.empty() || r.cuda.device.empty()) {
      std::printf("%-11s not run\n", r.name.c_str());
      right = false;
      continue;
    }
    print(r);
    right = right && r.right;
  }
  if (!right) {
    std::printf("FAILED: OnePass and CUDA computed different results (or a kernel did not run)\n");
    return 1;
  }
  std::printf("gpu_vec ratio CUDA/OnePass (kernel time, best)");
  for (const Row &r : rows) std::printf(" %s=%.3fx", r.name.c_str(), r.deviceRatio());
  std::printf(" (target >= 0.95x)\n");
  std::printf("gpu_vec ratio CUDA/OnePass (wall time, best)");
  for (const Row &r : rows) std::printf(" %s=%.3fx", r.name.c_str(), r.wallRatio());
  std::printf("\n");
  return 0;
}
