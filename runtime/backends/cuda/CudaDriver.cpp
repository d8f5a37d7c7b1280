#include "CudaDriver.h"

#include <dlfcn.h>

namespace onepass::cuda {

const DriverApi *loadDriver(std::string &why) {
  static DriverApi api;
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    why =
        std::string("the NVIDIA driver library libcuda.so.1 cannot be loaded (") + (reason ? reason : "unknown") + ")";
    return nullptr;
  }
  bool complete = true;
  auto resolve = [&](auto &function, const char *name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(library, name));
    if (!function) {
      why = std::string("the NVIDIA driver lacks ") + name + " (driver too old?)";
      complete = false;
    }
  };
#define ONEPASS_RESOLVE(name) resolve(api.name, #name)
  ONEPASS_RESOLVE(cuInit);
  ONEPASS_RESOLVE(cuDriverGetVersion);
  ONEPASS_RESOLVE(cuDeviceGetCount);
  ONEPASS_RESOLVE(cuDeviceGet);
  ONEPASS_RESOLVE(cuDeviceGetName);
  ONEPASS_RESOLVE(cuDeviceGetAttribute);
  ONEPASS_RESOLVE(cuDeviceTotalMem_v2);
  ONEPASS_RESOLVE(cuDevicePrimaryCtxRetain);
  ONEPASS_RESOLVE(cuCtxSetCurrent);
  ONEPASS_RESOLVE(cuCtxGetCurrent);
  ONEPASS_RESOLVE(cuMemAlloc_v2);
  ONEPASS_RESOLVE(cuMemFree_v2);
  ONEPASS_RESOLVE(cuMemHostAlloc);
  ONEPASS_RESOLVE(cuMemFreeHost);
  ONEPASS_RESOLVE(cuMemAllocManaged);
  ONEPASS_RESOLVE(cuMemcpy);
  ONEPASS_RESOLVE(cuPointerGetAttribute);
  ONEPASS_RESOLVE(cuMemsetD8_v2);
  ONEPASS_RESOLVE(cuMemsetD16_v2);
  ONEPASS_RESOLVE(cuMemsetD32_v2);
  ONEPASS_RESOLVE(cuModuleLoadDataEx);
  ONEPASS_RESOLVE(cuLinkCreate_v2);
  ONEPASS_RESOLVE(cuLinkAddData_v2);
  ONEPASS_RESOLVE(cuLinkComplete);
  ONEPASS_RESOLVE(cuLinkDestroy);
  ONEPASS_RESOLVE(cuModuleGetFunction);
  ONEPASS_RESOLVE(cuLaunchKernel);
  ONEPASS_RESOLVE(cuStreamCreate);
  ONEPASS_RESOLVE(cuStreamSynchronize);
  ONEPASS_RESOLVE(cuStreamWaitEvent);
  ONEPASS_RESOLVE(cuMemcpyAsync);
  ONEPASS_RESOLVE(cuMemsetD8Async);
  ONEPASS_RESOLVE(cuMemsetD16Async);
  ONEPASS_RESOLVE(cuMemsetD32Async);
  ONEPASS_RESOLVE(cuEventCreate);
  ONEPASS_RESOLVE(cuEventRecord);
  ONEPASS_RESOLVE(cuEventQuery);
  ONEPASS_RESOLVE(cuEventSynchronize);
  ONEPASS_RESOLVE(cuEventDestroy_v2);
  // CUDA 12.8 added cuEventElapsedTime_v2 (13 keeps only that name in cuda.h).
  if (void *v2 = dlsym(library, "cuEventElapsedTime_v2"))
    api.cuEventElapsedTime = reinterpret_cast<decltype(api.cuEventElapsedTime)>(v2);
  else ONEPASS_RESOLVE(cuEventElapsedTime);
  ONEPASS_RESOLVE(cuCtxSynchronize);
  ONEPASS_RESOLVE(cuGetErrorName);
  ONEPASS_RESOLVE(cuGetErrorString);
#undef ONEPASS_RESOLVE
  auto optional = [&](auto &function, const char *name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(library, name));
  };
  optional(api.cuFuncGetAttribute, "cuFuncGetAttribute");
  optional(api.cuStreamGetCtx, "cuStreamGetCtx");
  optional(api.cuCtxPushCurrent_v2, "cuCtxPushCurrent_v2");
  optional(api.cuCtxPopCurrent_v2, "cuCtxPopCurrent_v2");
  optional(api.cuCtxGetDevice, "cuCtxGetDevice");
  optional(api.cuArray3DCreate_v2, "cuArray3DCreate_v2");
  optional(api.cuArrayDestroy, "cuArrayDestroy");
  optional(api.cuMemcpy3DAsync_v2, "cuMemcpy3DAsync_v2");
  optional(api.cuTexObjectCreate, "cuTexObjectCreate");
  optional(api.cuTexObjectDestroy, "cuTexObjectDestroy");
  return complete ? &api : nullptr;
}

std::string describe(const DriverApi &api, CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  api.cuGetErrorName(result, &name);
  api.cuGetErrorString(result, &text);
  return std::string(name ? name : "CUDA error " + std::to_string(result)) + " (" + (text ? text : "no description") +
         ")";
}

}  // namespace onepass::cuda
