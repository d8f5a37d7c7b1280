#include "CpuBackend.h"

#include "BackendErrors.h"
#include "BuildOnceMap.h"
#include "LaunchConstants.h"

#include "../Environment.h"
#include "../JitLibrary.h"
#include "../Log.h"
#include "../ThreadPool.h"

#include <sycl/exception.hpp>

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

namespace onepass::rt {

namespace {

// Below this many work-items per chunk, waking threads costs more than it saves.
constexpr uint64_t kMinWorkItemsPerChunk = 16384;
// Chunks per thread: enough to balance uneven work-items, few enough to stay cheap.
constexpr uint64_t kChunksPerThread = 4;

struct CompiledKernel {
  onepass_cpu_kernel_fn function = nullptr;
  std::string error;
};

// A compiled kernel's identity: the kernel, and what the JIT compiled in (an
// nd_range kernel's work-group range, its launch constants' values).
using KernelKey = std::tuple<const void *, std::array<uint64_t, 3>, std::string>;

struct CpuDevice {
  std::unique_ptr<ThreadPool> pool;
  std::once_flag poolOnce;
  BuildOnceMap<KernelKey, CompiledKernel> kernels;

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

std::string cpuInfoField(const char *field) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, std::strlen(field), field) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return "";
}

void copyString(char *destination, size_t capacity, const std::string &text) {
  std::strncpy(destination, text.c_str(), capacity - 1);
  destination[capacity - 1] = '\0';
}

uint32_t cpuDeviceCount() { return 1; }

int cpuDeviceInfo(uint32_t, onepass_backend_device_info *info, char **) {
  std::memset(info, 0, sizeof(*info));
  std::string model = cpuInfoField("model name");
  std::string vendor = cpuInfoField("vendor_id");
  copyString(info->name, sizeof(info->name), model.empty() ? "Host CPU" : model);
  if (vendor == "GenuineIntel") {
    copyString(info->vendor, sizeof(info->vendor), "Intel(R) Corporation");
    info->vendor_id = 0x8086;
  } else if (vendor == "AuthenticAMD") {
    copyString(info->vendor, sizeof(info->vendor), "Advanced Micro Devices, Inc.");
    info->vendor_id = 0x1022;
  } else {
    copyString(info->vendor, sizeof(info->vendor), vendor.empty() ? "unknown" : vendor);
  }
  copyString(info->version, sizeof(info->version), "OnePass CPU 1.0");
  copyString(info->driver_version, sizeof(info->driver_version), ONEPASS_VERSION);
  info->device_type = ONEPASS_DEVICE_CPU;
  info->compute_units = env::cpuThreads();
  std::string mhz = cpuInfoField("cpu MHz");
  info->clock_mhz = mhz.empty() ? 0 : static_cast<uint32_t>(std::atof(mhz.c_str()));
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  info->global_mem_bytes = pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 0;
  info->max_alloc_bytes = info->global_mem_bytes;
  info->local_mem_bytes = 64 * 1024;
  info->kernel_features = ONEPASS_KERNEL_FEATURE_BARRIER | ONEPASS_KERNEL_FEATURE_LOCAL_MEMORY;
  info->max_work_group_size = 4096;
  info->has_fp64 = 1;
  info->cache_line_bytes = 64;
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
  uint64_t rounded = (bytes + align - 1) / align * align;
  return std::aligned_alloc(align, rounded);
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

// Compiles the kernel once per process and work-group range (see
// BuildOnceMap): an nd_range kernel's loops over a group's work-items get
// constant trip counts, which lets them vectorize without remainders or
// runtime checks that the short loops would not repay. Its launch constants
// (a local accessor's range and offset) are compiled in too.
CompiledKernel &compiled(const onepass_backend_launch &launch) {
  std::array<uint64_t, 3> localRange{0, 0, 0};
  if (launch.local_range[0] != 0)
    for (unsigned d = 0; d < launch.dimensions && d < 3; ++d) localRange[d] = launch.local_range[d];
  const std::vector<onepass_jit_constant> constants = backend::launchConstants(launch);
  const KernelKey key{launch.host_entry, localRange, backend::constantsKey(constants)};
  return device().kernels.get(key, [&](CompiledKernel &kernel) {
    try {
      const JitLibrary &jit = jitLibrary();
      auto start = std::chrono::steady_clock::now();
      onepass_jit_request request{launch.image,
                                  launch.image_size,
                                  launch.kernel_symbol,
                                  constants.data(),
                                  static_cast<uint32_t>(constants.size()),
                                  {localRange[0], localRange[1], localRange[2]}};
      onepass_jit_buffer object{};
      char *error = nullptr;
      if (jit.compileCpu(&request, &object, &error) != 0) {
        kernel.error = error ? error : "unknown JIT error";
        jit.free(error);
        return;
      }
      int loaded = jit.loadCpu(object.data, object.size, &kernel.function, &error);
      jit.free(object.data);
      if (loaded != 0) {
        kernel.error = error ? error : "unknown loader error";
        jit.free(error);
        return;
      }
      auto micros = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
      ONEPASS_LOG(Info, "JIT compiled kernel " << launch.kernel_symbol << " for the CPU in " << micros.count() << " us");
      // (For profilers: where its code is, as __onepass_cpu_launch of the
      // object ONEPASS_DUMP_DIR keeps.)
      ONEPASS_LOG(Debug, "kernel " << launch.kernel_symbol << ": __onepass_cpu_launch at "
                                   << reinterpret_cast<const void *>(kernel.function));
    } catch (const sycl::exception &e) {
      kernel.error = e.what();
    }
  });
}

int cpuPrepareKernel(uint32_t, onepass_backend_launch *launch, char **error) {
  CompiledKernel &kernel = compiled(*launch);
  if (!kernel.function) return fail(error, kernel.error);
  launch->prepared = &kernel;
  return 0;
}

int cpuLaunch(uint32_t, const onepass_backend_launch *launch, char **error) {
  CompiledKernel &kernel = launch->prepared ? *static_cast<CompiledKernel *>(launch->prepared) : compiled(*launch);
  if (!kernel.function) return fail(error, kernel.error);

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
    kernel.function(launch->object, &whole);
    return 0;
  }
  // Split the outermost dimension into chunks of whole work-groups; each
  // chunk covers the other dimensions whole.
  ThreadPool &pool = device().threads();
  const uint64_t units = whole.range[0] / whole.local[0];
  uint64_t chunks = std::min<uint64_t>({units, uint64_t(pool.threads()) * kChunksPerThread,
                                        std::max<uint64_t>(1, total / kMinWorkItemsPerChunk)});
  onepass_cpu_kernel_fn fn = kernel.function;
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
      cpuPrepareKernel,
      cpuLaunch,
      2,  // two lanes: small independent kernels (one chunk each) overlap
      0,  // no asynchronous streams: kernels run on the lanes themselves
      nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
  };
  return backend;
}

}  // namespace onepass::rt
