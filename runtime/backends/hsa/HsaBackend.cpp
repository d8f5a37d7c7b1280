// The HSA backend plugin (issue 18): AMD GPUs through ROCm's HSA runtime,
// running the JIT's AMDGCN code objects (jit_api.h,
// ONEPASS_JIT_TARGET_AMDGCN). Each GPU agent is a device; USM comes from
// the HSA memory pools (HsaDevice.h says which); kernels run on the
// runtime's streams, one HSA queue each (HsaStreams.cpp). This file:
// start-up, devices, memory; HsaKernels.cpp: code objects and dispatches. No AMD GPU has run it yet:
// tests/fake_hsa checks it against a fake runtime.
#include "HsaDevice.h"
#include "RocmDeviceLibraries.h"

#include "BackendErrors.h"
#include "BackendInterface.h"
#include "PluginSupport.h"
#include "onepass/jit/jit_api.h"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace onepass::hsa {

Api api;
// Never destroyed: the runtime may still launch, copy and free during the
// process's exit.
std::vector<std::unique_ptr<Device>> &devices = *new std::vector<std::unique_ptr<Device>>;

bool Api::load(std::string &why) {
  library = rt::openVendorLibrary("libhsa-runtime64.so.1", "ROCm's HSA runtime", why);
#define ONEPASS_HSA_RESOLVE(name)                                                                                      \
  &&rt::resolveVendorFunction(library, "libhsa-runtime64.so.1", #name, name, "ROCm 5 or newer is needed", why)
  return library ONEPASS_HSA_FUNCTIONS(ONEPASS_HSA_RESOLVE);
#undef ONEPASS_HSA_RESOLVE
}

std::string failed(const char *call, hsa_status_t status) {
  const char *text = nullptr;
  char code[32];
  std::snprintf(code, sizeof code, "0x%x", static_cast<unsigned>(status));
  if (api.hsa_status_string && api.hsa_status_string(status, &text) == HSA_STATUS_SUCCESS && text)
    return std::string(call) + " failed: " + text + " (" + code + ")";
  return std::string(call) + " failed: HSA status " + code;
}

namespace {

const onepass_runtime_services *services = nullptr;
std::vector<std::string> leftOut;  // agents that are no device, and why

void log(int level, const std::string &message) {
  if (services && services->log) services->log(level, ("HSA: " + message).c_str());
}

template <typename T> T agentValue(hsa_agent_t agent, int what) {
  T value{};
  api.hsa_agent_get_info(agent, static_cast<hsa_agent_info_t>(what), &value);
  return value;
}

std::string agentString(hsa_agent_t agent, int what) {
  char text[64] = "";  // HSA's agent strings are at most 64 bytes
  api.hsa_agent_get_info(agent, static_cast<hsa_agent_info_t>(what), text);
  text[sizeof text - 1] = '\0';
  return text;
}

template <typename T> T poolValue(hsa_amd_memory_pool_t pool, hsa_amd_memory_pool_info_t what) {
  T value{};
  api.hsa_amd_memory_pool_get_info(pool, what, &value);
  return value;
}

// "gfx90a" -> 0x90a (jit_api.h: the digits read as hex); 0 if not a gfx name.
uint32_t gfxNumber(const std::string &name) {
  if (name.rfind("gfx", 0) != 0 || name.size() < 6 || name.size() > 8) return 0;
  if (name.find_first_not_of("0123456789abcdef", 3) != std::string::npos) return 0;
  return static_cast<uint32_t>(std::strtoul(name.c_str() + 3, nullptr, 16));
}

// The system's pools, from the CPU agents: fine-grained global memory (host
// and shared USM) and the kernarg pool.
struct SystemPools {
  bool haveHost = false, haveKernarg = false;
  hsa_amd_memory_pool_t host{}, kernarg{};
};

bool allocatable(hsa_amd_memory_pool_t pool) {
  return poolValue<hsa_amd_segment_t>(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT) == HSA_AMD_SEGMENT_GLOBAL &&
         poolValue<bool>(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED);
}

hsa_status_t findSystemPool(hsa_amd_memory_pool_t pool, void *data) {
  auto *pools = static_cast<SystemPools *>(data);
  if (!allocatable(pool)) return HSA_STATUS_SUCCESS;
  const auto flags = poolValue<uint32_t>(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS);
  if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !pools->haveKernarg) {
    pools->kernarg = pool;
    pools->haveKernarg = true;
  }
  if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !pools->haveHost) {
    pools->host = pool;
    pools->haveHost = true;
  }
  return HSA_STATUS_SUCCESS;
}

