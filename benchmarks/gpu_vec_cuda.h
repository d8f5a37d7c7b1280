// The CUDA references of gpu_vec (gpu_vec_cuda.cu, built by nvcc -O3
// -arch=sm_90): the same kernels as gpu_vec_kernels.h and gpu_vec.cpp,
// written with CUDA's float4, rsqrtf, __half and the CUDA math library,
// linked into the same program as the OnePass version.
#pragma once

#include <cstddef>
#include <cstdint>

// One kernel's time: wall seconds from the launch to the end of a device
// synchronize, and the kernel's own time on the device (CUDA events).
struct CudaKernelTime {
  double wallSeconds, deviceSeconds;
};

// False (and a message in `why`) where the CUDA runtime finds no device.
bool cuda_vec_available(const char **why);

// N-body step: 4 floats per body, positions (x, y, z, mass) and velocities
// (x, y, z, 0); n a multiple of 256, the block size.
bool cuda_nbody_init(const float *positions, const float *velocities, std::size_t n, float softening2, float dt);
CudaKernelTime cuda_nbody();
void cuda_nbody_result(float *newPositions, float *newVelocities);

// Half axpy y[i] = a * x[i] + y[i], __hmul_rn then __hadd_rn (each result
// rounded to half, never fused); the arrays as raw binary16 bits.
bool cuda_axpy_half_init(const std::uint16_t *x, const std::uint16_t *y, std::size_t n);
CudaKernelTime cuda_axpy_half(float a);
void cuda_axpy_half_reset(const std::uint16_t *y);
void cuda_axpy_half_result(std::uint16_t *y);

// out[i] = f(in[i]) with sinf, expf, logf, powf(x, 1.7f).
enum class MathFunction { sin, exp, log, pow };
inline constexpr float kPowExponent = 1.7f;
bool cuda_math_init(const float *in, std::size_t n);
CudaKernelTime cuda_math(MathFunction f);
void cuda_math_result(float *out);

void cuda_vec_finish();
