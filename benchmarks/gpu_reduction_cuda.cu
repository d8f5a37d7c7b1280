// The CUDA reference for gpu_reduction: cub::DeviceReduce::Sum.
#include "gpu_reduction_cuda.h"

#include <chrono>
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

namespace {
float *input = nullptr, *output = nullptr;
void *scratch = nullptr;
std::size_t scratchBytes = 0, count = 0;

__global__ void fill(float *data, std::size_t n, float value) {
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}
}  // namespace

bool cuda_reduction_init(std::size_t n, float value) {
  count = n;
  if (cudaMalloc(&input, n * sizeof(float)) != cudaSuccess || cudaMalloc(&output, sizeof(float)) != cudaSuccess)
    return false;
  fill<<<unsigned((n + 255) / 256), 256>>>(input, n, value);
  if (cub::DeviceReduce::Sum(nullptr, scratchBytes, input, output, int(n)) != cudaSuccess) return false;
  if (cudaMalloc(&scratch, scratchBytes) != cudaSuccess) return false;
  return cudaDeviceSynchronize() == cudaSuccess;
}

double cuda_reduction_sum(float *sum) {
  auto start = std::chrono::steady_clock::now();
  cub::DeviceReduce::Sum(scratch, scratchBytes, input, output, int(count));
  cudaMemcpy(sum, output, sizeof(float), cudaMemcpyDeviceToHost);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void cuda_reduction_finish() {
  cudaFree(input);
  cudaFree(output);
  cudaFree(scratch);
}
