// The CUDA reference of gpu_print: one printf line per thread (gpu_print_cuda.cu).
#pragma once

#include <cstddef>

// Sets the printf FIFO large enough for `lines` lines. False if CUDA is unusable.
bool cuda_print_init(std::size_t lines);
// Seconds for a kernel of `lines` threads printing one line each, through
// cudaDeviceSynchronize (which writes the lines to stdout).
double cuda_print(std::size_t lines);
