// What the HSA backend keeps per GPU agent, shared by its device and memory
// part (HsaBackend.cpp) and its kernel part (HsaKernels.cpp).
#pragma once

#include "HsaApi.h"

#include "BackendInterface.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace onepass::hsa {

// The runtime's streams (HsaStreams.cpp): an HSA queue each, every packet
// with the barrier bit (so a queue runs in order), and a kernarg slot per
// packet of the queue.
constexpr uint32_t kStreams = 4;
constexpr uint32_t kStreamQueueSize = 256;    // packets (a power of two)
constexpr uint64_t kKernargSlotBytes = 4096;  // larger kernarg segments launch synchronously

struct Stream {
  std::mutex mutex;  // one packet written at a time
  hsa_queue_t *queue = nullptr;
  char *kernargs = nullptr;  // kStreamQueueSize slots of kKernargSlotBytes
  // Markers seen complete: packet index -> the host's clock then (mutex).
  std::map<uint64_t, uint64_t> seen;
  uint64_t finished = 0;  // the packets before this index are known done (finishStream)
};

struct Marker;

struct Device {
  hsa_agent_t agent{};
  std::string agentName;  // "gfx90a"
  uint32_t arch = 0;      // 0x90a: the gfx number's digits read as hex
  std::string identity;
  std::string deviceLibrary, deviceLibraryMissing;
  onepass_backend_device_info info{};
  // Device USM: the agent's coarse-grained global pool; host and shared
  // USM: the system's fine-grained pool (a CPU agent's), made accessible to
  // the agent; kernel arguments: the system's kernarg pool.
  hsa_amd_memory_pool_t devicePool{}, hostPool{}, kernargPool{};
  uint64_t hostPoolAlignment = 4096, devicePoolAlignment = 4096;

  // Launches: one queue, one completion signal and one kernarg buffer, used
  // by one launch at a time (launchMutex).
  std::mutex launchMutex;
  hsa_queue_t *queue = nullptr;
  hsa_signal_t completion{};
  void *kernarg = nullptr;
  uint64_t kernargBytes = 0;
  // A queue error (a fault while a kernel ran), from the queue's callback.
  std::atomic<hsa_status_t> queueError{HSA_STATUS_SUCCESS};

  Stream streams[kStreams];
  // Markers' completion signals: idle ones, and released markers whose
  // signal a barrier packet of another stream may still read (markersMutex).
  std::mutex markersMutex;
  std::vector<hsa_signal_t> idleSignals;
  std::vector<Marker *> quarantine;
};

extern std::vector<std::unique_ptr<Device>> &devices;

inline Device *deviceAt(uint32_t device) { return device < devices.size() ? devices[device].get() : nullptr; }

// Memory from a pool at `alignment` (a power of two); the pool's own
// alignment or a larger allocation whose start is remembered.
void *allocateFromPool(hsa_amd_memory_pool_t pool, uint64_t poolAlignment, uint64_t bytes, uint64_t alignment,
                       std::string &error);
void freeToPool(void *pointer);

// The kernel part (HsaKernels.cpp).
int loadKernel(uint32_t device, const void *binary, uint64_t size, void **kernel, char **error);
int launchKernel(uint32_t device, const onepass_backend_launch *launch, char **error);
int launchAsync(uint32_t device, uint32_t stream, const onepass_backend_launch *launch, char **error);

// The streams (HsaStreams.cpp).
void onQueueError(hsa_status_t status, hsa_queue_t *, void *data);
// The synchronous fill (HsaBackend.cpp).
int fill(uint32_t device, void *destination, const void *pattern, uint32_t patternBytes, uint64_t count, char **error);
// Makes the device's streams; false with `error` if it cannot.
bool createStreams(Device &d, uint32_t queueSize, std::string &error);
// A packet slot of the stream's queue (its index), once the queue has room;
// false with `error` if the device stopped. (Stream mutex held.)
bool reservePacket(Device &d, Stream &stream, uint64_t &index, std::string &error);
// Hands the packet at `index` to the packet processor: its header, written
// last, and the doorbell. (Stream mutex held.)
void submitPacket(hsa_queue_t *queue, uint64_t index, uint16_t header, uint16_t setup);
// "'<agent>' stopped after an earlier kernel failed: <the queue's error>".
std::string stoppedMessage(const Device &d);
// A completion signal is waited for this long at a time, checking for a
// queue error in between (a faulting kernel never signals).
constexpr uint64_t kWaitSliceNs = 100'000'000;
// The header of a packet that runs after the packets before it, with
// system-scope fences.
uint16_t orderedHeader(hsa_packet_type_t type);
// Blocks until everything enqueued on the stream so far is done.
int finishStream(Device &d, uint32_t stream, char **error);
void fillStreamTable(onepass_backend &table);
int kernelLimits(uint32_t device, void *kernel, onepass_kernel_limits *limits, char **error);

}  // namespace onepass::hsa
