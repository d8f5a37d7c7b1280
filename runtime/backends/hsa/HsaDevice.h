// What the HSA backend keeps per GPU agent, shared by its device and memory
// part (HsaBackend.cpp) and its kernel part (HsaKernels.cpp).
#pragma once

#include "HsaApi.h"

#include "BackendInterface.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace onepass::hsa {

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
int kernelLimits(uint32_t device, void *kernel, onepass_kernel_limits *limits, char **error);

}  // namespace onepass::hsa
