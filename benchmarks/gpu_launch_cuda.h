// The raw CUDA reference of gpu_launch: an empty kernel compiled by nvcc,
// launched with the driver's cuLaunchKernel (gpu_launch_cuda.cu).
#pragma once

// Prepares the kernel and a non-blocking stream. False if CUDA is unusable.
bool cuda_launch_init();
// Seconds for `count` back-to-back launches and one synchronization at the end;
// `submitted`, if given, receives the seconds until the last launch returned.
double cuda_launch_back_to_back(int count, double *submitted = nullptr);
// Seconds for one launch followed by cuStreamSynchronize.
double cuda_launch_and_wait();
// Diagnostics: back-to-back launches with one of OnePass's costs added.
// 1: three 64-bit arguments and 256 threads; 2: two cuCtxSetCurrent per
// launch; 3: an event recorded every 16 launches, queried by another thread
// every 20 us.
double cuda_launch_variant(int count, int variant);
