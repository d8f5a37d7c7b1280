// A stand-in for the NVIDIA driver (libcuda.so.1) with the part of the driver
// API the CUDA backend uses, so the backend's logic runs where there is no
// GPU: on CI, and for profiling the runtime's own launch path.
//
// It runs no kernel code: a launch only records that it happened. Memory is
// host memory, so copies and fills do what they say. Streams and events are
// bookkeeping; an event is complete as soon as it is recorded, unless a fault
// was injected. The environment shapes it:
//   FAKE_CUDA_SM=90              compute capability (major*10 + minor)
//   FAKE_CUDA_DRIVER=13000       cuDriverGetVersion
//   FAKE_CUDA_MEMORY=1073741824  device memory; larger allocations fail (OOM)
//   FAKE_CUDA_LAUNCH_NS=0        busy time of each cuLaunchKernel (a driver's cost)
//   FAKE_CUDA_FAULT_LAUNCH=N     the Nth launch (from 1) faults on the "device":
//                                later calls return CUDA_ERROR_ILLEGAL_ADDRESS,
//                                as a real context does after a fault
//   FAKE_CUDA_MAX_PTX=90         highest PTX ISA (x10) the driver accepts; a
//                                module asking for more is rejected
//   FAKE_CUDA_KERNEL_THREADS=768 cuFuncGetAttribute's threads per block of a kernel;
//                                when set, a launch of larger blocks fails, as
//                                the driver's does
//   FAKE_CUDA_TEXTURE_MAX=16384  largest texture extent along any axis
//   (fake_cuda_textures() reports the textures and arrays made and live, and
//   the last texture's description: tests/sycl/gpu_errors.cpp "textures")
//   FAKE_CUDA_LAUNCH_AFTER_FREE=fault  a launch after device memory was
//                                freed faults (as a kernel using the freed
//                                memory would; the tests free last)
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using CUresult = int;
constexpr CUresult kSuccess = 0, kInvalidValue = 1, kOutOfMemory = 2, kInvalidContext = 201, kNoBinaryForGpu = 209,
                   kUnsupportedPtxVersion = 222, kNotFound = 500, kIllegalAddress = 700;

long environmentNumber(const char *name, long fallback) {
  const char *text = std::getenv(name);
  return text && *text ? std::strtol(text, nullptr, 10) : fallback;
}

struct State {
  long sm = environmentNumber("FAKE_CUDA_SM", 90);
  long driver = environmentNumber("FAKE_CUDA_DRIVER", 13000);
  uint64_t memory = static_cast<uint64_t>(environmentNumber("FAKE_CUDA_MEMORY", 1L << 30));
  long launchNanoseconds = environmentNumber("FAKE_CUDA_LAUNCH_NS", 0);
  long faultLaunch = environmentNumber("FAKE_CUDA_FAULT_LAUNCH", 0);
  long maxPtx = environmentNumber("FAKE_CUDA_MAX_PTX", 90);
  long kernelThreads = environmentNumber("FAKE_CUDA_KERNEL_THREADS", 0);  // 0: unset (768, not enforced)
  bool launchAfterFreeFaults =
      std::getenv("FAKE_CUDA_LAUNCH_AFTER_FREE") && std::string(std::getenv("FAKE_CUDA_LAUNCH_AFTER_FREE")) == "fault";
  std::atomic<bool> freedDevice{false};
  std::atomic<long> launches{0};
  std::atomic<bool> faulted{false};
  std::mutex mutex;
  uint64_t used = 0;
  std::unordered_map<uintptr_t, uint64_t> allocations;  // address -> bytes (device and managed)
  std::unordered_map<uintptr_t, uint64_t> hostAllocations;
  long textureMax = environmentNumber("FAKE_CUDA_TEXTURE_MAX", 16384);
  struct Array {
    size_t width, height, depth;
    unsigned format, channels;
  };
  std::unordered_map<uintptr_t, Array> arrays;                 // live ones, by handle
  std::unordered_map<unsigned long long, uintptr_t> textures;  // live ones -> their array
  unsigned long long nextTexture = 0x7e0000;
  long texturesMade = 0, arraysMade = 0, copiesToArrays = 0;
  // Of the last texture: address mode, filter, flags, format, width, height,
  // depth (pitched memory: its row pitch), border colour nonzero, resource
  // type (0 array, 3 pitched memory).
  long lastTexture[9] = {};
};

