// Buffers in the core (runtime-spec.md): one fixed allocation per physical
// device, made on first use there, state tracked per page (DataRegion),
// dependencies from conflicting accesses (AccessTracker), transfers as nodes
// of the task graph. What a command group's accessors turn into when it is
// submitted: for each access, an allocation on the device that runs the
// command (made lazily, never moved), dependencies on the conflicting earlier
// commands, and transfer nodes for the outdated pages. The SYCL layer's
// buffer_impl is a Buffer; its buffer_access becomes a BufferAccess.
#pragma once

#include "Device.h"
#include "Node.h"
#include "SmallVector.h"
#include "buffer/AccessTracker.h"
#include "buffer/DataRegion.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace onepass::rt {

struct Buffer {
  struct Allocation {
    std::shared_ptr<Device> device;  // null: the host (also the CPU device's memory)
    char *data = nullptr;
    bool owned = true;
  };
  enum class Final { none, pointer, writer };

  Buffer(std::array<std::size_t, 3> extent, std::size_t elementBytes, std::array<std::size_t, 3> pageExtent)
      : elementBytes(elementBytes), bytes(extent[0] * extent[1] * extent[2] * elementBytes), extent(extent),
        region(extent, elementBytes, pageExtent) {}
  virtual ~Buffer() = default;

  std::size_t elementBytes = 1;
  std::size_t bytes = 0;
  std::array<std::size_t, 3> extent{1, 1, 1};
  std::uint64_t id = 0;
  std::uintptr_t token = 0;
  DataRegion region;
  AccessTracker<std::shared_ptr<Node>> tracker;
  std::vector<Allocation> allocations;  // [0] is the host's; indices are the region's
  // property::buffer::context_bound: the devices of the bound context, the
  // only ones the buffer may be used on (empty: any). Contexts of the same
  // devices share their memory in OnePass, so the context object itself
  // does not matter.
  std::vector<const Device *> boundDevices;

  Final final = Final::none;
  void *finalData = nullptr;
  std::mutex *userMutex = nullptr;  // use_mutex: held while the runtime writes the user's memory
  std::function<void(const void *)> finalWriter;
  bool writeBack = true;
  bool forcedWriteBack = false;  // set_write_back(true): even if nothing wrote
  bool written = false;          // some access wrote: §3.8.1, only modified data goes back
  std::shared_ptr<void> keepAlive;
  // An image's storage: the image's shape, format and sampler, for the
  // backends that read images on texture hardware (image_texture).
  std::unique_ptr<onepass_backend_image> imageDescription;
};

// One accessor's requirement on a buffer (an "access" of the task graph).
struct BufferAccess {
  Buffer *buffer = nullptr;
  bool writes = false;
  bool noInit = false;
  bool onHost = false;  // a host task's access: the host's copy
  int dimensions = 1;
  std::size_t offset[3] = {0, 0, 0};  // the accessed box, in elements (SYCL's order)
  std::size_t range[3] = {1, 1, 1};   // range[0] == ~0: the whole storage (a reinterpreted view)
};
// A command group's accesses (most have one to three).
using BufferAccessList = SmallVector<BufferAccess, 4>;

// Tokens: 0xF in the top four bits (never a user-space address), a buffer id,
// and a byte offset into the buffer.
constexpr unsigned kTokenOffsetBits = 40;
inline bool isAccessorToken(std::uintptr_t value) { return (value >> 60) == 0xF; }

// Sets up a new buffer: its id and token, its host allocation (the user's
// `hostStorage`, or made when first needed), a copy of `initialData`. Raises
// Errc::memory_allocation (too many buffers, no memory).
void registerBuffer(Buffer &buffer, void *hostStorage, const void *initialData);
// The buffer's end (SYCL 2020 §4.7.2.3): waits for every command on it,
// writes the data back where asked, frees the allocations, deletes it.
void destroyBuffer(Buffer *buffer);

// What happens to the data at destruction; changed under the graph's lock.
void setFinalData(Buffer &buffer, void *destination);  // nullptr: no write-back
void setFinalWriter(Buffer &buffer, std::function<void(const void *)> writer);
void setWriteBack(Buffer &buffer, bool enabled);
// The host's copy of the data (allocated on first use; never moves).
void *hostData(Buffer &buffer);

// Where each accessed buffer's data lies on the device that runs a command:
// the addresses that replace the accessors' tokens in the kernel object.
class AccessAddresses {
public:
  void add(const Buffer &buffer, char *data) { entries_.push_back({buffer.token, data, &buffer}); }
  // The address for a token into `address`; false if the token belongs to no
  // access of the command group (an accessor that was never bound to it).
  // (A zero-sized buffer's address is null.) `buffer`, if given, is the
  // token's buffer.
  bool resolve(std::uintptr_t token, void *&address, const Buffer **buffer = nullptr) const;

private:
  struct Entry {
    std::uintptr_t tokenBase;
    char *data;
    const Buffer *buffer;
  };
  SmallVector<Entry, 4> entries_;
};

// Phase 1 of a submission, before anything is recorded: allocates the data of
// every access on `device` (nullptr: the host) and checks the accesses.
// Raises Error; changes nothing a later command could see. A buffer bound to
// devices (Buffer::boundDevices) used on another is an Errc::invalid error.
AccessAddresses allocateAccesses(const BufferAccessList &accesses, const std::shared_ptr<Device> &device);

// Phase 2: records the accesses as made by the command of `node` and adds to
// its dependencies the conflicting commands and the transfers that bring the
// accessed pages up to date. Transfer failures go to `errors`. Returns what
// the command must do after its own work (use_mutex write-through).
std::vector<std::function<void()>> enterAccesses(const BufferAccessList &accesses,
                                                 const std::shared_ptr<Device> &device,
                                                 const std::shared_ptr<Node> &node,
                                                 const std::shared_ptr<ErrorSink> &errors);

// A host accessor (SYCL 2020 §4.7.6.9): the host's copy of the data, up to
// date, held for the host until `hold` is released (its last copy destroyed);
// `release` is the node that stands for the hold in the graph. Raises
// Errc::invalid if this thread holds a conflicting host accessor (a deadlock),
// and rethrows the first failure of the transfers it waited for.
struct HostAccess {
  void *data = nullptr;
  std::shared_ptr<void> hold;
};
HostAccess acquireHost(const BufferAccess &access, std::shared_ptr<Node> release);

}  // namespace onepass::rt
