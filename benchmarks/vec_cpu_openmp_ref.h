// The OpenMP references of the vec_cpu benchmark (vec_cpu.cpp), compiled by
// g++ -O3 -march=native -fopenmp in their own translation unit
// (vec_cpu_openmp_ref.cpp): the same loops as the OnePass kernels, one
// iteration of the parallel loop per work-item.
#pragma once

#include <cstddef>

extern "C" {
// Threads an OpenMP parallel region uses (OMP_NUM_THREADS, or all cores).
int vec_openmp_threads();

// One all-pairs N-body step. Bodies are 4 floats each, 16-byte aligned:
// positions (x, y, z, mass) and velocities (x, y, z, 0). Writes the new
// positions and velocities of all n bodies; the inputs are left unchanged.
void nbody_openmp(const float *positions, const float *velocities, float *newPositions, float *newVelocities,
                  std::size_t n, float softening2, float dt);

// y[i] = a * x[i] + y[i] in half precision (_Float16): the product rounded
// to half, then the sum rounded to half, as sycl::half's operators do.
void axpy_half_openmp(float a, const _Float16 *x, _Float16 *y, std::size_t n);

// y[i] = a * x[i] + y[i] over n groups of 4 floats (a float4 per element).
void axpy_float4_openmp(float a, const float *x, float *y, std::size_t n);

// First touch of the reference's arrays in parallel, with the loops' static
// schedule, so each thread's pages are local to it.
void fill_half_openmp(_Float16 *data, const _Float16 *from, std::size_t n);
void fill_float_openmp(float *data, const float *from, std::size_t n);
}
