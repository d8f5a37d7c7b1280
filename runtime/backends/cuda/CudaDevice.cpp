// The CUDA backend: NVIDIA GPUs through the driver API (libcuda.so.1, loaded
// at run time). Its devices' kernels are JIT-compiled to PTX by the runtime
// for the device's compute capability; the backend links the PTX into a cubin
// with the driver (which the runtime caches) and loads it. This file: the
// plugin's entry, its devices and their JIT target.
#include "CudaBackend.h"

#include "onepass/jit/jit_api.h"  // ONEPASS_JIT_TARGET_PTX

#include <algorithm>
#include <chrono>
#include <cstring>

namespace onepass::cuda {

namespace {

using Clock = std::chrono::steady_clock;

// The newest PTX ISA (10 * major + minor) the driver of CUDA version `driver`
// (1000 * major + 10 * minor, cuDriverGetVersion's) accepts.
unsigned driverPtxVersion(int driver) {
  const int major = driver / 1000, minor = driver % 1000 / 10;
  if (major >= 13) return static_cast<unsigned>(90 + (major - 13) * 10 + minor);
  if (major == 12) {
    static const unsigned k12[] = {80, 81, 82, 83, 84, 85, 85, 86, 87, 88};  // 12.0 .. 12.9
    return k12[std::min(minor, 9)];
  }
  if (major == 11) return static_cast<unsigned>(70 + std::min(minor, 8));
  if (major == 10) return static_cast<unsigned>(63 + std::min(minor, 2));
  return 60;
}

}  // namespace

uint32_t deviceCount() { return static_cast<uint32_t>(backend().devices.size()); }

int deviceInfo(uint32_t device, onepass_backend_device_info *info, char **) {
  Backend &b = backend();
  const Device &d = *b.devices[device];
  auto attribute = [&](int which) {
    int value = 0;
    b.api->cuDeviceGetAttribute(&value, which, d.handle);
    return value;
  };
  std::memset(info, 0, sizeof(*info));
  std::strncpy(info->name, d.name.c_str(), sizeof(info->name) - 1);
  std::strncpy(info->vendor, "NVIDIA Corporation", sizeof(info->vendor) - 1);
  std::string version = "sm_" + std::to_string(d.smVersion);
  std::strncpy(info->version, version.c_str(), sizeof(info->version) - 1);
  std::string driver = driverName();
  std::strncpy(info->driver_version, driver.c_str(), sizeof(info->driver_version) - 1);
  info->device_type = ONEPASS_DEVICE_GPU;
  info->vendor_id = 0x10de;
  info->compute_units = static_cast<uint32_t>(attribute(MultiprocessorCount));
  info->clock_mhz = static_cast<uint32_t>(attribute(ClockRateKHz) / 1000);
  size_t total = 0;
  b.api->cuDeviceTotalMem_v2(&total, d.handle);
  info->global_mem_bytes = total;
  info->max_alloc_bytes = total;
  info->local_mem_bytes = static_cast<uint64_t>(attribute(MaxSharedMemoryPerBlock));
  info->kernel_features = ONEPASS_KERNEL_FEATURE_BARRIER | ONEPASS_KERNEL_FEATURE_LOCAL_MEMORY |
                          ONEPASS_KERNEL_FEATURE_ATOMIC64 | ONEPASS_KERNEL_FEATURE_FP16 |
                          ONEPASS_KERNEL_FEATURE_HIERARCHICAL;
  info->max_work_group_size = static_cast<uint64_t>(attribute(MaxThreadsPerBlock));
  info->has_fp64 = 1;
  info->cache_line_bytes = 128;
  info->global_cache_bytes = static_cast<uint64_t>(attribute(L2CacheSize));
  info->sub_group_size = 32;  // a warp (jit/builtins/ptx/group.cpp)
  for (int axis = 0; axis < 3; ++axis) info->max_work_item_sizes[axis] = static_cast<uint64_t>(d.maxBlock[axis]);
  return 0;
}

int deviceTarget(uint32_t device, onepass_backend_target *target, char **) {
  const Backend &b = backend();
  const Device &d = *b.devices[device];
  std::memset(target, 0, sizeof *target);
  target->jit_target = ONEPASS_JIT_TARGET_PTX;
  target->arch = d.smVersion;
  target->isa_version = driverPtxVersion(b.driverVersion);
  target->device_library = b.libdevice.path.c_str();
  target->device_library_missing = b.libdevice.missing.c_str();
  target->identity = d.targetIdentity.c_str();
  return 0;
}

namespace {

const onepass_backend kTable = {
    ONEPASS_BACKEND_INTERFACE_VERSION,
    "cuda",
    "OnePass CUDA",
    "NVIDIA Corporation",
    deviceCount,
    deviceInfo,
    allocate,
    deallocate,
    copy,
    fill,
    deviceTarget,
    finalizeBinary,
    loadKernel,
    launchKernel,
    2,  // lanes for synchronous operations (buffer transfers)
    kStreams,
    launchAsync,
    copyAsync,
    fillAsync,
    recordMarker,
    streamWaitMarker,
    queryMarker,
    waitMarker,
    markerTime,
    releaseMarker,
    waitStream,
    kernelLimits,
    nativeHandle,
    nativeFinish,
    markerNative,
    adoptNativeEvent,
    adoptNativeQueue,
    nativeContextDevice,
    imageTexture,
};

}  // namespace

}  // namespace onepass::cuda

