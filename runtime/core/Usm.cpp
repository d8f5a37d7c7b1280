// USM allocations of the core (Usm.h).
#include "Usm.h"

#include "Device.h"
#include "Error.h"
#include "StreamTracker.h"

#include <map>
#include <mutex>

namespace onepass::rt {

namespace {

struct AllocationTable {
  std::mutex mutex;
  std::map<uintptr_t, UsmAllocation> byAddress;

  // The allocation containing `pointer`, or end().
  std::map<uintptr_t, UsmAllocation>::iterator find(const void *pointer) {
    auto address = reinterpret_cast<uintptr_t>(pointer);
    auto it = byAddress.upper_bound(address);
    if (it == byAddress.begin()) return byAddress.end();
    --it;
    return address < it->first + it->second.bytes ? it : byAddress.end();
  }
};

AllocationTable &table() {
  static auto *instance = new AllocationTable;  // never destroyed: frees may come during static destruction
  return *instance;
}

bool ownedBy(const UsmAllocation &allocation, const void *owner) { return allocation.owner.lock().get() == owner; }

}  // namespace

void *usmAllocate(const std::shared_ptr<Device> &device, uint64_t bytes, uint64_t alignment, uint32_t kind,
                  std::weak_ptr<const void> owner) {
  if (bytes == 0) return nullptr;
  void *pointer = device->backend->allocate(device->index, bytes, alignment, kind);
  if (!pointer) return nullptr;
  AllocationTable &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.byAddress[reinterpret_cast<uintptr_t>(pointer)] = UsmAllocation{bytes, kind, device, std::move(owner)};
  return pointer;
}

void usmFree(void *pointer, const void *owner, const char *what) {
  if (!pointer) return;
  AllocationTable &t = table();
  std::unique_lock<std::mutex> lock(t.mutex);
  auto it = t.byAddress.find(reinterpret_cast<uintptr_t>(pointer));
  if (it == t.byAddress.end())
    raise(Errc::invalid, std::string(what) + ": the pointer was not returned by a SYCL USM allocation "
                                             "function, or it was already freed");
  if (!ownedBy(it->second, owner))
    raise(Errc::invalid, std::string(what) + ": the pointer was allocated in another context");
  UsmAllocation allocation = std::move(it->second);
  t.byAddress.erase(it);
  lock.unlock();
  // Commands already submitted reach the driver first, as under CUDA, where
  // freeing waits for the work on the device: code that frees memory its
  // last kernels still use without waiting for them (against §4.8.3.6, but
  // common) then runs instead of faulting.
  if (StreamTracker *streams = allocation.device->streams()) streams->flush();
  allocation.device->backend->deallocate(allocation.device->index, pointer, allocation.kind);
}

std::optional<UsmAllocation> usmFind(const void *pointer, const void *owner) {
  AllocationTable &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.find(pointer);
  if (it == t.byAddress.end() || !ownedBy(it->second, owner)) return std::nullopt;
  return it->second;
}

}  // namespace onepass::rt