State &state() {
  static State instance;
  return instance;
}

// After a fault every call fails, as on a real context.
#define FAKE_CHECK_FAULT()                                                                                             \
  do {                                                                                                                 \
    if (state().faulted.load()) return kIllegalAddress;                                                                \
  } while (0)

int gContext, gModule, gFunction;  // their addresses are the handles

struct Link {
  std::string data;
};

// The ".version X.Y" of a PTX text, as X*10+Y, or 0.
long ptxVersion(const char *text, size_t size) {
  std::string ptx(text, size ? size : std::strlen(text));
  size_t at = ptx.find(".version ");
  if (at == std::string::npos) return 0;
  int major = 0, minor = 0;
  if (std::sscanf(ptx.c_str() + at, ".version %d.%d", &major, &minor) != 2) return 0;
  return major * 10 + minor;
}

// Our "cubin" (what cuLinkComplete hands out), or PTX text that the driver
// accepts if its ISA version is not above FAKE_CUDA_MAX_PTX.
CUresult acceptImage(const void *image, size_t size) {
  const char *text = static_cast<const char *>(image);
  if (std::strncmp(text, "FAKECUBIN", 9) == 0) return kSuccess;
  long version = ptxVersion(text, size);
  if (version == 0) return kNoBinaryForGpu;
  return version > state().maxPtx ? kUnsupportedPtxVersion : kSuccess;
}

uint64_t allocationBytes(uintptr_t address, bool &host) {
  std::lock_guard<std::mutex> lock(state().mutex);
  for (auto *map : {&state().allocations, &state().hostAllocations})
    for (const auto &[base, bytes] : *map)
      if (address >= base && address < base + bytes) {
        host = map == &state().hostAllocations;
        return bytes;
      }
  return 0;
}

template <typename T> CUresult fill(unsigned long long destination, T value, size_t count) {
  FAKE_CHECK_FAULT();
  auto *out = reinterpret_cast<T *>(destination);
  for (size_t i = 0; i < count; ++i) out[i] = value;
  return kSuccess;
}
}  // namespace

