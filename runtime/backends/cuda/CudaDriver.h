// The part of the CUDA driver API the CUDA backend uses, declared here (the
// types and enum values of the driver's ABI) and resolved from libcuda.so.1 at
// run time, so OnePass builds without a CUDA toolkit and a binary runs where
// no NVIDIA driver is installed.
#pragma once

#include <cstddef>
#include <string>

namespace onepass::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUlinkState = struct CUlinkState_st *;
using CUevent = struct CUevent_st *;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_NOT_READY = 600;

enum DeviceAttribute : int {
  MaxThreadsPerBlock = 1,
  MaxBlockDimX = 2,
  MaxBlockDimY = 3,
  MaxBlockDimZ = 4,
  MaxGridDimX = 5,
  MaxGridDimY = 6,
  MaxGridDimZ = 7,
  MaxSharedMemoryPerBlock = 8,
  WarpSize = 10,
  ClockRateKHz = 13,
  MultiprocessorCount = 16,
  L2CacheSize = 38,
  ComputeCapabilityMajor = 75,
  ComputeCapabilityMinor = 76,
  ManagedMemory = 83,
};

inline constexpr int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;
inline constexpr unsigned CU_MEMORYTYPE_HOST = 1;
inline constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
inline constexpr int CU_JIT_INPUT_CUBIN = 0;
inline constexpr int CU_JIT_INPUT_PTX = 1;
inline constexpr int CU_JIT_INPUT_FATBINARY = 2;
inline constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
inline constexpr unsigned CU_MEM_ATTACH_GLOBAL = 1;
inline constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 1;
inline constexpr unsigned CU_MEMHOSTALLOC_DEVICEMAP = 2;
inline constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
inline constexpr unsigned CU_EVENT_DEFAULT = 0;
inline constexpr unsigned CU_EVENT_DISABLE_TIMING = 2;
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
inline constexpr int CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;

// Function pointers, named after the driver's exported (versioned) symbols.
struct DriverApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDeviceTotalMem_v2)(size_t *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuMemAlloc_v2)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree_v2)(CUdeviceptr);
  CUresult (*cuMemHostAlloc)(void **, size_t, unsigned);
  CUresult (*cuMemFreeHost)(void *);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemcpy)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuPointerGetAttribute)(void *, int, CUdeviceptr);
  CUresult (*cuMemsetD8_v2)(CUdeviceptr, unsigned char, size_t);
  CUresult (*cuMemsetD16_v2)(CUdeviceptr, unsigned short, size_t);
  CUresult (*cuMemsetD32_v2)(CUdeviceptr, unsigned, size_t);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
  CUresult (*cuLinkCreate_v2)(unsigned, int *, void **, CUlinkState *);
  CUresult (*cuLinkAddData_v2)(CUlinkState, int, void *, size_t, const char *, unsigned, int *, void **);
  CUresult (*cuLinkComplete)(CUlinkState, void **, size_t *);
  CUresult (*cuLinkDestroy)(CUlinkState);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventQuery)(CUevent);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventDestroy_v2)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);  // _v2 where the driver has it
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);  // optional: null if the driver lacks it
  // Optional too (interop: make_queue and make_context of foreign objects).
  CUresult (*cuStreamGetCtx)(CUstream, CUcontext *);
  CUresult (*cuCtxPushCurrent_v2)(CUcontext);
  CUresult (*cuCtxPopCurrent_v2)(CUcontext *);
  CUresult (*cuCtxGetDevice)(CUdevice *);
};

// Loads libcuda.so.1 and resolves every function. Returns nullptr and sets
// `why` if the driver is missing or too old.
const DriverApi *loadDriver(std::string &why);

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)" for `result`.
std::string describe(const DriverApi &api, CUresult result);

}  // namespace onepass::cuda
