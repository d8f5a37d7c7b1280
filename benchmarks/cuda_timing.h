// Timing of the CUDA references (the *_cuda.cu files, built by nvcc).
#pragma once

#include <chrono>
#include <cuda_runtime.h>

// Wall seconds of `launch()` and the device work it started.
template <typename Launch> double timed(Launch launch) {
  auto start = std::chrono::steady_clock::now();
  launch();
  cudaDeviceSynchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
