// The Level Zero backend plugin (issue 18): Intel GPUs through oneAPI Level
// Zero, taking the same SPIR-V as the OpenCL backend (zeModuleCreate with
// ZE_MODULE_FORMAT_IL_SPIRV) and Level Zero's USM for USM. Each driver has one
// context; each GPU device one immediate command list in synchronous mode
// (every operation has completed when its append returns) and kStreams in
// asynchronous mode, the runtime's streams: each operation on them is followed
// by a barrier (Level Zero 1.4 orders a command list's commands only so),
// markers are events from host-visible kernel-timestamp pools signaled by
// barriers, and device times are their global end timestamps.
// Kernel arguments follow jit_api.h's SPIR-V entry: the fields by value, a
// range kernel's range, and a kernel's local memory as a `local` argument.
// No Intel GPU has run it yet: CI tests it against tests/fake_level_zero.
#include "LevelZeroApi.h"

#include "BackendErrors.h"
#include "BackendInterface.h"
#include "PluginSupport.h"
#include "onepass/jit/jit_api.h"
#include "sycl/detail/onepass_abi.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace onepass::level_zero {

bool Api::load(std::string &why) {
  library = rt::openVendorLibrary("libze_loader.so.1", "the oneAPI Level Zero loader", why);
#define ONEPASS_ZE_RESOLVE(name)                                                                                       \
  &&rt::resolveVendorFunction(library, "libze_loader.so.1", #name, name, "Level Zero 1.0 or newer is needed", why)
  return library ONEPASS_ZE_FUNCTIONS(ONEPASS_ZE_RESOLVE);
#undef ONEPASS_ZE_RESOLVE
}

std::string resultName(ze_result_t result) {
  const char *name = nullptr;
  switch (result) {
  case ZE_RESULT_NOT_READY: name = "ZE_RESULT_NOT_READY"; break;
  case ZE_RESULT_ERROR_DEVICE_LOST: name = "ZE_RESULT_ERROR_DEVICE_LOST"; break;
  case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY: name = "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY"; break;
  case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY: name = "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"; break;
  case ZE_RESULT_ERROR_MODULE_BUILD_FAILURE: name = "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE"; break;
  case ZE_RESULT_ERROR_UNINITIALIZED: name = "ZE_RESULT_ERROR_UNINITIALIZED"; break;
  case ZE_RESULT_ERROR_UNSUPPORTED_VERSION: name = "ZE_RESULT_ERROR_UNSUPPORTED_VERSION"; break;
  case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE: name = "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE"; break;
  case ZE_RESULT_ERROR_INVALID_ARGUMENT: name = "ZE_RESULT_ERROR_INVALID_ARGUMENT"; break;
  case ZE_RESULT_ERROR_INVALID_NULL_HANDLE: name = "ZE_RESULT_ERROR_INVALID_NULL_HANDLE"; break;
  case ZE_RESULT_ERROR_INVALID_NULL_POINTER: name = "ZE_RESULT_ERROR_INVALID_NULL_POINTER"; break;
  case ZE_RESULT_ERROR_INVALID_SIZE: name = "ZE_RESULT_ERROR_INVALID_SIZE"; break;
  case ZE_RESULT_ERROR_UNSUPPORTED_SIZE: name = "ZE_RESULT_ERROR_UNSUPPORTED_SIZE"; break;
  case ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT: name = "ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT"; break;
  case ZE_RESULT_ERROR_INVALID_ENUMERATION: name = "ZE_RESULT_ERROR_INVALID_ENUMERATION"; break;
  case ZE_RESULT_ERROR_INVALID_NATIVE_BINARY: name = "ZE_RESULT_ERROR_INVALID_NATIVE_BINARY"; break;
  case ZE_RESULT_ERROR_INVALID_KERNEL_NAME: name = "ZE_RESULT_ERROR_INVALID_KERNEL_NAME"; break;
  case ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION: name = "ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION"; break;
  case ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX: name = "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX"; break;
  case ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE: name = "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE"; break;
  case ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED: name = "ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED"; break;
  case ZE_RESULT_ERROR_UNKNOWN: name = "ZE_RESULT_ERROR_UNKNOWN"; break;
  default: break;
  }
  char code[16];
  std::snprintf(code, sizeof code, "0x%x", static_cast<unsigned>(result));
  return (name ? std::string(name) + " (" : std::string("Level Zero error (")) + code + ")";
}

namespace {

Api api;

// Asynchronous immediate command lists per device (the runtime's streams).
constexpr uint32_t kStreams = 4;
// Events per event pool (pools are made as markers need them).
constexpr uint32_t kPoolEvents = 64;

struct Stream {
  ze_command_list_handle_t list = nullptr;
  std::mutex mutex;  // one append at a time
  // Barriers appended so far (each operation is followed by one), and the
  // newest of them known to have executed (a marker of it completed).
  uint64_t barriers = 0;
  std::atomic<uint64_t> passed{0};
};

// A marker: an event its stream's barrier number `barrier` signals. Other
// streams' barriers that wait for it are its waiters. Level Zero's waits
// read the event when they execute, so once released the event is reset
// and reused only after every waiter has executed (Device::quarantine).
struct Marker {
  ze_event_handle_t event = nullptr;
  uint32_t stream = 0;
  uint64_t barrier = 0;
  std::vector<std::pair<uint32_t, uint64_t>> waiters;  // (stream, its barrier that waits)
};

struct Device {
  ze_device_handle_t id = nullptr;
  ze_context_handle_t context = nullptr;  // its driver's
  ze_command_list_handle_t list = nullptr;
  size_t maxFillPatternBytes = 0;  // of the command list's queue group
  uint32_t spirvVersion = 0;       // the newest SPIR-V it takes (ZE_MAKE_VERSION)
  std::mutex mutex;                // an immediate command list takes one append at a time
  Stream streams[kStreams];
  // Markers: events of pools made on demand, reset and reused once released.
  std::mutex eventMutex;
  std::vector<ze_event_handle_t> freeEvents;
  std::vector<std::unique_ptr<Marker>> quarantine;  // released, some waiter has yet to execute
  // Kernel timestamps: nanoseconds per tick, the ticks' valid bits, and an
  // epoch (a marker's end in ticks, and the host's steady clock when a wait
  // for it returned) that maps them onto the host's clock.
  uint64_t timerNanoseconds = 1, timestampMask = ~0ull;
  uint64_t epochTicks = 0, epochHost = 0;
  bool timing = false;
  std::string name, identity;
  onepass_backend_device_info info{};
};

// Never destroyed: the runtime's executors may still use them during static
// destruction, and what they hold stays reachable (no leak reports at exit).
std::vector<std::unique_ptr<Device>> &devices = *new std::vector<std::unique_ptr<Device>>;
std::vector<ze_context_handle_t> &contexts = *new std::vector<ze_context_handle_t>;  // one per driver with a GPU device
// Why Level Zero devices were left out, for the log.
std::vector<std::string> leftOut;
const onepass_runtime_services *services = nullptr;

void log(int level, const std::string &message) {
  if (services && services->log) services->log(level, ("Level Zero: " + message).c_str());
}

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%04x", value);
  return text;
}

std::string versionText(uint32_t major, uint32_t minor) { return std::to_string(major) + "." + std::to_string(minor); }

// The queue group that runs kernels (ordinal), and its largest fill pattern.
bool computeQueueGroup(ze_device_handle_t id, uint32_t &ordinal, size_t &maxFillPatternBytes) {
  uint32_t count = 0;
  if (api.zeDeviceGetCommandQueueGroupProperties(id, &count, nullptr) != ZE_RESULT_SUCCESS || count == 0) return false;
  std::vector<ze_command_queue_group_properties_t> groups(count);
  for (auto &group : groups) group = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES, nullptr, 0, 0, 0};
  if (api.zeDeviceGetCommandQueueGroupProperties(id, &count, groups.data()) != ZE_RESULT_SUCCESS) return false;
  for (uint32_t i = 0; i < count; ++i)
    if (groups[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
      ordinal = i;
      maxFillPatternBytes = groups[i].maxMemoryFillPatternSize;
      return true;
    }
  return false;
}

// Whether every barrier waiting for the marker has executed (d.eventMutex held).
bool waitersPassed(const Device &d, const Marker &marker) {
  for (const auto &[stream, barrier] : marker.waiters)
    if (d.streams[stream].passed.load(std::memory_order_acquire) < barrier) return false;
  return true;
}

// A marker's event: a free one (quarantined ones join them once nothing
// will read them), or one of a new pool; null with *error set.
ze_event_handle_t takeEvent(Device &d, char **error) {
  std::lock_guard<std::mutex> lock(d.eventMutex);
  if (d.freeEvents.empty())  // the quarantined events nothing will read any more
    for (auto it = d.quarantine.begin(); it != d.quarantine.end();) {
      if (!waitersPassed(d, **it)) {
        ++it;
        continue;
      }
      api.zeEventHostReset((*it)->event);
      d.freeEvents.push_back((*it)->event);
      it = d.quarantine.erase(it);
    }
  if (d.freeEvents.empty()) {
    ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                                  ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP, kPoolEvents};
    ze_event_pool_handle_t pool = nullptr;
    ze_result_t result = api.zeEventPoolCreate(d.context, &poolDesc, 1, &d.id, &pool);
    if (result != ZE_RESULT_SUCCESS) {
      rt::reportBackendError(error, "zeEventPoolCreate failed: " + resultName(result));
      return nullptr;
    }
    // (The pool stays for the process's life, as devices do.)
    for (uint32_t i = 0; i < kPoolEvents; ++i) {
      ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, i, 0, ZE_EVENT_SCOPE_FLAG_HOST};
      ze_event_handle_t event = nullptr;
      result = api.zeEventCreate(pool, &eventDesc, &event);
      if (result != ZE_RESULT_SUCCESS) {
        rt::reportBackendError(error, "zeEventCreate failed: " + resultName(result));
        return nullptr;
      }
      d.freeEvents.push_back(event);
    }
  }
  ze_event_handle_t event = d.freeEvents.back();
  d.freeEvents.pop_back();
  return event;
}

