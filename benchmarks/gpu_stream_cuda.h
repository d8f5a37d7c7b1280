// The CUDA reference of gpu_stream: BabelStream's kernels compiled by nvcc
// (gpu_stream_cuda.cu), linked into the same program as the OnePass version.
#pragma once

#include <cstddef>

// Allocates three device arrays of n doubles and initializes them like the
// OnePass side (a=0.1, b=0.2, c=0.0). Returns false if CUDA is unusable.
bool cuda_stream_init(size_t n);
// Each runs one kernel over the arrays and waits for it; returns seconds.
double cuda_stream_copy();
double cuda_stream_mul(double scalar);
double cuda_stream_add();
double cuda_stream_triad(double scalar);
// dot: sum of a[i] * b[i] into `result` (partial sums per block, added on the host).
double cuda_stream_dot(double &result);
// dot's work-groups (thread blocks) per multiprocessor, on both sides.
inline constexpr unsigned kDotBlocksPerMultiprocessor = 4;
// Copies element i of array a back to the host.
double cuda_stream_read_a(size_t i);
void cuda_stream_finish();
