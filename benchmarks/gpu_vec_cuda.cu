// The CUDA references of gpu_vec: the kernels of gpu_vec_kernels.h and
// gpu_vec.cpp line for line, one element (or body) per thread, 256-thread
// blocks as OnePass launches a 1-D range.
#include "gpu_vec_cuda.h"

#include <chrono>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace {

constexpr unsigned kBlock = 256;

// float4 arithmetic as CUDA code usually gets it (the CUDA samples'
// helper_math.h): element-wise, all four lanes.
__device__ inline float4 operator+(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
__device__ inline float4 operator-(float4 a, float4 b) { return make_float4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w); }
__device__ inline float4 operator*(float4 a, float s) { return make_float4(a.x * s, a.y * s, a.z * s, a.w * s); }
__device__ inline void operator+=(float4 &a, float4 b) { a = a + b; }

__global__ void nbody_step(const float4 *pos, const float4 *vel, float4 *newPos, float4 *newVel, std::size_t n,
                           float softening2, float dt) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const float4 p = pos[i];
  float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (std::size_t j = 0; j < n; ++j) {
    const float4 q = pos[j];
    const float4 d = q - p;
    const float r2 = d.x * d.x + d.y * d.y + d.z * d.z + softening2;
    const float inv = rsqrtf(r2);
    acc += d * (q.w * inv * inv * inv);
  }
  acc.w = 0.0f;  // the mass lane gets no acceleration
  const float4 v = vel[i] + acc * dt;
  newVel[i] = v;
  newPos[i] = p + v * dt;
}

__global__ void axpy_half(__half a, const __half *x, __half *y, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hadd_rn(__hmul_rn(a, x[i]), y[i]);
}

template <MathFunction F> __device__ inline float apply(float x) {
  if constexpr (F == MathFunction::sin) return sinf(x);
  else if constexpr (F == MathFunction::exp) return expf(x);
  else if constexpr (F == MathFunction::log) return logf(x);
  else return powf(x, kPowExponent);
}
template <MathFunction F> __global__ void math(const float *in, float *out, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = apply<F>(in[i]);
}

unsigned blocks(std::size_t n) { return unsigned((n + kBlock - 1) / kBlock); }

cudaEvent_t startEvent = nullptr, stopEvent = nullptr;

// Times one launch both ways (see CudaKernelTime).
template <typename Launch> CudaKernelTime timedKernel(Launch launch) {
  const auto start = std::chrono::steady_clock::now();
  cudaEventRecord(startEvent);
  launch();
  cudaEventRecord(stopEvent);
  cudaDeviceSynchronize();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  float ms = 0.0f;
  cudaEventElapsedTime(&ms, startEvent, stopEvent);
  return {wall, ms * 1e-3};
}

float4 *bodies = nullptr, *velocities = nullptr, *newBodies = nullptr, *newVelocities = nullptr;
std::size_t bodyCount = 0;
float nbodySoftening2 = 0.0f, nbodyDt = 0.0f;

__half *axpyX = nullptr, *axpyY = nullptr;
std::size_t axpyCount = 0;

float *mathIn = nullptr, *mathOut = nullptr;
std::size_t mathCount = 0;

}  // namespace

bool cuda_vec_available(const char **why) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    *why = "the CUDA runtime finds no device";
    return false;
  }
  if (cudaEventCreate(&startEvent) != cudaSuccess || cudaEventCreate(&stopEvent) != cudaSuccess) {
    *why = "cudaEventCreate failed";
    return false;
  }
  return true;
}

bool cuda_nbody_init(const float *positions, const float *velocitiesIn, std::size_t n, float softening2, float dt) {
  bodyCount = n;
  nbodySoftening2 = softening2;
  nbodyDt = dt;
  const std::size_t bytes = n * sizeof(float4);
  for (float4 **array : {&bodies, &velocities, &newBodies, &newVelocities})
    if (cudaMalloc(array, bytes) != cudaSuccess) return false;
  return cudaMemcpy(bodies, positions, bytes, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(velocities, velocitiesIn, bytes, cudaMemcpyHostToDevice) == cudaSuccess;
}

CudaKernelTime cuda_nbody() {
  return timedKernel([] {
    nbody_step<<<blocks(bodyCount), kBlock>>>(bodies, velocities, newBodies, newVelocities, bodyCount, nbodySoftening2,
                                              nbodyDt);
  });
}

void cuda_nbody_result(float *newPositions, float *newVelocitiesOut) {
  cudaMemcpy(newPositions, newBodies, bodyCount * sizeof(float4), cudaMemcpyDeviceToHost);
  cudaMemcpy(newVelocitiesOut, newVelocities, bodyCount * sizeof(float4), cudaMemcpyDeviceToHost);
}

bool cuda_axpy_half_init(const std::uint16_t *x, const std::uint16_t *y, std::size_t n) {
  axpyCount = n;
  const std::size_t bytes = n * sizeof(__half);
  if (cudaMalloc(&axpyX, bytes) != cudaSuccess || cudaMalloc(&axpyY, bytes) != cudaSuccess) return false;
  return cudaMemcpy(axpyX, x, bytes, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(axpyY, y, bytes, cudaMemcpyHostToDevice) == cudaSuccess;
}

CudaKernelTime cuda_axpy_half(float a) {
  const __half scale = __float2half_rn(a);
  return timedKernel([=] { axpy_half<<<blocks(axpyCount), kBlock>>>(scale, axpyX, axpyY, axpyCount); });
}

void cuda_axpy_half_reset(const std::uint16_t *y) {
  cudaMemcpy(axpyY, y, axpyCount * sizeof(__half), cudaMemcpyHostToDevice);
}

void cuda_axpy_half_result(std::uint16_t *y) {
  cudaMemcpy(y, axpyY, axpyCount * sizeof(__half), cudaMemcpyDeviceToHost);
}

bool cuda_math_init(const float *in, std::size_t n) {
  mathCount = n;
  if (cudaMalloc(&mathIn, n * sizeof(float)) != cudaSuccess || cudaMalloc(&mathOut, n * sizeof(float)) != cudaSuccess)
    return false;
  return cudaMemcpy(mathIn, in, n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess;
}

CudaKernelTime cuda_math(MathFunction f) {
  return timedKernel([=] {
    switch (f) {
    case MathFunction::sin: math<MathFunction::sin><<<blocks(mathCount), kBlock>>>(mathIn, mathOut, mathCount); break;
    case MathFunction::exp: math<MathFunction::exp><<<blocks(mathCount), kBlock>>>(mathIn, mathOut, mathCount); break;
    case MathFunction::log: math<MathFunction::log><<<blocks(mathCount), kBlock>>>(mathIn, mathOut, mathCount); break;
    case MathFunction::pow: math<MathFunction::pow><<<blocks(mathCount), kBlock>>>(mathIn, mathOut, mathCount); break;
    }
  });
}

void cuda_math_result(float *out) { cudaMemcpy(out, mathOut, mathCount * sizeof(float), cudaMemcpyDeviceToHost); }

void cuda_vec_finish() {
  for (void *p : {static_cast<void *>(bodies), static_cast<void *>(velocities), static_cast<void *>(newBodies),
                  static_cast<void *>(newVelocities), static_cast<void *>(axpyX), static_cast<void *>(axpyY),
                  static_cast<void *>(mathIn), static_cast<void *>(mathOut)})
    if (p) cudaFree(p);
  if (startEvent) cudaEventDestroy(startEvent);
  if (stopEvent) cudaEventDestroy(stopEvent);
}