void giveBackEvent(Device &d, ze_event_handle_t event) {
  api.zeEventHostReset(event);
  std::lock_guard<std::mutex> lock(d.eventMutex);
  d.freeEvents.push_back(event);
}

// Appends a barrier to the stream, whose lock the caller holds: it runs once
// everything before it on the stream and the events `waits` (if any) have,
// then signals `signal` (may be null). Its number goes to *number.
ze_result_t appendBarrierLocked(Stream &stream, ze_event_handle_t signal, ze_event_handle_t *waits = nullptr,
                                uint64_t *number = nullptr) {
  ze_result_t result = api.zeCommandListAppendBarrier(stream.list, signal, waits ? 1 : 0, waits);
  if (result == ZE_RESULT_SUCCESS) ++stream.barriers;
  if (number) *number = stream.barriers;
  return result;
}

ze_result_t appendBarrier(Stream &stream, ze_event_handle_t signal, ze_event_handle_t *waits = nullptr,
                          uint64_t *number = nullptr) {
  std::lock_guard<std::mutex> lock(stream.mutex);
  return appendBarrierLocked(stream, signal, waits, number);
}

// Appends `append(list)` to the stream, then the barrier that keeps the
// stream in order; `signal` (may be null) is signaled by that barrier.
template <typename Append> ze_result_t appendInOrder(Stream &stream, ze_event_handle_t signal, Append &&append) {
  std::lock_guard<std::mutex> lock(stream.mutex);
  ze_result_t result = append(stream.list);
  return result == ZE_RESULT_SUCCESS ? appendBarrierLocked(stream, signal) : result;
}

