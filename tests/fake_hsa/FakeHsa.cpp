// A stand-in for ROCm's HSA runtime (libhsa-runtime64.so.1) with the part of
// the API the HSA backend uses, so the backend's logic runs where there is no
// AMD GPU: on CI, and on this project's machines.
//
// It runs no kernel code. Memory is host memory, so copies and fills do what
// they say. Code objects are read as a loader would: the ELF header (an
// AMDGPU shared object for the agent's gfx), its symbol table's kernel
// descriptors (`<kernel>.kd`), and from each descriptor its group, private
// and kernarg segment sizes. Queues are real ring buffers of AQL packets; the
// doorbell store processes them: it checks each packet (a kernel dispatch of
// a loaded kernel, sane sizes, a large enough group segment), records it and
// decrements its completion signal. A bad packet is reported through the
// queue's error callback instead, and its signal never completes, as on a
// GPU. The environment shapes it:
//   FAKE_HSA_AGENTS=1     GPU agents (0: only the CPU agent)
//   FAKE_HSA_GFX=gfx90a   their architecture
//   FAKE_HSA_FAULT_DISPATCH=N  the Nth dispatch (from 1) faults: the queue's
//                         callback gets HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION
//                         and the queue stops, as after a GPU page fault
//   FAKE_HSA_LOG=<file>   one line per dispatch: "dispatch workgroup=X,Y,Z
//                         grid=X,Y,Z group=<bytes> private=<bytes>
//                         kernarg=<the kernarg segment's bytes in hex>"
// Barrier-AND packets wait for their dependency signals (their queue takes
// nothing after them until then). Tests may hold the packet processor:
// fake_hsa_hold(1) stops it taking packets (as a busy GPU), fake_hsa_hold(0)
// lets it go on; fake_hsa_hold_queue(n, 1) stops it taking packets of the
// n-th queue created (from 0) only (extern "C", found with dlsym).
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <algorithm>
#include <string>
#include <vector>

