// The OpenMP references of the matmul benchmark (the same algorithms as
// plain C++ loops), compiled by g++ -fopenmp.
#pragma once
#include <cstddef>
extern "C" {
int matmul_openmp_threads();
void matmul_openmp(const float *a, const float *b, float *c, std::size_t n);
void stencil_openmp(const float *in, float *out, std::size_t n);
}