// Notes that the stream's barrier number `barrier` has executed.
void passed(Stream &stream, uint64_t barrier) {
  uint64_t known = stream.passed.load(std::memory_order_relaxed);
  while (known < barrier && !stream.passed.compare_exchange_weak(known, barrier, std::memory_order_release)) {
  }
}

// Waits on the host until everything appended to the stream so far is done
// (at once if its last barrier is known to have run).
ze_result_t finishStream(Device &d, Stream &stream) {
  {
    std::lock_guard<std::mutex> lock(stream.mutex);
    if (stream.passed.load(std::memory_order_acquire) >= stream.barriers) return ZE_RESULT_SUCCESS;
  }
  char *ignored = nullptr;
  ze_event_handle_t event = takeEvent(d, &ignored);
  if (!event) {
    std::free(ignored);
    return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  }
  uint64_t barrier = 0;
  ze_result_t result = appendBarrier(stream, event, nullptr, &barrier);
  if (result == ZE_RESULT_SUCCESS) result = api.zeEventHostSynchronize(event, UINT64_MAX);
  if (result == ZE_RESULT_SUCCESS) passed(stream, barrier);
  giveBackEvent(d, event);
  return result;
}

// The epoch of the device's kernel timestamps (Device::epochTicks).
void setEpoch(Device &d) {
  char *ignored = nullptr;
  ze_event_handle_t event = takeEvent(d, &ignored);
  std::free(ignored);
  if (!event) return;
  uint64_t barrier = 0;
  ze_result_t result = appendBarrier(d.streams[0], event, nullptr, &barrier);
  if (result == ZE_RESULT_SUCCESS) result = api.zeEventHostSynchronize(event, UINT64_MAX);
  d.epochHost = rt::steadyNanoseconds();
  if (result == ZE_RESULT_SUCCESS) passed(d.streams[0], barrier);
  ze_kernel_timestamp_result_t stamp{};
  if (result == ZE_RESULT_SUCCESS) result = api.zeEventQueryKernelTimestamp(event, &stamp);
  d.epochTicks = stamp.global.kernelEnd & d.timestampMask;
  d.timing = result == ZE_RESULT_SUCCESS;
  if (!d.timing) log(2, "'" + d.name + "': no kernel timestamps (" + resultName(result) + ")");
  giveBackEvent(d, event);
}

// Fills the device description from Level Zero's properties.
void describe(Device &device, const ze_device_properties_t &properties, const ze_device_module_properties_t &module,
              const std::string &driverVersion, const std::string &apiVersion) {
  ze_device_compute_properties_t compute{};
  compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  api.zeDeviceGetComputeProperties(device.id, &compute);
  uint64_t memoryBytes = 0;
  uint32_t count = 0;
  if (api.zeDeviceGetMemoryProperties(device.id, &count, nullptr) == ZE_RESULT_SUCCESS && count) {
    std::vector<ze_device_memory_properties_t> memories(count);
    for (auto &memory : memories) {
      memory = {};
      memory.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
    }
    if (api.zeDeviceGetMemoryProperties(device.id, &count, memories.data()) == ZE_RESULT_SUCCESS)
      for (uint32_t i = 0; i < count; ++i) memoryBytes += memories[i].totalSize;
  }
  uint64_t cacheBytes = 0;
  count = 0;
  if (api.zeDeviceGetCacheProperties(device.id, &count, nullptr) == ZE_RESULT_SUCCESS && count) {
    std::vector<ze_device_cache_properties_t> caches(count);
    for (auto &cache : caches) cache = {ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES, nullptr, 0, 0};
    if (api.zeDeviceGetCacheProperties(device.id, &count, caches.data()) == ZE_RESULT_SUCCESS)
      for (uint32_t i = 0; i < count; ++i) cacheBytes = std::max<uint64_t>(cacheBytes, caches[i].cacheSize);
  }
  onepass_backend_device_info &info = device.info;
  rt::copyInfoString(info.name, sizeof info.name, device.name);
  rt::copyInfoString(info.vendor, sizeof info.vendor,
                     properties.vendorId == 0x8086 ? "Intel(R) Corporation" : "PCI vendor " + hex(properties.vendorId));
  rt::copyInfoString(info.version, sizeof info.version, "Level Zero " + apiVersion);
  rt::copyInfoString(info.driver_version, sizeof info.driver_version, driverVersion);
  info.device_type = ONEPASS_DEVICE_GPU;
  info.vendor_id = properties.vendorId;
  info.compute_units = properties.numSlices * properties.numSubslicesPerSlice * properties.numEUsPerSubslice;
  info.clock_mhz = properties.coreClockRate;
  info.global_mem_bytes = memoryBytes;
  info.local_mem_bytes = compute.maxSharedLocalMemory;
  info.kernel_features = ONEPASS_KERNEL_FEATURE_BARRIER | ONEPASS_KERNEL_FEATURE_LOCAL_MEMORY;
  if (module.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS) info.kernel_features |= ONEPASS_KERNEL_FEATURE_ATOMIC64;
  if (module.flags & ZE_DEVICE_MODULE_FLAG_FP16) info.kernel_features |= ONEPASS_KERNEL_FEATURE_FP16;
  info.max_alloc_bytes = properties.maxMemAllocSize;
  info.max_work_group_size = std::min<uint64_t>(compute.maxTotalGroupSize, ONEPASS_JIT_SPIRV_MAX_WORK_GROUP);
  info.has_fp64 = (module.flags & ZE_DEVICE_MODULE_FLAG_FP64) != 0;
  info.cache_line_bytes = 64;  // (not in Level Zero's core properties; Intel GPUs' line)
  info.global_cache_bytes = cacheBytes;
  info.sub_group_size = 1;  // (sub-groups: not yet through this backend)
  info.max_work_item_sizes[0] = std::min<uint64_t>(compute.maxGroupSizeX, info.max_work_group_size);
  info.max_work_item_sizes[1] = std::min<uint64_t>(compute.maxGroupSizeY, info.max_work_group_size);
  info.max_work_item_sizes[2] = std::min<uint64_t>(compute.maxGroupSizeZ, info.max_work_group_size);
}

