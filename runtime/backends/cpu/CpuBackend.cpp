#include "CpuBackend.h"

#include "BackendErrors.h"
#include "PluginSupport.h"

#include "Environment.h"
#include "ThreadPool.h"
#include "KernelImage.h"  // hashBytes
#include "onepass_abi.hpp"
#include "onepass/jit/jit_api.h"
#include "../../../common/platform/SharedObjectLoader.h"

#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <cstdio>
#include <algorithm>

namespace onepass::rt {

namespace {

// Below this much work per chunk (in plain work-items: work_per_item), waking
// threads costs more than it saves.
constexpr uint64_t kMinWorkItemsPerChunk = 16384;
// Chunks per thread: enough to balance uneven work-items, few enough to stay cheap.
constexpr uint64_t kChunksPerThread = 4;

struct CpuDevice {
  std::unique_ptr<ThreadPool> pool;
  std::once_flag poolOnce;

  ThreadPool &threads() {
    std::call_once(poolOnce, [&] { pool = std::make_unique<ThreadPool>(env::cpuThreads()); });
    return *pool;
  }
};

CpuDevice &device() {
  static CpuDevice instance;
  return instance;
}

int fail(char **error, const std::string &message) { return rt::reportBackendError(error, message); }

// A field of /proc/cpuinfo's first processor ("" if absent). The file is
// read once, up to the end of that first block.
std::string cpuInfoField(const char *field) {
  static const std::map<std::string, std::string> fields = [] {
    std::map<std::string, std::string> first;
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line) && !line.empty()) {
      const size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      const size_t keyEnd = line.find_last_not_of(" \t", colon - 1);
      const size_t valueStart = line.find_first_not_of(" \t", colon + 1);
      first.emplace(line.substr(0, keyEnd == std::string::npos ? 0 : keyEnd + 1),
                    valueStart == std::string::npos ? "" : line.substr(valueStart));
    }
    return first;
  }();
  auto found = fields.find(field);
  return found == fields.end() ? "" : found->second;
}

uint32_t cpuDeviceCount() { return 1; }

int cpuDeviceInfo(uint32_t, onepass_backend_device_info *info, char **) {
  std::memset(info, 0, sizeof(*info));
  std::string model = cpuInfoField("model name");
  std::string vendor = cpuInfoField("vendor_id");
  copyInfoString(info->name, sizeof(info->name), model.empty() ? "Host CPU" : model);
  if (vendor == "GenuineIntel") {
    copyInfoString(info->vendor, sizeof(info->vendor), "Intel(R) Corporation");
    info->vendor_id = 0x8086;
  } else if (vendor == "AuthenticAMD") {
    copyInfoString(info->vendor, sizeof(info->vendor), "Advanced Micro Devices, Inc.");
    info->vendor_id = 0x1022;
  } else {
    copyInfoString(info->vendor, sizeof(info->vendor), vendor.empty() ? "unknown" : vendor);
  }
  copyInfoString(info->version, sizeof(info->version), "OnePass CPU 1.0");
  copyInfoString(info->driver_version, sizeof(info->driver_version), ONEPASS_VERSION);
  info->device_type = ONEPASS_DEVICE_CPU;
  info->compute_units = env::cpuThreads();
  std::string mhz = cpuInfoField("cpu MHz");
  info->clock_mhz = mhz.empty() ? 0 : static_cast<uint32_t>(std::atof(mhz.c_str()));
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  info->global_mem_bytes = pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 0;
  info->max_alloc_bytes = info->global_mem_bytes;
  info->local_mem_bytes = 64 * 1024;
  info->kernel_features =
      ONEPASS_KERNEL_FEATURE_BARRIER | ONEPASS_KERNEL_FEATURE_LOCAL_MEMORY | ONEPASS_KERNEL_FEATURE_ATOMIC64 |
      ONEPASS_KERNEL_FEATURE_FP16;
  info->max_work_group_size = 4096;
  info->has_fp64 = 1;
  info->cache_line_bytes = 64;
  long cache = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (cache <= 0) cache = sysconf(_SC_LEVEL2_CACHE_SIZE);
  info->global_cache_bytes = cache > 0 ? static_cast<uint64_t>(cache) : 0;
  info->sub_group_size = 8;  // jit/builtins/cpu/group.cpp
  for (uint64_t &size : info->max_work_item_sizes) size = info->max_work_group_size;
  return 0;
}

void *cpuAllocate(uint32_t, uint64_t bytes, uint64_t alignment, uint32_t) {
  if (bytes == 0) return nullptr;
  if (alignment != 0 && (alignment & (alignment - 1)) != 0) return nullptr;  // SYCL: invalid alignment
  // Cache-line alignment at least: kernels vectorize better, and no false sharing.
  uint64_t align = alignment > 64 ? alignment : 64;
  if (bytes > UINT64_MAX - align) return nullptr;
  // Large allocations (buffers' host copies, USM on the CPU device) start on
  // a 2 MiB boundary and ask for transparent huge pages: a first touch then
  // faults in 2 MiB at a time instead of 4 KiB (a GPU buffer's 256 MiB read
  // back into fresh host memory: 65536 faults fewer), and kernels miss the
  // TLB less. Where THP is off, madvise does nothing.
  constexpr uint64_t kHuge = 2u << 20;
  const bool huge = bytes >= 2 * kHuge;
  if (huge && align < kHuge) align = kHuge;
  uint64_t rounded = (bytes + align - 1) / align * align;
  void *memory = std::aligned_alloc(align, rounded);
#ifdef MADV_HUGEPAGE
  if (memory && huge) madvise(memory, rounded, MADV_HUGEPAGE);
#endif
  return memory;
}

