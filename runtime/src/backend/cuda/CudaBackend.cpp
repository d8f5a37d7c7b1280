// The CUDA backend: NVIDIA GPUs through the driver API (libcuda.so.1, loaded
// at run time). Its devices' kernels are JIT-compiled to PTX by the runtime
// for the device's compute capability; the backend links the PTX into a cubin
// with the driver (which the runtime caches) and loads it; allocations map to cuMemAlloc / cuMemHostAlloc / cuMemAllocManaged.
// Each device has kStreams non-blocking streams for asynchronous operations,
// with CUDA events as the runtime's markers, and one more stream for the
// synchronous operations.
#include "../BackendErrors.h"
#include "../BackendInterface.h"
#include "CudaDriver.h"
#include "CudaToolkit.h"

#include "onepass/jit/jit_api.h"  // ONEPASS_JIT_TARGET_PTX

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace onepass::cuda {

namespace {

// Thread-block shapes per dimensionality: 256 threads, the last SYCL
// dimension (CUDA x) widest so that neighbouring work-items share warps.
constexpr unsigned kBlock[4][3] = {{1, 1, 1}, {256, 1, 1}, {32, 8, 1}, {32, 4, 2}};

// Streams per device for asynchronous operations: independent nodes overlap
// on up to this many.
constexpr uint32_t kStreams = 4;

// A marker is a CUDA event; released ones are kept for reuse, since creating
// an event costs more than recording one.
struct Marker {
  CUevent event = nullptr;
  bool timing = false;
};

struct Device {
  CUdevice handle = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;  // synchronous operations
  std::vector<CUstream> streams;
  unsigned smVersion = 0;
  int maxGrid[3] = {0, 0, 0};
  int maxBlock[3] = {0, 0, 0};
  std::string name;
  std::string targetIdentity;  // onepass_backend_target::identity
  // Host time of `epoch`, a timing event: the origin of marker_time.
  CUevent epoch = nullptr;
  uint64_t epochNanoseconds = 0;
  std::mutex markerMutex;
  std::vector<Marker *> freeMarkers[2];  // [timing]
};

struct Backend {
  std::mutex alignedMutex;
  std::map<void *, void *> alignedToBase;  // over-aligned allocations: what to free
  const DriverApi *api = nullptr;
  const onepass_runtime_services *services = nullptr;
  int driverVersion = 0;
  Libdevice libdevice;
  std::vector<std::unique_ptr<Device>> devices;
};

Backend &backend() {
  static Backend instance;
  return instance;
}

int fail(char **error, const std::string &message) { return rt::reportBackendError(error, message); }

void log(int level, const std::string &message) {
  if (backend().services) backend().services->log(level, ("CUDA: " + message).c_str());
}

// Makes the device's context current on the calling thread, if it is not
// already (asking is cheaper than setting, and launches mostly come from one
// thread).
bool enter(uint32_t device, char **error) {
  Backend &b = backend();
  CUcontext current = nullptr;
  if (b.api->cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == b.devices[device]->context) return true;
  CUresult result = b.api->cuCtxSetCurrent(b.devices[device]->context);
  if (result == CUDA_SUCCESS) return true;
  fail(error, "cannot make the context of '" + b.devices[device]->name + "' current: " + describe(*b.api, result));
  return false;
}

#define ONEPASS_CUDA_CHECK(call, what)                                                             \
  do {                                                                                             \
    CUresult onepass_result = (call);                                                              \
    if (onepass_result != CUDA_SUCCESS)                                                            \
      return fail(error, std::string(what) + " failed on '" + backend().devices[device]->name +     \
                             "': " + describe(*backend().api, onepass_result));                    \
  } while (0)

// "CUDA 13.0" for the loaded driver.
std::string driverName() {
  const int version = backend().driverVersion;
  return "CUDA " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// An error the device reported for work that ran on it (sticky after a fault).
int deviceFailure(uint32_t device, CUresult result, char **error) {
  return fail(error, "'" + backend().devices[device]->name + "' reports " + describe(*backend().api, result));
}

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
  info->kernel_features = ONEPASS_KERNEL_FEATURE_BARRIER | ONEPASS_KERNEL_FEATURE_LOCAL_MEMORY;
  info->max_work_group_size = static_cast<uint64_t>(attribute(MaxThreadsPerBlock));
  info->has_fp64 = 1;
  info->cache_line_bytes = 128;
  info->sub_group_size = 32;  // a warp (jit/builtins/ptx/group.cpp)
  for (int axis = 0; axis < 3; ++axis) info->max_work_item_sizes[axis] = static_cast<uint64_t>(d.maxBlock[axis]);
  return 0;
}

void *allocateAligned256(uint32_t device, uint64_t bytes, uint32_t kind);

// Driver allocations are at least 256-byte aligned; a stricter alignment is
// met by over-allocating and remembering the base pointer for the free.
void *allocate(uint32_t device, uint64_t bytes, uint64_t alignment, uint32_t kind) {
  if (bytes == 0 || (alignment & (alignment - 1)) != 0) return nullptr;
  if (alignment <= 256) return allocateAligned256(device, bytes, kind);
  if (bytes > UINT64_MAX - alignment) return nullptr;
  void *base = allocateAligned256(device, bytes + alignment, kind);
  if (!base) return nullptr;
  auto address = reinterpret_cast<uintptr_t>(base);
  void *aligned = reinterpret_cast<void *>((address + alignment - 1) / alignment * alignment);
  Backend &b = backend();
  std::lock_guard<std::mutex> lock(b.alignedMutex);
  b.alignedToBase[aligned] = base;
  return aligned;
}

void *allocateAligned256(uint32_t device, uint64_t bytes, uint32_t kind) {
  Backend &b = backend();
  if (b.api->cuCtxSetCurrent(b.devices[device]->context) != CUDA_SUCCESS) return nullptr;
  if (kind == ONEPASS_USM_HOST) {
    void *pointer = nullptr;
    return b.api->cuMemHostAlloc(&pointer, bytes, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP) == CUDA_SUCCESS
               ? pointer
               : nullptr;
  }
  CUdeviceptr pointer = 0;
  CUresult result = kind == ONEPASS_USM_SHARED ? b.api->cuMemAllocManaged(&pointer, bytes, CU_MEM_ATTACH_GLOBAL)
                                               : b.api->cuMemAlloc_v2(&pointer, bytes);
  return result == CUDA_SUCCESS ? reinterpret_cast<void *>(pointer) : nullptr;
}

void deallocate(uint32_t device, void *pointer, uint32_t kind) {
  Backend &b = backend();
  {
    std::lock_guard<std::mutex> lock(b.alignedMutex);
    auto it = b.alignedToBase.find(pointer);
    if (it != b.alignedToBase.end()) {
      pointer = it->second;
      b.alignedToBase.erase(it);
    }
  }
  b.api->cuCtxSetCurrent(b.devices[device]->context);
  CUresult result = kind == ONEPASS_USM_HOST ? b.api->cuMemFreeHost(pointer)
                                             : b.api->cuMemFree_v2(reinterpret_cast<CUdeviceptr>(pointer));
  if (result != CUDA_SUCCESS) log(1, "freeing a USM allocation failed: " + describe(*b.api, result));
}

int copy(uint32_t device, void *destination, const void *source, uint64_t bytes, char **error) {
  if (bytes == 0) return 0;
  if (!enter(device, error)) return 1;
  ONEPASS_CUDA_CHECK(backend().api->cuMemcpy(reinterpret_cast<CUdeviceptr>(destination),
                                             reinterpret_cast<CUdeviceptr>(source), bytes),
                     "memcpy");
  return 0;
}

int copyAsync(uint32_t device, uint32_t stream, void *destination, const void *source, uint64_t bytes, char **error) {
  if (bytes == 0) return 0;
  if (!enter(device, error)) return 1;
  ONEPASS_CUDA_CHECK(backend().api->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(destination),
                                                  reinterpret_cast<CUdeviceptr>(source), bytes,
                                                  backend().devices[device]->streams[stream]),
                     "memcpy");
  return 0;
}

// Fills on `stream`; with `synchronous`, returns once the fill is done.
int fillOn(uint32_t device, CUstream stream, bool synchronous, void *destination, const void *pattern,
           uint32_t patternBytes, uint64_t count, char **error) {
  if (count == 0) return 0;
  if (!enter(device, error)) return 1;
  const DriverApi &api = *backend().api;
  auto target = reinterpret_cast<CUdeviceptr>(destination);
  // The driver's memsets take device or managed memory only: fill host
  // allocations (and memory the driver does not know) on the host, after
  // what the stream holds before the fill.
  unsigned memoryType = 0;
  if (api.cuPointerGetAttribute(&memoryType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, target) != CUDA_SUCCESS ||
      memoryType == CU_MEMORYTYPE_HOST) {
    ONEPASS_CUDA_CHECK(api.cuStreamSynchronize(stream), "waiting for the work before a fill");
    auto *out = static_cast<unsigned char *>(destination);
    for (uint64_t i = 0; i < count; ++i) std::memcpy(out + i * patternBytes, pattern, patternBytes);
    return 0;
  }
  switch (patternBytes) {
  case 1: ONEPASS_CUDA_CHECK(api.cuMemsetD8Async(target, *static_cast<const unsigned char *>(pattern), count, stream), "fill"); break;
  case 2: {
    unsigned short value;
    std::memcpy(&value, pattern, 2);
    ONEPASS_CUDA_CHECK(api.cuMemsetD16Async(target, value, count, stream), "fill");
    break;
  }
  case 4: {
    unsigned value;
    std::memcpy(&value, pattern, 4);
    ONEPASS_CUDA_CHECK(api.cuMemsetD32Async(target, value, count, stream), "fill");
    break;
  }
  default: {
    // Other pattern sizes: build the pattern on the host and copy it over.
    // From pageable memory the copy is staged before cuMemcpyAsync returns,
    // so the staging vector may go right after.
    std::vector<unsigned char> staging(patternBytes * count);
    for (uint64_t i = 0; i < count; ++i) std::memcpy(staging.data() + i * patternBytes, pattern, patternBytes);
    ONEPASS_CUDA_CHECK(api.cuMemcpyAsync(target, reinterpret_cast<CUdeviceptr>(staging.data()), staging.size(), stream),
                       "fill");
    ONEPASS_CUDA_CHECK(api.cuStreamSynchronize(stream), "fill");
    return 0;
  }
  }
  if (synchronous) ONEPASS_CUDA_CHECK(api.cuStreamSynchronize(stream), "fill");
  return 0;
}

int fill(uint32_t device, void *destination, const void *pattern, uint32_t patternBytes, uint64_t count, char **error) {
  return fillOn(device, backend().devices[device]->stream, true, destination, pattern, patternBytes, count, error);
}

int fillAsync(uint32_t device, uint32_t stream, void *destination, const void *pattern, uint32_t patternBytes,
              uint64_t count, char **error) {
  return fillOn(device, backend().devices[device]->streams[stream], false, destination, pattern, patternBytes, count,
                error);
}

using Clock = std::chrono::steady_clock;

// Loads a cubin or PTX image and finds the kernel entry; returns an error or "".
std::string loadModule(const Device &d, const void *image, CUfunction &function) {
  const DriverApi &api = *backend().api;
  char errorLog[8192] = {0};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog))};
  CUmodule module = nullptr;
  CUresult result = api.cuModuleLoadDataEx(&module, image, 2, options, values);
  if (result != CUDA_SUCCESS)
    return "the driver rejected the kernel's binary for sm_" + std::to_string(d.smVersion) + ": " +
           describe(api, result) + (errorLog[0] ? std::string(": ") + errorLog : std::string());
  result = api.cuModuleGetFunction(&function, module, "__onepass_ptx_kernel");
  return result == CUDA_SUCCESS ? "" : "the module has no kernel entry: " + describe(api, result);
}

