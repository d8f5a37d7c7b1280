// Buffers in the core (Buffer.h).
#include "buffer/Buffer.h"

#include "CpuBackend.h"
#include "Error.h"
#include "Log.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>

namespace onepass::rt {

namespace {

// All buffers' states and trackers change under one lock: a command group's
// accesses of several buffers enter the graph at once, and submissions from
// many threads see a consistent order.
std::mutex &graphMutex() {
  static std::mutex mutex;
  return mutex;
}

// Buffer ids for tokens: 20 bits, reused only once their buffer is gone.
constexpr std::uint64_t kIdCount = 1u << 20;
std::set<std::uint64_t> &liveIds() {
  static std::set<std::uint64_t> ids;
  return ids;
}
std::uint64_t takeId() {
  static std::uint64_t next = 1;
  auto &live = liveIds();
  if (live.size() >= kIdCount - 1) raise(Errc::memory_allocation, "too many live buffers (over a million)");
  while (live.count(next) || next == 0) next = (next + 1) % kIdCount;
  live.insert(next);
  return next;
}

bool isHostMemory(const std::shared_ptr<Device> &device) { return !device || device->backend == &cpuBackend(); }

// A zero-sized buffer has no data: its allocations are null (never accessed).
char *allocateHost(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void *data = cpuBackend().allocate(0, bytes, 64, ONEPASS_USM_HOST);
  if (!data)
    raise(Errc::memory_allocation, "cannot allocate " + std::to_string(bytes) + " bytes of host memory for a buffer");
  return static_cast<char *>(data);
}

// The allocation of `buffer` that serves `device`, made now if it is the first use there.
unsigned allocationFor(Buffer &buffer, const std::shared_ptr<Device> &device) {
  if (isHostMemory(device)) {
    if (!buffer.allocations[0].data) buffer.allocations[0].data = allocateHost(buffer.bytes);
    return 0;
  }
  if (buffer.bytes == 0) return 0;
  for (unsigned i = 1; i < buffer.allocations.size(); ++i)
    if (buffer.allocations[i].device == device) return i;
  // An image's texels start where a texture can read them in place (CUDA:
  // the device's texture alignment, 512 bytes on current GPUs).
  const uint64_t alignment = buffer.imageDescription ? 512 : 256;
  void *data = device->backend->allocate(device->index, buffer.bytes, alignment, ONEPASS_USM_DEVICE);
  if (!data)
    raise(Errc::memory_allocation,
          "cannot allocate " + std::to_string(buffer.bytes) + " bytes for a buffer on device '" + device->name + "'");
  buffer.allocations.push_back({device, static_cast<char *>(data), true});
  unsigned index = buffer.region.addAllocation();
  return index;
}

Box3 accessedElements(const Buffer &buffer, const BufferAccess &access) {
  Box3 box;
  if (access.range[0] == ~std::size_t(0)) {  // a reinterpreted view: the whole storage
    box.end = buffer.extent;
    return box;
  }
  box.begin = toExtent3(access.dimensions, access.offset, 0);
  std::array<std::size_t, 3> range = toExtent3(access.dimensions, access.range, 1);
  for (int d = 0; d < 3; ++d) {
    box.end[d] = box.begin[d] + range[d];
    if (box.end[d] > buffer.extent[d] || box.end[d] < box.begin[d])
      raise(Errc::invalid, "accessor: the accessed range exceeds the buffer");
  }
  return box;
}

// The elements an access covers and the pages they touch, computed once per
// access of a submission.
struct AccessBox {
  Box3 elements;
  Box3 pages;
};
AccessBox accessBox(const Buffer &buffer, const BufferAccess &access) {
  Box3 elements = accessedElements(buffer, access);
  return {elements, buffer.region.pageRange(elements)};
}

// Copies spans between two allocations of one buffer, on the device that is not the host.
void copySpans(const Buffer::Allocation &source, const Buffer::Allocation &target, const std::vector<ByteSpan> &spans) {
  const std::shared_ptr<Device> &device = target.device ? target.device : source.device;
  for (const ByteSpan &span : spans) {
    if (!device) {
      std::memcpy(target.data + span.offsetBytes, source.data + span.offsetBytes, span.sizeBytes);
      continue;
    }
    char *error = nullptr;
    if (device->backend->copy(device->index, target.data + span.offsetBytes, source.data + span.offsetBytes,
                              span.sizeBytes, &error) != 0)
      raiseBackendError(Errc::runtime,
                        "buffer transfer of " + std::to_string(span.sizeBytes) + " bytes on device '" + device->name +
                            "' failed",
                        error);
  }
}

// Adds to `event` the dependencies of one access, with transfer nodes for its
// outdated pages, and updates the page states. Caller holds graphMutex().
void enterAccess(Buffer &buffer, const BufferAccess &access, const AccessBox &box,
                 const std::shared_ptr<Device> &device, Node &event, const std::shared_ptr<ErrorSink> &errors) {
  unsigned target = allocationFor(buffer, access.onHost ? nullptr : device);
  const Box3 &pages = box.pages;
  bool writes = access.writes;
  buffer.tracker.appendConflicts(pages, writes, event.dependencies);
  // no_init skips transfers only where it covers whole pages: the rest of a
  // partly covered page keeps its data (it is written back as a whole page).
  bool coversPages = buffer.region.pageElements(pages) == box.elements;
  if (!access.noInit || !coversPages) {
    for (const TransferPlan &plan : buffer.region.planTransfers(target, pages, 0)) {
      auto transfer = std::make_shared<Node>();
      transfer->errors = errors;
      buffer.tracker.appendConflicts(pages, false, transfer->dependencies);
      Buffer::Allocation source = buffer.allocations[plan.source], destination = buffer.allocations[target];
      std::vector<ByteSpan> spans = plan.spans;
      const std::shared_ptr<Device> &runner = destination.device ? destination.device : source.device;
      Executor &executor = runner ? runner->getExecutor() : hostExecutor();
      ONEPASS_LOG(Debug, "buffer " << buffer.id << ": " << spans.size() << " transfer(s) from allocation "
                                   << plan.source << " to " << target);
      executor.submit(transfer, [source, destination, spans] { copySpans(source, destination, spans); });
      event.dependencies.push_back(transfer);
    }
    buffer.region.markTransferred(target, pages);
  }
  if (writes) {
    buffer.region.markWritten(target, pages);
    buffer.written = true;
  }
}

// Accesses of complete commands are forgotten once a buffer has more than
// kTrackedAccesses (nothing waits for them; until then get_wait_list() shows
// them, §4.6.6 leaves that to the implementation). A buffer read by kernel
// after kernel scans at most that many at each submission: with 32 the scans
// and the sweeps of BabelStream's read-only arrays showed in its profile.
constexpr std::size_t kTrackedAccesses = 8;
void recordAccess(Buffer &buffer, const BufferAccess &access, const AccessBox &box,
                  const std::shared_ptr<Node> &event) {
  if (buffer.tracker.size() > kTrackedAccesses)
    buffer.tracker.forget([](const std::shared_ptr<Node> &e) { return e->complete.load(std::memory_order_acquire); });
  buffer.tracker.record(box.pages, access.writes, event);
}

// use_mutex (SYCL 2020 §4.7.2.2): the user's memory reflects the buffer
// whenever the runtime does not hold the mutex. It is the host's copy; a write
// on a device is copied back to it, under the mutex, as the end of the command
// itself (so waiting for the command includes it).
std::function<void()> writeThrough(Buffer &buffer, const BufferAccess &access, const AccessBox &box,
                                   const std::shared_ptr<Device> &device) {
  if (!buffer.userMutex || !access.writes || access.onHost || isHostMemory(device)) return {};
  unsigned target = allocationFor(buffer, device);
  allocationFor(buffer, nullptr);
  const Box3 &pages = box.pages;
  std::vector<TransferPlan> plans = buffer.region.planTransfers(0, pages, target);
  buffer.region.markTransferred(0, pages);
  if (plans.empty()) return {};
  std::vector<std::pair<Buffer::Allocation, std::vector<ByteSpan>>> copies;
  for (const TransferPlan &plan : plans) copies.push_back({buffer.allocations[plan.source], plan.spans});
  Buffer::Allocation host = buffer.allocations[0];
  std::mutex *userMutex = buffer.userMutex;
  return [copies, host, userMutex] {
    std::lock_guard<std::mutex> lock(*userMutex);
    for (const auto &copy : copies) copySpans(copy.first, host, copy.second);
  };
}

void checkAccess(const BufferAccess &access) {
  if (!access.buffer)
    raise(Errc::invalid, "an accessor without a buffer (default-constructed) was used in a command group");
}

// The buffer's destructor (SYCL 2020 §4.7.2.3): waits for every command on
// it, writes the data back where asked, frees the allocations.
void destroy(Buffer *buffer) {
  std::vector<std::shared_ptr<Node>> pending;
  {
    std::lock_guard<std::mutex> lock(graphMutex());
    pending = buffer->tracker.nodes();
  }
  for (const auto &event : pending) event->wait();

  if (buffer->writeBack && (buffer->written || buffer->forcedWriteBack) && buffer->final != Buffer::Final::none) {
    try {
      Box3 whole = buffer->region.wholePageRange();
      std::vector<TransferPlan> plans = buffer->region.planTransfers(0, whole, 0);
      if (!plans.empty() || buffer->allocations[0].data) {
        std::unique_lock<std::mutex> lock;  // use_mutex: the user's memory is written under it
        if (buffer->userMutex) lock = std::unique_lock<std::mutex>(*buffer->userMutex);
        if (!buffer->allocations[0].data) buffer->allocations[0].data = allocateHost(buffer->bytes);
        for (const TransferPlan &plan : plans)
          copySpans(buffer->allocations[plan.source], buffer->allocations[0], plan.spans);
        const char *host = buffer->allocations[0].data;
        if (buffer->final == Buffer::Final::writer) {
          buffer->finalWriter(host);
        } else if (buffer->finalData != host) {
          if (buffer->bytes) std::memcpy(buffer->finalData, host, buffer->bytes);
        }
      }
    } catch (const std::exception &e) {
      ONEPASS_LOG(Error, "a buffer's data could not be written back at its destruction: " << e.what());
    }
  }
  for (const auto &allocation : buffer->allocations) {
    if (!allocation.data || !allocation.owned) continue;
    if (allocation.device)
      allocation.device->backend->deallocate(allocation.device->index, allocation.data, ONEPASS_USM_DEVICE);
    else cpuBackend().deallocate(0, allocation.data, ONEPASS_USM_HOST);
  }
  {
    std::lock_guard<std::mutex> lock(graphMutex());
    liveIds().erase(buffer->id);
  }
  delete buffer;
}

}  // namespace

bool AccessAddresses::resolve(std::uintptr_t token, void *&address, const Buffer **buffer) const {
  for (const Entry &e : entries_)
    if ((token >> kTokenOffsetBits) == (e.tokenBase >> kTokenOffsetBits)) {
      address = e.data ? e.data + (token - e.tokenBase) : nullptr;
      if (buffer) *buffer = e.buffer;
      return true;
    }
  return false;
}

AccessAddresses allocateAccesses(const BufferAccessList &accesses, const std::shared_ptr<Device> &device) {
  AccessAddresses addresses;
  if (accesses.empty()) return addresses;
  std::lock_guard<std::mutex> lock(graphMutex());
  for (const BufferAccess &access : accesses) {
    checkAccess(access);
    Buffer &buffer = *access.buffer;
    if (!buffer.boundDevices.empty() && !access.onHost && device &&
        std::find(buffer.boundDevices.begin(), buffer.boundDevices.end(), device.get()) == buffer.boundDevices.end())
      raise(Errc::invalid,
            "the buffer was created with property::buffer::context_bound for a context without device '" +
                device->name + "'; it cannot be used there");
    accessedElements(buffer, access);  // checks the box
    unsigned index = allocationFor(buffer, access.onHost ? nullptr : device);
    addresses.add(buffer, buffer.allocations[index].data);
  }
  return addresses;
}

std::vector<std::function<void()>> enterAccesses(const BufferAccessList &accesses,
                                                 const std::shared_ptr<Device> &device,
                                                 const std::shared_ptr<Node> &event,
                                                 const std::shared_ptr<ErrorSink> &errors) {
  std::lock_guard<std::mutex> lock(graphMutex());
  SmallVector<AccessBox, 4> boxes;
  for (const BufferAccess &access : accesses) {
    boxes.push_back(accessBox(*access.buffer, access));
    enterAccess(*access.buffer, access, boxes.back(), device, *event, errors);
  }
  // Recorded after all are entered, so that a command never depends on itself.
  for (std::size_t i = 0; i < accesses.size(); ++i) recordAccess(*accesses[i].buffer, accesses[i], boxes[i], event);
  std::vector<std::function<void()>> finishing;
  for (std::size_t i = 0; i < accesses.size(); ++i)
    if (auto copyBack = writeThrough(*accesses[i].buffer, accesses[i], boxes[i], device))
      finishing.push_back(std::move(copyBack));
  return finishing;
}

void registerBuffer(Buffer &buffer, void *hostStorage, const void *initialData) {
  buffer.allocations.push_back({nullptr, static_cast<char *>(hostStorage), hostStorage == nullptr});
  buffer.region.addAllocation();
  {
    std::lock_guard<std::mutex> lock(graphMutex());
    buffer.id = takeId();
  }
  buffer.token = (std::uintptr_t(0xF) << 60) | (std::uintptr_t(buffer.id) << kTokenOffsetBits);
  if (initialData) {
    try {
      buffer.allocations[0].data = allocateHost(buffer.bytes);
    } catch (...) {
      std::lock_guard<std::mutex> lock(graphMutex());
      liveIds().erase(buffer.id);
      throw;
    }
    if (buffer.bytes) std::memcpy(buffer.allocations[0].data, initialData, buffer.bytes);
  }
  if (hostStorage || initialData) buffer.region.markWritten(0, buffer.region.wholePageRange());
}

void destroyBuffer(Buffer *buffer) { destroy(buffer); }

void setFinalData(Buffer &buffer, void *destination) {
  std::lock_guard<std::mutex> lock(graphMutex());
  buffer.final = destination ? Buffer::Final::pointer : Buffer::Final::none;
  buffer.finalData = destination;
  buffer.finalWriter = nullptr;
}

void setFinalWriter(Buffer &buffer, std::function<void(const void *)> writer) {
  std::lock_guard<std::mutex> lock(graphMutex());
  buffer.final = Buffer::Final::writer;
  buffer.finalData = nullptr;
  buffer.finalWriter = std::move(writer);
}

void setWriteBack(Buffer &buffer, bool enabled) {
  std::lock_guard<std::mutex> lock(graphMutex());
  buffer.writeBack = enabled;
  buffer.forcedWriteBack = enabled;
}

void *hostData(Buffer &buffer) {
  std::lock_guard<std::mutex> lock(graphMutex());
  return buffer.allocations[allocationFor(buffer, nullptr)].data;
}

HostAccess acquireHost(const BufferAccess &access, std::shared_ptr<Node> release) {
  checkAccess(access);
  auto errors = std::make_shared<ErrorSink>();
  release->errors = errors;
  release->status = NodeStatus::Running;
  release->heldBy = std::this_thread::get_id();
  HostAccess result;
  {
    std::lock_guard<std::mutex> lock(graphMutex());
    Buffer &buffer = *access.buffer;
    AccessBox box = accessBox(buffer, access);
    // Waiting for a conflicting host_accessor this thread still holds would never end.
    for (const auto &conflict : buffer.tracker.conflicts(box.pages, access.writes))
      if (conflict->heldBy == std::this_thread::get_id() && !conflict->complete.load())
        raise(Errc::invalid, "host_accessor: this thread still holds a conflicting host_accessor of the same "
                             "buffer (overlapping pages, one of them writes); waiting for it would deadlock. "
                             "Destroy the first one before creating this one");
    result.data = buffer.allocations[allocationFor(buffer, nullptr)].data;
    enterAccess(buffer, access, box, nullptr, *release, errors);
    recordAccess(buffer, access, box, release);
  }
  // Released when the last copy of the host_accessor is destroyed.
  result.hold = std::shared_ptr<void>(nullptr, [release](void *) { release->markComplete(); });
  std::vector<std::shared_ptr<Node>> dependencies = release->dependencies;
  for (const auto &dependency : dependencies) dependency->wait();
  std::vector<std::exception_ptr> failures = errors->take();
  if (!failures.empty()) std::rethrow_exception(failures.front());
  return result;
}

}  // namespace onepass::rt
