// The CUDA reference for gpu_stream (BabelStream's definitions, one element
// per thread, 1024-thread blocks as BabelStream's CUDA version uses; dot with
// 4 blocks per multiprocessor).
#include "gpu_stream_cuda.h"

#include "cuda_timing.h"

#include <chrono>
#include <cuda_runtime.h>

namespace {
constexpr int kBlock = 1024;
double *a = nullptr, *b = nullptr, *c = nullptr;
size_t count = 0;

__global__ void init(double *a, double *b, double *c, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) { a[i] = 0.1; b[i] = 0.2; c[i] = 0.0; }
}
__global__ void copy(const double *a, double *c, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i];
}
__global__ void mul(double *b, const double *c, double s, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) b[i] = s * c[i];
}
__global__ void add(const double *a, const double *b, double *c, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void triad(double *a, const double *b, const double *c, double s, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}

// dot: each block sums a grid-stride share of the products in shared
// memory (a halving tree, a barrier per step) and writes its partial sum;
// the host adds the partial sums.
__global__ void dot(const double *a, const double *b, double *sums, size_t n) {
  __shared__ double partial[kBlock];
  const unsigned local = threadIdx.x;
  double sum = 0.0;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + local; i < n; i += size_t(blockDim.x) * gridDim.x) sum += a[i] * b[i];
  partial[local] = sum;
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    __syncthreads();
    if (local < half) partial[local] += partial[local + half];
  }
  if (local == 0) sums[blockIdx.x] = partial[0];
}
double *dotSums = nullptr;  // pinned host memory, written by the GPU
unsigned dotBlocks = 0;

unsigned blocks() { return unsigned((count + kBlock - 1) / kBlock); }

}  // namespace

bool cuda_stream_init(size_t n) {
  count = n;
  if (cudaMalloc(&a, n * sizeof(double)) != cudaSuccess || cudaMalloc(&b, n * sizeof(double)) != cudaSuccess ||
      cudaMalloc(&c, n * sizeof(double)) != cudaSuccess)
    return false;
  init<<<blocks(), kBlock>>>(a, b, c, n);
  int multiprocessors = 0;
  if (cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) return false;
  dotBlocks = unsigned(multiprocessors) * kDotBlocksPerMultiprocessor;
  if (cudaMallocHost(&dotSums, dotBlocks * sizeof(double)) != cudaSuccess) return false;
  return cudaDeviceSynchronize() == cudaSuccess;
}
double cuda_stream_copy() { return timed([] { copy<<<blocks(), kBlock>>>(a, c, count); }); }
double cuda_stream_mul(double s) { return timed([=] { mul<<<blocks(), kBlock>>>(b, c, s, count); }); }
double cuda_stream_add() { return timed([] { add<<<blocks(), kBlock>>>(a, b, c, count); }); }
double cuda_stream_triad(double s) { return timed([=] { triad<<<blocks(), kBlock>>>(a, b, c, s, count); }); }
double cuda_stream_dot(double &result) {
  return timed([&] {
    dot<<<dotBlocks, kBlock>>>(a, b, dotSums, count);
    cudaDeviceSynchronize();
    result = 0.0;
    for (unsigned i = 0; i < dotBlocks; ++i) result += dotSums[i];
  });
}
double cuda_stream_read_a(size_t i) {
  double value = 0;
  cudaMemcpy(&value, a + i, sizeof(double), cudaMemcpyDeviceToHost);
  return value;
}
void cuda_stream_finish() {
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFreeHost(dotSums);
}
