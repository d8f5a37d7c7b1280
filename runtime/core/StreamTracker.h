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
//
// Back-to-back commands leave their driver calls to a feeder thread
// (StreamFeeder.h); a poller thread (StreamPoller.h) watches the markers. The
// tracker keeps the streams, their nodes and markers, and decides; the feeder
// and the poller only run what it hands them.
#pragma once

#include "BackendInterface.h"
#include "StreamFeeder.h"
#include "StreamPoller.h"

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

namespace onepass::rt {

struct Node;
// What one asynchronous operation does on the stream it is given (a stream
// below 0: the backend's synchronous form, done when it returns). `enqueue`
// throws if it cannot enqueue; `describe` names it in errors found later.
// The event of the node owns it (Node::work).
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
  // Streams per device at most (the backend's and adopted ones).
  static constexpr uint32_t kMaxStreams = ONEPASS_MAX_STREAMS;

  StreamTracker(const onepass_backend &backend, uint32_t device, uint32_t streams);
  ~StreamTracker();
  StreamTracker(const StreamTracker &) = delete;
  StreamTracker &operator=(const StreamTracker &) = delete;

  // The backend's streams and the adopted ones.
  uint32_t streamCount() const { return active_.load(std::memory_order_acquire); }

  // The stream number of a native queue made outside OnePass (a CUstream:
  // make_queue), for nodes pinned to it (Node::pinnedStream); the same number
  // for the same queue. Throws if the backend cannot adopt it.
  uint32_t adoptStream(void *native);

  // Enqueues a node whose dependencies are enqueued here or complete; its
  // event takes `work` (none: it runs its embeddedWork). Failures become the event's asynchronous errors and
  // complete it. `unpublished`: no other thread can reach the event yet (and
  // the caller holds it), so it needs no lock until it is on its stream.
  void run(std::shared_ptr<Node> event, std::shared_ptr<AsyncWork> work, bool unpublished);

  // Makes sure the event's completion will be noticed (a marker behind it).
  void requestCompletion(Node &event);

  // Blocks until the event is complete, waiting on its marker directly.
  void wait(Node &event);

  // The backend's handle of a recorded marker that completes once `event`
  // has (and may cover later operations of its stream too), which `keep`
  // then holds alive; null if the event is complete already. Waits until the
  // event is on its stream. (What a native event of a SYCL event is made of:
  // get_native<backend::cuda>(event).)
  void *markerFor(Node &event, std::shared_ptr<void> &keep);

  // Makes every driver call handed to the feeder so far: what is enqueued
  // here is then on the device's streams, where freeing memory (which
  // synchronizes with the device) waits for it (sycl::free).
  void flush() { feeder_->drain(); }

  // Completes an enqueued event the device is known to have finished (a
  // command that depends on it completed), with what precedes it on its
  // stream, without waiting for the poller to see its marker.
  void retireFinished(Node &event);

private:
  static constexpr uint64_t kFeedingReapInterval = 256;  // operations between reaps while the feeder works
  // Waits until the event is on its stream; false if it is complete by
  // then, else its stream and position there.
  static bool placeOnceEnqueued(Node &event, uint32_t &on, uint64_t &sequence);
  // Makes one driver call (on the feeder's thread, or the caller's).
  void perform(FeederCall &call);

  struct Entry;
  struct Stream;

  using Marker = StreamMarker;
  std::shared_ptr<Marker> recordLocked(Stream &stream, uint32_t index, bool timing);
  std::shared_ptr<Marker> coveringMarkerLocked(Stream &stream, uint32_t index, uint64_t sequence);
  // Makes work enqueued next on `stream` wait on the device for operation
  // `sequence` of stream `on`; true if that wait is with the feeder (where
  // `node`'s own call must then go too, and where a failure goes to it).
  bool waitOnDevice(uint32_t stream, uint32_t on, uint64_t sequence, Node &node);
  // Completes the stream's operations up to `sequence`, which the device has
  // finished; `failure` is the backend's message if it failed.
  void retire(uint32_t stream, uint64_t sequence, const std::string &failure);
  // Retires what the stream's oldest marker covers if it has completed.
  enum class Front { None, Pending, Retired };  // no marker, not completed, retired
  Front retireFront(uint32_t stream);
  // Retires what the completed markers at the front of the stream cover
  // (up to `markers` of them).
  void reap(uint32_t stream, int markers);
  // The poller's look over the streams: retires what completed markers cover.
  StreamPoller::Scan scan();

  const onepass_backend &backend_;
  const uint32_t device_;
  std::vector<std::unique_ptr<Stream>> streams_;  // kMaxStreams of them, the first regular_ the backend's
  uint32_t regular_ = 1;                          // the streams work is spread over
  std::atomic<uint32_t> active_{1};               // regular_ and the adopted ones after them
  std::mutex adoptMutex_;
  std::atomic<uint32_t> nextStream_{0};
  std::atomic<uint32_t> lastStream_{0};  // the regular stream the newest node went to
  std::unique_ptr<StreamFeeder> feeder_;
  std::unique_ptr<StreamPoller> poller_;
  const Node *skipping_ = nullptr;  // the feeder's: a node whose stream wait failed
};

}  // namespace onepass::rt
