// The CUDA backend's memory: USM allocations (cuMemAlloc, cuMemHostAlloc,
// cuMemAllocManaged), copies and fills.
#include "CudaBackend.h"

#include <cstring>

namespace onepass::cuda {

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
  if (kind == ONEPASS_USM_DEVICE) releaseTextures(device, pointer);
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

// Returns once the copy is done. Not cuMemcpy: from pageable host memory, and
// between device memory, it may return before the data has landed, and it
// runs on the legacy stream, which the non-blocking streams of asynchronous
// work do not wait for: a kernel enqueued after it could read the old data
// (seen on the H100 under load: a buffer's host data uploaded by cuMemcpy
// landed after a fill on a stream, overwriting it).
int copy(uint32_t device, void *destination, const void *source, uint64_t bytes, char **error) {
  if (bytes == 0) return 0;
  if (!enter(device, error)) return 1;
  CUstream stream = backend().devices[device]->stream;
  ONEPASS_CUDA_CHECK(backend().api->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(destination),
                                                  reinterpret_cast<CUdeviceptr>(source), bytes, stream),
                     "memcpy");
  ONEPASS_CUDA_CHECK(backend().api->cuStreamSynchronize(stream), "memcpy");
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
  // A pattern that repeats a 1-, 2- or 4-byte unit (zero, a float or double
  // with equal halves, the identity of most reductions) is filled by the
  // driver's memset of that unit, on the stream: only other patterns take
  // the staged copy below, which waits for the stream.
  const auto *bytes = static_cast<const unsigned char *>(pattern);
  for (uint32_t unit = 1; unit < patternBytes && unit <= 4; unit *= 2) {
    bool repeats = patternBytes % unit == 0 && target % unit == 0;
    for (uint32_t i = unit; repeats && i < patternBytes; ++i) repeats = bytes[i] == bytes[i % unit];
    if (repeats) {
      count *= patternBytes / unit;
      patternBytes = unit;
      break;
    }
  }
  switch (patternBytes) {
  case 1:
    ONEPASS_CUDA_CHECK(api.cuMemsetD8Async(target, *static_cast<const unsigned char *>(pattern), count, stream),
                       "fill");
    break;
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

}  // namespace onepass::cuda