// A GPU agent's pools: coarse-grained global memory, and its group segment
// (LDS) for the size of local memory.
struct AgentPools {
  bool haveDevice = false;
  hsa_amd_memory_pool_t device{};
  uint64_t groupBytes = 0;
};

hsa_status_t findAgentPool(hsa_amd_memory_pool_t pool, void *data) {
  auto *pools = static_cast<AgentPools *>(data);
  const auto segment = poolValue<hsa_amd_segment_t>(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT);
  if (segment == HSA_AMD_SEGMENT_GROUP) pools->groupBytes = poolValue<size_t>(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE);
  if (!allocatable(pool) || pools->haveDevice) return HSA_STATUS_SUCCESS;
  if (poolValue<uint32_t>(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS) &
      HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) {
    pools->device = pool;
    pools->haveDevice = true;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t firstIsaName(hsa_isa_t isa, void *data) {
  char name[256] = "";
  uint32_t length = 0;
  if (api.hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &length) == HSA_STATUS_SUCCESS && length < sizeof name)
    api.hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name);
  *static_cast<std::string *>(data) = name;
  return HSA_STATUS_INFO_BREAK;
}

// Adds a GPU agent as a device if it can run OnePass's kernels; otherwise
// records why not.
void consider(hsa_agent_t agent, const SystemPools &system, const std::string &runtimeVersion) {
  auto device = std::make_unique<Device>();
  device->agent = agent;
  device->agentName = agentString(agent, HSA_AGENT_INFO_NAME);
  device->arch = gfxNumber(device->agentName);
  if (!device->arch) {
    leftOut.push_back("agent '" + device->agentName + "' is no gfx architecture OnePass's JIT knows");
    return;
  }
  AgentPools pools;
  api.hsa_amd_agent_iterate_memory_pools(agent, findAgentPool, &pools);
  if (!pools.haveDevice) {
    leftOut.push_back("'" + device->agentName + "' has no coarse-grained global memory pool");
    return;
  }
  device->devicePool = pools.device;
  device->hostPool = system.host;
  device->kernargPool = system.kernarg;
  device->devicePoolAlignment =
      std::max<uint64_t>(1, poolValue<size_t>(pools.device, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT));
  device->hostPoolAlignment =
      std::max<uint64_t>(1, poolValue<size_t>(system.host, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT));
  hsa_status_t status = api.hsa_signal_create(1, 0, nullptr, &device->completion);
  if (status != HSA_STATUS_SUCCESS) {
    leftOut.push_back("'" + device->agentName + "': " + failed("hsa_signal_create", status));
    return;
  }
  const auto queueSize = agentValue<uint32_t>(agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE);
  status = api.hsa_queue_create(agent, std::min<uint32_t>(queueSize ? queueSize : 64, 1024), HSA_QUEUE_TYPE_SINGLE,
                                onQueueError, device.get(), UINT32_MAX, UINT32_MAX, &device->queue);
  if (status != HSA_STATUS_SUCCESS) {
    leftOut.push_back("'" + device->agentName + "': " + failed("hsa_queue_create", status));
    return;
  }
  if (std::string why; !createStreams(*device, std::min<uint32_t>(queueSize ? queueSize : 64, kStreamQueueSize), why)) {
    leftOut.push_back("'" + device->agentName + "': " + why);
    return;
  }

  std::string isa;
  api.hsa_agent_iterate_isas(agent, firstIsaName, &isa);
  const RocmDeviceLibraries ocml = findRocmDeviceLibraries();
  device->deviceLibrary = ocml.directory;
  device->deviceLibraryMissing = ocml.missing;
  const std::string product = agentString(agent, HSA_AMD_AGENT_INFO_PRODUCT_NAME);
  device->identity = "hsa " + device->agentName + "|isa " + isa + "|runtime " + runtimeVersion + "|ocml " +
                     (ocml.identity.empty() ? "none" : ocml.identity);

  onepass_backend_device_info &info = device->info;
  rt::copyInfoString(info.name, sizeof info.name,
                     product.empty() || product == device->agentName ? device->agentName
                                                                     : product + " (" + device->agentName + ")");
  rt::copyInfoString(info.vendor, sizeof info.vendor, agentString(agent, HSA_AGENT_INFO_VENDOR_NAME));
  rt::copyInfoString(info.version, sizeof info.version, isa.empty() ? device->agentName : isa);
  rt::copyInfoString(info.driver_version, sizeof info.driver_version, "HSA " + runtimeVersion);
  info.device_type = ONEPASS_DEVICE_GPU;
  info.vendor_id = 0x1002;  // AMD's PCI vendor id
  info.compute_units = agentValue<uint32_t>(agent, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT);
  info.clock_mhz = agentValue<uint32_t>(agent, HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY);
  info.global_mem_bytes = poolValue<size_t>(pools.device, HSA_AMD_MEMORY_POOL_INFO_SIZE);
  info.local_mem_bytes = pools.groupBytes;
  // (64-bit global atomics and half arithmetic: every GCN and RDNA architecture.)
  info.kernel_features = ONEPASS_KERNEL_FEATURE_BARRIER | ONEPASS_KERNEL_FEATURE_LOCAL_MEMORY |
                         ONEPASS_KERNEL_FEATURE_ATOMIC64 | ONEPASS_KERNEL_FEATURE_FP16;
  const auto allocMax = poolValue<size_t>(pools.device, HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE);
  info.max_alloc_bytes = allocMax ? allocMax : info.global_mem_bytes;
  info.max_work_group_size = agentValue<uint32_t>(agent, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE);
  // The gfx major version, as hex digits: 0x90a -> 0x9, 0x1100 -> 0x11.
  const unsigned major = device->arch >> 8;
  info.has_fp64 = major >= 9;
  info.cache_line_bytes = agentValue<uint32_t>(agent, HSA_AMD_AGENT_INFO_CACHELINE_SIZE);
  // The JIT's sub-group builtins are wavefronts of the code it makes: wave64
  // before gfx10, LLVM's default wave32 from gfx10 on. A sub-group size is
  // offered only where the agent runs wavefronts of that size.
  const uint32_t jitWave = major >= 0x10 ? 32 : 64;
  info.sub_group_size = agentValue<uint32_t>(agent, HSA_AGENT_INFO_WAVEFRONT_SIZE) == jitWave ? jitWave : 1;
  const auto dims = agentValue<std::array<uint16_t, 3>>(agent, HSA_AGENT_INFO_WORKGROUP_MAX_DIM);
  for (int axis = 0; axis < 3; ++axis) info.max_work_item_sizes[axis] = dims[axis];
  const auto caches = agentValue<std::array<uint32_t, 4>>(agent, HSA_AGENT_INFO_CACHE_SIZE);
  info.global_cache_bytes = *std::max_element(caches.begin(), caches.end());
  devices.push_back(std::move(device));
}

