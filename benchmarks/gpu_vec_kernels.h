// The SYCL kernels of the vec benchmarks (GPU: gpu_vec.cpp, against CUDA in
// gpu_vec_cuda.cu; CPU: vec_cpu.cpp, against OpenMP in
// vec_cpu_openmp_ref.cpp), written as user code would write them with
// sycl::float4 and sycl::half, and the input data both sides start from.
#pragma once

#include <sycl/sycl.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vec_bench {

inline constexpr std::size_t kGroupSize = 256;  // N-body work-group, CUDA's block
inline constexpr float kSoftening2 = 0.01f;     // eps^2: keeps 1/r^2 finite for close pairs
inline constexpr float kDt = 0.01f;
inline constexpr float kAxpyScale = 0.5f;

// One all-pairs N-body step: each work-item sums the pull of every body
// (positions in x, y, z, mass in w) on its own, then moves its body by one
// step of dt. Reads pos and vel, writes newPos and newVel, so every launch
// computes the same values. n is a multiple of kGroupSize.
inline sycl::event nbodyStep(sycl::queue &q, const sycl::float4 *pos, const sycl::float4 *vel, sycl::float4 *newPos,
                             sycl::float4 *newVel, std::size_t n) {
  return q.parallel_for(sycl::nd_range<1>(n, kGroupSize), [=](sycl::nd_item<1> it) {
    const std::size_t i = it.get_global_id(0);
    const sycl::float4 p = pos[i];
    sycl::float4 acc{0.0f};
    for (std::size_t j = 0; j < n; ++j) {
      const sycl::float4 q = pos[j];
      const sycl::float4 d = q - p;
      const float r2 = d.x() * d.x() + d.y() * d.y() + d.z() * d.z() + kSoftening2;
      const float inv = sycl::rsqrt(r2);
      acc += d * (q.w() * inv * inv * inv);
    }
    acc.w() = 0.0f;  // the mass lane gets no acceleration
    const sycl::float4 v = vel[i] + acc * kDt;
    newVel[i] = v;
    newPos[i] = p + v * kDt;
  });
}

// y[i] = a * x[i] + y[i] with sycl::half's operators: the product rounded to
// half, then the sum.
inline sycl::event axpyHalf(sycl::queue &q, sycl::half a, const sycl::half *x, sycl::half *y, std::size_t n) {
  return q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { y[i] = a * x[i] + y[i]; });
}

// The same over float4 elements.
inline sycl::event axpyFloat4(sycl::queue &q, float a, const sycl::float4 *x, sycl::float4 *y, std::size_t n) {
  return q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { y[i] = a * x[i] + y[i]; });
}

// --- inputs ------------------------------------------------------------------

// A reproducible uniform value in [0, 1) for index i (a 32-bit hash), so
// both sides of a comparison start from identical data.
inline float uniform(std::uint32_t i, std::uint32_t stream) {
  std::uint32_t h = i * 0x9E3779B9u ^ stream * 0x85EBCA6Bu;
  h ^= h >> 16;
  h *= 0x7FEB352Du;
  h ^= h >> 15;
  h *= 0x846CA68Bu;
  h ^= h >> 16;
  return float(h >> 8) * (1.0f / 16777216.0f);
}

// n bodies in the cube [-1, 1]^3 with masses in [0.5, 1.5] / n (so the
// accelerations stay of order 1 whatever n is) and small random velocities.
// 4 floats per body: x, y, z, mass (positions), x, y, z, 0 (velocities).
inline void nbodyBodies(std::size_t n, std::vector<float> &positions, std::vector<float> &velocities) {
  positions.resize(4 * n);
  velocities.resize(4 * n);
  for (std::size_t b = 0; b < n; ++b) {
    const auto i = std::uint32_t(b);
    for (std::uint32_t axis = 0; axis < 3; ++axis) {
      positions[4 * b + axis] = 2.0f * uniform(i, axis) - 1.0f;
      velocities[4 * b + axis] = 0.2f * uniform(i, 4 + axis) - 0.1f;
    }
    positions[4 * b + 3] = (0.5f + uniform(i, 3)) / float(n);
    velocities[4 * b + 3] = 0.0f;
  }
}

// Values in [0, 1), as the raw bits of IEEE binary16 (sycl::half, __half
// and _Float16 alike).
inline std::vector<std::uint16_t> halfValues(std::size_t n, std::uint32_t stream) {
  std::vector<std::uint16_t> bits(n);
  for (std::size_t i = 0; i < n; ++i)
    bits[i] = __builtin_bit_cast(std::uint16_t, sycl::half(uniform(std::uint32_t(i), stream)));
  return bits;
}

}  // namespace vec_bench