namespace {

long environmentNumber(const char *name, long fallback) {
  const char *text = std::getenv(name);
  return text && *text ? std::strtol(text, nullptr, 10) : fallback;
}

// Agents: handle 1 is the CPU, 2.. the GPUs. Pools: agent * 16 + kind.
constexpr uint64_t kCpuAgent = 1;
enum PoolKind : uint64_t { kSystemPool = 1, kDevicePool = 2, kGroupPool = 3 };
constexpr uint64_t kGroupBytes = 64 * 1024;
constexpr uint64_t kDeviceBytes = 16ull << 30;
constexpr size_t kPoolAlignment = 4096;

// A kernel descriptor's segment sizes (AMDGPU kernel descriptor: group at
// byte 0, private at 4, kernarg at 8; 64 bytes in all).
struct KernelDescriptor {
  uint32_t groupBytes = 0, privateBytes = 0, kernargBytes = 0;
};

struct Reader {
  uint32_t mach = 0;  // e_flags' EF_AMDGPU_MACH
  std::map<std::string, KernelDescriptor> kernels;
};

struct Executable {
  bool frozen = false;
  std::map<std::string, uint64_t> symbols;  // name -> the descriptor's copy (the kernel object)
};

struct Signal {
  std::atomic<hsa_signal_value_t> value{0};
  std::mutex mutex;
  std::condition_variable changed;
  struct Queue *doorbellOf = nullptr;
};

struct Queue {
  hsa_queue_t queue{};  // first: the runtime hands out its address
  std::atomic<uint64_t> write{0}, read{0};
  Signal doorbell;
  void (*callback)(hsa_status_t, hsa_queue_t *, void *) = nullptr;
  void *data = nullptr;
  std::mutex processing;
  bool stopped = false;  // after a bad packet or a fault: takes no more packets
  unsigned ordinal = 0;  // the queues created before it
};

struct State {
  long gpuCount = environmentNumber("FAKE_HSA_AGENTS", 1);
  long faultDispatch = environmentNumber("FAKE_HSA_FAULT_DISPATCH", 0);
  std::atomic<long> dispatches{0};
  std::string gfx =
      std::getenv("FAKE_HSA_GFX") && *std::getenv("FAKE_HSA_GFX") ? std::getenv("FAKE_HSA_GFX") : "gfx90a";
  bool initialized = false;
  std::FILE *log = nullptr;
  std::mutex mutex;
  std::map<uintptr_t, uint64_t> allocations;           // address -> bytes
  std::map<uint64_t, KernelDescriptor> kernelObjects;  // loaded descriptors
};

State &state() {
  static State instance;
  return instance;
}

bool isGpu(hsa_agent_t agent) {
  return agent.handle >= 2 && agent.handle < 2 + static_cast<uint64_t>(state().gpuCount);
}
bool isAgent(hsa_agent_t agent) { return agent.handle == kCpuAgent || isGpu(agent); }

uint32_t wavefrontSize() { return state().gfx.rfind("gfx1", 0) == 0 && state().gfx.size() >= 7 ? 32 : 64; }

// e_flags' EF_AMDGPU_MACH of the architectures the fake knows (LLVM's
// BinaryFormat/ELF.h); 0 for others, whose code objects are not checked.
uint32_t machOf(const std::string &gfx) {
  static const std::map<std::string, uint32_t> known = {{"gfx900", 0x2c}, {"gfx906", 0x2f}, {"gfx908", 0x30},
                                                        {"gfx90a", 0x3f}, {"gfx942", 0x4c}, {"gfx1030", 0x36},
                                                        {"gfx1100", 0x41}};
  auto found = known.find(gfx);
  return found == known.end() ? 0 : found->second;
}

template <typename T> hsa_status_t put(void *to, T value) {
  std::memcpy(to, &value, sizeof value);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t putString(void *to, const std::string &text, size_t capacity = 64) {
  std::memset(to, 0, capacity);
  std::memcpy(to, text.c_str(), std::min(text.size(), capacity - 1));
  return HSA_STATUS_SUCCESS;
}

// Reads an AMDGPU code object's ELF header and symbol table.
hsa_status_t readCodeObject(const unsigned char *data, size_t size, Reader &reader) {
  const unsigned char magic[4] = {0x7f, 'E', 'L', 'F'};
  if (size < 64 || std::memcmp(data, magic, 4) != 0 || data[4] != 2 /* ELFCLASS64 */)
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  auto read = [&](size_t offset, auto &value) {
    if (offset + sizeof value > size) return false;
    std::memcpy(&value, data + offset, sizeof value);
    return true;
  };
  uint16_t machine = 0, sectionSize = 0, sectionCount = 0;
  uint32_t flags = 0;
  uint64_t sectionsAt = 0;
  read(18, machine);
  read(40, sectionsAt);
  read(48, flags);
  read(58, sectionSize);
  read(60, sectionCount);
  if (machine != 224 /* EM_AMDGPU */ || sectionSize != 64) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  reader.mach = flags & 0xff;
  struct Section {
    uint32_t type = 0, link = 0;
    uint64_t address = 0, offset = 0, size = 0, entrySize = 0;
  };
  std::vector<Section> sections(sectionCount);
  for (uint16_t i = 0; i < sectionCount; ++i) {
    const size_t at = sectionsAt + size_t(i) * 64;
    Section &s = sections[i];
    if (!read(at + 4, s.type) || !read(at + 16, s.address) || !read(at + 24, s.offset) || !read(at + 32, s.size) ||
        !read(at + 40, s.link) || !read(at + 56, s.entrySize) || (s.type != 8 /* NOBITS */ && s.offset + s.size > size))
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  for (const Section &table : sections) {
    if (table.type != 2 /* SHT_SYMTAB */ || table.link >= sections.size()) continue;
    const Section &names = sections[table.link];
    for (uint64_t at = table.offset; at + 24 <= table.offset + table.size; at += 24) {
      uint32_t name = 0;
      uint16_t index = 0;
      uint64_t value = 0;
      read(at, name);
      read(at + 6, index);
      read(at + 8, value);
      if (name >= names.size || index == 0 || index >= sections.size()) continue;
      const char *text = reinterpret_cast<const char *>(data + names.offset + name);
      const std::string symbol(text, strnlen(text, names.size - name));
      if (symbol.size() < 3 || symbol.compare(symbol.size() - 3, 3, ".kd") != 0) continue;
      const Section &holder = sections[index];
      const uint64_t offset = holder.offset + (value - holder.address);
      KernelDescriptor kd;
      if (value < holder.address || !read(offset, kd.groupBytes) || !read(offset + 4, kd.privateBytes) ||
          !read(offset + 8, kd.kernargBytes) || offset + 64 > size)
        return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
      reader.kernels[symbol] = kd;
    }
  }
  return reader.kernels.empty() ? HSA_STATUS_ERROR_INVALID_CODE_OBJECT : HSA_STATUS_SUCCESS;
}

void signalSet(Signal &signal, hsa_signal_value_t value) {
  {
    std::lock_guard<std::mutex> lock(signal.mutex);
    signal.value.store(value);
  }
  signal.changed.notify_all();
}

// Checks one packet; "" if it is a dispatch the fake accepts.
std::string checkPacket(const hsa_kernel_dispatch_packet_t &p, uint16_t header, KernelDescriptor &kd) {
  if ((header >> HSA_PACKET_HEADER_TYPE & 0xff) != HSA_PACKET_TYPE_KERNEL_DISPATCH) return "not a kernel dispatch";
  const unsigned dims = p.setup >> HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS & 3;
  if (dims < 1 || dims > 3) return "setup has no dimensions";
  const uint64_t groupItems = uint64_t(p.workgroup_size_x) * p.workgroup_size_y * p.workgroup_size_z;
  if (groupItems == 0 || groupItems > 1024) return "a work-group of " + std::to_string(groupItems) + " work-items";
  if (p.grid_size_x == 0 || p.grid_size_y == 0 || p.grid_size_z == 0) return "an empty grid";
  std::lock_guard<std::mutex> lock(state().mutex);
  auto found = state().kernelObjects.find(p.kernel_object);
  if (found == state().kernelObjects.end()) return "kernel_object is no loaded kernel";
  kd = found->second;
  if (p.group_segment_size < kd.groupBytes || p.group_segment_size > kGroupBytes) return "bad group_segment_size";
  if (p.private_segment_size < kd.privateBytes) return "private_segment_size below the kernel's";
  if (kd.kernargBytes && !p.kernarg_address) return "no kernarg segment";
  return "";
}

void logDispatch(const hsa_kernel_dispatch_packet_t &p, const KernelDescriptor &kd) {
  std::FILE *log = state().log;
  if (!log) return;
  std::string hex;
  const auto *bytes = static_cast<const unsigned char *>(p.kernarg_address);
  char two[3];
  for (uint32_t i = 0; i < kd.kernargBytes; ++i) {
    std::snprintf(two, sizeof two, "%02x", bytes[i]);
    hex += two;
  }
  std::lock_guard<std::mutex> lock(state().mutex);
  std::fprintf(log, "dispatch workgroup=%u,%u,%u grid=%u,%u,%u group=%u private=%u kernarg=%s\n", p.workgroup_size_x,
               p.workgroup_size_y, p.workgroup_size_z, p.grid_size_x, p.grid_size_y, p.grid_size_z,
               p.group_segment_size, p.private_segment_size, hex.empty() ? "-" : hex.c_str());
  std::fflush(log);
}

// Every queue, for the packet processor (state().mutex).
std::vector<Queue *> &queues() {
  static std::vector<Queue *> list;
  return list;
}
std::atomic<bool> held{false};        // fake_hsa_hold: no packet is taken
std::atomic<uint64_t> heldQueues{0};  // fake_hsa_hold_queue: bit n, the n-th queue's
unsigned queuesCreated = 0;           // (state().mutex)

// A barrier-AND packet waits while a dependency's value is not 0.
bool dependenciesMet(const hsa_barrier_and_packet_t &p) {
  for (const hsa_signal_t &dependency : p.dep_signal)
    if (dependency.handle && reinterpret_cast<Signal *>(dependency.handle)->value.load() != 0) return false;
  return true;
}

void complete(hsa_signal_t completion) {
  if (!completion.handle) return;
  auto *signal = reinterpret_cast<Signal *>(completion.handle);
  signalSet(*signal, signal->value.load() - 1);
}

// Takes the queue's written packets in order, until one that is not yet
// written or a barrier whose dependencies are not met. (Every packet runs
// at once: its completion is immediate.) False if it took none.
bool processQueue(Queue &q) {
  std::lock_guard<std::mutex> lock(q.processing);
  bool took = false;
  const bool queueHeld = q.ordinal < 64 && (heldQueues.load() >> q.ordinal & 1);
  while (!q.stopped && !held.load() && !queueHeld && q.read.load() < q.write.load()) {
    const uint64_t at = q.read.load();
    auto *packet = static_cast<hsa_kernel_dispatch_packet_t *>(q.queue.base_address) + at % q.queue.size;
    const uint16_t header = __atomic_load_n(&packet->header, __ATOMIC_ACQUIRE);
    if ((header & 0xff) == HSA_PACKET_TYPE_INVALID) break;  // not yet written: a later doorbell takes it
    if ((header >> HSA_PACKET_HEADER_TYPE & 0xff) == HSA_PACKET_TYPE_BARRIER_AND) {
      auto *barrier = reinterpret_cast<hsa_barrier_and_packet_t *>(packet);
      if (!dependenciesMet(*barrier)) break;  // a signal's change takes it
      const hsa_signal_t completion = barrier->completion_signal;
      __atomic_store_n(&packet->header, uint16_t(HSA_PACKET_TYPE_INVALID), __ATOMIC_RELEASE);
      q.read.store(at + 1);
      complete(completion);
      took = true;
      continue;
    }
    KernelDescriptor kd;
    const std::string problem = checkPacket(*packet, header, kd);
    if (!problem.empty()) {
      std::fprintf(stderr, "fake HSA: bad AQL packet %llu: %s\n", static_cast<unsigned long long>(at), problem.c_str());
      q.stopped = true;  // as a real queue does
      if (q.callback) q.callback(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, &q.queue, q.data);
      break;
    }
    if (++state().dispatches == state().faultDispatch) {
      q.stopped = true;
      if (q.callback)
        q.callback(static_cast<hsa_status_t>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION), &q.queue, q.data);
      break;
    }
    logDispatch(*packet, kd);
    const hsa_signal_t completion = packet->completion_signal;
    __atomic_store_n(&packet->header, uint16_t(HSA_PACKET_TYPE_INVALID), __ATOMIC_RELEASE);
    q.read.store(at + 1);
    complete(completion);
    took = true;
  }
  return took;
}

// The packet processor, after a doorbell or a signal's change: takes what
// every queue can take until none can take more. One thread processes at a
// time; a call while another processes (or from inside a completion) asks
// it to go round again.
std::atomic<bool> pumpAgain{false};
std::mutex pumpMutex;
thread_local bool pumping = false;
void pumpQueues() {
  pumpAgain.store(true);
  if (pumping) return;
  while (pumpAgain.load()) {
    std::unique_lock<std::mutex> lock(pumpMutex, std::try_to_lock);
    if (!lock.owns_lock()) return;  // its holder sees pumpAgain
    pumping = true;
    while (pumpAgain.exchange(false)) {
      std::vector<Queue *> all;
      {
        std::lock_guard<std::mutex> stateLock(state().mutex);
        all = queues();
      }
      bool progress = true;
      while (progress) {
        progress = false;
        for (Queue *q : all) progress = processQueue(*q) || progress;
      }
    }
    pumping = false;
  }
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) void fake_hsa_hold(int hold) {
  held.store(hold != 0);
  if (!hold) pumpQueues();
}

__attribute__((visibility("default"))) void fake_hsa_hold_queue(unsigned ordinal, int hold) {
  if (ordinal >= 64) return;
  if (hold) heldQueues.fetch_or(uint64_t(1) << ordinal);
  else heldQueues.fetch_and(~(uint64_t(1) << ordinal));
  if (!hold) pumpQueues();
}

hsa_status_t hsa_init() {
  State &s = state();
  if (s.gpuCount < 0) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (!s.initialized) {
    s.initialized = true;
    if (const char *path = std::getenv("FAKE_HSA_LOG"); path && *path) s.log = std::fopen(path, "w");
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_shut_down() { return HSA_STATUS_SUCCESS; }

hsa_status_t hsa_status_string(hsa_status_t status, const char **text) {
  if (status == static_cast<hsa_status_t>(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION)) {
    *text = "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: (fake HSA) a kernel accessed memory outside its apertures";
    return HSA_STATUS_SUCCESS;
  }
  switch (status) {
  case HSA_STATUS_SUCCESS: *text = "HSA_STATUS_SUCCESS: The function has been executed successfully."; break;
  case HSA_STATUS_ERROR_INVALID_ARGUMENT: *text = "HSA_STATUS_ERROR_INVALID_ARGUMENT: (fake HSA)"; break;
  case HSA_STATUS_ERROR_OUT_OF_RESOURCES: *text = "HSA_STATUS_ERROR_OUT_OF_RESOURCES: (fake HSA)"; break;
  case HSA_STATUS_ERROR_INVALID_CODE_OBJECT: *text = "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: (fake HSA)"; break;
  case HSA_STATUS_ERROR_INVALID_ISA: *text = "HSA_STATUS_ERROR_INVALID_ISA: (fake HSA)"; break;
  case HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: *text = "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: (fake HSA)"; break;
  case HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: *text = "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: (fake HSA)"; break;
  default: *text = "an HSA error (fake HSA)"; break;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_get_info(hsa_system_info_t attribute, void *value) {
  if (attribute == HSA_SYSTEM_INFO_VERSION_MAJOR || attribute == HSA_SYSTEM_INFO_VERSION_MINOR)
    return put<uint16_t>(value, 1);
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_iterate_agents(hsa_status_t (*callback)(hsa_agent_t, void *), void *data) {
  if (!state().initialized) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  for (uint64_t handle = kCpuAgent; handle < 2 + static_cast<uint64_t>(state().gpuCount); ++handle) {
    hsa_status_t status = callback(hsa_agent_t{handle}, data);
    if (status == HSA_STATUS_INFO_BREAK) return HSA_STATUS_SUCCESS;
    if (status != HSA_STATUS_SUCCESS) return status;
  }
  return HSA_STATUS_SUCCESS;
}

// (AMD's attributes, hsa_amd_agent_info_t, come through the same enum
// parameter: outside hsa_agent_info_t's values, which UBSan would report.)
__attribute__((no_sanitize("enum"))) hsa_status_t hsa_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute,
                                                                     void *value) {
  if (!isAgent(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  const bool gpu = isGpu(agent);
  switch (static_cast<int>(attribute)) {
  case HSA_AGENT_INFO_NAME: return putString(value, gpu ? state().gfx : "Fake CPU");
  case HSA_AGENT_INFO_VENDOR_NAME: return putString(value, gpu ? "AMD" : "CPU");
  case HSA_AGENT_INFO_DEVICE: return put(value, gpu ? HSA_DEVICE_TYPE_GPU : HSA_DEVICE_TYPE_CPU);
  case HSA_AGENT_INFO_WAVEFRONT_SIZE: return put<uint32_t>(value, gpu ? wavefrontSize() : 0);
  case HSA_AGENT_INFO_WORKGROUP_MAX_DIM: {
    const uint16_t dims[3] = {1024, 1024, 1024};
    std::memcpy(value, dims, sizeof dims);
    return HSA_STATUS_SUCCESS;
  }
  case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE: return put<uint32_t>(value, 1024);
  case HSA_AGENT_INFO_QUEUE_MAX_SIZE: return put<uint32_t>(value, gpu ? 131072 : 0);
  case HSA_AGENT_INFO_CACHE_SIZE: {
    const uint32_t caches[4] = {16 * 1024, 8 * 1024 * 1024, 0, 0};
    std::memcpy(value, caches, sizeof caches);
    return HSA_STATUS_SUCCESS;
  }
  case HSA_AMD_AGENT_INFO_PRODUCT_NAME: return putString(value, gpu ? "Fake AMD GPU" : "Fake CPU");
  case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT: return put<uint32_t>(value, gpu ? 104 : 2);
  case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY: return put<uint32_t>(value, 1700);
  case HSA_AMD_AGENT_INFO_CACHELINE_SIZE: return put<uint32_t>(value, 128);
  default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t hsa_agent_iterate_isas(hsa_agent_t agent, hsa_status_t (*callback)(hsa_isa_t, void *), void *data) {
  if (!isGpu(agent)) return isAgent(agent) ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_AGENT;
  hsa_status_t status = callback(hsa_isa_t{agent.handle}, data);
  return status == HSA_STATUS_INFO_BREAK ? HSA_STATUS_SUCCESS : status;
}

hsa_status_t hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void *value) {
  if (!isGpu(hsa_agent_t{isa.handle})) return HSA_STATUS_ERROR_INVALID_ISA;
  const std::string name = "amdgcn-amd-amdhsa--" + state().gfx;
  if (attribute == HSA_ISA_INFO_NAME_LENGTH) return put<uint32_t>(value, static_cast<uint32_t>(name.size() + 1));
  if (attribute == HSA_ISA_INFO_NAME) {
    std::memcpy(value, name.c_str(), name.size() + 1);
    return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_amd_agent_iterate_memory_pools(hsa_agent_t agent,
                                                hsa_status_t (*callback)(hsa_amd_memory_pool_t, void *), void *data) {
  if (!isAgent(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  const std::vector<uint64_t> kinds =
      isGpu(agent) ? std::vector<uint64_t>{kDevicePool, kGroupPool} : std::vector<uint64_t>{kSystemPool};
  for (uint64_t kind : kinds) {
    hsa_status_t status = callback(hsa_amd_memory_pool_t{agent.handle * 16 + kind}, data);
    if (status == HSA_STATUS_INFO_BREAK) return HSA_STATUS_SUCCESS;
    if (status != HSA_STATUS_SUCCESS) return status;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t pool, hsa_amd_memory_pool_info_t attribute,
                                          void *value) {
  const uint64_t kind = pool.handle % 16;
  if (!isAgent(hsa_agent_t{pool.handle / 16}) || kind < kSystemPool || kind > kGroupPool)
    return static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  switch (attribute) {
  case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
    return put(value, kind == kGroupPool ? HSA_AMD_SEGMENT_GROUP : HSA_AMD_SEGMENT_GLOBAL);
  case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
    return put<uint32_t>(value, kind == kSystemPool ? HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT |
                                                          HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED
                                : kind == kDevicePool ? HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED
                                                      : 0);
  case HSA_AMD_MEMORY_POOL_INFO_SIZE: return put<size_t>(value, kind == kGroupPool ? kGroupBytes : kDeviceBytes);
  case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED: return put<bool>(value, kind != kGroupPool);
  case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:
  case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT: return put<size_t>(value, kPoolAlignment);
  case HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE: return put<size_t>(value, kind == kGroupPool ? 0 : kDeviceBytes);
  default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

hsa_status_t hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t pool, size_t size, uint32_t, void **pointer) {
  const uint64_t kind = pool.handle % 16;
  if (!isAgent(hsa_agent_t{pool.handle / 16}) || (kind != kSystemPool && kind != kDevicePool))
    return static_cast<hsa_status_t>(HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  if (size == 0 || !pointer) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (size > kDeviceBytes) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  void *memory = std::aligned_alloc(kPoolAlignment, (size + kPoolAlignment - 1) / kPoolAlignment * kPoolAlignment);
  if (!memory) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  std::lock_guard<std::mutex> lock(state().mutex);
  state().allocations[reinterpret_cast<uintptr_t>(memory)] = size;
  *pointer = memory;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_pool_free(void *pointer) {
  std::lock_guard<std::mutex> lock(state().mutex);
  if (!state().allocations.erase(reinterpret_cast<uintptr_t>(pointer))) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::free(pointer);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_agents_allow_access(uint32_t count, const hsa_agent_t *agents, const uint32_t *,
                                         const void *pointer) {
  for (uint32_t i = 0; i < count; ++i)
    if (!isAgent(agents[i])) return HSA_STATUS_ERROR_INVALID_AGENT;
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().allocations.count(reinterpret_cast<uintptr_t>(pointer)) ? HSA_STATUS_SUCCESS
                                                                         : HSA_STATUS_ERROR_INVALID_ALLOCATION;
}

hsa_status_t hsa_memory_copy(void *destination, const void *source, size_t size) {
  if (size && (!destination || !source)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  std::memmove(destination, source, size);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_fill(void *pointer, uint32_t value, size_t count) {
  if (!pointer || reinterpret_cast<uintptr_t>(pointer) % 4 != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto *words = static_cast<uint32_t *>(pointer);
  for (size_t i = 0; i < count; ++i) words[i] = value;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_create(hsa_signal_value_t initial, uint32_t, const hsa_agent_t *, hsa_signal_t *signal) {
  auto *created = new Signal;
  created->value.store(initial);
  signal->handle = reinterpret_cast<uint64_t>(created);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_destroy(hsa_signal_t signal) {
  if (!signal.handle) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  delete reinterpret_cast<Signal *>(signal.handle);
  return HSA_STATUS_SUCCESS;
}

void hsa_signal_store_relaxed(hsa_signal_t signal, hsa_signal_value_t value) {
  auto *s = reinterpret_cast<Signal *>(signal.handle);
  if (!s->doorbellOf) signalSet(*s, value);
  pumpQueues();
}

void hsa_signal_store_screlease(hsa_signal_t signal, hsa_signal_value_t value) {
  std::atomic_thread_fence(std::memory_order_release);
  hsa_signal_store_relaxed(signal, value);
}

hsa_signal_value_t hsa_signal_load_scacquire(hsa_signal_t signal) {
  return reinterpret_cast<Signal *>(signal.handle)->value.load();
}

hsa_signal_value_t hsa_signal_wait_scacquire(hsa_signal_t signal, hsa_signal_condition_t condition,
                                             hsa_signal_value_t compare, uint64_t timeoutNs, hsa_wait_state_t) {
  auto *s = reinterpret_cast<Signal *>(signal.handle);
  auto satisfied = [&] {
    const hsa_signal_value_t value = s->value.load();
    switch (condition) {
    case HSA_SIGNAL_CONDITION_EQ: return value == compare;
    case HSA_SIGNAL_CONDITION_NE: return value != compare;
    case HSA_SIGNAL_CONDITION_LT: return value < compare;
    case HSA_SIGNAL_CONDITION_GTE: return value >= compare;
    }
    return true;
  };
  std::unique_lock<std::mutex> lock(s->mutex);
  s->changed.wait_for(lock, std::chrono::nanoseconds(std::min<uint64_t>(timeoutNs, 1'000'000'000)), satisfied);
  return s->value.load();
}

hsa_status_t hsa_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                              void (*callback)(hsa_status_t, hsa_queue_t *, void *), void *data, uint32_t, uint32_t,
                              hsa_queue_t **queue) {
  if (!isGpu(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (size == 0 || (size & (size - 1)) || size > 131072 || !queue) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto *q = new Queue;
  q->queue.type = type;
  q->queue.size = size;
  q->queue.base_address = std::aligned_alloc(64, size_t(size) * 64);
  auto *packets = static_cast<hsa_kernel_dispatch_packet_t *>(q->queue.base_address);
  for (uint32_t i = 0; i < size; ++i) {
    std::memset(&packets[i], 0, sizeof packets[i]);
    packets[i].header = HSA_PACKET_TYPE_INVALID;
  }
  q->doorbell.doorbellOf = q;
  q->queue.doorbell_signal.handle = reinterpret_cast<uint64_t>(&q->doorbell);
  q->callback = callback;
  q->data = data;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    q->ordinal = queuesCreated++;
    queues().push_back(q);
  }
  *queue = &q->queue;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_queue_destroy(hsa_queue_t *queue) {
  auto *q = reinterpret_cast<Queue *>(queue);
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    auto &list = queues();
    list.erase(std::remove(list.begin(), list.end(), q), list.end());
  }
  std::free(q->queue.base_address);
  delete q;
  return HSA_STATUS_SUCCESS;
}

uint64_t hsa_queue_add_write_index_scacq_screl(const hsa_queue_t *queue, uint64_t value) {
  return reinterpret_cast<Queue *>(const_cast<hsa_queue_t *>(queue))->write.fetch_add(value);
}

uint64_t hsa_queue_load_read_index_scacquire(const hsa_queue_t *queue) {
  return reinterpret_cast<Queue *>(const_cast<hsa_queue_t *>(queue))->read.load();
}

hsa_status_t hsa_code_object_reader_create_from_memory(const void *code, size_t size,
                                                       hsa_code_object_reader_t *reader) {
  if (!code || !reader) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto created = std::make_unique<Reader>();
  if (hsa_status_t status = readCodeObject(static_cast<const unsigned char *>(code), size, *created);
      status != HSA_STATUS_SUCCESS)
    return status;
  reader->handle = reinterpret_cast<uint64_t>(created.release());
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_code_object_reader_destroy(hsa_code_object_reader_t reader) {
  delete reinterpret_cast<Reader *>(reader.handle);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_create_alt(hsa_profile_t, hsa_default_float_rounding_mode_t, const char *,
                                       hsa_executable_t *executable) {
  executable->handle = reinterpret_cast<uint64_t>(new Executable);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                                   hsa_code_object_reader_t reader, const char *,
                                                   hsa_loaded_code_object_t *) {
  auto *exe = reinterpret_cast<Executable *>(executable.handle);
  auto *read = reinterpret_cast<Reader *>(reader.handle);
  if (!exe) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (!read) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  if (exe->frozen) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  if (!isGpu(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (const uint32_t mach = machOf(state().gfx); mach && read->mach != mach) return HSA_STATUS_ERROR_INVALID_ISA;
  std::lock_guard<std::mutex> lock(state().mutex);
  for (const auto &[name, kd] : read->kernels) {
    // The kernel object: the descriptor "in device memory" (64 bytes, 64-aligned).
    void *object = std::aligned_alloc(64, 64);
    std::memset(object, 0, 64);
    std::memcpy(object, &kd.groupBytes, 4);
    std::memcpy(static_cast<char *>(object) + 4, &kd.privateBytes, 4);
    std::memcpy(static_cast<char *>(object) + 8, &kd.kernargBytes, 4);
    const auto address = reinterpret_cast<uint64_t>(object);
    exe->symbols[name] = address;
    state().kernelObjects[address] = kd;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_destroy(hsa_executable_t executable) {
  auto *exe = reinterpret_cast<Executable *>(executable.handle);
  if (!exe) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  std::lock_guard<std::mutex> lock(state().mutex);
  for (const auto &[name, object] : exe->symbols) {
    state().kernelObjects.erase(object);
    std::free(reinterpret_cast<void *>(object));
  }
  delete exe;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_freeze(hsa_executable_t executable, const char *) {
  auto *exe = reinterpret_cast<Executable *>(executable.handle);
  if (!exe) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (exe->frozen) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  exe->frozen = true;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_get_symbol_by_name(hsa_executable_t executable, const char *name, const hsa_agent_t *agent,
                                               hsa_executable_symbol_t *symbol) {
  auto *exe = reinterpret_cast<Executable *>(executable.handle);
  if (!exe) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (!agent || !isGpu(*agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  auto found = exe->symbols.find(name);
  if (found == exe->symbols.end()) return HSA_STATUS_ERROR_INVALID_SYMBOL_NAME;
  symbol->handle = found->second;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_executable_symbol_get_info(hsa_executable_symbol_t symbol, hsa_executable_symbol_info_t attribute,
                                            void *value) {
  KernelDescriptor kd;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    auto found = state().kernelObjects.find(symbol.handle);
    if (found == state().kernelObjects.end()) return HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL;
    kd = found->second;
  }
  switch (attribute) {
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT: return put<uint64_t>(value, symbol.handle);
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE: return put<uint32_t>(value, kd.kernargBytes);
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE: return put<uint32_t>(value, kd.groupBytes);
  case HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE: return put<uint32_t>(value, kd.privateBytes);
  default: return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}

}  // extern "C"
