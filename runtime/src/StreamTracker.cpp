#include "StreamTracker.h"

#include "Environment.h"
#include "Errors.h"
#include "Log.h"
#include "Runtime.h"

#include <chrono>
#include <cstdlib>

namespace onepass::rt {

using sycl::detail::event_impl;

// A backend marker, released when the last holder lets go of it (the stream's
// list, a waiter or the poller), so nobody uses a released one.
// A marker that could not be recorded has no handle but the reason: it
// "fails" at once, so the operations it should have covered fail instead of
// never completing.
// A marker left to the feeder is not `recorded` until it has made the call:
// until then it counts as not complete, and nobody waits on it directly.
struct StreamTracker::Marker {
  const onepass_backend &backend;
  uint32_t device;
  void *handle = nullptr;
  uint64_t sequence;  // covers the stream's operations up to this one
  bool timing;
  std::string failure;
  std::atomic<bool> recorded{false};  // handle and failure are final
  Marker(const onepass_backend &b, uint32_t d, uint64_t s, bool t) : backend(b), device(d), sequence(s), timing(t) {}
  ~Marker() {
    if (handle) backend.release_marker(device, handle);
  }
};

struct StreamTracker::Entry {
  std::shared_ptr<event_impl> event;
  uint64_t sequence;
  std::shared_ptr<Marker> start, end;  // profiling: timing markers around it
};

struct StreamTracker::Stream {
  std::mutex mutex;
  uint64_t enqueued = 0;   // operations enqueued so far (the last one's sequence)
  uint64_t marked = 0;     // the newest marker covers operations up to here
  uint64_t completed = 0;  // operations known complete
  std::deque<Entry> running;
  std::deque<std::shared_ptr<Marker>> markers;  // recorded, not yet seen complete
  // Counts the nodes enqueued here. While nodes keep coming, the enqueuing
  // thread retires completed work itself (reap) and the poller keeps away, so
  // no other thread touches the nodes' memory or the locks: the poller skips
  // a stream whose count moved since its previous look (fedSeen, its own).
  std::atomic<uint64_t> fed{0};
  uint64_t fedSeen = 0;
};

namespace {
std::string takeError(char *error) {
  std::string text = error ? error : "unknown error";
  std::free(error);
  return text;
}
}  // namespace

StreamTracker::StreamTracker(const onepass_backend &backend, uint32_t device, uint32_t streams)
    : backend_(backend), device_(device), feederEnabled_(env::gpuFeeder(spinningPays()) != env::Feeder::Off),
      feederAlways_(env::gpuFeeder(false) == env::Feeder::Always) {
  for (uint32_t i = 0; i < std::min(std::max(1u, streams), kMaxStreams); ++i)
    streams_.push_back(std::make_unique<Stream>());
  poller_ = std::thread([this] { poll(); });
}

StreamTracker::~StreamTracker() {
  if (feeder_.joinable()) {  // it enqueues what it still holds first
    {
      std::lock_guard<std::mutex> lock(feederMutex_);
      feederStop_.store(true);
    }
    feederWake_.notify_all();
    feeder_.join();
  }
  {
    std::lock_guard<std::mutex> lock(pollerMutex_);
    stop_ = true;
  }
  pollerWake_.notify_all();
  poller_.join();
  // At exit the driver may already be gone: leave the markers to it.
  for (auto &stream : streams_) {
    for (auto &marker : stream->markers) new std::shared_ptr<Marker>(std::move(marker));
    stream->markers.clear();
    for (Entry &entry : stream->running) {
      if (entry.start) new std::shared_ptr<Marker>(std::move(entry.start));
      if (entry.end) new std::shared_ptr<Marker>(std::move(entry.end));
    }
  }
}

std::shared_ptr<StreamTracker::Marker> StreamTracker::recordLocked(Stream &stream, uint32_t index, bool timing) {
  auto marker = std::make_shared<Marker>(backend_, device_, stream.enqueued, timing);
  FeederCall call{FeederCall::Kind::Record, index, nullptr, nullptr, marker};
  if (deferring(false)) toFeeder(std::move(call));
  else perform(call);
  stream.markers.push_back(marker);
  stream.marked = stream.enqueued;
  recorded_.fetch_add(1);
  return marker;
}

// The oldest marker that covers `sequence`, recorded now if none does yet.
std::shared_ptr<StreamTracker::Marker> StreamTracker::coveringMarkerLocked(Stream &stream, uint32_t index,
                                                                           uint64_t sequence) {
  if (sequence <= stream.completed) return nullptr;
  if (sequence > stream.marked) return recordLocked(stream, index, false);
  for (const auto &marker : stream.markers)
    if (marker->sequence >= sequence) return marker;
  return nullptr;  // being retired right now
}

void StreamTracker::run(std::shared_ptr<event_impl> event, std::shared_ptr<AsyncWork> work, bool unpublished) {
  event_impl &node = *event;  // alive: the caller holds it too (or the stream's list, once there)
  // What the node must wait for on this device: per stream, the newest
  // operation among its unfinished dependencies there. No lock for the list:
  // it changes only when a successor of this node completes (markComplete
  // trims it), and none can before this node is enqueued.
  uint64_t needed[kMaxStreams] = {};
  int chosen = -1;
  for (const auto &dependency : node.dependencies) {
    if (dependency->tracker != this || dependency->complete.load(std::memory_order_acquire)) continue;
    std::lock_guard<std::mutex> lock(dependency->mutex);
    if (dependency->sequence == 0 || dependency->status == sycl::info::event_command_status::complete) continue;
    needed[dependency->stream] = std::max(needed[dependency->stream], dependency->sequence);
    // The stream: that of an unfinished dependency (stream order then keeps
    // the node after it), else the next in turn. Not a complete one's:
    // independent work that merely follows finished work must not be tied to
    // its stream.
    if (chosen < 0) chosen = static_cast<int>(dependency->stream);
  }
  if (chosen < 0 && node.streamHint >= 0) chosen = node.streamHint % static_cast<int>(streamCount());
  const uint32_t index =
      chosen >= 0 ? static_cast<uint32_t>(chosen) : nextStream_.fetch_add(1, std::memory_order_relaxed) % streamCount();
  Stream &stream = *streams_[index];
  // The event's own embedded operation, or one it now owns.
  node.work = work ? work.get() : node.embeddedWork;
  if (work && node.work != node.embeddedWork) node.ownedWork = std::move(work);
  try {
    bool waitsWithFeeder = false;  // then the node's own call must follow them there
    if (!node.dependencies.empty())
      for (uint32_t on = 0; on < streamCount(); ++on)
        if (needed[on] > 0 && on != index) waitsWithFeeder |= waitOnDevice(index, on, needed[on], node);
    uint64_t sequence;
    bool wanted = false, marked = false;
    {
      std::lock_guard<std::mutex> lock(stream.mutex);
      Entry entry{nullptr, 0, nullptr, nullptr};
      if (node.profiling) entry.start = recordLocked(stream, index, true);
      FeederCall call{FeederCall::Kind::Enqueue, index, node.work, &node, nullptr};
      if (deferring(true) || waitsWithFeeder) toFeeder(std::move(call));
      else node.work->enqueue(static_cast<int>(index));
      sequence = ++stream.enqueued;
      entry.sequence = sequence;
      if (node.profiling) entry.end = recordLocked(stream, index, true);
      // An unpublished node is marked enqueued before it is on the list, where
      // others may retire it (its submitter still holds it: no copy needed).
      if (unpublished) node.markEnqueuedUnpublished(index, sequence);
      entry.event = unpublished ? std::move(event) : event;
      stream.running.push_back(std::move(entry));
      const bool interval = sequence - stream.marked >= kMarkerInterval;
      if (interval) recordLocked(stream, index, false);
      marked = interval || node.profiling;
    }
    if (!unpublished) {
      node.markEnqueued(index, sequence, wanted);
      if (wanted) requestCompletion(node);  // records a marker and tells the poller
    }
    if (marked) notifyPoller(false);  // only a new marker gives the poller something to do
    // Retiring asks the driver about markers: while the feeder is in the
    // driver for every launch, ask it less often (the two threads would
    // contend for the driver's locks), and retire more at a time.
    const uint64_t reapEvery = feederEnabled_ && feederBusy() ? kFeedingReapInterval : kMarkerInterval;
    if (sequence % reapEvery == 0) reap(index, static_cast<int>(reapEvery / kMarkerInterval) + 3);
    stream.fed.fetch_add(1, std::memory_order_relaxed);  // (several threads may feed one stream)
  } catch (...) {
    if (node.errors) node.errors->push(std::current_exception());
    node.markComplete();
  }
}

bool StreamTracker::deferring(bool launch) {
  if (!feederEnabled_) return false;
  if (feederAlways_) {
    startFeeder();
    return true;
  }
  if (feederBusy()) return true;  // calls still in the ring: this one goes behind them
  if (!launch) return false;
  const uint32_t streak = streak_.load(std::memory_order_relaxed) + 1;
  streak_.store(streak, std::memory_order_relaxed);
  if (streak < kFeederStreak) return false;
  // Back to back: hand over while the feeder is awake; wake it now and then
  // (a system call), making the calls here until it is.
  if (!feederAsleep_.load()) return true;
  if (streak % kFeederStreak == 0) wakeFeeder();
  return false;
}

void StreamTracker::toFeeder(FeederCall call) {
  const uint64_t ticket = handed_.fetch_add(1, std::memory_order_acq_rel);
  FeederSlot &slot = feederSlots_[ticket % kFeederRing];
  // A full ring (the device's driver far behind): sleep while the feeder
  // frees the slot. Spinning would take cycles from the feeder's core (a
  // sibling hardware thread) or from the machine.
  while (slot.turn.load(std::memory_order_acquire) != ticket) std::this_thread::sleep_for(kFeederBackOff);
  slot.call = std::move(call);
  slot.turn.store(ticket + 1);  // sequentially consistent: against the feeder falling asleep
  if (feederAsleep_.load()) wakeFeeder();
}

void StreamTracker::perform(FeederCall &call) {
  char *error = nullptr;
  switch (call.kind) {
  case FeederCall::Kind::Enqueue:
    if (call.node == skipping_) {  // its wait for another stream could not be set up
      skipping_ = nullptr;
      return;
    }
    try {
      call.work->enqueue(static_cast<int>(call.stream));
    } catch (...) {
      if (call.node->errors) call.node->errors->push(std::current_exception());
    }
    return;
  case FeederCall::Kind::Record: {
    Marker &marker = *call.marker;
    marker.handle = backend_.record_marker(device_, call.stream, marker.timing ? 1 : 0, &error);
    if (!marker.handle)
      marker.failure = "cannot record a marker on stream " + std::to_string(call.stream) + ": " + takeError(error);
    marker.recorded.store(true, std::memory_order_release);
    return;
  }
  case FeederCall::Kind::StreamWait: {
    // Only the feeder makes these calls: the marker was recorded before.
    const Marker &marker = *call.marker;
    std::string failure = marker.failure;
    if (marker.handle) {
      if (backend_.stream_wait_marker(device_, call.stream, marker.handle, &error) == 0) return;
      failure = takeError(error);
    }
    // The node must not run before what it waits for: it reports why instead.
    skipping_ = call.node;
    if (call.node->errors)
      call.node->errors->push(std::make_exception_ptr(
          sycl::exception(sycl::make_error_code(sycl::errc::runtime),
                          "cannot order stream " + std::to_string(call.stream) + " after another stream: " + failure)));
    return;
  }
  }
}

void StreamTracker::drainFeeder() {
  if (!feederEnabled_) return;
  const uint64_t target = handed_.load(std::memory_order_acquire);
  auto drained = [&] { return fedOn_.load(std::memory_order_acquire) >= target; };
  while (!spinUntil(drained)) std::this_thread::sleep_for(std::chrono::microseconds(20));
}

// The ring and the thread, made when first wanted: not on the way to a
// program's first launch.
void StreamTracker::startFeeder() {
  std::call_once(feederStarted_, [this] {
    feederSlots_.reset(new FeederSlot[kFeederRing]);
    for (uint64_t i = 0; i < kFeederRing; ++i) feederSlots_[i].turn.store(i, std::memory_order_relaxed);
    feeder_ = std::thread([this] { feed(); });
  });
}

void StreamTracker::wakeFeeder() {
  startFeeder();
  {
    std::lock_guard<std::mutex> lock(feederMutex_);
    feederWanted_ = true;
  }
  feederWake_.notify_one();
}

// What the next calls will read was written on the submitting thread's core:
// fetching it while the driver works on this call takes those transfers off
// the feeder's path (the next slot's operation now, the slot after it for the
// next round).
void StreamTracker::prefetchAhead() {
  __builtin_prefetch(&feederSlots_[(feederNext_ + 1) % kFeederRing]);
  const FeederSlot &next = feederSlots_[feederNext_ % kFeederRing];
  if (next.turn.load(std::memory_order_acquire) != feederNext_ + 1) return;
  if (const auto *work = reinterpret_cast<const char *>(next.call.work))
    for (int line = 0; line < 8; ++line) __builtin_prefetch(work + 64 * line);
}

void StreamTracker::feed() {
  feederAsleep_.store(false);
  for (;;) {
    FeederSlot &slot = feederSlots_[feederNext_ % kFeederRing];
    auto filled = [&] { return slot.turn.load(std::memory_order_acquire) == feederNext_ + 1; };
    if (filled() || (spinUntil([&] { return filled() || feederStop_.load(std::memory_order_relaxed); }) && filled())) {
      FeederCall call = std::move(slot.call);
      slot.turn.store(feederNext_ + kFeederRing, std::memory_order_release);
      ++feederNext_;
      prefetchAhead();
      perform(call);
      fedOn_.store(feederNext_, std::memory_order_release);
      continue;
    }
    std::unique_lock<std::mutex> lock(feederMutex_);
    if (feederStop_.load() && !filled()) return;  // every call handed over is made
    feederAsleep_.store(true);                    // sequentially consistent: against toFeeder's fill
    feederWake_.wait(lock, [&] { return feederWanted_ || feederStop_.load() || slot.turn.load() == feederNext_ + 1; });
    feederWanted_ = false;
    feederAsleep_.store(false);
  }
}

StreamTracker::Front StreamTracker::retireFront(uint32_t index) {
  std::shared_ptr<Marker> front;
  {
    std::lock_guard<std::mutex> lock(streams_[index]->mutex);
    if (streams_[index]->markers.empty()) return Front::None;
    front = streams_[index]->markers.front();
  }
  if (!front->recorded.load(std::memory_order_acquire)) return Front::Pending;  // the feeder has yet to record it
  if (!front->handle) {
    retire(index, front->sequence, front->failure);
    return Front::Retired;
  }
  char *error = nullptr;
  int state = backend_.query_marker(device_, front->handle, &error);
  if (state == 0) return Front::Pending;
  retire(index, front->sequence, state < 0 ? takeError(error) : std::string());
  return Front::Retired;
}

void StreamTracker::reap(uint32_t index, int markers) {
  for (int round = 0; round < markers && retireFront(index) == Front::Retired; ++round) {
  }
}

bool StreamTracker::waitOnDevice(uint32_t index, uint32_t on, uint64_t sequence, event_impl &node) {
  Stream &other = *streams_[on];
  std::lock_guard<std::mutex> lock(other.mutex);
  std::shared_ptr<Marker> marker = coveringMarkerLocked(other, on, sequence);
  if (!marker) return false;  // complete already
  if (deferring(false)) {
    toFeeder(FeederCall{FeederCall::Kind::StreamWait, index, nullptr, &node, std::move(marker)});
    return true;
  }
  // Nothing with the feeder: the marker is recorded.
  if (!marker->handle) raise(sycl::errc::runtime, marker->failure);
  char *error = nullptr;
  if (backend_.stream_wait_marker(device_, index, marker->handle, &error) != 0)
    raise(sycl::errc::runtime, "cannot order stream " + std::to_string(index) + " after stream " + std::to_string(on) +
                                   ": " + takeError(error));
  return false;
}

void StreamTracker::requestCompletion(event_impl &event) {
  uint32_t on;
  uint64_t sequence;
  {
    std::lock_guard<std::mutex> lock(event.mutex);
    if (event.status == sycl::info::event_command_status::complete) return;
    if (!event.enqueued) {
      event.completionWanted = true;  // run() asks again once it is enqueued
      return;
    }
    on = event.stream;
    sequence = event.sequence;
  }
  {
    Stream &stream = *streams_[on];
    std::lock_guard<std::mutex> lock(stream.mutex);
    coveringMarkerLocked(stream, on, sequence);
  }
  notifyPoller(true);  // someone on the host waits for it
}

void StreamTracker::wait(event_impl &event) {
  streak_.store(0, std::memory_order_relaxed);  // a command waited for: no longer back to back
  uint32_t on = 0;
  uint64_t sequence = 0;
  {
    std::unique_lock<std::mutex> lock(event.mutex);
    event.changed.wait(lock, [&] { return event.enqueued.load(); });
    if (event.status != sycl::info::event_command_status::complete) {
      on = event.stream;
      sequence = event.sequence;
    }
  }
  if (sequence > 0) {
    // The newest operation of its stream, with no marker behind it yet: wait
    // for the stream itself, which spares recording a marker.
    Stream &stream = *streams_[on];
    std::shared_ptr<Marker> marker;
    bool wholeStream = false;
    {
      std::lock_guard<std::mutex> lock(stream.mutex);
      if (sequence > stream.completed) {
        wholeStream = backend_.wait_stream && sequence == stream.enqueued && sequence > stream.marked;
        if (!wholeStream) marker = coveringMarkerLocked(stream, on, sequence);
      }
    }
    // The device must have every call this waits for.
    if (wholeStream || (marker && !marker->recorded.load(std::memory_order_acquire))) drainFeeder();
    char *error = nullptr;
    if (wholeStream) {
      std::string failure;
      if (backend_.wait_stream(device_, on, &error) != 0) failure = takeError(error);
      retire(on, sequence, failure);
    } else if (marker) {
      std::string failure = marker->failure;
      if (marker->handle && backend_.wait_marker(device_, marker->handle, &error) != 0) failure = takeError(error);
      retire(on, marker->sequence, failure);
    }
  }
  std::unique_lock<std::mutex> lock(event.mutex);
  event.changed.wait(lock, [&] { return event.status == sycl::info::event_command_status::complete; });
}

void StreamTracker::retire(uint32_t index, uint64_t sequence, const std::string &failure) {
  Stream &stream = *streams_[index];
  std::vector<Entry> done;
  {
    std::lock_guard<std::mutex> lock(stream.mutex);
    if (!stream.running.empty() && stream.running.front().sequence <= sequence)
      done.reserve(std::min<uint64_t>(stream.running.size(), sequence - stream.running.front().sequence + 1));
    while (!stream.markers.empty() && stream.markers.front()->sequence <= sequence) stream.markers.pop_front();
    while (!stream.running.empty() && stream.running.front().sequence <= sequence) {
      done.push_back(std::move(stream.running.front()));
      stream.running.pop_front();
    }
    stream.completed = std::max(stream.completed, sequence);
  }
  for (Entry &entry : done) {
    if (!failure.empty()) {
      if (entry.event->errors)
        entry.event->errors->push(std::make_exception_ptr(
            sycl::exception(sycl::make_error_code(sycl::errc::kernel),
                            entry.event->work->describe() + " did not complete on the device: " + failure)));
    } else if (entry.start && entry.end && entry.start->handle && entry.end->handle) {
      uint64_t start = 0, end = 0;
      char *error = nullptr;
      if (backend_.marker_time(device_, entry.start->handle, &start, &error) == 0 &&
          backend_.marker_time(device_, entry.end->handle, &end, &error) == 0)
        entry.event->setDeviceTimes(start, end);
      else
        ONEPASS_LOG(Warning, "no device timestamps for " << entry.event->work->describe() << ": " << takeError(error));
    }
    entry.event->markComplete();
  }
}

void StreamTracker::notifyPoller(bool urgent) {
  // Sequentially consistent with the poller's state and its reading of
  // recorded_: either it sees the new marker or this sees it sleeping.
  PollerState state = pollerState_.load();
  if (state == PollerState::Asleep || (urgent && state == PollerState::Dozing)) {
    std::lock_guard<std::mutex> lock(pollerMutex_);
    pollerWake_.notify_one();
  }
}

void StreamTracker::poll() {
  using Clock = std::chrono::steady_clock;
  auto lastWork = Clock::now();
  for (;;) {
    const uint64_t seen = recorded_.load();
    bool pending = false, progress = false, polled = false;
    for (uint32_t index = 0; index < streamCount(); ++index) {
      // A stream still being fed is reaped by the thread feeding it.
      Stream &stream = *streams_[index];
      const uint64_t fed = stream.fed.load(std::memory_order_relaxed);
      if (fed != stream.fedSeen) {
        stream.fedSeen = fed;
        pending = true;
        continue;
      }
      Front front = retireFront(index);
      pending |= front != Front::None;
      polled |= front == Front::Pending;
      progress |= front == Front::Retired;
    }
    if (progress) continue;
    std::unique_lock<std::mutex> lock(pollerMutex_);
    if (stop_) return;
    if (pending) lastWork = Clock::now();
    // Work is on the device, or was a moment ago (back-to-back launches): look
    // again soon, without a wake-up from the submitting threads, which would
    // cost them a system call. Not in a tight loop either, which would contend
    // with launches for the driver's locks (waiting threads wait on their own
    // marker, they do not depend on this latency). Only urgent requests wake
    // the poller early.
    if (pending || Clock::now() - lastWork < kDozeFor) {
      pollerState_.store(PollerState::Dozing);
      // Only streams being fed (their feeders reap them): doze, not poll;
      // fewer wake-ups near the submitting thread.
      if (recorded_.load() == seen) pollerWake_.wait_for(lock, polled ? kPollInterval : kDozeInterval);
    } else {
      pollerState_.store(PollerState::Asleep);
      // A marker recorded since the scan may have notified nobody.
      if (recorded_.load() == seen) pollerWake_.wait(lock);
    }
    pollerState_.store(PollerState::Polling);
  }
}

}  // namespace onepass::rt
