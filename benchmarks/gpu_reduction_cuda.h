// The CUDA reference of gpu_reduction: CUB's DeviceReduce::Sum (shipped with
// the CUDA toolkit), compiled by nvcc and linked into the same program.
#pragma once
#include <cstddef>
// Allocates n floats on the device, all `value`, and CUB's scratch.
bool cuda_reduction_init(std::size_t n, float value);
// One sum of the n floats, waited for; the sum in *sum. Returns seconds.
double cuda_reduction_sum(float *sum);
void cuda_reduction_finish();
