// The OpenMP reference loops of the triad benchmark; see triad_openmp_ref.h.
// Built with `g++ -O3 -march=native -fopenmp -c`.
#include "triad_openmp_ref.h"

#include <omp.h>

extern "C" {

int triad_openmp_threads() { return omp_get_max_threads(); }

void triad_openmp_init(float *a, float *b, float *c, std::size_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = 0.0f;
    b[i] = 1.0f;
    c[i] = 2.0f;
  }
}

void triad_openmp(float *__restrict a, const float *__restrict b, const float *__restrict c, float scalar,
                  std::size_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + scalar * c[i];
}

}  // extern "C"
