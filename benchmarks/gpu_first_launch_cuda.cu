#include "gpu_first_launch_cuda.h"

#include <chrono>
#include <cuda_runtime.h>
#include <vector>

namespace {
__global__ void first_kernel(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = 2 * i;
}
int *data = nullptr;
}  // namespace

bool cuda_first_launch_init(int n) {
  return cudaFree(nullptr) == cudaSuccess && cudaMalloc(&data, n * sizeof(int)) == cudaSuccess &&
         cudaMemset(data, 0, n * sizeof(int)) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess;
}

double cuda_first_launch_run(int n) {
  auto start = std::chrono::steady_clock::now();
  first_kernel<<<(n + 255) / 256, 256>>>(data, n);
  cudaDeviceSynchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool cuda_first_launch_verify(int n) {
  std::vector<int> host(n);
  if (cudaMemcpy(host.data(), data, n * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) return false;
  for (int i = 0; i < n; ++i)
    if (host[i] != 2 * i) return false;
  return true;
}