// Adds a GPU device of `driver` (whose context is `context`) if it can run
// OnePass's kernels; otherwise records why not.
void consider(ze_device_handle_t id, ze_context_handle_t context, const std::string &driverVersion,
              const std::string &apiVersion) {
  ze_device_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  ze_result_t result = api.zeDeviceGetProperties(id, &properties);
  if (result != ZE_RESULT_SUCCESS) {
    leftOut.push_back("a device: zeDeviceGetProperties failed: " + resultName(result));
    return;
  }
  auto device = std::make_unique<Device>();
  device->id = id;
  device->context = context;
  device->name = properties.name;
  if (properties.type != ZE_DEVICE_TYPE_GPU) {
    leftOut.push_back("'" + device->name + "' is not a GPU");
    return;
  }
  ze_device_module_properties_t module{};
  module.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  if (api.zeDeviceGetModuleProperties(id, &module) != ZE_RESULT_SUCCESS || module.spirvVersionSupported == 0) {
    leftOut.push_back("'" + device->name + "' takes no SPIR-V");
    return;
  }
  device->spirvVersion = module.spirvVersionSupported;
  uint32_t ordinal = 0;
  if (!computeQueueGroup(id, ordinal, device->maxFillPatternBytes)) {
    leftOut.push_back("'" + device->name + "' has no compute queue group");
    return;
  }
  ze_command_queue_desc_t queue{};
  queue.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  queue.ordinal = ordinal;
  queue.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;  // each append returns when its work is done
  queue.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
  result = api.zeCommandListCreateImmediate(context, id, &queue, &device->list);
  if (result != ZE_RESULT_SUCCESS) {
    leftOut.push_back("'" + device->name + "': zeCommandListCreateImmediate failed: " + resultName(result));
    return;
  }
  queue.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  for (Stream &stream : device->streams) {
    if (result == ZE_RESULT_SUCCESS) result = api.zeCommandListCreateImmediate(context, id, &queue, &stream.list);
  }
  if (result != ZE_RESULT_SUCCESS) {
    for (Stream &stream : device->streams)
      if (stream.list) api.zeCommandListDestroy(stream.list);
    api.zeCommandListDestroy(device->list);
    leftOut.push_back("'" + device->name +
                      "': zeCommandListCreateImmediate (asynchronous) failed: " + resultName(result));
    return;
  }
  device->timerNanoseconds = properties.timerResolution ? properties.timerResolution : 1;
  device->timestampMask =
      properties.kernelTimestampValidBits >= 64 ? ~0ull : (1ull << properties.kernelTimestampValidBits) - 1;
  device->identity = "level_zero api " + apiVersion + "|driver " + driverVersion + "|" + device->name + "|pci " +
                     hex(properties.vendorId) + ":" + hex(properties.deviceId) + "|spir-v " +
                     versionText(ZE_MAJOR_VERSION(device->spirvVersion), ZE_MINOR_VERSION(device->spirvVersion));
  describe(*device, properties, module, driverVersion, apiVersion);
  setEpoch(*device);
  devices.push_back(std::move(device));
}

// Adds the GPU devices of one driver, with a context for them.
void considerDriver(ze_driver_handle_t driver) {
  ze_driver_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES;
  api.zeDriverGetProperties(driver, &properties);
  ze_api_version_t version = ZE_API_VERSION_1_0;
  api.zeDriverGetApiVersion(driver, &version);
  const std::string driverVersion = std::to_string(properties.driverVersion);
  const std::string apiVersion = versionText(ZE_MAJOR_VERSION(version), ZE_MINOR_VERSION(version));
  uint32_t count = 0;
  if (api.zeDeviceGet(driver, &count, nullptr) != ZE_RESULT_SUCCESS || count == 0) {
    leftOut.push_back("driver " + driverVersion + " has no device");
    return;
  }
  std::vector<ze_device_handle_t> ids(count);
  api.zeDeviceGet(driver, &count, ids.data());
  ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t context = nullptr;
  ze_result_t result = api.zeContextCreate(driver, &contextDesc, &context);
  if (result != ZE_RESULT_SUCCESS) {
    leftOut.push_back("driver " + driverVersion + ": zeContextCreate failed: " + resultName(result));
    return;
  }
  const size_t before = devices.size();
  for (ze_device_handle_t id : ids) consider(id, context, driverVersion, apiVersion);
  if (devices.size() == before) api.zeContextDestroy(context);
  else contexts.push_back(context);
}

