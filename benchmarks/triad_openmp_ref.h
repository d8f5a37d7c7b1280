// The OpenMP reference of the triad benchmark (triad.cpp), compiled by g++
// with -fopenmp in its own translation unit (triad_openmp_ref.cpp): the
// OnePass host compiler is clang, whose OpenMP runtime is not installed.
#pragma once

#include <cstddef>

extern "C" {
// Threads an OpenMP parallel region uses (OMP_NUM_THREADS, or all cores).
int triad_openmp_threads();
// First touch in parallel, with the same static schedule as the triad, so
// each thread's pages are local to it.
void triad_openmp_init(float *a, float *b, float *c, std::size_t n);
// a[i] = b[i] + scalar * c[i]
void triad_openmp(float *a, const float *b, const float *c, float scalar, std::size_t n);
}