using namespace onepass::cuda;

using namespace onepass::cuda;

extern "C" __attribute__((visibility("default"))) const onepass_backend *
onepass_backend_entry(const onepass_runtime_services *services, char **why) {
  Backend &b = backend();
  b.services = services;
  auto refuse = [&](const std::string &reason) -> const onepass_backend * {
    fail(why, reason);
    return nullptr;
  };
  std::string reason;
  b.api = loadDriver(reason);
  if (!b.api) return refuse(reason);
  CUresult result = b.api->cuInit(0);
  if (result == CUDA_ERROR_NO_DEVICE) return refuse("no CUDA device (the driver reports none)");
  if (result != CUDA_SUCCESS) return refuse("the CUDA driver failed to initialize: " + describe(*b.api, result));
  b.api->cuDriverGetVersion(&b.driverVersion);
  int count = 0;
  b.api->cuDeviceGetCount(&count);
  for (int i = 0; i < count; ++i) {
    auto device = std::make_unique<Device>();
    Device &d = *device;
    if (b.api->cuDeviceGet(&d.handle, i) != CUDA_SUCCESS) continue;
    char name[256] = {0};
    b.api->cuDeviceGetName(name, sizeof(name), d.handle);
    d.name = name;
    int major = 0, minor = 0;
    b.api->cuDeviceGetAttribute(&major, ComputeCapabilityMajor, d.handle);
    b.api->cuDeviceGetAttribute(&minor, ComputeCapabilityMinor, d.handle);
    d.smVersion = static_cast<unsigned>(major * 10 + minor);
    for (int axis = 0; axis < 3; ++axis) {
      b.api->cuDeviceGetAttribute(&d.maxGrid[axis], MaxGridDimX + axis, d.handle);
      b.api->cuDeviceGetAttribute(&d.maxBlock[axis], MaxBlockDimX + axis, d.handle);
    }
    result = b.api->cuDevicePrimaryCtxRetain(&d.context, d.handle);
    if (result == CUDA_SUCCESS) result = b.api->cuCtxSetCurrent(d.context);
    if (result == CUDA_SUCCESS) result = b.api->cuStreamCreate(&d.stream, CU_STREAM_NON_BLOCKING);
    for (uint32_t s = 0; s < kStreams && result == CUDA_SUCCESS; ++s) {
      result = b.api->cuStreamCreate(&d.streams[s], CU_STREAM_NON_BLOCKING);
      if (result == CUDA_SUCCESS) d.streamCount = s + 1;
    }
    // The origin of device timestamps: an event on the host's clock.
    if (result == CUDA_SUCCESS) result = b.api->cuEventCreate(&d.epoch, CU_EVENT_DEFAULT);
    if (result == CUDA_SUCCESS) result = b.api->cuEventRecord(d.epoch, d.stream);
    if (result == CUDA_SUCCESS) result = b.api->cuEventSynchronize(d.epoch);
    d.epochNanoseconds = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count());
    if (result != CUDA_SUCCESS) {
      log(1, "device " + std::to_string(i) + " (" + d.name + ") skipped: " + describe(*b.api, result));
      continue;
    }
    b.devices.push_back(std::move(device));
  }
  if (b.devices.empty()) return refuse("no usable CUDA device");
  b.libdevice = findLibdevice();
  if (b.libdevice.path.empty())
    log(2, "no libdevice, so kernels calling math functions cannot run: " + b.libdevice.missing);
  for (auto &device : b.devices)
    device->targetIdentity = "cuda sm_" + std::to_string(device->smVersion) + "|driver " +
                             std::to_string(b.driverVersion) + "|" + b.libdevice.identity;
  return &kTable;
}