Device *at(uint32_t device) { return device < devices.size() ? devices[device].get() : nullptr; }

std::string noDevice(uint32_t device) { return "no Level Zero device " + std::to_string(device); }

uint32_t deviceCount() { return static_cast<uint32_t>(devices.size()); }

int deviceInfo(uint32_t device, onepass_backend_device_info *info, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, noDevice(device));
  *info = d->info;
  return 0;
}

void *allocate(uint32_t device, uint64_t bytes, uint64_t alignment, uint32_t kind) {
  Device *d = at(device);
  if (!d) return nullptr;
  if (alignment & (alignment - 1)) return nullptr;
  const size_t size = bytes ? bytes : 1;
  ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0, 0};
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  void *pointer = nullptr;
  ze_result_t result;
  switch (kind) {
  case ONEPASS_USM_DEVICE:
    result = api.zeMemAllocDevice(d->context, &deviceDesc, size, alignment, d->id, &pointer);
    break;
  case ONEPASS_USM_HOST: result = api.zeMemAllocHost(d->context, &hostDesc, size, alignment, &pointer); break;
  case ONEPASS_USM_SHARED:
    result = api.zeMemAllocShared(d->context, &deviceDesc, &hostDesc, size, alignment, d->id, &pointer);
    break;
  default: return nullptr;
  }
  if (result != ZE_RESULT_SUCCESS) {
    log(3, "allocating " + std::to_string(bytes) + " bytes failed: " + resultName(result));
    return nullptr;
  }
  return pointer;
}

// After the streams' work (which may still use the memory) is done.
void deallocate(uint32_t device, void *pointer, uint32_t) {
  Device *d = at(device);
  if (!d || !pointer) return;
  for (Stream &stream : d->streams) {
    ze_result_t finished = finishStream(*d, stream);
    if (finished != ZE_RESULT_SUCCESS) log(1, "waiting for a stream before zeMemFree failed: " + resultName(finished));
  }
  ze_result_t result = api.zeMemFree(d->context, pointer);
  if (result != ZE_RESULT_SUCCESS) log(1, "zeMemFree failed: " + resultName(result));
}

int copy(uint32_t device, void *destination, const void *source, uint64_t bytes, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, noDevice(device));
  if (bytes == 0) return 0;
  std::lock_guard<std::mutex> lock(d->mutex);
  ze_result_t result = api.zeCommandListAppendMemoryCopy(d->list, destination, source, bytes, nullptr, 0, nullptr);
  if (result != ZE_RESULT_SUCCESS)
    return rt::reportBackendError(error, "zeCommandListAppendMemoryCopy failed: " + resultName(result));
  return 0;
}

// Appends a fill to `list`: Level Zero's own for power-of-two patterns up to
// the queue group's size, else a copy of a filled host block (`block`, which
// must live until the fill is done). `call` names the Level Zero call.
ze_result_t appendFill(const Device &d, ze_command_list_handle_t list, void *destination, const void *pattern,
                       uint32_t patternBytes, uint64_t count, std::vector<char> &block, const char *&call) {
  if (patternBytes && patternBytes <= d.maxFillPatternBytes && (patternBytes & (patternBytes - 1)) == 0) {
    call = "zeCommandListAppendMemoryFill";
    return api.zeCommandListAppendMemoryFill(list, destination, pattern, patternBytes, patternBytes * count, nullptr, 0,
                                             nullptr);
  }
  call = "zeCommandListAppendMemoryCopy";
  block.resize(static_cast<size_t>(patternBytes) * count);
  for (uint64_t i = 0; i < count; ++i) std::memcpy(block.data() + i * patternBytes, pattern, patternBytes);
  return api.zeCommandListAppendMemoryCopy(list, destination, block.data(), block.size(), nullptr, 0, nullptr);
}

int fill(uint32_t device, void *destination, const void *pattern, uint32_t patternBytes, uint64_t count, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, noDevice(device));
  if (count == 0) return 0;
  std::lock_guard<std::mutex> lock(d->mutex);
  std::vector<char> block;
  const char *call = "";
  ze_result_t result = appendFill(*d, d->list, destination, pattern, patternBytes, count, block, call);
  if (result != ZE_RESULT_SUCCESS)
    return rt::reportBackendError(error,
                                  std::string("filling device memory failed: ") + call + ": " + resultName(result));
  return 0;
}

Stream *streamOf(uint32_t device, uint32_t stream, char **error) {
  Device *d = at(device);
  if (!d || stream >= kStreams) {
    rt::reportBackendError(error, noDevice(device) + " stream " + std::to_string(stream));
    return nullptr;
  }
  return &d->streams[stream];
}

int copyAsync(uint32_t device, uint32_t stream, void *destination, const void *source, uint64_t bytes, char **error) {
  Stream *s = streamOf(device, stream, error);
  if (!s) return 1;
  if (bytes == 0) return 0;
  ze_result_t result = appendInOrder(*s, nullptr, [&](ze_command_list_handle_t list) {
    return api.zeCommandListAppendMemoryCopy(list, destination, source, bytes, nullptr, 0, nullptr);
  });
  if (result != ZE_RESULT_SUCCESS)
    return rt::reportBackendError(error, "zeCommandListAppendMemoryCopy failed: " + resultName(result));
  return 0;
}