// PTX -> cubin through the driver's linker, so the cache can hold the final
// binary and a later run pays neither LLVM nor the PTX compiler.
bool linkCubin(const Device &d, const void *ptx, size_t ptxSize, std::vector<char> &cubin, std::string &why) {
  const DriverApi &api = *backend().api;
  char errorLog[8192] = {0};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog))};
  CUlinkState link = nullptr;
  CUresult result = api.cuLinkCreate_v2(2, options, values, &link);
  if (result == CUDA_SUCCESS)
    result = api.cuLinkAddData_v2(link, CU_JIT_INPUT_PTX, const_cast<void *>(ptx), ptxSize, "onepass.ptx", 0, nullptr, nullptr);
  void *image = nullptr;
  size_t imageSize = 0;
  if (result == CUDA_SUCCESS) result = api.cuLinkComplete(link, &image, &imageSize);
  if (result == CUDA_SUCCESS) cubin.assign(static_cast<char *>(image), static_cast<char *>(image) + imageSize);
  else why = "linking the PTX for sm_" + std::to_string(d.smVersion) + " failed: " + describe(api, result) +
             (errorLog[0] ? std::string(": ") + errorLog : std::string());
  if (link) api.cuLinkDestroy(link);  // owns `image`
  return result == CUDA_SUCCESS;
}

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

