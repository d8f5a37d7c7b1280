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
using CUarray = struct CUarray_st *;
using CUtexObject = unsigned long long;

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
  MaxTexture2DWidth = 22,
  MaxTexture2DHeight = 23,
  MaxTexture3DWidth = 24,
  MaxTexture3DHeight = 25,
  MaxTexture3DDepth = 26,
  TextureAlignment = 14,
  TexturePitchAlignment = 51,
  MaxTexture2DLinearWidth = 70,
  MaxTexture2DLinearHeight = 71,
  MaxTexture2DLinearPitch = 72,
};

// Textures (cuda.h's structures of the same names, as the driver's ABI has them).
inline constexpr unsigned CU_MEMORYTYPE_DEVICE = 2;
inline constexpr unsigned CU_MEMORYTYPE_ARRAY = 3;
inline constexpr unsigned CU_AD_FORMAT_UNSIGNED_INT8 = 0x01, CU_AD_FORMAT_UNSIGNED_INT16 = 0x02,
                          CU_AD_FORMAT_UNSIGNED_INT32 = 0x03, CU_AD_FORMAT_SIGNED_INT8 = 0x08,
                          CU_AD_FORMAT_SIGNED_INT16 = 0x09, CU_AD_FORMAT_SIGNED_INT32 = 0x0a, CU_AD_FORMAT_HALF = 0x10,
                          CU_AD_FORMAT_FLOAT = 0x20;
inline constexpr int CU_TR_ADDRESS_MODE_WRAP = 0, CU_TR_ADDRESS_MODE_CLAMP = 1, CU_TR_ADDRESS_MODE_MIRROR = 2,
                     CU_TR_ADDRESS_MODE_BORDER = 3;
inline constexpr int CU_TR_FILTER_MODE_POINT = 0, CU_TR_FILTER_MODE_LINEAR = 1;
inline constexpr unsigned CU_TRSF_READ_AS_INTEGER = 0x01, CU_TRSF_NORMALIZED_COORDINATES = 0x02;
struct CUDA_ARRAY3D_DESCRIPTOR {
  size_t Width, Height, Depth;
  unsigned Format;
  unsigned NumChannels;
  unsigned Flags;
};
struct CUDA_MEMCPY3D {
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  unsigned srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  void *reserved0;
  size_t srcPitch, srcHeight;
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  unsigned dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  void *reserved1;
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
};
struct CUDA_RESOURCE_DESC {
  int resType;  // 0: an array, 3: pitched device memory
  union {
    CUarray array;
    struct {
      CUdeviceptr devPtr;
      unsigned format;
      unsigned numChannels;
      size_t width, height, pitchInBytes;
    } pitch2D;
    int reserved[32];
  } res;
  unsigned flags;
};
struct CUDA_TEXTURE_DESC {
  int addressMode[3];
  int filterMode;
  unsigned flags;
  unsigned maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
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

static_assert(sizeof(CUDA_ARRAY3D_DESCRIPTOR) == 40 && sizeof(CUDA_MEMCPY3D) == 200 &&
                  sizeof(CUDA_RESOURCE_DESC) == 144 && sizeof(CUDA_TEXTURE_DESC) == 104,
              "the texture structures as cuda.h (CUDA 13) has them");

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
  // Optional too (null: sampled images are read in software).
  CUresult (*cuArray3DCreate_v2)(CUarray *, const CUDA_ARRAY3D_DESCRIPTOR *);
  CUresult (*cuArrayDestroy)(CUarray);
  CUresult (*cuMemcpy3DAsync_v2)(const CUDA_MEMCPY3D *, CUstream);
  CUresult (*cuTexObjectCreate)(CUtexObject *, const CUDA_RESOURCE_DESC *, const CUDA_TEXTURE_DESC *, const void *);
  CUresult (*cuTexObjectDestroy)(CUtexObject);
};

// Loads libcuda.so.1 and resolves every function. Returns nullptr and sets
// `why` if the driver is missing or too old.
const DriverApi *loadDriver(std::string &why);

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)" for `result`.
std::string describe(const DriverApi &api, CUresult result);

}  // namespace onepass::cuda
