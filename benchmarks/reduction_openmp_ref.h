// The OpenMP reference of the reduction benchmark, compiled by g++ -fopenmp.
#pragma once
#include <cstddef>
extern "C" {
int reduction_openmp_threads();
float reduction_openmp_sum(const float *data, std::size_t n);
}