// PTX -> cubin, so the runtime's cache holds the final binary and a later run
// pays neither LLVM nor the driver's PTX compiler.
int finalizeBinary(uint32_t device, const void *ptx, uint64_t size, void **binary, uint64_t *binarySize,
                   char **error) {
  const Device &d = *backend().devices[device];
  if (!enter(device, error)) return 1;
  std::vector<char> cubin;
  std::string why;
  if (!linkCubin(d, ptx, size, cubin, why)) return fail(error, why);
  *binary = std::malloc(cubin.size());
  if (!*binary) return fail(error, "out of host memory for a cubin");
  std::memcpy(*binary, cubin.data(), cubin.size());
  *binarySize = cubin.size();
  return 0;
}

int loadKernel(uint32_t device, const void *binary, uint64_t, void **kernel, char **error) {
  const Device &d = *backend().devices[device];
  if (!enter(device, error)) return 1;
  CUfunction function = nullptr;
  std::string why = loadModule(d, binary, function);
  if (!why.empty()) return fail(error, why);
  *kernel = function;
  return 0;
}

// Enqueues the kernel on `stream`; returns once it is enqueued.
int enqueueKernel(uint32_t device, CUstream stream, const onepass_backend_launch *launch, char **error) {
  if (!enter(device, error)) return 1;
  auto function = static_cast<CUfunction>(launch->kernel);
  const Device &d = *backend().devices[device];

  uint64_t range[3] = {1, 1, 1};
  for (unsigned i = 0; i < launch->dimensions; ++i) range[i] = launch->global_range[i];
  if (range[0] * range[1] * range[2] == 0) return 0;

  // CUDA axis a carries SYCL dimension (dimensions - 1 - a). An nd_range
  // kernel's blocks are its work-groups.
  const unsigned dims = launch->dimensions;
  const bool grouped = launch->local_range[0] != 0;
  unsigned block[3] = {kBlock[dims][0], kBlock[dims][1], kBlock[dims][2]};
  unsigned grid[3] = {1, 1, 1};
  if (grouped) {
    for (unsigned axis = 0; axis < 3; ++axis) {
      const uint64_t local = axis < dims ? launch->local_range[dims - 1 - axis] : 1;
      if (local > static_cast<uint64_t>(d.maxBlock[axis]))
        return fail(error, "the local range " + std::to_string(local) + " in dimension " +
                               std::to_string(dims - 1 - axis) + " is larger than '" + d.name + "' allows there (" +
                               std::to_string(d.maxBlock[axis]) + ")");
      block[axis] = static_cast<unsigned>(local);
    }
  }
  for (unsigned axis = 0; axis < dims; ++axis) {
    uint64_t extent = range[dims - 1 - axis];
    // A range smaller than a block: no idle threads (a launch of fewer is cheaper).
    if (!grouped && extent < block[axis]) block[axis] = static_cast<unsigned>(extent);
    uint64_t blocks = (extent + block[axis] - 1) / block[axis];
    if (blocks > static_cast<uint64_t>(d.maxGrid[axis]))
      return fail(error, "the range " + std::to_string(extent) + " in dimension " + std::to_string(dims - 1 - axis) +
                             " needs " + std::to_string(blocks) + " thread blocks, more than '" + d.name +
                             "' allows (" + std::to_string(d.maxGrid[axis]) + ")");
    grid[axis] = static_cast<unsigned>(blocks);
  }

  // The driver copies the arguments at the launch: pointers into the
  // caller's object are enough. The kernel's fields, then a range kernel's
  // range (jit_api.h, onepass_jit_compile_ptx).
  const unsigned rangeArguments = grouped ? 0 : dims;
  void *arguments[64];
  std::vector<void *> manyArguments;
  void **argumentList = arguments;
  if (launch->field_count + rangeArguments > 64) {
    manyArguments.resize(launch->field_count + rangeArguments);
    argumentList = manyArguments.data();
  }
  const auto *object = static_cast<const unsigned char *>(launch->object);
  for (uint32_t i = 0; i < launch->field_count; ++i)
    argumentList[i] = const_cast<unsigned char *>(object + launch->field_offsets[i]);
  for (unsigned i = 0; i < rangeArguments; ++i) argumentList[launch->field_count + i] = &range[i];

  ONEPASS_CUDA_CHECK(backend().api->cuLaunchKernel(function, grid[0], grid[1], grid[2], block[0], block[1],
                                                   block[2], static_cast<unsigned>(launch->local_memory_bytes), stream,
                                                   argumentList, nullptr),
                     "launching a kernel");
  return 0;
}

