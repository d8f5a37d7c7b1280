// The Level Zero API the Level Zero backend uses, resolved from the loader
// (libze_loader.so.1) at run time: the backend builds without a GPU driver
// and is absent where no loader is installed. Types and constants from the
// oneAPI headers (Debian's libze-dev).
#pragma once

#include <level_zero/ze_api.h>

#include <string>

namespace onepass::level_zero {

struct Api {
  void *library = nullptr;
// clang-format off
#define ONEPASS_ZE_FUNCTIONS(X)                                                                                        \
  X(zeInit) X(zeDriverGet) X(zeDriverGetProperties) X(zeDriverGetApiVersion) X(zeDeviceGet) X(zeDeviceGetProperties)   \
  X(zeDeviceGetComputeProperties) X(zeDeviceGetModuleProperties) X(zeDeviceGetMemoryProperties)                        \
  X(zeDeviceGetCacheProperties) X(zeDeviceGetCommandQueueGroupProperties) X(zeContextCreate) X(zeContextDestroy)       \
  X(zeCommandListCreateImmediate) X(zeCommandListDestroy) X(zeCommandListAppendMemoryCopy)                             \
  X(zeCommandListAppendMemoryFill) X(zeCommandListAppendLaunchKernel) X(zeCommandListAppendBarrier)                    \
  X(zeMemAllocDevice) X(zeMemAllocHost) X(zeMemAllocShared) X(zeMemFree) X(zeModuleCreate) X(zeModuleDestroy)          \
  X(zeModuleBuildLogGetString)                                                                                         \
  X(zeModuleBuildLogDestroy) X(zeKernelCreate) X(zeKernelGetProperties) X(zeKernelSetArgumentValue)                    \
  X(zeKernelSetGroupSize) X(zeEventPoolCreate) X(zeEventCreate) X(zeEventHostSynchronize) X(zeEventQueryStatus)        \
  X(zeEventHostReset) X(zeEventQueryKernelTimestamp)
// clang-format on
#define ONEPASS_ZE_MEMBER(name) decltype(&::name) name = nullptr;
  ONEPASS_ZE_FUNCTIONS(ONEPASS_ZE_MEMBER)
#undef ONEPASS_ZE_MEMBER

  // Loads the loader; false with `why` if it or a function is missing.
  bool load(std::string &why);
};

// "ZE_RESULT_ERROR_INVALID_ARGUMENT (0x78000004)" and the like, for messages.
std::string resultName(ze_result_t result);

}  // namespace onepass::level_zero
