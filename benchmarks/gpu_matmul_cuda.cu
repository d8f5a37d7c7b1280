// CUDA versions of the kernels in matmul_kernels.h, the same algorithms.
#include "gpu_matmul_cuda.h"

#include "cuda_timing.h"

#include <chrono>
#include <cuda_runtime.h>

namespace {
constexpr unsigned kTile = 16;
float *da = nullptr, *db = nullptr, *dc = nullptr, *din = nullptr, *dout = nullptr;
std::size_t matrix = 0, grid = 0;

__global__ void tiled_matmul(const float *a, const float *b, float *c, std::size_t n) {
  __shared__ float tileA[kTile][kTile], tileB[kTile][kTile];
  const std::size_t row = std::size_t(blockIdx.y) * kTile + threadIdx.y, column = std::size_t(blockIdx.x) * kTile + threadIdx.x;
  const unsigned r = threadIdx.y, k = threadIdx.x;
  float sum = 0.0f;
  for (std::size_t t = 0; t < n; t += kTile) {
    tileA[r][k] = a[row * n + t + k];
    tileB[r][k] = b[(t + r) * n + column];
    __syncthreads();
    for (unsigned j = 0; j < kTile; ++j) sum += tileA[r][j] * tileB[j][k];
    __syncthreads();
  }
  c[row * n + column] = sum;
}

__global__ void tiled_stencil(const float *in, float *out, std::size_t n) {
  __shared__ float tile[kTile + 2][kTile + 2];
  const std::size_t i = std::size_t(blockIdx.y) * kTile + threadIdx.y, j = std::size_t(blockIdx.x) * kTile + threadIdx.x;
  const unsigned r = threadIdx.y + 1, c = threadIdx.x + 1;
  tile[r][c] = in[i * n + j];
  if (r == 1 && i > 0) tile[0][c] = in[(i - 1) * n + j];
  if (r == kTile && i + 1 < n) tile[kTile + 1][c] = in[(i + 1) * n + j];
  if (c == 1 && j > 0) tile[r][0] = in[i * n + j - 1];
  if (c == kTile && j + 1 < n) tile[r][kTile + 1] = in[i * n + j + 1];
  __syncthreads();
  if (i == 0 || j == 0 || i + 1 == n || j + 1 == n)
    out[i * n + j] = tile[r][c];
  else
    out[i * n + j] = 0.2f * (tile[r][c] + tile[r - 1][c] + tile[r + 1][c] + tile[r][c - 1] + tile[r][c + 1]);
}

}  // namespace

bool cuda_matmul_init(const float *a, const float *b, std::size_t n) {
  matrix = n;
  const std::size_t bytes = n * n * sizeof(float);
  if (cudaMalloc(&da, bytes) != cudaSuccess || cudaMalloc(&db, bytes) != cudaSuccess || cudaMalloc(&dc, bytes) != cudaSuccess)
    return false;
  return cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice) == cudaSuccess;
}

double cuda_matmul(float *c) {
  const dim3 blocks(unsigned(matrix / kTile), unsigned(matrix / kTile)), threads(kTile, kTile);
  double t = timed([&] { tiled_matmul<<<blocks, threads>>>(da, db, dc, matrix); });
  cudaMemcpy(c, dc, matrix * matrix * sizeof(float), cudaMemcpyDeviceToHost);
  return t;
}

bool cuda_stencil_init(const float *in, std::size_t n) {
  grid = n;
  const std::size_t bytes = n * n * sizeof(float);
  if (cudaMalloc(&din, bytes) != cudaSuccess || cudaMalloc(&dout, bytes) != cudaSuccess) return false;
  return cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice) == cudaSuccess;
}

double cuda_stencil(float *out) {
  const dim3 blocks(unsigned(grid / kTile), unsigned(grid / kTile)), threads(kTile, kTile);
  double t = timed([&] { tiled_stencil<<<blocks, threads>>>(din, dout, grid); });
  cudaMemcpy(out, dout, grid * grid * sizeof(float), cudaMemcpyDeviceToHost);
  return t;
}

void cuda_matmul_finish() {
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaFree(din);
  cudaFree(dout);
}