// In the stream's order, but returns once the fill is done: Level Zero may
// read the pattern (or the filled block) until then.
int fillAsync(uint32_t device, uint32_t stream, void *destination, const void *pattern, uint32_t patternBytes,
              uint64_t count, char **error) {
  Stream *s = streamOf(device, stream, error);
  if (!s) return 1;
  if (count == 0) return 0;
  Device &d = *at(device);
  ze_event_handle_t done = takeEvent(d, error);
  if (!done) return 1;
  std::vector<char> block;
  const char *call = "";
  ze_result_t result = appendInOrder(*s, done, [&](ze_command_list_handle_t list) {
    return appendFill(d, list, destination, pattern, patternBytes, count, block, call);
  });
  if (result == ZE_RESULT_SUCCESS) {
    call = "zeEventHostSynchronize";
    result = api.zeEventHostSynchronize(done, UINT64_MAX);
  }
  giveBackEvent(d, done);
  if (result != ZE_RESULT_SUCCESS)
    return rt::reportBackendError(error,
                                  std::string("filling device memory failed: ") + call + ": " + resultName(result));
  return 0;
}

int deviceTarget(uint32_t device, onepass_backend_target *target, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, noDevice(device));
  *target = onepass_backend_target{};
  target->jit_target = ONEPASS_JIT_TARGET_SPIRV;
  // Sub-groups are not asked of the device yet: one work-item each (its
  // sub_group_size says 1).
  target->arch = ONEPASS_JIT_SPIRV_ONE_ITEM_SUB_GROUPS;
  target->device_library = "";
  target->device_library_missing = "";
  target->identity = d->identity.c_str();
  return 0;
}

struct Kernel {
  ze_module_handle_t module = nullptr;
  ze_kernel_handle_t kernel = nullptr;
  uint32_t arguments = 0;
  uint64_t maxGroupSize = 0;  // 0: the device's
  uint64_t privateBytes = 0;
  std::mutex mutex;  // zeKernelSetArgumentValue and the launch that reads them go together
};

// The module's build log, for an error message ("" if there is none).
std::string buildLogText(ze_module_build_log_handle_t buildLog) {
  if (!buildLog) return "";
  size_t size = 0;
  std::string text;
  if (api.zeModuleBuildLogGetString(buildLog, &size, nullptr) == ZE_RESULT_SUCCESS && size) {
    text.assign(size, '\0');
    api.zeModuleBuildLogGetString(buildLog, &size, text.data());
    text.resize(std::strlen(text.c_str()));
  }
  api.zeModuleBuildLogDestroy(buildLog);
  return text;
}

// For a module the device did not build: whether it is newer SPIR-V than the
// device says it takes. (Only a hint: drivers have built newer SPIR-V than
// they report.) SPIR-V §2.3: word 1 is 0x00MMmm00.
std::string versionHint(const Device &d, const void *binary, uint64_t size) {
  uint32_t header[2] = {0, 0};
  if (size >= sizeof header) std::memcpy(header, binary, sizeof header);
  const uint32_t major = (header[1] >> 16) & 0xff, minor = (header[1] >> 8) & 0xff;
  if (header[0] != 0x07230203u || ZE_MAKE_VERSION(major, minor) <= d.spirvVersion) return "";
  return " (the kernel is SPIR-V " + versionText(major, minor) + ", the device takes SPIR-V up to " +
         versionText(ZE_MAJOR_VERSION(d.spirvVersion), ZE_MINOR_VERSION(d.spirvVersion)) + ")";
}

int loadKernel(uint32_t device, const void *binary, uint64_t size, void **handle, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, noDevice(device));
  ze_module_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  desc.inputSize = size;
  desc.pInputModule = static_cast<const uint8_t *>(binary);
  desc.pBuildFlags = "";
  auto kernel = std::make_unique<Kernel>();
  ze_module_build_log_handle_t buildLog = nullptr;
  ze_result_t result = api.zeModuleCreate(d->context, d->id, &desc, &kernel->module, &buildLog);
  const std::string logText = buildLogText(buildLog);
  if (result != ZE_RESULT_SUCCESS)
    return rt::reportBackendError(
        error, "'" + d->name + "' could not build the kernel: zeModuleCreate failed: " + resultName(result) +
                   (logText.empty() ? "" : ": " + logText) + versionHint(*d, binary, size));
  ze_kernel_desc_t kernelDesc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, ONEPASS_ABI_SPIRV_KERNEL};
  result = api.zeKernelCreate(kernel->module, &kernelDesc, &kernel->kernel);
  if (result != ZE_RESULT_SUCCESS) {
    api.zeModuleDestroy(kernel->module);
    return rt::reportBackendError(error, "zeKernelCreate(" ONEPASS_ABI_SPIRV_KERNEL ") failed: " + resultName(result));
  }
  ze_kernel_properties_t properties{};
  properties.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
  result = api.zeKernelGetProperties(kernel->kernel, &properties);
  if (result != ZE_RESULT_SUCCESS)
    return rt::reportBackendError(error, "zeKernelGetProperties failed: " + resultName(result));
  kernel->arguments = properties.numKernelArgs;
  // A kernel's work-group is at most its largest sub-group count of its
  // largest sub-groups (registers limit both).
  if (properties.maxSubgroupSize && properties.maxNumSubgroups)
    kernel->maxGroupSize = std::min<uint64_t>(uint64_t(properties.maxSubgroupSize) * properties.maxNumSubgroups,
                                              d->info.max_work_group_size);
  kernel->privateBytes = properties.privateMemSize;
  *handle = kernel.release();  // loaded kernels stay for the process's life
  return 0;
}

