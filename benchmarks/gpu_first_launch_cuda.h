// The CUDA reference of gpu_first_launch: the same small kernel compiled by
// nvcc into the program (gpu_first_launch_cuda.cu). The CUDA runtime loads
// its module at the kernel's first launch (lazy loading, CUDA's default), so
// that launch is "load a precompiled cubin and launch it".
#pragma once

// Creates the context and the kernel's array. False if CUDA is unusable.
bool cuda_first_launch_init(int n);
// Seconds from the kernel's first launch to its completion.
double cuda_first_launch_run(int n);
// Checks the array the kernel wrote (data[i] == 2 * i).
bool cuda_first_launch_verify(int n);
