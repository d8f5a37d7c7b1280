// A stand-in for the oneAPI Level Zero loader (libze_loader.so.1) with the
// part of the API the Level Zero backend uses, so the backend's logic runs
// where there is no Intel GPU: one driver with FAKE_ZE_DEVICES GPU devices.
//
// It runs no kernel code: a launch checks what the backend set (every
// argument, with the size the SPIR-V module's OpFunctionParameter gives it;
// the group size) and records it. Memory is host memory, so copies and fills
// do what they say. Every command list completes each command at once, and
// signals its event then (events keep the time, steady-clock nanoseconds in
// the 32 valid bits of kernel timestamps: they wrap every 4.3 s); a command
// that waits for an event nothing signaled yet fails (nothing could signal it
// later: the caller reused or reset it too early). The environment shapes it:
//   FAKE_ZE_DEVICES=1        GPU devices of the driver (0: a driver with none)
//   FAKE_ZE_INIT=fail        zeInit fails (ZE_RESULT_ERROR_UNINITIALIZED), as
//                            the real loader's does without a driver
//   FAKE_ZE_DRIVER_VERSION=12345  zeDriverGetProperties' driverVersion
//   FAKE_ZE_KERNEL_SUBGROUPS=32   a kernel's maxNumSubgroups (of 32 work-items):
//                            its largest work-group; zeKernelSetGroupSize
//                            refuses larger ones
//   FAKE_ZE_KERNEL_PRIVATE_BYTES=0  a kernel's privateMemSize
//   FAKE_ZE_SPIRV_MINOR=4    the newest SPIR-V the device takes (1.<minor>);
//                            newer modules fail to build
//   FAKE_ZE_DEVICE_LOST=1    events report ZE_RESULT_ERROR_DEVICE_LOST when
//                            queried or waited for
//   FAKE_ZE_LOG=<file>       appends one line per launch, fill, copy and module:
//     launch kernel=<name> group_size=X,Y,Z group_count=X,Y,Z args=<n>
//            arg<i>=<size>:0x<the value, a little-endian number, in hex>, or arg<i>=local:<size>
//     fill pattern_bytes=<n> bytes=<n>
//     module spirv=<major.minor> bytes=<n> kernels=<entry points>
//     copy bytes=<n>
//     event reset index=<its index in its pool>
#include "SpirvEntryPoints.h"

#include <level_zero/ze_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

// The API's opaque handles are the fake's objects.
struct _ze_device_handle_t {
  uint32_t index = 0;
};
struct _ze_driver_handle_t {
  std::vector<std::unique_ptr<_ze_device_handle_t>> devices;
};
struct _ze_context_handle_t {
  ze_driver_handle_t driver = nullptr;
};
struct _ze_command_list_handle_t {
  ze_device_handle_t device = nullptr;
};
struct _ze_module_build_log_handle_t {
  std::string text;
};
struct _ze_module_handle_t {
  fake_level_zero::SpirvKernels kernels;
};
struct _ze_event_pool_handle_t {
  uint32_t count = 0;
  ze_event_pool_flags_t flags = 0;
  std::vector<bool> taken;
};
struct _ze_event_handle_t {
  ze_event_pool_handle_t pool = nullptr;
  uint32_t index = 0;
  std::atomic<bool> signaled{false};
  std::atomic<uint64_t> end{0};  // kernel timestamp ticks (ns) when signaled
};
struct _ze_kernel_handle_t {
  std::string name;
  std::vector<fake_level_zero::KernelParameter> parameters;
  std::vector<bool> set;
  std::vector<std::vector<unsigned char>> values;  // empty for a local pointer
  std::vector<uint64_t> localSizes;
  uint32_t groupSize[3] = {0, 0, 0};
};

namespace {

constexpr uint32_t kMaxGroupSize = 1024, kMaxGroupSizeZ = 64, kSharedLocalMemory = 65536, kMaxFillPattern = 128;
constexpr uint64_t kMemoryBytes = 4ull << 30, kMaxAllocBytes = 1ull << 30;

long environmentNumber(const char *name, long fallback) {
  const char *text = std::getenv(name);
  return text && *text ? std::strtol(text, nullptr, 10) : fallback;
}

struct Allocation {
  uint64_t bytes = 0;
  ze_context_handle_t context = nullptr;
};

struct State {
  std::mutex mutex;
  std::atomic<bool> initialized{false};
  _ze_driver_handle_t driver;
  std::map<uintptr_t, Allocation> allocations;  // start -> allocation

