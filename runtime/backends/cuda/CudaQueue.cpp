// The CUDA backend's launches, streams and markers (CUDA events).
#include "CudaBackend.h"

#include <vector>

namespace onepass::cuda {

namespace {

// Thread-block shapes per dimensionality: 256 threads, the last SYCL
// dimension (CUDA x) widest so that neighbouring work-items share warps.
constexpr unsigned kBlock[4][3] = {{1, 1, 1}, {256, 1, 1}, {32, 8, 1}, {32, 4, 2}};

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

  ONEPASS_CUDA_CHECK(backend().api->cuLaunchKernel(function, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                                   static_cast<unsigned>(launch->local_memory_bytes), stream,
                                                   argumentList, nullptr),
                     "launching a kernel");
  return 0;
}

}  // namespace

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

int nativeHandle(uint32_t device, uint32_t what, void **handle, char **error) {
  Backend &b = backend();
  Device &d = *b.devices[device];
  switch (what) {
  case ONEPASS_NATIVE_DEVICE: *handle = reinterpret_cast<void *>(static_cast<intptr_t>(d.handle)); return 0;
  case ONEPASS_NATIVE_CONTEXT: *handle = d.context; return 0;
  case ONEPASS_NATIVE_QUEUE: {
    std::lock_guard<std::mutex> lock(d.interopMutex);
    if (!d.interopStream) {
      if (!enter(device, error)) return 1;
      CUresult result = b.api->cuStreamCreate(&d.interopStream, CU_STREAM_NON_BLOCKING);
      if (result != CUDA_SUCCESS)
        return fail(error, "creating the interop stream of '" + d.name + "' failed: " + describe(*b.api, result));
    }
    *handle = d.interopStream;
    return 0;
  }
  default: return fail(error, "unknown native object " + std::to_string(what));
  }
}

int nativeFinish(uint32_t device, char **error) {
  Device &d = *backend().devices[device];
  CUstream stream;
  {
    std::lock_guard<std::mutex> lock(d.interopMutex);
    stream = d.interopStream;
  }
  if (!stream) return 0;  // nothing was enqueued through interop
  CUresult result = backend().api->cuStreamSynchronize(stream);
  return result == CUDA_SUCCESS ? 0 : deviceFailure(device, result, error);
}

int markerNative(uint32_t device, void *marker, void **handle, char **error) {
  if (marker) {
    *handle = static_cast<Marker *>(marker)->event;
    return 0;
  }
  Backend &b = backend();
  Device &d = *b.devices[device];
  std::lock_guard<std::mutex> lock(d.markerMutex);
  if (!d.completeEvent) {
    if (!enter(device, error)) return 1;
    ONEPASS_CUDA_CHECK(b.api->cuEventCreate(&d.completeEvent, CU_EVENT_DISABLE_TIMING), "creating an event");
  }
  *handle = d.completeEvent;
  return 0;
}

void *adoptNativeEvent(uint32_t, void *handle, char **error) {
  if (!handle) {
    fail(error, "the CUevent is null");
    return nullptr;
  }
  return new Marker{static_cast<CUevent>(handle), false, true};
}

int adoptNativeQueue(uint32_t device, void *handle, uint32_t *stream, char **error) {
  Backend &b = backend();
  Device &d = *b.devices[device];
  auto native = static_cast<CUstream>(handle);
  // The legacy and per-thread default streams (0, 1, 2) have no context of
  // their own to check, and would serialize with everything: refused.
  if (reinterpret_cast<uintptr_t>(native) <= 2)
    return fail(error, "the CUstream is a default stream (NULL, CU_STREAM_LEGACY or CU_STREAM_PER_THREAD); make the "
                       "queue from a stream made with cuStreamCreate");
  std::lock_guard<std::mutex> lock(d.interopMutex);
  for (uint32_t s = kStreams; s < d.streamCount; ++s)
    if (d.streams[s] == native) {
      *stream = s;
      return 0;
    }
  // Our kernels and allocations live in the device's primary context: a
  // stream of another context could not run them.
  if (b.api->cuStreamGetCtx) {
    CUcontext owner = nullptr;
    ONEPASS_CUDA_CHECK(b.api->cuStreamGetCtx(native, &owner), "asking a CUstream for its context");
    if (owner != d.context)
      return fail(error, "the CUstream belongs to a CUDA context other than the primary context of '" + d.name +
                             "', which OnePass uses (create it while the primary context is current, e.g. after "
                             "cuDevicePrimaryCtxRetain and cuCtxSetCurrent)");
  }
  if (d.streamCount >= ONEPASS_MAX_STREAMS)
    return fail(error, "'" + d.name + "' has " + std::to_string(ONEPASS_MAX_STREAMS - kStreams) +
                           " queues made from CUstreams already, the most OnePass keeps");
  d.streams[d.streamCount] = native;
  *stream = d.streamCount++;
  return 0;
}

int nativeContextDevice(void *handle, uint32_t *device, char **error) {
  Backend &b = backend();
  auto context = static_cast<CUcontext>(handle);
  if (!context) return fail(error, "the CUcontext is null");
  for (uint32_t i = 0; i < b.devices.size(); ++i)
    if (b.devices[i]->context == context) {
      *device = i;
      return 0;
    }
  if (!b.api->cuCtxPushCurrent_v2 || !b.api->cuCtxPopCurrent_v2 || !b.api->cuCtxGetDevice)
    return fail(error, "the NVIDIA driver lacks cuCtxPushCurrent_v2, cuCtxPopCurrent_v2 or cuCtxGetDevice");
  CUresult result = b.api->cuCtxPushCurrent_v2(context);
  if (result != CUDA_SUCCESS) return fail(error, "the CUcontext is not usable: " + describe(*b.api, result));
  CUdevice owner = -1;
  result = b.api->cuCtxGetDevice(&owner);
  CUcontext popped = nullptr;
  b.api->cuCtxPopCurrent_v2(&popped);
  if (result != CUDA_SUCCESS)
    return fail(error, "asking a CUcontext for its device failed: " + describe(*b.api, result));
  for (uint32_t i = 0; i < b.devices.size(); ++i)
    if (b.devices[i]->handle == owner) {
      *device = i;
      return 0;
    }
  return fail(error, "the CUcontext is on CUdevice " + std::to_string(owner) + ", which OnePass does not use");
}

void releaseMarker(uint32_t device, void *marker) {
  auto *m = static_cast<Marker *>(marker);
  if (m->foreign) {
    delete m;
    return;
  }
  Device &d = *backend().devices[device];
  std::lock_guard<std::mutex> lock(d.markerMutex);
  d.freeMarkers[m->timing ? 1 : 0].push_back(m);
}

}  // namespace onepass::cuda
