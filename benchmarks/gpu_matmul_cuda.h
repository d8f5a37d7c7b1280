// The CUDA references of gpu_matmul: the same tiled matrix multiply and
// 5-point stencil as benchmarks/matmul_kernels.h, compiled by nvcc.
#pragma once
#include <cstddef>
// Device copies of the host arrays; false if CUDA is unusable.
bool cuda_matmul_init(const float *a, const float *b, std::size_t n);
double cuda_matmul(float *c);  // one multiply, waited for; C copied to `c`; seconds (of the kernel)
bool cuda_stencil_init(const float *in, std::size_t n);
double cuda_stencil(float *out);
void cuda_matmul_finish();
