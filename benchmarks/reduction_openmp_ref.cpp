// The OpenMP reference loop of the reduction benchmark; see reduction_openmp_ref.h.
// Built with `g++ -O3 -march=native -fopenmp -c`.
#include "reduction_openmp_ref.h"

#include <omp.h>

extern "C" {

int reduction_openmp_threads() { return omp_get_max_threads(); }

float reduction_openmp_sum(const float *data, std::size_t n) {
  float sum = 0.0f;
#pragma omp parallel for simd reduction(+ : sum) schedule(static)
  for (std::size_t i = 0; i < n; ++i) sum += data[i];
  return sum;
}

}  // extern "C"
