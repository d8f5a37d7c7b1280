// The raw reference for gpu_launch: cuLaunchKernel (+ cuStreamSynchronize) of
// an empty kernel, the driver functions taken from the runtime so the program
// needs no link against libcuda.
#include "gpu_launch_cuda.h"

#include <chrono>
#include <cuda.h>
#include <cuda_runtime.h>

namespace {
__global__ void empty_kernel() {}

using LaunchFn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              CUstream, void **, void **);
using SyncFn = CUresult (*)(CUstream);
LaunchFn launch = nullptr;
SyncFn synchronize = nullptr;
CUfunction function = nullptr;
CUstream stream = nullptr;

double seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

bool cuda_launch_init() {
  cudaDriverEntryPointQueryResult status;
  if (cudaFree(nullptr) != cudaSuccess) return false;
  if (cudaGetDriverEntryPointByVersion("cuLaunchKernel", reinterpret_cast<void **>(&launch), 12000, cudaEnableDefault,
                                       &status) != cudaSuccess ||
      cudaGetDriverEntryPointByVersion("cuStreamSynchronize", reinterpret_cast<void **>(&synchronize), 12000,
                                       cudaEnableDefault, &status) != cudaSuccess)
    return false;
  if (cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&function), reinterpret_cast<const void *>(empty_kernel)) !=
      cudaSuccess)
    return false;
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return false;
  stream = reinterpret_cast<CUstream>(s);
  return launch(function, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr) == CUDA_SUCCESS && synchronize(stream) == CUDA_SUCCESS;
}

double cuda_launch_back_to_back(int count) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < count; ++i) launch(function, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr);
  synchronize(stream);
  return seconds(start);
}

double cuda_launch_and_wait() {
  auto start = std::chrono::steady_clock::now();
  launch(function, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr);
  synchronize(stream);
  return seconds(start);
}
