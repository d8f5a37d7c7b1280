// The CUDA backend's shared state and its functions for the plugin table,
// split by concern: devices and the plugin's entry (CudaDevice.cpp), memory
// (CudaMemory.cpp), modules (CudaModule.cpp), and launches, streams and
// markers (CudaQueue.cpp). Internal to the plugin.
#pragma once

#include "BackendErrors.h"
#include "BackendInterface.h"
#include "CudaDriver.h"
#include "CudaToolkit.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace onepass::cuda {

// Streams per device for asynchronous operations: independent nodes overlap
// on up to this many.
inline constexpr uint32_t kStreams = 4;
static_assert(kStreams < ONEPASS_MAX_STREAMS, "adopted streams need slots");

// A marker is a CUDA event; released ones are kept for reuse, since creating
// an event costs more than recording one.
struct Marker {
  CUevent event = nullptr;
  bool timing = false;
  bool foreign = false;  // the user's CUevent (adoptNativeEvent): not ours to destroy or reuse
};

// A sampled image's texture (CudaImage.cpp): a CUDA array holding a copy of
// the image's allocation, and a texture object of the image's sampler.
struct Texture {
  CUarray array = nullptr;
  CUtexObject object = 0;
  onepass_backend_image image{};
  CUevent copied = nullptr;  // recorded after the copy into the array, until it completed
  uint32_t copyStream = 0;   // where the copy was enqueued
};

struct Device {
  CUdevice handle = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;  // synchronous operations
  CUstream interopStream = nullptr;  // ONEPASS_NATIVE_QUEUE, made when first asked for
  std::mutex interopMutex;
  // The backend's kStreams streams, then the users' adopted ones
  // (adoptNativeQueue): slots never move, so launches read them unlocked.
  CUstream streams[ONEPASS_MAX_STREAMS] = {};
  uint32_t streamCount = 0;  // grows under interopMutex
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
  CUevent completeEvent = nullptr;       // never recorded, so always complete (markerNative of no marker)
  std::mutex textureMutex;
  std::map<const void *, Texture> textures;  // by the image allocation's address
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

// The backend's one instance, never destroyed: at exit the driver owns (and
// frees) the contexts, streams and events, and a runtime thread that still
// releases a marker finds the devices where they were.
inline Backend &backend() {
  static Backend *instance = new Backend;
  return *instance;
}

inline int fail(char **error, const std::string &message) { return rt::reportBackendError(error, message); }

inline void log(int level, const std::string &message) {
  if (backend().services) backend().services->log(level, ("CUDA: " + message).c_str());
}

// Makes the device's context current on the calling thread, if it is not
// already (asking is cheaper than setting, and launches mostly come from one
// thread).
inline bool enter(uint32_t device, char **error) {
  Backend &b = backend();
  CUcontext current = nullptr;
  if (b.api->cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == b.devices[device]->context) return true;
  CUresult result = b.api->cuCtxSetCurrent(b.devices[device]->context);
  if (result == CUDA_SUCCESS) return true;
  fail(error, "cannot make the context of '" + b.devices[device]->name + "' current: " + describe(*b.api, result));
  return false;
}

#define ONEPASS_CUDA_CHECK(call, what)                                                                                 \
  do {                                                                                                                 \
    CUresult onepass_result = (call);                                                                                  \
    if (onepass_result != CUDA_SUCCESS)                                                                                \
      return fail(error, std::string(what) + " failed on '" + backend().devices[device]->name +                        \
                             "': " + describe(*backend().api, onepass_result));                                        \
  } while (0)

// "CUDA 13.0" for the loaded driver.
inline std::string driverName() {
  const int version = backend().driverVersion;
  return "CUDA " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// An error the device reported for work that ran on it (sticky after a fault).
inline int deviceFailure(uint32_t device, CUresult result, char **error) {
  return fail(error, "'" + backend().devices[device]->name + "' reports " + describe(*backend().api, result));
}

// The plugin table's functions (onepass_backend), by file.
// CudaDevice.cpp
uint32_t deviceCount();
int deviceInfo(uint32_t device, onepass_backend_device_info *info, char **error);
int deviceTarget(uint32_t device, onepass_backend_target *target, char **error);
// CudaMemory.cpp
void *allocate(uint32_t device, uint64_t bytes, uint64_t alignment, uint32_t kind);
void deallocate(uint32_t device, void *pointer, uint32_t kind);
int copy(uint32_t device, void *destination, const void *source, uint64_t bytes, char **error);
int copyAsync(uint32_t device, uint32_t stream, void *destination, const void *source, uint64_t bytes, char **error);
int fill(uint32_t device, void *destination, const void *pattern, uint32_t patternBytes, uint64_t count, char **error);
int fillAsync(uint32_t device, uint32_t stream, void *destination, const void *pattern, uint32_t patternBytes,
              uint64_t count, char **error);
// CudaImage.cpp
int imageTexture(uint32_t device, uint32_t stream, const void *data, const onepass_backend_image *image,
                 uint64_t *texture, char **error);
void releaseTextures(uint32_t device, const void *allocation);  // before the allocation is freed
// CudaModule.cpp
int finalizeBinary(uint32_t device, const void *ptx, uint64_t size, void **binary, uint64_t *binarySize, char **error);
int loadKernel(uint32_t device, const void *binary, uint64_t size, void **kernel, char **error);
// CudaQueue.cpp
int launchKernel(uint32_t device, const onepass_backend_launch *launch, char **error);
int kernelLimits(uint32_t device, void *kernel, onepass_kernel_limits *limits, char **error);
int launchAsync(uint32_t device, uint32_t stream, const onepass_backend_launch *launch, char **error);
void *recordMarker(uint32_t device, uint32_t stream, uint32_t timing, char **error);
int streamWaitMarker(uint32_t device, uint32_t stream, void *marker, char **error);
int queryMarker(uint32_t device, void *marker, char **error);
int waitMarker(uint32_t device, void *marker, char **error);
int markerTime(uint32_t device, void *marker, uint64_t *nanoseconds, char **error);
void releaseMarker(uint32_t device, void *marker);
int waitStream(uint32_t device, uint32_t stream, char **error);
int nativeHandle(uint32_t device, uint32_t what, void **handle, char **error);
int nativeFinish(uint32_t device, char **error);
int markerNative(uint32_t device, void *marker, void **handle, char **error);
void *adoptNativeEvent(uint32_t device, void *handle, char **error);
int adoptNativeQueue(uint32_t device, void *handle, uint32_t *stream, char **error);
int nativeContextDevice(void *handle, uint32_t *device, char **error);

}  // namespace onepass::cuda