extern "C" {

CUresult cuInit(unsigned) { return kSuccess; }
CUresult cuDriverGetVersion(int *version) {
  *version = static_cast<int>(state().driver);
  return kSuccess;
}
CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return kSuccess;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  if (ordinal != 0) return kInvalidValue;
  *device = 0;
  return kSuccess;
}
CUresult cuDeviceGetName(char *name, int length, int) {
  std::snprintf(name, static_cast<size_t>(length), "OnePass fake CUDA device");
  return kSuccess;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int) {
  switch (attribute) {
  case 1: *value = 1024; break;  // max threads per block
  case 2:
  case 3: *value = 1024; break;        // max block x, y
  case 4: *value = 64; break;          // max block z
  case 5: *value = 2147483647; break;  // max grid x
  case 6:
  case 7: *value = 65535; break;     // max grid y, z
  case 8: *value = 49152; break;     // shared memory per block
  case 10: *value = 32; break;       // warp size
  case 13: *value = 1500000; break;  // clock kHz
  case 16: *value = 4; break;        // multiprocessors
  case 38: *value = 1 << 20; break;  // L2 cache bytes
  case 75: *value = static_cast<int>(state().sm / 10); break;
  case 76: *value = static_cast<int>(state().sm % 10); break;
  case 83: *value = 1; break;  // managed memory
  case 21:
  case 22:
  case 23:
  case 24:
  case 25:
  case 26:
  case 70:
  case 71: *value = static_cast<int>(state().textureMax); break;       // texture extents
  case 72: *value = static_cast<int>(state().textureMax) * 16; break;  // pitched texture's row pitch
  case 14: *value = 512; break;                                        // texture alignment
  case 51: *value = 32; break;                                         // texture pitch alignment
  default: *value = 0;
  }
  return kSuccess;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, int) {
  *bytes = state().memory;
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRetain(void **context, int) {
  *context = &gContext;
  return kSuccess;
}
thread_local void *tCurrentContext = nullptr;
CUresult cuCtxSetCurrent(void *context) {
  tCurrentContext = context;
  return kSuccess;
}
CUresult cuCtxGetCurrent(void **context) {
  *context = tCurrentContext;
  return kSuccess;
}
// Contexts made by cuCtxCreate (on device 0, the only one), beside the
// primary one; a stack of them per thread, as the driver keeps.
struct FakeContext {
  int device = 0;
};
thread_local std::vector<void *> tContextStack;
CUresult cuCtxCreate_v2(void **context, unsigned, int device) {
  *context = new FakeContext{device};
  tContextStack.push_back(tCurrentContext);
  tCurrentContext = *context;
  return kSuccess;
}
CUresult cuCtxDestroy_v2(void *context) {
  if (!context) return kInvalidValue;
  delete static_cast<FakeContext *>(context);
  return kSuccess;
}
CUresult cuCtxPushCurrent_v2(void *context) {
  if (!context) return kInvalidValue;
  tContextStack.push_back(tCurrentContext);
  tCurrentContext = context;
  return kSuccess;
}
CUresult cuCtxPopCurrent_v2(void **context) {
  if (tContextStack.empty()) return kInvalidContext;
  if (context) *context = tCurrentContext;
  tCurrentContext = tContextStack.back();
  tContextStack.pop_back();
  return kSuccess;
}
CUresult cuCtxGetDevice(int *device) {
  if (!tCurrentContext) return kInvalidContext;
  *device = tCurrentContext == &gContext ? 0 : static_cast<FakeContext *>(tCurrentContext)->device;
  return kSuccess;
}
CUresult cuCtxSynchronize() {
  FAKE_CHECK_FAULT();
  return kSuccess;
}

static CUresult allocate(void **pointer, size_t bytes, bool host) {
  FAKE_CHECK_FAULT();
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (bytes == 0) return kInvalidValue;
  if (!host && (bytes > s.memory || s.used + bytes > s.memory)) return kOutOfMemory;
  void *memory = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!memory) return kOutOfMemory;
  (host ? s.hostAllocations : s.allocations)[reinterpret_cast<uintptr_t>(memory)] = bytes;
  if (!host) s.used += bytes;
  *pointer = memory;
  return kSuccess;
}
static CUresult release(void *pointer, bool host) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto &map = host ? s.hostAllocations : s.allocations;
  auto it = map.find(reinterpret_cast<uintptr_t>(pointer));
  if (it == map.end()) return kInvalidValue;
  if (!host) s.used -= it->second;
  if (!host) s.freedDevice.store(true);
  map.erase(it);
  std::free(pointer);
  return kSuccess;
}
CUresult cuMemAlloc_v2(unsigned long long *pointer, size_t bytes) {
  return allocate(reinterpret_cast<void **>(pointer), bytes, false);
}
CUresult cuMemAllocManaged(unsigned long long *pointer, size_t bytes, unsigned) {
  return allocate(reinterpret_cast<void **>(pointer), bytes, false);
}
CUresult cuMemHostAlloc(void **pointer, size_t bytes, unsigned) { return allocate(pointer, bytes, true); }
CUresult cuMemFree_v2(unsigned long long pointer) { return release(reinterpret_cast<void *>(pointer), false); }
CUresult cuMemFreeHost(void *pointer) { return release(pointer, true); }
CUresult cuPointerGetAttribute(void *value, int attribute, unsigned long long pointer) {
  if (attribute != 2) return kInvalidValue;  // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
  bool host = false;
  if (allocationBytes(pointer, host) == 0) return kInvalidValue;
  *static_cast<unsigned *>(value) = host ? 1u : 2u;  // CU_MEMORYTYPE_HOST / DEVICE
  return kSuccess;
}

