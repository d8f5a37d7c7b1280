// The OpenMP references of the matmul benchmark, compiled by g++ -fopenmp:
// the kernels' tiled algorithms as plain C++ loops (*_tiled_openmp), and
// faster plain loops without tiles computing the same results (an i-k-j
// multiply over rows, a direct stencil).
#pragma once
#include <cstddef>
extern "C" {
int matmul_openmp_threads();
void matmul_openmp(const float *a, const float *b, float *c, std::size_t n);
void stencil_openmp(const float *in, float *out, std::size_t n);
void matmul_tiled_openmp(const float *a, const float *b, float *c, std::size_t n);
void stencil_tiled_openmp(const float *in, float *out, std::size_t n);
}
