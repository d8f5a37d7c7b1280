// The raw CUDA reference of gpu_launch: an empty kernel compiled by nvcc,
// launched with the driver's cuLaunchKernel (gpu_launch_cuda.cu).
#pragma once

// Prepares the kernel and a non-blocking stream. False if CUDA is unusable.
bool cuda_launch_init();
// Seconds for `count` back-to-back launches and one synchronization at the end.
double cuda_launch_back_to_back(int count);
// Seconds for one launch followed by cuStreamSynchronize.
double cuda_launch_and_wait();