// Sets the kernel's arguments and group size for `launch` and appends it with
// `append(kernel, groupCount)` while the kernel is held (Level Zero takes the
// arguments as the launch is appended).
template <typename Append>
int launchWith(Device *d, const onepass_backend_launch *launch, char **error, Append &&append) {
  auto *kernel = static_cast<Kernel *>(launch->kernel);
  const unsigned dims = launch->dimensions;
  uint64_t range[3] = {1, 1, 1};
  for (unsigned i = 0; i < dims; ++i) range[i] = launch->global_range[i];
  if (range[0] * range[1] * range[2] == 0) return 0;
  const bool grouped = launch->local_range[0] != 0;
  std::lock_guard<std::mutex> lock(kernel->mutex);
  auto set = [&](uint32_t index, size_t size, const void *value) {
    ze_result_t result = api.zeKernelSetArgumentValue(kernel->kernel, index, size, value);
    if (result != ZE_RESULT_SUCCESS)
      return rt::reportBackendError(error, "zeKernelSetArgumentValue(" + std::to_string(index) +
                                               ") failed: " + resultName(result));
    return 0;
  };
  if (rt::setSpirvKernelArguments(*launch, kernel->arguments, set, error)) return 1;
  // Level Zero's x is SYCL's last dimension. A range kernel's groups overhang
  // its range (the kernel's work-items past it return at once).
  const uint64_t maxGroup = kernel->maxGroupSize ? kernel->maxGroupSize : d->info.max_work_group_size;
  uint32_t groupSize[3] = {1, 1, 1};
  uint32_t groupCount[3] = {1, 1, 1};
  for (unsigned axis = 0; axis < (dims ? dims : 1u); ++axis) {
    const uint64_t extent = dims ? range[dims - 1 - axis] : 1;
    uint64_t local = 1;
    if (grouped) local = launch->local_range[dims - 1 - axis];
    else if (axis == 0) local = std::min<uint64_t>(extent, std::min<uint64_t>(64, std::max<uint64_t>(maxGroup, 1)));
    const uint64_t groups = (extent + local - 1) / local;
    if (local > UINT32_MAX || groups > UINT32_MAX)
      return rt::reportBackendError(error, "the launch's range is too large for Level Zero (" + std::to_string(groups) +
                                               " work-groups along an axis)");
    groupSize[axis] = static_cast<uint32_t>(local);
    groupCount[axis] = static_cast<uint32_t>(groups);
  }
  ze_result_t result = api.zeKernelSetGroupSize(kernel->kernel, groupSize[0], groupSize[1], groupSize[2]);
  if (result != ZE_RESULT_SUCCESS)
    return rt::reportBackendError(error, "zeKernelSetGroupSize(" + std::to_string(groupSize[0]) + ", " +
                                             std::to_string(groupSize[1]) + ", " + std::to_string(groupSize[2]) +
                                             ") failed: " + resultName(result));
  ze_group_count_t count{groupCount[0], groupCount[1], groupCount[2]};
  result = append(kernel->kernel, count);
  if (result != ZE_RESULT_SUCCESS)
    return rt::reportBackendError(error,
                                  "the kernel launch failed: zeCommandListAppendLaunchKernel: " + resultName(result));
  return 0;
}

int launch(uint32_t device, const onepass_backend_launch *launch, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, noDevice(device));
  return launchWith(d, launch, error, [&](ze_kernel_handle_t kernel, const ze_group_count_t &count) {
    std::lock_guard<std::mutex> listLock(d->mutex);
    return api.zeCommandListAppendLaunchKernel(d->list, kernel, &count, nullptr, 0, nullptr);
  });
}

int launchAsync(uint32_t device, uint32_t stream, const onepass_backend_launch *launch, char **error) {
  Stream *s = streamOf(device, stream, error);
  if (!s) return 1;
  return launchWith(at(device), launch, error, [&](ze_kernel_handle_t kernel, const ze_group_count_t &count) {
    return appendInOrder(*s, nullptr, [&](ze_command_list_handle_t list) {
      return api.zeCommandListAppendLaunchKernel(list, kernel, &count, nullptr, 0, nullptr);
    });
  });
}

// A marker is an event the stream's next barrier signals.
void *recordMarker(uint32_t device, uint32_t stream, uint32_t, char **error) {
  Stream *s = streamOf(device, stream, error);
  if (!s) return nullptr;
  Device &d = *at(device);
  auto marker = std::make_unique<Marker>();
  marker->event = takeEvent(d, error);
  if (!marker->event) return nullptr;
  marker->stream = stream;
  ze_result_t result = appendBarrier(*s, marker->event, nullptr, &marker->barrier);
  if (result != ZE_RESULT_SUCCESS) {
    giveBackEvent(d, marker->event);
    rt::reportBackendError(error, "zeCommandListAppendBarrier failed: " + resultName(result));
    return nullptr;
  }
  return marker.release();
}

int streamWaitMarker(uint32_t device, uint32_t stream, void *handle, char **error) {
  Stream *s = streamOf(device, stream, error);
  if (!s) return 1;
  auto *marker = static_cast<Marker *>(handle);
  uint64_t barrier = 0;
  ze_result_t result = appendBarrier(*s, nullptr, &marker->event, &barrier);
  if (result != ZE_RESULT_SUCCESS)
    return rt::reportBackendError(error,
                                  "zeCommandListAppendBarrier (waiting for a marker) failed: " + resultName(result));
  Device &d = *at(device);
  std::lock_guard<std::mutex> lock(d.eventMutex);
  marker->waiters.emplace_back(stream, barrier);
  return 0;
}

// The error of a marker whose work failed (a lost device).
int markerFailure(uint32_t device, ze_result_t result, char **error) {
  Device *d = at(device);
  return rt::reportBackendError(error, "work on '" + (d ? d->name : std::string("a Level Zero device")) +
                                           "' failed: " + resultName(result));
}