hsa_status_t collectAgent(hsa_agent_t agent, void *data) {
  static_cast<std::vector<hsa_agent_t> *>(data)->push_back(agent);
  return HSA_STATUS_SUCCESS;
}

uint32_t deviceCount() { return static_cast<uint32_t>(devices.size()); }

int noDevice(char **error, uint32_t device) {
  return rt::reportBackendError(error, "no HSA device " + std::to_string(device));
}

int deviceInfo(uint32_t device, onepass_backend_device_info *info, char **error) {
  Device *d = deviceAt(device);
  if (!d) return noDevice(error, device);
  *info = d->info;
  return 0;
}

void *allocate(uint32_t device, uint64_t bytes, uint64_t alignment, uint32_t kind) {
  Device *d = deviceAt(device);
  if (!d || (alignment & (alignment - 1))) return nullptr;
  const bool onDevice = kind == ONEPASS_USM_DEVICE;
  std::string error;
  void *pointer = allocateFromPool(onDevice ? d->devicePool : d->hostPool,
                                   onDevice ? d->devicePoolAlignment : d->hostPoolAlignment, bytes, alignment, error);
  if (!pointer) {
    log(1, error);
    return nullptr;
  }
  if (!onDevice) {  // system memory: the GPU may use it once allowed to
    hsa_status_t status = api.hsa_amd_agents_allow_access(1, &d->agent, nullptr, pointer);
    if (status != HSA_STATUS_SUCCESS) {
      log(1, failed("hsa_amd_agents_allow_access", status));
      freeToPool(pointer);
      return nullptr;
    }
  }
  return pointer;
}

