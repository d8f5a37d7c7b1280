// Unified shared memory in the core: allocations through a device's backend,
// tracked by address so that frees and pointer queries can be checked. An
// allocation belongs to an owner (the SYCL layer's context), held weakly: a
// dead owner's address may be reused by a new one.
#pragma once

#include "Device.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace onepass::rt {

struct UsmAllocation {
  uint64_t bytes = 0;
  uint32_t kind = ONEPASS_USM_DEVICE;  // ONEPASS_USM_DEVICE, _HOST or _SHARED (BackendInterface.h)
  std::shared_ptr<Device> device;
  std::weak_ptr<const void> owner;
};

// Allocates `bytes` of `kind` memory on `device` for `owner`; null if the
// backend cannot (or `bytes` is 0).
void *usmAllocate(const std::shared_ptr<Device> &device, uint64_t bytes, uint64_t alignment, uint32_t kind,
                  std::weak_ptr<const void> owner);
// Frees an allocation of `owner`; raises Errc::invalid naming the problem if
// `pointer` is not the start of one (unknown, already freed, another owner's).
// `what` names the caller in the message ("sycl::free").
void usmFree(void *pointer, const void *owner, const char *what);
// The allocation of `owner` that contains `pointer`, if any.
std::optional<UsmAllocation> usmFind(const void *pointer, const void *owner);

}  // namespace onepass::rt