CUresult cuMemcpy(unsigned long long destination, unsigned long long source, size_t bytes) {
  FAKE_CHECK_FAULT();
  std::memmove(reinterpret_cast<void *>(destination), reinterpret_cast<void *>(source), bytes);
  return kSuccess;
}
CUresult cuMemcpyAsync(unsigned long long destination, unsigned long long source, size_t bytes, void *) {
  return cuMemcpy(destination, source, bytes);
}
CUresult cuMemsetD8_v2(unsigned long long d, unsigned char v, size_t n) { return fill(d, v, n); }
CUresult cuMemsetD16_v2(unsigned long long d, unsigned short v, size_t n) { return fill(d, v, n); }
CUresult cuMemsetD32_v2(unsigned long long d, unsigned v, size_t n) { return fill(d, v, n); }
CUresult cuMemsetD8Async(unsigned long long d, unsigned char v, size_t n, void *) { return fill(d, v, n); }
CUresult cuMemsetD16Async(unsigned long long d, unsigned short v, size_t n, void *) { return fill(d, v, n); }
CUresult cuMemsetD32Async(unsigned long long d, unsigned v, size_t n, void *) { return fill(d, v, n); }

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned, int *, void **) {
  FAKE_CHECK_FAULT();
  CUresult result = acceptImage(image, 0);
  if (result == kSuccess) *module = &gModule;
  return result;
}
CUresult cuModuleGetFunction(void **function, void *, const char *name) {
  if (std::strcmp(name, "__onepass_ptx_kernel") != 0) return kNotFound;
  *function = &gFunction;
  return kSuccess;
}
// A kernel's limits: FAKE_CUDA_KERNEL_THREADS threads per block (default
// 768, below the device's 1024, as a register-heavy kernel has), 16 bytes of
// local memory.
CUresult cuFuncGetAttribute(int *value, int attribute, void *function) {
  if (function != &gFunction) return kNotFound;
  if (attribute == 0) {
    const long threads = state().kernelThreads;
    *value = threads > 0 ? static_cast<int>(threads) : 768;
  } else if (attribute == 3) {
    *value = 16;
  } else {
    *value = 0;
  }
  return kSuccess;
}
CUresult cuLinkCreate_v2(unsigned, int *, void **, void **link) {
  *link = new Link;
  return kSuccess;
}
CUresult cuLinkAddData_v2(void *link, int, void *data, size_t size, const char *, unsigned, int *, void **) {
  CUresult result = acceptImage(data, size);
  if (result == kSuccess) static_cast<Link *>(link)->data = "FAKECUBIN";
  return result;
}
CUresult cuLinkComplete(void *link, void **image, size_t *size) {
  auto *state = static_cast<Link *>(link);
  *image = state->data.data();
  *size = state->data.size() + 1;
  return kSuccess;
}
CUresult cuLinkDestroy(void *link) {
  delete static_cast<Link *>(link);
  return kSuccess;
}

CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned, void *, void **arguments, void **) {
  FAKE_CHECK_FAULT();
  if (function != &gFunction || !arguments || gx * gy * gz == 0 || bx * by * bz == 0 || bx * by * bz > 1024)
    return kInvalidValue;
  State &s = state();
  if (s.kernelThreads > 0 && bx * by * bz > static_cast<unsigned long>(s.kernelThreads)) return kInvalidValue;
  if (s.launchNanoseconds > 0) {
    auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(s.launchNanoseconds);
    while (std::chrono::steady_clock::now() < until) {
    }
  }
  if (s.launches.fetch_add(1) + 1 == s.faultLaunch) s.faulted.store(true);
  if (s.launchAfterFreeFaults && s.freedDevice.load()) {
    s.faulted.store(true);
    return kIllegalAddress;
  }
  return kSuccess;
}