int launchKernel(uint32_t device, const onepass_backend_launch *launch, char **error) {
  CUstream stream = backend().devices[device]->stream;
  if (enqueueKernel(device, stream, launch, error) != 0) return 1;
  ONEPASS_CUDA_CHECK(backend().api->cuStreamSynchronize(stream), "running a kernel");
  return 0;
}

int launchAsync(uint32_t device, uint32_t stream, const onepass_backend_launch *launch, char **error) {
  return enqueueKernel(device, backend().devices[device]->streams[stream], launch, error);
}

void *recordMarker(uint32_t device, uint32_t stream, uint32_t timing, char **error) {
  Backend &b = backend();
  Device &d = *b.devices[device];
  Marker *marker = nullptr;
  {
    std::lock_guard<std::mutex> lock(d.markerMutex);
    auto &pool = d.freeMarkers[timing ? 1 : 0];
    if (!pool.empty()) {
      marker = pool.back();
      pool.pop_back();
    }
  }
  if (!enter(device, error)) return nullptr;
  CUresult result = CUDA_SUCCESS;
  if (!marker) {
    CUevent event = nullptr;
    result = b.api->cuEventCreate(&event, timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING);
    if (result == CUDA_SUCCESS) marker = new Marker{event, timing != 0};
  }
  if (result == CUDA_SUCCESS) result = b.api->cuEventRecord(marker->event, d.streams[stream]);
  if (result == CUDA_SUCCESS) return marker;
  fail(error, "recording an event on '" + d.name + "' failed: " + describe(*b.api, result));
  if (marker) {
    b.api->cuEventDestroy_v2(marker->event);
    delete marker;
  }
  return nullptr;
}