int queryMarker(uint32_t device, void *handle, char **error) {
  auto *marker = static_cast<Marker *>(handle);
  ze_result_t result = api.zeEventQueryStatus(marker->event);
  if (result == ZE_RESULT_SUCCESS) {
    passed(at(device)->streams[marker->stream], marker->barrier);
    return 1;
  }
  if (result == ZE_RESULT_NOT_READY) return 0;
  markerFailure(device, result, error);
  return -1;
}

int waitMarker(uint32_t device, void *handle, char **error) {
  auto *marker = static_cast<Marker *>(handle);
  ze_result_t result = api.zeEventHostSynchronize(marker->event, UINT64_MAX);
  if (result == ZE_RESULT_SUCCESS) {
    passed(at(device)->streams[marker->stream], marker->barrier);
    return 0;
  }
  return markerFailure(device, result, error);
}

// The barrier's global end timestamp on the host's clock. Timestamps wrap
// (kernelTimestampValidBits): of the times the ticks may stand for, the
// latest that is not after now (the marker has completed; the runtime asks
// soon after, well within one wrap).
int markerTime(uint32_t device, void *handle, uint64_t *nanoseconds, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, noDevice(device));
  if (!d->timing) return rt::reportBackendError(error, "'" + d->name + "' has no kernel timestamps");
  ze_kernel_timestamp_result_t stamp{};
  ze_result_t result = api.zeEventQueryKernelTimestamp(static_cast<Marker *>(handle)->event, &stamp);
  if (result != ZE_RESULT_SUCCESS)
    return rt::reportBackendError(error, "zeEventQueryKernelTimestamp failed: " + resultName(result));
  const uint64_t ticks = ((stamp.global.kernelEnd & d->timestampMask) - d->epochTicks) & d->timestampMask;
  const uint64_t since = ticks * d->timerNanoseconds;  // after the epoch, modulo one wrap
  const uint64_t wrap = d->timestampMask == ~0ull ? 0 : (d->timestampMask + 1) * d->timerNanoseconds;
  const uint64_t now = rt::steadyNanoseconds();
  uint64_t at = d->epochHost + since;
  if (wrap && now > at) at += (now - at) / wrap * wrap;
  *nanoseconds = at;
  return 0;
}

void releaseMarker(uint32_t device, void *handle) {
  Device *d = at(device);
  std::unique_ptr<Marker> marker(static_cast<Marker *>(handle));
  if (!d || !marker) return;
  {
    std::lock_guard<std::mutex> lock(d->eventMutex);
    if (!waitersPassed(*d, *marker)) {
      d->quarantine.push_back(std::move(marker));
      return;
    }
  }
  giveBackEvent(*d, marker->event);
}

int kernelLimits(uint32_t device, void *handle, onepass_kernel_limits *limits, char **error) {
  Device *d = at(device);
  if (!d) return rt::reportBackendError(error, noDevice(device));
  auto *kernel = static_cast<Kernel *>(handle);
  limits->max_work_group_size = kernel->maxGroupSize ? kernel->maxGroupSize : d->info.max_work_group_size;
  limits->private_bytes = kernel->privateBytes;
  return 0;
}

onepass_backend table() {
  onepass_backend t = rt::synchronousBackendTable("level_zero", "OnePass Level Zero");
  t.device_count = deviceCount;
  t.device_info = deviceInfo;
  t.allocate = allocate;
  t.deallocate = deallocate;
  t.copy = copy;
  t.fill = fill;
  t.device_target = deviceTarget;
  t.finalize_binary = nullptr;  // the SPIR-V is the binary
  t.load_kernel = loadKernel;
  t.launch = launch;
  t.kernel_limits = kernelLimits;
  t.streams = kStreams;
  t.launch_async = launchAsync;
  t.copy_async = copyAsync;
  t.fill_async = fillAsync;
  t.record_marker = recordMarker;
  t.stream_wait_marker = streamWaitMarker;
  t.query_marker = queryMarker;
  t.wait_marker = waitMarker;
  t.marker_time = markerTime;
  t.release_marker = releaseMarker;
  return t;
}

}  // namespace

}  // namespace onepass::level_zero

extern "C" __attribute__((visibility("default"))) const onepass_backend *
onepass_backend_entry(const onepass_runtime_services *runtimeServices, char **why) {
  using namespace onepass::level_zero;
  return onepass::rt::answerBackendEntry(
      [&](std::string &reason) -> const onepass_backend * {
        services = runtimeServices;
        if (!api.load(reason)) return nullptr;
        ze_result_t status = api.zeInit(ZE_INIT_FLAG_GPU_ONLY);
        if (status != ZE_RESULT_SUCCESS) {
          reason = "no Level Zero driver is installed, or none starts (zeInit: " + resultName(status) + ")";
          return nullptr;
        }
        uint32_t count = 0;
        status = api.zeDriverGet(&count, nullptr);
        if (status != ZE_RESULT_SUCCESS || count == 0) {
          reason = "no Level Zero driver is installed (zeDriverGet found none" +
                   (status != ZE_RESULT_SUCCESS ? ": " + resultName(status) : std::string()) + ")";
          return nullptr;
        }
        std::vector<ze_driver_handle_t> drivers(count);
        api.zeDriverGet(&count, drivers.data());
        for (ze_driver_handle_t driver : drivers) considerDriver(driver);
        for (const std::string &line : leftOut) log(2, "device left out: " + line);
        if (devices.empty()) {
          reason = "no Level Zero GPU device can run OnePass kernels" + (leftOut.empty() ? "" : ": " + leftOut.front());
          return nullptr;
        }
        static onepass_backend built = table();
        return &built;
      },
      why);
}
