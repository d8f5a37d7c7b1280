// Unified shared memory (SYCL 2020 §4.8): allocations through the device's
// backend, tracked so that frees and pointer queries can be checked.
#include "Errors.h"
#include "Runtime.h"

#include <map>

using namespace onepass;

namespace {

struct Allocation {
  uint64_t bytes;
  sycl::detail::usm_kind kind;
  std::shared_ptr<sycl::detail::device_impl> device;
  std::weak_ptr<sycl::detail::context_impl> context;  // weak: a dead context's address may be reused

  bool belongsTo(const sycl::detail::context_impl &ctx) const { return context.lock().get() == &ctx; }
};

struct AllocationTable {
  std::mutex mutex;
  std::map<uintptr_t, Allocation> byAddress;

  // The allocation containing `pointer`, or end().
  std::map<uintptr_t, Allocation>::iterator find(const void *pointer) {
    auto address = reinterpret_cast<uintptr_t>(pointer);
    auto it = byAddress.upper_bound(address);
    if (it == byAddress.begin()) return byAddress.end();
    --it;
    return address < it->first + it->second.bytes ? it : byAddress.end();
  }
};

AllocationTable &table() {
  static auto *instance = new AllocationTable;
  return *instance;
}

uint32_t backendKind(sycl::detail::usm_kind kind) {
  switch (kind) {
  case sycl::detail::usm_kind::host: return ONEPASS_USM_HOST;
  case sycl::detail::usm_kind::shared: return ONEPASS_USM_SHARED;
  default: return ONEPASS_USM_DEVICE;
  }
}

}  // namespace

namespace sycl::detail {

void *usm_allocate(std::size_t bytes, std::size_t alignment, usm_kind kind, const std::shared_ptr<device_impl> &dev,
                   const std::shared_ptr<context_impl> &ctx) {
  if (bytes == 0) return nullptr;
  void *pointer = dev->backend->allocate(dev->index, bytes, alignment, backendKind(kind));
  if (!pointer) return nullptr;  // SYCL 2020 §4.8.3: failure returns nullptr
  AllocationTable &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.byAddress[reinterpret_cast<uintptr_t>(pointer)] = Allocation{bytes, kind, dev, ctx};
  return pointer;
}

void usm_free(void *pointer, const context_impl &ctx) {
  if (!pointer) return;
  AllocationTable &t = table();
  std::unique_lock<std::mutex> lock(t.mutex);
  auto it = t.byAddress.find(reinterpret_cast<uintptr_t>(pointer));
  if (it == t.byAddress.end())
    rt::raise(errc::invalid, "sycl::free: the pointer was not returned by a SYCL USM allocation "
                             "function, or it was already freed");
  if (!it->second.belongsTo(ctx)) rt::raise(errc::invalid, "sycl::free: the pointer was allocated in another context");
  Allocation allocation = it->second;
  t.byAddress.erase(it);
  lock.unlock();
  allocation.device->backend->deallocate(allocation.device->index, pointer, backendKind(allocation.kind));
}

// SYCL 2020 §4.8.4: a pointer of another context is `unknown` to this one.
usm_kind usm_pointer_kind(const void *pointer, const context_impl &ctx) {
  AllocationTable &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.find(pointer);
  return it == t.byAddress.end() || !it->second.belongsTo(ctx) ? usm_kind::unknown : it->second.kind;
}

std::shared_ptr<device_impl> usm_pointer_device(const void *pointer, const context_impl &ctx) {
  AllocationTable &t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.find(pointer);
  return it == t.byAddress.end() || !it->second.belongsTo(ctx) ? nullptr : it->second.device;
}

}  // namespace sycl::detail