int streamWaitMarker(uint32_t device, uint32_t stream, void *marker, char **error) {
  if (!enter(device, error)) return 1;
  ONEPASS_CUDA_CHECK(backend().api->cuStreamWaitEvent(backend().devices[device]->streams[stream],
                                                      static_cast<Marker *>(marker)->event, 0),
                     "ordering two streams");
  return 0;
}

int queryMarker(uint32_t device, void *marker, char **error) {
  CUresult result = backend().api->cuEventQuery(static_cast<Marker *>(marker)->event);
  if (result == CUDA_SUCCESS) return 1;
  if (result == CUDA_ERROR_NOT_READY) return 0;
  deviceFailure(device, result, error);
  return -1;
}

int waitMarker(uint32_t device, void *marker, char **error) {
  CUresult result = backend().api->cuEventSynchronize(static_cast<Marker *>(marker)->event);
  return result == CUDA_SUCCESS ? 0 : deviceFailure(device, result, error);
}

int markerTime(uint32_t device, void *marker, uint64_t *nanoseconds, char **error) {
  const Device &d = *backend().devices[device];
  float milliseconds = 0;
  CUresult result = backend().api->cuEventElapsedTime(&milliseconds, d.epoch, static_cast<Marker *>(marker)->event);
  if (result != CUDA_SUCCESS)
    return fail(error, "reading an event's time on '" + d.name + "' failed: " + describe(*backend().api, result));
  *nanoseconds = d.epochNanoseconds + static_cast<uint64_t>(static_cast<double>(milliseconds) * 1e6);
  return 0;
}

int waitStream(uint32_t device, uint32_t stream, char **error) {
  CUresult result = backend().api->cuStreamSynchronize(backend().devices[device]->streams[stream]);
  return result == CUDA_SUCCESS ? 0 : deviceFailure(device, result, error);
}

void releaseMarker(uint32_t device, void *marker) {
  auto *m = static_cast<Marker *>(marker);
  Device &d = *backend().devices[device];
  std::lock_guard<std::mutex> lock(d.markerMutex);
  d.freeMarkers[m->timing ? 1 : 0].push_back(m);
}

const onepass_backend kTable = {
    ONEPASS_BACKEND_INTERFACE_VERSION, "cuda", "OnePass CUDA", "NVIDIA Corporation", deviceCount, deviceInfo,
    allocate, deallocate, copy, fill, deviceTarget, finalizeBinary, loadKernel, launchKernel,
    2,  // lanes for synchronous operations (buffer transfers)
    kStreams, launchAsync, copyAsync, fillAsync, recordMarker, streamWaitMarker, queryMarker, waitMarker, markerTime,
    releaseMarker, waitStream,
};

}  // namespace

}  // namespace onepass::cuda

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
      d.streams.push_back(nullptr);
      result = b.api->cuStreamCreate(&d.streams.back(), CU_STREAM_NON_BLOCKING);
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
  if (b.libdevice.path.empty()) log(2, "no libdevice, so kernels calling math functions cannot run: " + b.libdevice.missing);
  for (auto &device : b.devices)
    device->targetIdentity = "cuda sm_" + std::to_string(device->smVersion) + "|driver " +
                             std::to_string(b.driverVersion) + "|" + b.libdevice.identity;
  return &kTable;
}