// Memory is freed once the streams' work is done (a kernel may still use it).
void deallocate(uint32_t device, void *pointer, uint32_t) {
  Device *d = deviceAt(device);
  if (!d || !pointer) return;
  for (uint32_t stream = 0; stream < kStreams; ++stream)
    finishStream(*d, stream, nullptr);  // (a stopped device: the memory goes anyway)
  freeToPool(pointer);
}

int copy(uint32_t device, void *destination, const void *source, uint64_t bytes, char **error) {
  if (!deviceAt(device)) return noDevice(error, device);
  if (bytes == 0) return 0;
  hsa_status_t status = api.hsa_memory_copy(destination, source, bytes);
  if (status != HSA_STATUS_SUCCESS) return rt::reportBackendError(error, failed("hsa_memory_copy", status));
  return 0;
}

}  // namespace

// hsa_amd_memory_fill writes 32-bit words at 4-byte-aligned addresses: a
// pattern of 1, 2 or 4 bytes filling whole words goes there; any other fill
// is a filled host block, copied.
int fill(uint32_t device, void *destination, const void *pattern, uint32_t patternBytes, uint64_t count, char **error) {
  if (!deviceAt(device)) return noDevice(error, device);
  const uint64_t bytes = patternBytes * count;
  if (bytes == 0) return 0;
  if ((patternBytes == 1 || patternBytes == 2 || patternBytes == 4) &&
      reinterpret_cast<uintptr_t>(destination) % 4 == 0 && bytes % 4 == 0) {
    uint32_t word = 0;
    for (uint32_t i = 0; i < 4; i += patternBytes)
      std::memcpy(reinterpret_cast<char *>(&word) + i, pattern, patternBytes);
    hsa_status_t status = api.hsa_amd_memory_fill(destination, word, bytes / 4);
    if (status != HSA_STATUS_SUCCESS) return rt::reportBackendError(error, failed("hsa_amd_memory_fill", status));
    return 0;
  }
  // Blocks of about 1 MiB, a whole number of patterns each.
  const uint64_t perBlock = std::max<uint64_t>(1, std::min<uint64_t>(count, (1u << 20) / patternBytes));
  std::vector<char> block(perBlock * patternBytes);
  for (uint64_t i = 0; i < perBlock; ++i) std::memcpy(block.data() + i * patternBytes, pattern, patternBytes);
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t chunk = std::min<uint64_t>(block.size(), bytes - done);
    hsa_status_t status = api.hsa_memory_copy(static_cast<char *>(destination) + done, block.data(), chunk);
    if (status != HSA_STATUS_SUCCESS) return rt::reportBackendError(error, failed("hsa_memory_copy", status));
    done += chunk;
  }
  return 0;
}