  State() {
    const long count = std::max(0L, environmentNumber("FAKE_ZE_DEVICES", 1));
    for (long i = 0; i < count; ++i) {
      driver.devices.push_back(std::make_unique<_ze_device_handle_t>());
      driver.devices.back()->index = static_cast<uint32_t>(i);
    }
  }
};

State &state() {
  static State *instance = new State;  // (never destroyed: handles outlive static destruction)
  return *instance;
}

void appendLog(const std::string &line) {
  const char *path = std::getenv("FAKE_ZE_LOG");
  if (!path || !*path) return;
  if (FILE *file = std::fopen(path, "a")) {
    std::fprintf(file, "%s\n", line.c_str());
    std::fclose(file);
  }
}

std::string hexValue(const std::vector<unsigned char> &bytes) {
  std::string text = "0x";
  char digits[3];
  for (size_t i = bytes.size(); i-- > 0;) {
    std::snprintf(digits, sizeof digits, "%02x", bytes[i]);
    text += digits;
  }
  return text;
}

bool knownDevice(ze_device_handle_t device) {
  for (const auto &d : state().driver.devices)
    if (d.get() == device) return true;
  return false;
}

// Whether [pointer, pointer + bytes) fits the allocation it starts in; memory
// outside every allocation is the host's (Level Zero copies from and to it).
bool fitsAllocation(const void *pointer, uint64_t bytes) {
  const auto address = reinterpret_cast<uintptr_t>(pointer);
  auto &allocations = state().allocations;
  auto next = allocations.upper_bound(address);
  if (next == allocations.begin()) return true;
  const auto &[start, allocation] = *std::prev(next);
  if (address >= start + allocation.bytes) return true;
  return address + bytes <= start + allocation.bytes;
}

ze_result_t allocate(ze_context_handle_t context, size_t size, size_t alignment, void **pointer) {
  if (!context || !pointer) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if (size > kMaxAllocBytes) return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  if (alignment & (alignment - 1)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  alignment = std::max<size_t>(alignment, 64);
  void *memory = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (!memory) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  std::lock_guard<std::mutex> lock(state().mutex);
  state().allocations[reinterpret_cast<uintptr_t>(memory)] = Allocation{size, context};
  *pointer = memory;
  return ZE_RESULT_SUCCESS;
}

constexpr uint32_t kKernelTimestampBits = 32;

bool deviceLost() { return environmentNumber("FAKE_ZE_DEVICE_LOST", 0) != 0; }

// A command's completion: its event (if any) is signaled now.
void signal(ze_event_handle_t event) {
  if (!event) return;
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  event->end = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()) &
               ((1ull << kKernelTimestampBits) - 1);
  event->signaled = true;
}

// A command's wait list: everything in it must have been signaled already.
ze_result_t checkWaits(uint32_t count, ze_event_handle_t *events) {
  if (count && !events) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  for (uint32_t i = 0; i < count; ++i) {
    if (!events[i]) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!events[i]->signaled) {
      appendLog("error: a command waits for an event that nothing signaled");
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
  }
  return ZE_RESULT_SUCCESS;
}

}  // namespace

#define FAKE_CHECK_INIT()                                                                                              \
  do {                                                                                                                 \
    if (!state().initialized) return ZE_RESULT_ERROR_UNINITIALIZED;                                                    \
  } while (0)

