// The OpenMP reference loops of the vec_cpu benchmark; see vec_cpu_openmp_ref.h.
// Built with `g++ -O3 -march=native -fopenmp -c`.
//
// Kernels never set errno, so neither does the reference's math: with errno,
// g++ keeps each sqrt of the N-body loop scalar behind a check for negative
// inputs (and a call to sqrtf for them), which the kernel does not have. The
// pragma comes first so that every function here, inlined ones included, is
// compiled the same way (as -fno-math-errno would).
#pragma GCC optimize("no-math-errno")

#include "vec_cpu_openmp_ref.h"

#include <cmath>
#include <omp.h>

namespace {

// A float4 as C++ code without SYCL writes it: four floats, 16-byte
// aligned, with the element-wise operators the kernel uses.
struct alignas(16) Float4 {
  float x, y, z, w;
};
inline Float4 operator+(Float4 a, Float4 b) { return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }
inline Float4 operator-(Float4 a, Float4 b) { return {a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w}; }
inline Float4 operator*(Float4 a, float s) { return {a.x * s, a.y * s, a.z * s, a.w * s}; }
inline Float4 operator*(float s, Float4 a) { return a * s; }
inline Float4 &operator+=(Float4 &a, Float4 b) { return a = a + b; }

}  // namespace

extern "C" {

int vec_openmp_threads() { return omp_get_max_threads(); }

// The loop of gpu_vec_kernels.h's nbodyStep, line for line; sycl::rsqrt(r2)
// is 1 / sqrt(r2) on the CPU device, as here. Kernels never set errno, so
// neither does this sqrt: with errno, g++ keeps every sqrt scalar behind a
// check for negative inputs, a cost the kernel does not have.
__attribute__((optimize("no-math-errno"))) void nbody_openmp(const float *positions, const float *velocities,
                                                             float *newPositions, float *newVelocities, std::size_t n,
                                                             float softening2, float dt) {
  const Float4 *pos = reinterpret_cast<const Float4 *>(positions);
  const Float4 *vel = reinterpret_cast<const Float4 *>(velocities);
  Float4 *newPos = reinterpret_cast<Float4 *>(newPositions);
  Float4 *newVel = reinterpret_cast<Float4 *>(newVelocities);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const Float4 p = pos[i];
    Float4 acc{0.0f, 0.0f, 0.0f, 0.0f};
    for (std::size_t j = 0; j < n; ++j) {
      const Float4 q = pos[j];
      const Float4 d = q - p;
      const float r2 = d.x * d.x + d.y * d.y + d.z * d.z + softening2;
      const float inv = 1.0f / std::sqrt(r2);
      acc += d * (q.w * inv * inv * inv);
    }
    acc.w = 0.0f;  // the mass lane gets no acceleration
    const Float4 v = vel[i] + acc * dt;
    newVel[i] = v;
    newPos[i] = p + v * dt;
  }
}

void axpy_half_openmp(float a, const _Float16 *__restrict x, _Float16 *__restrict y, std::size_t n) {
  const _Float16 scale = static_cast<_Float16>(a);
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) y[i] = scale * x[i] + y[i];
}

void axpy_float4_openmp(float a, const float *x, float *y, std::size_t n) {
  const Float4 *__restrict from = reinterpret_cast<const Float4 *>(x);
  Float4 *__restrict to = reinterpret_cast<Float4 *>(y);
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) to[i] = a * from[i] + to[i];
}

void fill_half_openmp(_Float16 *data, const _Float16 *from, std::size_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) data[i] = from[i];
}

void fill_float_openmp(float *data, const float *from, std::size_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) data[i] = from[i];
}

}  // extern "C"
