// The CUDA side of gpu_print: printf from every thread of a kernel, blocks of
// 256, the lines written to stdout by cudaDeviceSynchronize.
#include "gpu_print_cuda.h"

#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

namespace {
__global__ void print_lines(unsigned long long lines) {
  const unsigned long long i = blockIdx.x * 256ull + threadIdx.x;
  if (i < lines) printf("work-item %llu value %g\n", i, 2.5f * static_cast<float>(i));
}
}  // namespace

bool cuda_print_init(std::size_t lines) {
  // 48 bytes of text and the FIFO's own record per line, with room to spare.
  return cudaSetDevice(0) == cudaSuccess && cudaDeviceSetLimit(cudaLimitPrintfFifoSize, lines * 256) == cudaSuccess &&
         cudaDeviceSynchronize() == cudaSuccess;
}

double cuda_print(std::size_t lines) {
  const auto start = std::chrono::steady_clock::now();
  print_lines<<<static_cast<unsigned>((lines + 255) / 256), 256>>>(lines);
  if (cudaDeviceSynchronize() != cudaSuccess) return -1;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
