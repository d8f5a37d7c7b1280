// The OpenMP reference loops of the matmul benchmark; see matmul_openmp_ref.h.
// Built with `g++ -O3 -march=native -fopenmp -c`.
#include "matmul_openmp_ref.h"

#include <omp.h>

extern "C" {

int matmul_openmp_threads() { return omp_get_max_threads(); }

// C = A x B, a row of C at a time (i, k, j order: unit stride, vectorized).
void matmul_openmp(const float *a, const float *b, float *c, std::size_t n) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    float *row = c + i * n;
    for (std::size_t j = 0; j < n; ++j) row[j] = 0.0f;
    for (std::size_t k = 0; k < n; ++k) {
      const float aik = a[i * n + k];
      const float *bk = b + k * n;
#pragma omp simd
      for (std::size_t j = 0; j < n; ++j) row[j] += aik * bk[j];
    }
  }
}

void stencil_openmp(const float *in, float *out, std::size_t n) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      out[i * n + j] = (i == 0 || j == 0 || i + 1 == n || j + 1 == n)
                           ? in[i * n + j]
                           : 0.2f * (in[i * n + j] + in[(i - 1) * n + j] + in[(i + 1) * n + j] + in[i * n + j - 1] +
                                     in[i * n + j + 1]);
}

}  // extern "C"