// A stream remembers the context current when it was made (cuStreamGetCtx).
struct FakeStream {
  void *context;
};
CUresult cuStreamCreate(void **stream, unsigned) {
  if (!tCurrentContext) return kInvalidContext;
  *stream = new FakeStream{tCurrentContext};
  return kSuccess;
}
CUresult cuStreamDestroy_v2(void *stream) {
  if (!stream) return kInvalidValue;
  delete static_cast<FakeStream *>(stream);
  return kSuccess;
}
CUresult cuStreamGetCtx(void *stream, void **context) {
  if (!stream) return kInvalidValue;
  *context = static_cast<FakeStream *>(stream)->context;
  return kSuccess;
}
CUresult cuStreamSynchronize(void *) {
  FAKE_CHECK_FAULT();
  return kSuccess;
}
CUresult cuStreamWaitEvent(void *, void *, unsigned) {
  FAKE_CHECK_FAULT();
  return kSuccess;
}

struct Event {
  std::chrono::steady_clock::time_point at;
};
CUresult cuEventCreate(void **event, unsigned) {
  *event = new Event{std::chrono::steady_clock::now()};
  return kSuccess;
}
CUresult cuEventRecord(void *event, void *) {
  FAKE_CHECK_FAULT();
  static_cast<Event *>(event)->at = std::chrono::steady_clock::now();
  return kSuccess;
}
CUresult cuEventQuery(void *) {
  FAKE_CHECK_FAULT();
  return kSuccess;
}
CUresult cuEventSynchronize(void *) {
  FAKE_CHECK_FAULT();
  return kSuccess;
}
CUresult cuEventDestroy_v2(void *event) {
  delete static_cast<Event *>(event);
  return kSuccess;
}
CUresult cuEventElapsedTime_v2(float *milliseconds, void *from, void *to) {
  FAKE_CHECK_FAULT();
  *milliseconds =
      std::chrono::duration<float, std::milli>(static_cast<Event *>(to)->at - static_cast<Event *>(from)->at).count();
  return kSuccess;
}