namespace {

int deviceTarget(uint32_t device, onepass_backend_target *target, char **error) {
  Device *d = deviceAt(device);
  if (!d) return noDevice(error, device);
  *target = onepass_backend_target{};
  target->jit_target = ONEPASS_JIT_TARGET_AMDGCN;
  target->arch = d->arch;
  target->device_library = d->deviceLibrary.c_str();
  target->device_library_missing = d->deviceLibraryMissing.c_str();
  target->identity = d->identity.c_str();
  return 0;
}

onepass_backend table() {
  onepass_backend t = rt::synchronousBackendTable("hsa", "OnePass HSA");
  t.device_count = deviceCount;
  t.device_info = deviceInfo;
  t.allocate = allocate;
  t.deallocate = deallocate;
  t.copy = copy;
  t.fill = fill;
  t.device_target = deviceTarget;
  t.load_kernel = loadKernel;  // (the JIT's code object is the binary: no finalize_binary)
  t.launch = launchKernel;
  t.kernel_limits = kernelLimits;
  fillStreamTable(t);
  return t;
}

// Starts the runtime and finds the devices; false with `reason` if none.
bool start(std::string &reason) {
  if (!api.load(reason)) return false;
  hsa_status_t status = api.hsa_init();
  if (status != HSA_STATUS_SUCCESS) {
    reason = failed("hsa_init", status) + " (no AMD GPU driver, /dev/kfd, or no access to it)";
    return false;
  }
  uint16_t major = 0, minor = 0;
  api.hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major);
  api.hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor);
  const std::string runtimeVersion = std::to_string(major) + "." + std::to_string(minor);
  std::vector<hsa_agent_t> agents;
  status = api.hsa_iterate_agents(collectAgent, &agents);
  if (status != HSA_STATUS_SUCCESS) {
    reason = failed("hsa_iterate_agents", status);
    return false;
  }
  SystemPools system;
  std::vector<hsa_agent_t> gpus;
  for (hsa_agent_t agent : agents) {
    const auto type = agentValue<hsa_device_type_t>(agent, HSA_AGENT_INFO_DEVICE);
    if (type == HSA_DEVICE_TYPE_GPU) gpus.push_back(agent);
    else if (type == HSA_DEVICE_TYPE_CPU) api.hsa_amd_agent_iterate_memory_pools(agent, findSystemPool, &system);
  }
  if (gpus.empty()) {
    reason = "the HSA runtime found no GPU agent (" + std::to_string(agents.size()) + " agent(s), none a GPU)";
    return false;
  }
  if (!system.haveHost || !system.haveKernarg) {
    reason = std::string("the HSA runtime has no fine-grained system memory pool ") +
             (system.haveHost ? "for kernel arguments" : "for host and shared USM");
    return false;
  }
  for (hsa_agent_t agent : gpus) consider(agent, system, runtimeVersion);
  for (const std::string &line : leftOut) log(2, "device left out: " + line);
  if (devices.empty()) {
    reason = "no HSA GPU agent can run OnePass kernels: " + leftOut.front();
    return false;
  }
  return true;
}

}  // namespace

// Pool allocations are aligned to the pool's granule (4 KiB); a more aligned
// one is a larger allocation, aligned here, whose start is remembered.
namespace {
std::mutex alignedMutex;
std::map<void *, void *> &alignedStarts =
    *new std::map<void *, void *>;  // aligned pointer -> the pool's (never destroyed)
}  // namespace

void *allocateFromPool(hsa_amd_memory_pool_t pool, uint64_t poolAlignment, uint64_t bytes, uint64_t alignment,
                       std::string &error) {
  const uint64_t extra = alignment > poolAlignment ? alignment : 0;
  void *start = nullptr;
  hsa_status_t status = api.hsa_amd_memory_pool_allocate(pool, (bytes ? bytes : 1) + extra, 0, &start);
  if (status != HSA_STATUS_SUCCESS) {
    error = failed("hsa_amd_memory_pool_allocate", status) + " for " + std::to_string(bytes) + " bytes";
    return nullptr;
  }
  if (!extra || reinterpret_cast<uintptr_t>(start) % alignment == 0) return start;
  auto address = reinterpret_cast<uintptr_t>(start);
  void *aligned = reinterpret_cast<void *>((address + alignment - 1) / alignment * alignment);
  std::lock_guard<std::mutex> lock(alignedMutex);
  alignedStarts[aligned] = start;
  return aligned;
}

void freeToPool(void *pointer) {
  {
    std::lock_guard<std::mutex> lock(alignedMutex);
    if (auto found = alignedStarts.find(pointer); found != alignedStarts.end()) {
      pointer = found->second;
      alignedStarts.erase(found);
    }
  }
  api.hsa_amd_memory_pool_free(pointer);
}

}  // namespace onepass::hsa

extern "C" __attribute__((visibility("default"))) const onepass_backend *
onepass_backend_entry(const onepass_runtime_services *runtimeServices, char **why) {
  using namespace onepass::hsa;
  return onepass::rt::answerBackendEntry(
      [&](std::string &reason) -> const onepass_backend * {
        services = runtimeServices;
        if (!start(reason)) return nullptr;
        static onepass_backend built = table();
        return &built;
      },
      why);
}
