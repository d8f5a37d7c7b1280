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
// Back-to-back commands leave their driver calls to a feeder thread: once
// kFeederStreak commands have come here without a wait for any, the calls
// that put work on the streams (launches, copies, markers, waits between
// streams) go into a ring that the feeder empties in order. The submitting
// thread still does all the bookkeeping (the node is "enqueued" at its place
// on the stream); the driver's several microseconds per launch then run
// beside its preparation of the next command instead of after it. A command
// followed by a wait makes its driver calls itself: a hand-over would only
// add to its latency. While anything is in the ring, every such call goes
// there too (one order for all), and whatever needs the device to have a call
// (waiting for a stream or a marker, reading a marker) waits for the feeder
// first.
#pragma once

#include "BackendInterface.h"

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
  // The feeder: a ring of driver calls, filled by any thread in ticket order
  // and emptied by the feeder thread alone (a bounded multi-producer queue: a
  // slot's turn says whose it is).
  static constexpr uint64_t kFeederRing = 1024;
  static constexpr uint32_t kFeederStreak = 16;
  static constexpr uint64_t kFeedingReapInterval = 256;  // operations between reaps while the feeder works
  static constexpr std::chrono::microseconds kFeederBackOff{50};
  struct Marker;
  struct FeederCall {
    enum class Kind { Enqueue, Record, StreamWait } kind = Kind::Enqueue;
    uint32_t stream = 0;
    AsyncWork *work = nullptr;                 // Enqueue: alive until its node retires, after this call
    sycl::detail::event_impl *node = nullptr;  // Enqueue: where a failure goes
    std::shared_ptr<Marker> marker;            // Record, StreamWait
  };
  struct FeederSlot {
    std::atomic<uint64_t> turn{0};  // ticket t may fill it at t; filled at t + 1
    FeederCall call;
  };
  // Whether a driver call for the stream goes to the feeder now (the caller
  // holds that stream's lock). `launch`: an enqueue, which counts towards
  // the streak.
  bool deferring(bool launch);
  void toFeeder(FeederCall call);
  // Whether calls handed to the feeder are still to be made.
  bool feederBusy() const { return handed_.load(std::memory_order_acquire) != fedOn_.load(std::memory_order_acquire); }
  void perform(FeederCall &call);
  // Waits until the feeder has made every call handed to it so far.
  void drainFeeder();
  void startFeeder();
  void wakeFeeder();
  void prefetchAhead();
  void feed();

  struct Entry;
  struct Stream;

  std::shared_ptr<Marker> recordLocked(Stream &stream, uint32_t index, bool timing);
  std::shared_ptr<Marker> coveringMarkerLocked(Stream &stream, uint32_t index, uint64_t sequence);
  // Makes work enqueued next on `stream` wait on the device for operation
  // `sequence` of stream `on`; true if that wait is with the feeder (where
  // `node`'s own call must then go too, and where a failure goes to it).
  bool waitOnDevice(uint32_t stream, uint32_t on, uint64_t sequence, sycl::detail::event_impl &node);
  // Completes the stream's operations up to `sequence`, which the device has
  // finished; `failure` is the backend's message if it failed.
  void retire(uint32_t stream, uint64_t sequence, const std::string &failure);
  // Retires what the stream's oldest marker covers if it has completed.
  enum class Front { None, Pending, Retired };  // no marker, not completed, retired
  Front retireFront(uint32_t stream);
  // Retires what the completed markers at the front of the stream cover
  // (up to `markers` of them).
  void reap(uint32_t stream, int markers);
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

  const bool feederEnabled_;
  const bool feederAlways_;  // ONEPASS_GPU_FEEDER=always: every call through the feeder
  std::unique_ptr<FeederSlot[]> feederSlots_;
  alignas(64) std::atomic<uint64_t> handed_{0};  // tickets taken by submitting threads
  alignas(64) std::atomic<uint64_t> fedOn_{0};   // calls the feeder has made (it alone writes)
  uint64_t feederNext_ = 0;                      // the feeder's next ticket (its own)
  // Commands submitted here since a host thread last waited for one (racy
  // counts are fine: it only chooses between two correct paths).
  alignas(64) std::atomic<uint32_t> streak_{0};
  std::atomic<bool> feederAsleep_{true};  // (also before its thread has started)
  std::once_flag feederStarted_;
  std::atomic<bool> feederStop_{false};
  std::mutex feederMutex_;
  std::condition_variable feederWake_;
  bool feederWanted_ = false;  // under feederMutex_: woken to spin for what comes next
  std::thread feeder_;
  const sycl::detail::event_impl *skipping_ = nullptr;  // the feeder's: a node whose stream wait failed
};

}  // namespace onepass::rt