// Textures: arrays of four channels, copies from device memory into them,
// texture objects of arrays; the descriptions are checked as the driver does.
struct ArrayDescriptor {
  size_t width, height, depth;
  unsigned format, channels, flags;
};
struct Copy3D {
  size_t srcX, srcY, srcZ, srcLod;
  unsigned srcType;
  const void *srcHost;
  unsigned long long srcDevice;
  void *srcArray, *reserved0;
  size_t srcPitch, srcHeight;
  size_t dstX, dstY, dstZ, dstLod;
  unsigned dstType;
  void *dstHost;
  unsigned long long dstDevice;
  void *dstArray, *reserved1;
  size_t dstPitch, dstHeight;
  size_t widthBytes, height, depth;
};
struct ResourceDescriptor {
  int type;
  union {
    void *array;
    struct {
      unsigned long long address;
      unsigned format, channels;
      size_t width, height, pitch;
    } pitched;
    int reserved[32];
  } res;
  unsigned flags;
};
struct TextureDescriptor {
  int addressMode[3];
  int filterMode;
  unsigned flags, maxAnisotropy;
  int mipmapFilterMode;
  float bias, minClamp, maxClamp;
  float border[4];
  int reserved[12];
};
unsigned formatBytes(unsigned format) {
  switch (format) {
  case 0x01:
  case 0x08: return 1;
  case 0x02:
  case 0x09:
  case 0x10: return 2;
  case 0x03:
  case 0x0a:
  case 0x20: return 4;
  default: return 0;
  }
}
CUresult cuArray3DCreate_v2(void **array, const ArrayDescriptor *d) {
  FAKE_CHECK_FAULT();
  State &s = state();
  if (!array || !d || formatBytes(d->format) == 0 || d->channels != 4 || d->width == 0 || d->flags != 0 ||
      (d->depth && !d->height))
    return kInvalidValue;
  for (size_t extent : {d->width, d->height, d->depth})
    if (extent > static_cast<size_t>(s.textureMax)) return kInvalidValue;
  std::lock_guard<std::mutex> lock(s.mutex);
  auto *handle = new char;
  s.arrays[reinterpret_cast<uintptr_t>(handle)] = {d->width, d->height, d->depth, d->format, d->channels};
  ++s.arraysMade;
  *array = handle;
  return kSuccess;
}
CUresult cuArrayDestroy(void *array) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto found = s.arrays.find(reinterpret_cast<uintptr_t>(array));
  if (found == s.arrays.end()) return kInvalidValue;
  for (const auto &[texture, of] : s.textures)
    if (of == found->first) return kInvalidValue;  // a texture still uses it
  s.arrays.erase(found);
  delete static_cast<char *>(array);
  return kSuccess;
}
// Device memory to an array: the box must lie inside the source allocation
// and inside the array, whole rows of texels.
CUresult cuMemcpy3DAsync_v2(const Copy3D *c, void *) {
  FAKE_CHECK_FAULT();
  State &s = state();
  if (!c || c->srcType != 2 || c->dstType != 3 || c->reserved0 || c->reserved1 || c->height == 0 || c->depth == 0)
    return kInvalidValue;
  bool host = false;
  const uint64_t bytes = allocationBytes(c->srcDevice, host);
  const uint64_t lastByte = (c->depth - 1) * c->srcPitch * c->srcHeight + (c->height - 1) * c->srcPitch + c->widthBytes;
  if (bytes == 0 || host || c->srcPitch < c->widthBytes || (c->depth > 1 && c->srcHeight < c->height))
    return kInvalidValue;
  std::lock_guard<std::mutex> lock(s.mutex);
  uint64_t base = 0;
  for (const auto &[address, size] : s.allocations)
    if (c->srcDevice >= address && c->srcDevice < address + size) base = address;
  if (c->srcDevice - base + lastByte > bytes) return kInvalidValue;
  auto found = s.arrays.find(reinterpret_cast<uintptr_t>(c->dstArray));
  if (found == s.arrays.end()) return kInvalidValue;
  const State::Array &a = found->second;
  if (c->widthBytes != a.width * a.channels * formatBytes(a.format) || c->height > (a.height ? a.height : 1) ||
      c->dstZ + c->depth > (a.depth ? a.depth : 1))
    return kInvalidValue;
  ++s.copiesToArrays;
  return kSuccess;
}
CUresult cuTexObjectCreate(unsigned long long *texture, const ResourceDescriptor *r, const TextureDescriptor *t,
                           const void *view) {
  FAKE_CHECK_FAULT();
  State &s = state();
  if (!texture || !r || !t || view || (r->type != 0 && r->type != 3) || r->flags) return kInvalidValue;
  for (int axis = 0; axis < 3; ++axis)
    if (t->addressMode[axis] < 0 || t->addressMode[axis] > 3 || t->addressMode[axis] != t->addressMode[0])
      return kInvalidValue;
  if (t->filterMode < 0 || t->filterMode > 1 || (t->flags & ~3u)) return kInvalidValue;
  if (r->type == 3) {
    // Pitched device memory: aligned, inside one allocation.
    const auto &p = r->res.pitched;
    bool host = false;
    const uint64_t bytes = allocationBytes(p.address, host);
    if (bytes == 0 || host || p.address % 512 != 0 || p.pitch % 32 != 0 || formatBytes(p.format) == 0 ||
        p.channels != 4 || p.width == 0 || p.height == 0 || p.pitch < p.width * 4 * formatBytes(p.format) ||
        (p.height - 1) * p.pitch + p.width * 4 * formatBytes(p.format) > bytes)
      return kInvalidValue;
    std::lock_guard<std::mutex> lock(s.mutex);
    *texture = s.nextTexture++;
    s.textures[*texture] = 0;
    ++s.texturesMade;
    const long last[9] = {t->addressMode[0],
                          t->filterMode,
                          static_cast<long>(t->flags),
                          static_cast<long>(p.format),
                          static_cast<long>(p.width),
                          static_cast<long>(p.height),
                          static_cast<long>(p.pitch),
                          t->border[0] != 0 || t->border[3] != 0,
                          3};
    std::memcpy(s.lastTexture, last, sizeof(last));
    return kSuccess;
  }
  std::lock_guard<std::mutex> lock(s.mutex);
  auto found = s.arrays.find(reinterpret_cast<uintptr_t>(r->res.array));
  if (found == s.arrays.end()) return kInvalidValue;
  const State::Array &a = found->second;
  const bool floatFormat = a.format == 0x10 || a.format == 0x20;
  // Integer formats are read nearest (SYCL's software sampler does; OnePass
  // never asks for a linear filter of values read as integers).
  if (t->filterMode == 1 && (t->flags & 1u) && !floatFormat) return kInvalidValue;
  *texture = s.nextTexture++;
  s.textures[*texture] = found->first;
  ++s.texturesMade;
  const long last[9] = {t->addressMode[0],
                        t->filterMode,
                        static_cast<long>(t->flags),
                        static_cast<long>(a.format),
                        static_cast<long>(a.width),
                        static_cast<long>(a.height),
                        static_cast<long>(a.depth),
                        t->border[0] != 0 || t->border[1] != 0 || t->border[2] != 0 || t->border[3] != 0,
                        0};
  std::memcpy(s.lastTexture, last, sizeof(last));
  return kSuccess;
}
CUresult cuTexObjectDestroy(unsigned long long texture) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.textures.erase(texture) ? kSuccess : kInvalidValue;
}
// For the tests: textures made, textures live, arrays made, arrays live,
// copies into arrays, then the last texture's lastTexture[9].
void fake_cuda_textures(long *out) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  out[0] = s.texturesMade;
  out[1] = static_cast<long>(s.textures.size());
  out[2] = s.arraysMade;
  out[3] = static_cast<long>(s.arrays.size());
  out[4] = s.copiesToArrays;
  std::memcpy(out + 5, s.lastTexture, sizeof(s.lastTexture));
}

