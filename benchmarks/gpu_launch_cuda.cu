// The raw reference for gpu_launch: cuLaunchKernel (+ cuStreamSynchronize) of
// an empty kernel, the driver functions taken from the runtime so the program
// needs no link against libcuda.
#include "gpu_launch_cuda.h"

#include <atomic>
#include <chrono>
#include <cuda.h>
#include <cuda_runtime.h>
#include <thread>

namespace {
__global__ void empty_kernel() {}
__global__ void empty_kernel_args(unsigned long long, unsigned long long, unsigned long long) {}

using LaunchFn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              CUstream, void **, void **);
using SyncFn = CUresult (*)(CUstream);
LaunchFn launch = nullptr;
SyncFn synchronize = nullptr;
CUfunction function = nullptr, functionArgs = nullptr;
CUstream stream = nullptr;
CUresult (*setCurrent)(CUcontext) = nullptr;
CUresult (*getCurrent)(CUcontext *) = nullptr;
CUresult (*eventCreate)(CUevent *, unsigned) = nullptr;
CUresult (*eventRecord)(CUevent, CUstream) = nullptr;
CUresult (*eventQuery)(CUevent) = nullptr;

template <typename F> bool entry(const char *name, F &function) {
  cudaDriverEntryPointQueryResult status;
  return cudaGetDriverEntryPointByVersion(name, reinterpret_cast<void **>(&function), 12000, cudaEnableDefault,
                                          &status) == cudaSuccess;
}

double seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

bool cuda_launch_init() {
  cudaDriverEntryPointQueryResult status;
  if (cudaFree(nullptr) != cudaSuccess) return false;
  if (cudaGetDriverEntryPointByVersion("cuLaunchKernel", reinterpret_cast<void **>(&launch), 12000, cudaEnableDefault,
                                       &status) != cudaSuccess ||
      cudaGetDriverEntryPointByVersion("cuStreamSynchronize", reinterpret_cast<void **>(&synchronize), 12000,
                                       cudaEnableDefault, &status) != cudaSuccess)
    return false;
  if (cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&function), reinterpret_cast<const void *>(empty_kernel)) !=
          cudaSuccess ||
      cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&functionArgs),
                          reinterpret_cast<const void *>(empty_kernel_args)) != cudaSuccess)
    return false;
  if (!entry("cuCtxSetCurrent", setCurrent) || !entry("cuCtxGetCurrent", getCurrent) ||
      !entry("cuEventCreate", eventCreate) || !entry("cuEventRecord", eventRecord) || !entry("cuEventQuery", eventQuery))
    return false;
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return false;
  stream = reinterpret_cast<CUstream>(s);
  return launch(function, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr) == CUDA_SUCCESS && synchronize(stream) == CUDA_SUCCESS;
}

double cuda_launch_back_to_back(int count, double *submitted) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < count; ++i) launch(function, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr);
  if (submitted) *submitted = seconds(start);
  synchronize(stream);
  return seconds(start);
}

double cuda_launch_and_wait() {
  auto start = std::chrono::steady_clock::now();
  launch(function, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr);
  synchronize(stream);
  return seconds(start);
}

double cuda_launch_variant(int count, int variant) {
  CUcontext context = nullptr;
  getCurrent(&context);
  unsigned long long a = 1, b = 2, c = 3;
  void *args[] = {&a, &b, &c};
  std::atomic<bool> stop{false};
  std::atomic<CUevent> latest{nullptr};
  std::thread poller;
  CUevent events[64];
  for (CUevent &event : events) eventCreate(&event, 2 /* CU_EVENT_DISABLE_TIMING */);
  if (variant == 3)
    poller = std::thread([&] {
      setCurrent(context);
      while (!stop.load()) {
        if (CUevent e = latest.load()) eventQuery(e);
        std::this_thread::sleep_for(std::chrono::microseconds(20));
      }
    });
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < count; ++i) {
    switch (variant) {
    case 1: launch(functionArgs, 1, 1, 1, 256, 1, 1, 0, stream, args, nullptr); break;  // arguments, 256 threads
    case 2:  // two context switches per launch
      setCurrent(context);
      setCurrent(context);
      launch(function, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr);
      break;
    case 4:  // one context query per launch
      getCurrent(&context);
      launch(function, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr);
      break;
    case 3:  // a marker every 16 launches, polled by another thread every 20 us
      launch(function, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr);
      if (i % 16 == 15) {
        eventRecord(events[(i / 16) % 64], stream);
        latest.store(events[(i / 16) % 64]);
      }
      break;
    }
  }
  synchronize(stream);
  double elapsed = seconds(start);
  stop.store(true);
  if (poller.joinable()) poller.join();
  return elapsed;
}