extern "C" {

ze_result_t zeInit(ze_init_flags_t flags) {
  const char *mode = std::getenv("FAKE_ZE_INIT");
  if (mode && std::string(mode) == "fail") return ZE_RESULT_ERROR_UNINITIALIZED;
  if (flags & ~ze_init_flags_t(ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY))
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  state().initialized = true;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGet(uint32_t *pCount, ze_driver_handle_t *phDrivers) {
  FAKE_CHECK_INIT();
  if (!pCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*pCount == 0 || !phDrivers) {
    *pCount = 1;
    return ZE_RESULT_SUCCESS;
  }
  phDrivers[0] = &state().driver;
  *pCount = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGetProperties(ze_driver_handle_t hDriver, ze_driver_properties_t *pDriverProperties) {
  FAKE_CHECK_INIT();
  if (hDriver != &state().driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pDriverProperties) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::memset(&pDriverProperties->uuid, 0x5a, sizeof pDriverProperties->uuid);
  pDriverProperties->driverVersion = static_cast<uint32_t>(environmentNumber("FAKE_ZE_DRIVER_VERSION", 12345));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGetApiVersion(ze_driver_handle_t hDriver, ze_api_version_t *version) {
  FAKE_CHECK_INIT();
  if (hDriver != &state().driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!version) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *version = ZE_API_VERSION_1_4;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGet(ze_driver_handle_t hDriver, uint32_t *pCount, ze_device_handle_t *phDevices) {
  FAKE_CHECK_INIT();
  if (hDriver != &state().driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto &devices = state().driver.devices;
  if (*pCount == 0 || !phDevices) {
    *pCount = static_cast<uint32_t>(devices.size());
    return ZE_RESULT_SUCCESS;
  }
  *pCount = std::min<uint32_t>(*pCount, static_cast<uint32_t>(devices.size()));
  for (uint32_t i = 0; i < *pCount; ++i) phDevices[i] = devices[i].get();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetProperties(ze_device_handle_t hDevice, ze_device_properties_t *p) {
  FAKE_CHECK_INIT();
  if (!knownDevice(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p || p->stype != ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  p->type = ZE_DEVICE_TYPE_GPU;
  p->vendorId = 0x8086;
  p->deviceId = 0x0fa0 + hDevice->index;
  p->flags = 0;
  p->subdeviceId = 0;
  p->coreClockRate = 1600;
  p->maxMemAllocSize = kMaxAllocBytes;
  p->maxHardwareContexts = 64;
  p->maxCommandQueuePriority = 0;
  p->numThreadsPerEU = 8;
  p->physicalEUSimdWidth = 8;
  p->numEUsPerSubslice = 8;
  p->numSubslicesPerSlice = 4;
  p->numSlices = 2;
  p->timerResolution = 1;
  p->timestampValidBits = 64;
  p->kernelTimestampValidBits = kKernelTimestampBits;
  std::memset(&p->uuid, 0, sizeof p->uuid);
  p->uuid.id[0] = static_cast<uint8_t>(hDevice->index);
  std::snprintf(p->name, sizeof p->name, "OnePass fake Level Zero GPU %u", hDevice->index);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetComputeProperties(ze_device_handle_t hDevice, ze_device_compute_properties_t *p) {
  FAKE_CHECK_INIT();
  if (!knownDevice(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p || p->stype != ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  p->maxTotalGroupSize = kMaxGroupSize;
  p->maxGroupSizeX = kMaxGroupSize;
  p->maxGroupSizeY = kMaxGroupSize;
  p->maxGroupSizeZ = kMaxGroupSizeZ;
  p->maxGroupCountX = p->maxGroupCountY = p->maxGroupCountZ = UINT32_MAX;
  p->maxSharedLocalMemory = kSharedLocalMemory;
  p->numSubGroupSizes = 2;
  p->subGroupSizes[0] = 16;
  p->subGroupSizes[1] = 32;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetModuleProperties(ze_device_handle_t hDevice, ze_device_module_properties_t *p) {
  FAKE_CHECK_INIT();
  if (!knownDevice(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p || p->stype != ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  p->spirvVersionSupported = ZE_MAKE_VERSION(1, static_cast<uint32_t>(environmentNumber("FAKE_ZE_SPIRV_MINOR", 4)));
  p->flags = environmentNumber("FAKE_ZE_NO_FP16", 0) == 0 ? ZE_DEVICE_MODULE_FLAG_FP16 : 0;
  if (environmentNumber("FAKE_ZE_NO_FP64", 0) == 0) p->flags |= ZE_DEVICE_MODULE_FLAG_FP64;
  if (environmentNumber("FAKE_ZE_NO_INT64_ATOMICS", 0) == 0) p->flags |= ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
  p->fp16flags = p->fp32flags = p->fp64flags = ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST | ZE_DEVICE_FP_FLAG_FMA;
  p->maxArgumentsSize = 2048;
  p->printfBufferSize = 4 << 20;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetMemoryProperties(ze_device_handle_t hDevice, uint32_t *pCount,
                                        ze_device_memory_properties_t *pMemProperties) {
  FAKE_CHECK_INIT();
  if (!knownDevice(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*pCount == 0 || !pMemProperties) {
    *pCount = 1;
    return ZE_RESULT_SUCCESS;
  }
  *pCount = 1;
  pMemProperties->flags = 0;
  pMemProperties->maxClockRate = 1000;
  pMemProperties->maxBusWidth = 256;
  pMemProperties->totalSize = kMemoryBytes;
  std::snprintf(pMemProperties->name, sizeof pMemProperties->name, "HBM");
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetCacheProperties(ze_device_handle_t hDevice, uint32_t *pCount,
                                       ze_device_cache_properties_t *pCacheProperties) {
  FAKE_CHECK_INIT();
  if (!knownDevice(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*pCount == 0 || !pCacheProperties) {
    *pCount = 1;
    return ZE_RESULT_SUCCESS;
  }
  *pCount = 1;
  pCacheProperties->flags = 0;
  pCacheProperties->cacheSize = 4 << 20;
  return ZE_RESULT_SUCCESS;
}

// One queue group, which runs kernels and copies.
ze_result_t zeDeviceGetCommandQueueGroupProperties(ze_device_handle_t hDevice, uint32_t *pCount,
                                                   ze_command_queue_group_properties_t *p) {
  FAKE_CHECK_INIT();
  if (!knownDevice(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pCount) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*pCount == 0 || !p) {
    *pCount = 1;
    return ZE_RESULT_SUCCESS;
  }
  *pCount = 1;
  p->flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE | ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
  p->maxMemoryFillPatternSize = kMaxFillPattern;
  p->numQueues = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeContextCreate(ze_driver_handle_t hDriver, const ze_context_desc_t *desc, ze_context_handle_t *phContext) {
  FAKE_CHECK_INIT();
  if (hDriver != &state().driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phContext) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *phContext = new _ze_context_handle_t{hDriver};
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeContextDestroy(ze_context_handle_t hContext) {
  if (!hContext) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete hContext;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListCreateImmediate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                         const ze_command_queue_desc_t *altdesc,
                                         ze_command_list_handle_t *phCommandList) {
  FAKE_CHECK_INIT();
  if (!hContext || !knownDevice(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!altdesc || !phCommandList) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (altdesc->ordinal != 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  *phCommandList = new _ze_command_list_handle_t{hDevice};
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListDestroy(ze_command_list_handle_t hCommandList) {
  if (!hCommandList) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete hCommandList;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeMemAllocDevice(ze_context_handle_t hContext, const ze_device_mem_alloc_desc_t *device_desc, size_t size,
                             size_t alignment, ze_device_handle_t hDevice, void **pptr) {
  FAKE_CHECK_INIT();
  if (!device_desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!knownDevice(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return allocate(hContext, size, alignment, pptr);
}

ze_result_t zeMemAllocHost(ze_context_handle_t hContext, const ze_host_mem_alloc_desc_t *host_desc, size_t size,
                           size_t alignment, void **pptr) {
  FAKE_CHECK_INIT();
  if (!host_desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return allocate(hContext, size, alignment, pptr);
}

ze_result_t zeMemAllocShared(ze_context_handle_t hContext, const ze_device_mem_alloc_desc_t *device_desc,
                             const ze_host_mem_alloc_desc_t *host_desc, size_t size, size_t alignment,
                             ze_device_handle_t hDevice, void **pptr) {
  FAKE_CHECK_INIT();
  if (!device_desc || !host_desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (hDevice && !knownDevice(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return allocate(hContext, size, alignment, pptr);
}

ze_result_t zeMemFree(ze_context_handle_t hContext, void *ptr) {
  FAKE_CHECK_INIT();
  if (!hContext || !ptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::lock_guard<std::mutex> lock(state().mutex);
  auto found = state().allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (found == state().allocations.end() || found->second.context != hContext) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  state().allocations.erase(found);
  std::free(ptr);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListAppendMemoryCopy(ze_command_list_handle_t hCommandList, void *dstptr, const void *srcptr,
                                          size_t size, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                          ze_event_handle_t *phWaitEvents) {
  FAKE_CHECK_INIT();
  if (!hCommandList) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!dstptr || !srcptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t waits = checkWaits(numWaitEvents, phWaitEvents); waits != ZE_RESULT_SUCCESS) return waits;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    if (!fitsAllocation(dstptr, size) || !fitsAllocation(srcptr, size)) return ZE_RESULT_ERROR_INVALID_SIZE;
  }
  std::memmove(dstptr, srcptr, size);
  appendLog("copy bytes=" + std::to_string(size));
  signal(hSignalEvent);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListAppendMemoryFill(ze_command_list_handle_t hCommandList, void *ptr, const void *pattern,
                                          size_t pattern_size, size_t size, ze_event_handle_t hSignalEvent,
                                          uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
  FAKE_CHECK_INIT();
  if (!hCommandList) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr || !pattern) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t waits = checkWaits(numWaitEvents, phWaitEvents); waits != ZE_RESULT_SUCCESS) return waits;
  if (pattern_size == 0 || pattern_size > kMaxFillPattern || (pattern_size & (pattern_size - 1)) || size % pattern_size)
    return ZE_RESULT_ERROR_INVALID_SIZE;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    if (!fitsAllocation(ptr, size)) return ZE_RESULT_ERROR_INVALID_SIZE;
  }
  for (size_t at = 0; at < size; at += pattern_size) std::memcpy(static_cast<char *>(ptr) + at, pattern, pattern_size);
  appendLog("fill pattern_bytes=" + std::to_string(pattern_size) + " bytes=" + std::to_string(size));
  signal(hSignalEvent);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_module_desc_t *desc,
                           ze_module_handle_t *phModule, ze_module_build_log_handle_t *phBuildLog) {
  FAKE_CHECK_INIT();
  if (!hContext || !knownDevice(hDevice)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phModule || !desc->pInputModule) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  auto module = std::make_unique<_ze_module_handle_t>();
  std::string why;
  bool read = fake_level_zero::readSpirvKernels(desc->pInputModule, desc->inputSize, module->kernels, why);
  uint32_t version = 0;
  if (read) std::memcpy(&version, desc->pInputModule + 4, sizeof version);
  const uint32_t maxVersion = static_cast<uint32_t>(environmentNumber("FAKE_ZE_SPIRV_MINOR", 4));
  if (read && ((version >> 16) & 0xff) == 1 && ((version >> 8) & 0xff) > maxVersion) {
    read = false;
    why = "unsupported SPIR-V version";
  }
  if (phBuildLog) *phBuildLog = new _ze_module_build_log_handle_t{read ? "" : "fake Level Zero: " + why};
  if (!read) return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  appendLog("module spirv=" + std::to_string((version >> 16) & 0xff) + "." + std::to_string((version >> 8) & 0xff) +
            " bytes=" + std::to_string(desc->inputSize) + " kernels=" + std::to_string(module->kernels.size()));
  *phModule = module.release();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleDestroy(ze_module_handle_t hModule) {
  if (!hModule) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete hModule;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleBuildLogGetString(ze_module_build_log_handle_t hModuleBuildLog, size_t *pSize, char *pBuildLog) {
  if (!hModuleBuildLog) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pSize) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const std::string &text = hModuleBuildLog->text;
  if (!pBuildLog) {
    *pSize = text.size() + 1;
    return ZE_RESULT_SUCCESS;
  }
  const size_t size = std::min(*pSize, text.size() + 1);
  if (size) {
    std::memcpy(pBuildLog, text.c_str(), size);
    pBuildLog[size - 1] = '\0';
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleBuildLogDestroy(ze_module_build_log_handle_t hModuleBuildLog) {
  if (!hModuleBuildLog) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete hModuleBuildLog;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelCreate(ze_module_handle_t hModule, const ze_kernel_desc_t *desc, ze_kernel_handle_t *phKernel) {
  FAKE_CHECK_INIT();
  if (!hModule) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !desc->pKernelName || !phKernel) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  auto found = hModule->kernels.find(desc->pKernelName);
  if (found == hModule->kernels.end()) return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  auto *kernel = new _ze_kernel_handle_t;
  kernel->name = found->first;
  kernel->parameters = found->second;
  kernel->set.assign(kernel->parameters.size(), false);
  kernel->values.resize(kernel->parameters.size());
  kernel->localSizes.assign(kernel->parameters.size(), 0);
  *phKernel = kernel;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelGetProperties(ze_kernel_handle_t hKernel, ze_kernel_properties_t *p) {
  FAKE_CHECK_INIT();
  if (!hKernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p || p->stype != ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  p->numKernelArgs = static_cast<uint32_t>(hKernel->parameters.size());
  p->requiredGroupSizeX = p->requiredGroupSizeY = p->requiredGroupSizeZ = 0;
  p->requiredNumSubGroups = p->requiredSubgroupSize = 0;
  p->maxSubgroupSize = 32;
  p->maxNumSubgroups = static_cast<uint32_t>(environmentNumber("FAKE_ZE_KERNEL_SUBGROUPS", 32));
  p->localMemSize = 0;
  p->privateMemSize = static_cast<uint32_t>(environmentNumber("FAKE_ZE_KERNEL_PRIVATE_BYTES", 0));
  p->spillMemSize = 0;
  std::memset(&p->uuid, 0, sizeof p->uuid);
  return ZE_RESULT_SUCCESS;
}

// A `local` pointer takes any size and no value (the size is its memory's);
// every other argument its parameter's size and a value.
ze_result_t zeKernelSetArgumentValue(ze_kernel_handle_t hKernel, uint32_t argIndex, size_t argSize,
                                     const void *pArgValue) {
  FAKE_CHECK_INIT();
  if (!hKernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (argIndex >= hKernel->parameters.size()) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
  const fake_level_zero::KernelParameter &parameter = hKernel->parameters[argIndex];
  if (parameter.localPointer) {
    if (pArgValue || argSize == 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    hKernel->localSizes[argIndex] = argSize;
    hKernel->values[argIndex].clear();
  } else {
    if (argSize != parameter.sizeBytes) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    if (!pArgValue) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    const auto *bytes = static_cast<const unsigned char *>(pArgValue);
    hKernel->values[argIndex].assign(bytes, bytes + argSize);
  }
  hKernel->set[argIndex] = true;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelSetGroupSize(ze_kernel_handle_t hKernel, uint32_t groupSizeX, uint32_t groupSizeY,
                                 uint32_t groupSizeZ) {
  FAKE_CHECK_INIT();
  if (!hKernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const uint64_t total = uint64_t(groupSizeX) * groupSizeY * groupSizeZ;
  const uint64_t kernelMax = 32 * uint64_t(environmentNumber("FAKE_ZE_KERNEL_SUBGROUPS", 32));
  if (total == 0 || total > std::min<uint64_t>(kMaxGroupSize, kernelMax) || groupSizeZ > kMaxGroupSizeZ)
    return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  hKernel->groupSize[0] = groupSizeX;
  hKernel->groupSize[1] = groupSizeY;
  hKernel->groupSize[2] = groupSizeZ;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListAppendLaunchKernel(ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
                                            const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
                                            uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
  FAKE_CHECK_INIT();
  if (!hCommandList || !hKernel) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pLaunchFuncArgs) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t waits = checkWaits(numWaitEvents, phWaitEvents); waits != ZE_RESULT_SUCCESS) return waits;
  if (hKernel->groupSize[0] == 0) return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;  // never set
  const ze_group_count_t &count = *pLaunchFuncArgs;
  if (count.groupCountX == 0 || count.groupCountY == 0 || count.groupCountZ == 0)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  uint64_t localBytes = 0;
  for (size_t i = 0; i < hKernel->parameters.size(); ++i) {
    if (!hKernel->set[i]) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    localBytes += hKernel->localSizes[i];
  }
  if (localBytes > kSharedLocalMemory) return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  std::string line = "launch kernel=" + hKernel->name;
  line += " group_size=" + std::to_string(hKernel->groupSize[0]) + "," + std::to_string(hKernel->groupSize[1]) + "," +
          std::to_string(hKernel->groupSize[2]);
  line += " group_count=" + std::to_string(count.groupCountX) + "," + std::to_string(count.groupCountY) + "," +
          std::to_string(count.groupCountZ);
  line += " args=" + std::to_string(hKernel->parameters.size());
  for (size_t i = 0; i < hKernel->parameters.size(); ++i) {
    line += " arg" + std::to_string(i) + "=";
    if (hKernel->parameters[i].localPointer) line += "local:" + std::to_string(hKernel->localSizes[i]);
    else line += std::to_string(hKernel->values[i].size()) + ":" + hexValue(hKernel->values[i]);
  }
  appendLog(line);
  signal(hSignalEvent);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListAppendBarrier(ze_command_list_handle_t hCommandList, ze_event_handle_t hSignalEvent,
                                       uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
  FAKE_CHECK_INIT();
  if (!hCommandList) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (ze_result_t waits = checkWaits(numWaitEvents, phWaitEvents); waits != ZE_RESULT_SUCCESS) return waits;
  signal(hSignalEvent);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventPoolCreate(ze_context_handle_t hContext, const ze_event_pool_desc_t *desc, uint32_t numDevices,
                              ze_device_handle_t *phDevices, ze_event_pool_handle_t *phEventPool) {
  FAKE_CHECK_INIT();
  if (!hContext) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phEventPool || (numDevices && !phDevices)) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  for (uint32_t i = 0; i < numDevices; ++i)
    if (!knownDevice(phDevices[i])) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  auto *pool = new _ze_event_pool_handle_t;
  pool->count = desc->count;
  pool->flags = desc->flags;
  pool->taken.assign(desc->count, false);
  *phEventPool = pool;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventCreate(ze_event_pool_handle_t hEventPool, const ze_event_desc_t *desc, ze_event_handle_t *phEvent) {
  FAKE_CHECK_INIT();
  if (!hEventPool) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !phEvent) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::lock_guard<std::mutex> lock(state().mutex);
  if (desc->index >= hEventPool->count || hEventPool->taken[desc->index]) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  hEventPool->taken[desc->index] = true;
  auto *event = new _ze_event_handle_t;
  event->pool = hEventPool;
  event->index = desc->index;
  *phEvent = event;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventHostSynchronize(ze_event_handle_t hEvent, uint64_t) {
  FAKE_CHECK_INIT();
  if (!hEvent) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (deviceLost()) return ZE_RESULT_ERROR_DEVICE_LOST;
  // (Nothing could signal it later: waiting would never end.)
  return hEvent->signaled ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t zeEventQueryStatus(ze_event_handle_t hEvent) {
  FAKE_CHECK_INIT();
  if (!hEvent) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (deviceLost()) return ZE_RESULT_ERROR_DEVICE_LOST;
  return hEvent->signaled ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t zeEventHostReset(ze_event_handle_t hEvent) {
  FAKE_CHECK_INIT();
  if (!hEvent) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  hEvent->signaled = false;
  appendLog("event reset index=" + std::to_string(hEvent->index));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventQueryKernelTimestamp(ze_event_handle_t hEvent, ze_kernel_timestamp_result_t *dstptr) {
  FAKE_CHECK_INIT();
  if (!hEvent) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!dstptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!(hEvent->pool->flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (!hEvent->signaled) return ZE_RESULT_NOT_READY;
  dstptr->global.kernelStart = dstptr->global.kernelEnd = hEvent->end;
  dstptr->context = dstptr->global;
  return ZE_RESULT_SUCCESS;
}

}  // extern "C"