void cpuDeallocate(uint32_t, void *pointer, uint32_t) { std::free(pointer); }

int cpuCopy(uint32_t, void *destination, const void *source, uint64_t bytes, char **) {
  if (bytes) std::memmove(destination, source, bytes);
  return 0;
}

int cpuFill(uint32_t, void *destination, const void *pattern, uint32_t patternBytes, uint64_t count, char **) {
  auto *out = static_cast<unsigned char *>(destination);
  if (patternBytes == 1) {
    std::memset(out, *static_cast<const unsigned char *>(pattern), count);
    return 0;
  }
  for (uint64_t i = 0; i < count; ++i) std::memcpy(out + i * patternBytes, pattern, patternBytes);
  return 0;
}

// The host CPU as the JIT sees it (it compiles for this CPU's model and
// features): its model and a hash of its feature flags.
const std::string &hostIdentity() {
  static const std::string identity = [] {
    const std::string flags = cpuInfoField("flags");
    return "host " + cpuInfoField("vendor_id") + " " + cpuInfoField("model name") + "|flags " +
           image::hexId(image::hashBytes(flags.data(), flags.size()));
  }();
  return identity;
}

int cpuDeviceTarget(uint32_t, onepass_backend_target *target, char **) {
  std::memset(target, 0, sizeof *target);
  target->jit_target = ONEPASS_JIT_TARGET_HOST;
  target->device_library = "";
  target->device_library_missing = "";
  target->identity = hostIdentity().c_str();
  // An nd_range kernel's loops over a group's work-items get constant trip
  // counts: they vectorize without remainders or runtime checks that the
  // short loops would not repay.
  target->per_work_group_range = 1;
  return 0;
}

// Loads the JIT's shared object with the system's dynamic loader: a kernel
// from the persistent cache needs no part of the JIT library.
int cpuLoadKernel(uint32_t, const void *binary, uint64_t size, void **kernel, char **error) {
  std::string why;
  void *function = loadSharedObject(binary, size, ONEPASS_ABI_CPU_LAUNCH, why);
  if (!function) return fail(error, why);
  *kernel = function;
  return 0;
}

int cpuLaunch(uint32_t, const onepass_backend_launch *launch, char **error) {
  const auto function = reinterpret_cast<onepass_cpu_kernel_fn>(launch->kernel);
  if (!function) return fail(error, "no kernel to launch");

  onepass_cpu_launch whole{};
  uint64_t total = 1;
  const bool grouped = launch->local_range[0] != 0;  // an nd_range kernel
  for (unsigned d = 0; d < 3; ++d) {
    whole.range[d] = d < launch->dimensions ? launch->global_range[d] : 1;
    whole.end[d] = whole.range[d];
    whole.local[d] = grouped && d < launch->dimensions ? launch->local_range[d] : 1;
    total *= whole.range[d];
    whole.local_memory_bytes = launch->local_memory_bytes;
  }
  if (total == 0) return 0;
  if (launch->dimensions == 0) {
    function(launch->object, &whole);
    return 0;
  }
  // Split the outermost dimension into chunks of whole work-groups; each
  // chunk covers the other dimensions whole.
  ThreadPool &pool = device().threads();
  const uint64_t units = whole.range[0] / whole.local[0];
  const uint64_t work = total * std::max<uint64_t>(1, launch->work_per_item);
  uint64_t chunks = std::min<uint64_t>(
      {units, uint64_t(pool.threads()) * kChunksPerThread, std::max<uint64_t>(1, work / kMinWorkItemsPerChunk)});
  onepass_cpu_kernel_fn fn = function;
  const void *object = launch->object;
  pool.run(chunks, [&](size_t chunk) {
    onepass_cpu_launch part = whole;
    part.begin[0] = units * chunk / chunks * whole.local[0];
    part.end[0] = units * (chunk + 1) / chunks * whole.local[0];
    fn(object, &part);
  });
  return 0;
}

}  // namespace

const onepass_backend &cpuBackend() {
  static const onepass_backend backend = {
      ONEPASS_BACKEND_INTERFACE_VERSION,
      "cpu",
      "OnePass CPU",
      "OnePass",
      cpuDeviceCount,
      cpuDeviceInfo,
      cpuAllocate,
      cpuDeallocate,
      cpuCopy,
      cpuFill,
      cpuDeviceTarget,
      nullptr,  // the JIT's object is the binary
      cpuLoadKernel,
      cpuLaunch,
      2,  // two lanes: small independent kernels (one chunk each) overlap
      0,  // no asynchronous streams: kernels run on the lanes themselves
      nullptr,
      nullptr,
      nullptr,
      nullptr,
      nullptr,
      nullptr,
      nullptr,
      nullptr,
      nullptr,
      nullptr,
      nullptr,  // kernel_limits: the device's limits apply to every kernel
      nullptr,  // native_handle .. native_context_device: no native objects to interoperate with
      nullptr,
      nullptr,
      nullptr,
      nullptr,
      nullptr,
      nullptr,  // image_texture: images are sampled in software
  };
  return backend;
}

}  // namespace onepass::rt