CUresult cuGetErrorName(CUresult result, const char **name) {
  switch (result) {
  case kSuccess: *name = "CUDA_SUCCESS"; break;
  case kInvalidValue: *name = "CUDA_ERROR_INVALID_VALUE"; break;
  case kOutOfMemory: *name = "CUDA_ERROR_OUT_OF_MEMORY"; break;
  case kInvalidContext: *name = "CUDA_ERROR_INVALID_CONTEXT"; break;
  case kNoBinaryForGpu: *name = "CUDA_ERROR_NO_BINARY_FOR_GPU"; break;
  case kUnsupportedPtxVersion: *name = "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"; break;
  case kNotFound: *name = "CUDA_ERROR_NOT_FOUND"; break;
  case kIllegalAddress: *name = "CUDA_ERROR_ILLEGAL_ADDRESS"; break;
  default: *name = nullptr; return kInvalidValue;
  }
  return kSuccess;
}
CUresult cuGetErrorString(CUresult result, const char **text) {
  switch (result) {
  case kSuccess: *text = "no error"; break;
  case kInvalidValue: *text = "invalid argument"; break;
  case kOutOfMemory: *text = "out of memory"; break;
  case kInvalidContext: *text = "invalid device context"; break;
  case kNoBinaryForGpu: *text = "no kernel image is available for execution on the device"; break;
  case kUnsupportedPtxVersion: *text = "the provided PTX was compiled with an unsupported toolchain."; break;
  case kNotFound: *text = "named symbol not found"; break;
  case kIllegalAddress: *text = "an illegal memory access was encountered"; break;
  default: *text = nullptr; return kInvalidValue;
  }
  return kSuccess;
}

}  // extern "C"
