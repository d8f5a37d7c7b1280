// Asynchronous operations on a device with in-order streams (the CUDA
// backend's, for one): nodes are enqueued without waiting for the device.
//
// A node whose dependencies run on the same device is enqueued as soon as they
// are *enqueued*: on the stream of one of them (stream order does the rest),
// waiting on the device for markers of the others. Completion is learnt from
// markers, recorded behind operations: every kMarkerInterval operations of a
// stream, and whenever someone needs to know (a waiter, a host-side
// successor, a status query, profiling). A marker's completion completes every
// operation before it on its stream. A poller thread per device watches the
// markers; a waiting thread waits on its own marker instead, and a thread
// enqueuing on a stream retires that stream's completed work itself (the
// poller keeps away from a stream while it is fed: two threads touching the
// same nodes and locks cost more than the work).
#pragma once

#include "backend/BackendInterface.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sycl::detail {
struct event_impl;
}

namespace onepass::rt {

// What one asynchronous operation does on the stream it is given (a stream
// below 0: the backend's synchronous form, done when it returns). `enqueue`
// throws if it cannot enqueue; `describe` names it in errors found later.
// The event of the node owns it (event_impl::work).
class AsyncWork {
public:
  virtual ~AsyncWork() = default;
  virtual void enqueue(int stream) = 0;
  virtual std::string describe() const = 0;
};

// An AsyncWork made of two callables.
template <typename Enqueue, typename Describe>
std::shared_ptr<AsyncWork> makeAsyncWork(Enqueue enqueue, Describe describe) {
  struct Work final : AsyncWork {
    Enqueue enqueueBody;
    Describe describeBody;
    Work(Enqueue e, Describe d) : enqueueBody(std::move(e)), describeBody(std::move(d)) {}
    void enqueue(int stream) override { enqueueBody(stream); }
    std::string describe() const override { return describeBody(); }
  };
  return std::make_shared<Work>(std::move(enqueue), std::move(describe));
}

class StreamTracker {
public:
  // Records a marker at least every this many operations of a stream.
  static constexpr uint64_t kMarkerInterval = 32;
  // Streams per device at most.
  static constexpr uint32_t kMaxStreams = 16;

  StreamTracker(const onepass_backend &backend, uint32_t device, uint32_t streams);
  ~StreamTracker();
  StreamTracker(const StreamTracker &) = delete;
  StreamTracker &operator=(const StreamTracker &) = delete;

  uint32_t streamCount() const { return static_cast<uint32_t>(streams_.size()); }

  // Enqueues a node whose dependencies are enqueued here or complete; its
  // event takes `work` (none: it runs its embeddedWork). Failures become the event's asynchronous errors and
  // complete it. `unpublished`: no other thread can reach the event yet (and
  // the caller holds it), so it needs no lock until it is on its stream.
  void run(std::shared_ptr<sycl::detail::event_impl> event, std::shared_ptr<AsyncWork> work, bool unpublished);

  // Makes sure the event's completion will be noticed (a marker behind it).
  void requestCompletion(sycl::detail::event_impl &event);

  // Blocks until the event is complete, waiting on its marker directly.
  void wait(sycl::detail::event_impl &event);

private:
  struct Marker;
  struct Entry;
  struct Stream;

  std::shared_ptr<Marker> recordLocked(Stream &stream, uint32_t index, bool timing);
  std::shared_ptr<Marker> coveringMarkerLocked(Stream &stream, uint32_t index, uint64_t sequence);
  // Makes work enqueued next on `stream` wait on the device for operation
  // `sequence` of stream `on`.
  void waitOnDevice(uint32_t stream, uint32_t on, uint64_t sequence);
  // Completes the stream's operations up to `sequence`, which the device has
  // finished; `failure` is the backend's message if it failed.
  void retire(uint32_t stream, uint64_t sequence, const std::string &failure);
  // Retires what the stream's oldest marker covers if it has completed.
  enum class Front { None, Pending, Retired };  // no marker, not completed, retired
  Front retireFront(uint32_t stream);
  // Retires what the completed markers at the front of the stream cover.
  void reap(uint32_t stream);
  void poll();
  // `urgent`: someone waits for the completion on the host.
  void notifyPoller(bool urgent);

  const onepass_backend &backend_;
  const uint32_t device_;
  std::vector<std::unique_ptr<Stream>> streams_;
  std::atomic<uint32_t> nextStream_{0};

  // The poller polls while markers are pending, dozes (wakes up by itself)
  // for a while after, and then sleeps until notified. It never takes a
  // stream's lock while holding pollerMutex_: `recorded_` counts the markers
  // recorded, so the poller sees whether one came since it last looked.
  enum class PollerState { Polling, Dozing, Asleep };
  static constexpr std::chrono::microseconds kPollInterval{20}, kDozeInterval{200};
  static constexpr std::chrono::milliseconds kDozeFor{5};
  std::mutex pollerMutex_;
  std::condition_variable pollerWake_;
  std::atomic<PollerState> pollerState_{PollerState::Polling};
  std::atomic<uint64_t> recorded_{0};
  bool stop_ = false;
  std::thread poller_;
};

}  // namespace onepass::rt
