#include "StreamTracker.h"

#include "Environment.h"
#include "Error.h"
#include "Log.h"
#include "Node.h"

#include <chrono>
#include <cstdlib>

namespace onepass::rt {

// A backend marker, released when the last holder lets go of it (the stream's
// list, a waiter or the poller), so nobody uses a released one.
// A marker that could not be recorded has no handle but the reason: it
// "fails" at once, so the operations it should have covered fail instead of
// never completing.
// A marker left to the feeder is not `recorded` until it has made the call:
// until then it counts as not complete, and nobody waits on it directly.
struct StreamMarker {
  const onepass_backend &backend;
  uint32_t device;
  void *handle = nullptr;
  uint64_t sequence;  // covers the stream's operations up to this one
  bool timing;
  std::string failure;
  std::atomic<bool> recorded{false};  // handle and failure are final
  StreamMarker(const onepass_backend &b, uint32_t d, uint64_t s, bool t)
      : backend(b), device(d), sequence(s), timing(t) {}
  ~StreamMarker() {
    if (handle) backend.release_marker(device, handle);
  }
};

struct StreamTracker::Entry {
  std::shared_ptr<Node> event;
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
    : backend_(backend), device_(device) {
  // Slots for adopted streams too: a stream never moves once others use it.
  for (uint32_t i = 0; i < kMaxStreams; ++i) streams_.push_back(std::make_unique<Stream>());
  regular_ = std::min(std::max(1u, streams), kMaxStreams);
  active_.store(regular_);
  feeder_ = std::make_unique<StreamFeeder>(env::gpuFeeder(spinningPays()) != env::Feeder::Off,
                                           env::gpuFeeder(false) == env::Feeder::Always,
                                           [this](FeederCall &call) { perform(call); });
  poller_ = std::make_unique<StreamPoller>([this] { return scan(); });
}

StreamTracker::~StreamTracker() {
  feeder_.reset();  // it makes the calls it still holds first
  poller_.reset();
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
  if (feeder_->deferring(false)) feeder_->hand(std::move(call));
  else perform(call);
  stream.markers.push_back(marker);
  stream.marked = stream.enqueued;
  poller_->markerRecorded();
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

void StreamTracker::run(std::shared_ptr<Node> event, std::shared_ptr<AsyncWork> work, bool unpublished) {
  Node &node = *event;  // alive: the caller holds it too (or the stream's list, once there)
  // What the node must wait for on this device: per stream, the newest
  // operation among its unfinished dependencies there. No lock for the list:
  // it changes only when a successor of this node completes (markComplete
  // trims it), and none can before this node is enqueued.
  uint64_t needed[kMaxStreams] = {};
  int chosen = -1;
  for (const auto &dependency : node.dependencies) {
    if (dependency->tracker != this || dependency->complete.load(std::memory_order_acquire)) continue;
    std::lock_guard<std::mutex> lock(dependency->mutex);
    if (dependency->sequence == 0 || dependency->status == NodeStatus::Complete) continue;
    needed[dependency->stream] = std::max(needed[dependency->stream], dependency->sequence);
    // The stream: that of an unfinished dependency (stream order then keeps
    // the node after it), else the next in turn. Not a complete one's:
    // independent work that merely follows finished work must not be tied to
    // its stream.
    if (chosen < 0) chosen = static_cast<int>(dependency->stream);
  }
  if (chosen < 0 && node.streamHint >= 0) chosen = node.streamHint % static_cast<int>(regular_);
  // Independent work goes to the streams in turn, so that it may overlap;
  // but where the stream the previous node went to has finished all its
  // work (the program waited for it), nothing would overlap: the node stays
  // on that stream. Moving from stream to stream after every wait cost
  // BabelStream's accessor dot (kernel, copy, host task, host_accessor, then
  // the next kernel) ~3 us per call on the H200 against one stream.
  const uint32_t last = lastStream_.load(std::memory_order_relaxed);
  if (chosen < 0 && node.pinnedStream < 0) {
    Stream &previous = *streams_[last];
    std::lock_guard<std::mutex> lock(previous.mutex);
    if (previous.completed == previous.enqueued) chosen = static_cast<int>(last);
  }
  // A queue made from a native stream runs everything there (others' work it
  // depends on is waited for on the device, below).
  if (node.pinnedStream >= 0) chosen = node.pinnedStream;
  auto inTurn = [&] {  // the next stream in turn, not the busy one just passed over
    uint32_t next = nextStream_.fetch_add(1, std::memory_order_relaxed) % regular_;
    if (next == last && regular_ > 1) next = nextStream_.fetch_add(1, std::memory_order_relaxed) % regular_;
    return next;
  };
  const uint32_t index = chosen >= 0 ? static_cast<uint32_t>(chosen) : inTurn();
  if (index < regular_) lastStream_.store(index, std::memory_order_relaxed);
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
      if (feeder_->deferring(true) || waitsWithFeeder) feeder_->hand(std::move(call));
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
    if (marked) poller_->notify(false);  // only a new marker gives the poller something to do
    // Retiring asks the driver about markers: while the feeder is in the
    // driver for every launch, ask it less often (the two threads would
    // contend for the driver's locks), and retire more at a time.
    const uint64_t reapEvery = feeder_->enabled() && feeder_->busy() ? kFeedingReapInterval : kMarkerInterval;
    if (sequence % reapEvery == 0) reap(index, static_cast<int>(reapEvery / kMarkerInterval) + 3);
    stream.fed.fetch_add(1, std::memory_order_relaxed);  // (several threads may feed one stream)
  } catch (...) {
    if (node.errors) node.errors->push(std::current_exception());
    node.markComplete();
  }
}

uint32_t StreamTracker::adoptStream(void *native) {
  if (!backend_.adopt_native_queue)
    raise(Errc::feature_not_supported, std::string("the ") + backend_.name + " backend cannot adopt native queues");
  std::lock_guard<std::mutex> lock(adoptMutex_);
  uint32_t index = 0;
  char *error = nullptr;
  if (backend_.adopt_native_queue(device_, native, &index, &error) != 0)
    raise(Errc::invalid, "the native queue cannot be used: " + takeError(error));
  if (index < regular_ || index >= kMaxStreams)
    raise(Errc::runtime, "the backend gave the native queue stream " + std::to_string(index) + ", outside " +
                             std::to_string(regular_) + ".." + std::to_string(kMaxStreams - 1));
  if (index >= active_.load()) active_.store(index + 1, std::memory_order_release);
  return index;
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
      call.node->errors->push(std::make_exception_ptr(Error(
          Errc::runtime, "cannot order stream " + std::to_string(call.stream) + " after another stream: " + failure)));
    return;
  }
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

bool StreamTracker::waitOnDevice(uint32_t index, uint32_t on, uint64_t sequence, Node &node) {
  Stream &other = *streams_[on];
  std::lock_guard<std::mutex> lock(other.mutex);
  std::shared_ptr<Marker> marker = coveringMarkerLocked(other, on, sequence);
  if (!marker) return false;  // complete already
  if (feeder_->deferring(false)) {
    feeder_->hand(FeederCall{FeederCall::Kind::StreamWait, index, nullptr, &node, std::move(marker)});
    return true;
  }
  // Nothing with the feeder: the marker is recorded.
  if (!marker->handle) raise(Errc::runtime, marker->failure);
  char *error = nullptr;
  if (backend_.stream_wait_marker(device_, index, marker->handle, &error) != 0)
    raise(Errc::runtime, "cannot order stream " + std::to_string(index) + " after stream " + std::to_string(on) + ": " +
                             takeError(error));
  return false;
}

void StreamTracker::requestCompletion(Node &event) {
  uint32_t on;
  uint64_t sequence;
  {
    std::lock_guard<std::mutex> lock(event.mutex);
    if (event.status == NodeStatus::Complete) return;
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
  poller_->notify(true);  // someone on the host waits for it
}

bool StreamTracker::placeOnceEnqueued(Node &event, uint32_t &on, uint64_t &sequence) {
  std::unique_lock<std::mutex> lock(event.mutex);
  event.changed.wait(lock, [&] { return event.enqueued.load(); });
  if (event.status == NodeStatus::Complete) return false;
  on = event.stream;
  sequence = event.sequence;
  return true;
}

void *StreamTracker::markerFor(Node &event, std::shared_ptr<void> &keep) {
  uint32_t on = 0;
  uint64_t sequence = 0;
  if (!placeOnceEnqueued(event, on, sequence)) return nullptr;
  std::shared_ptr<Marker> marker;
  {
    Stream &stream = *streams_[on];
    std::lock_guard<std::mutex> lock(stream.mutex);
    marker = coveringMarkerLocked(stream, on, sequence);
  }
  if (!marker) return nullptr;  // complete (or being retired)
  if (!marker->recorded.load(std::memory_order_acquire)) feeder_->drain();
  if (!marker->handle) raise(Errc::runtime, "recording an event behind a command failed: " + marker->failure);
  poller_->notify(false);
  keep = marker;
  return marker->handle;
}

void StreamTracker::retireFinished(Node &event) {
  uint32_t on;
  uint64_t sequence;
  {
    std::lock_guard<std::mutex> lock(event.mutex);
    if (event.status == NodeStatus::Complete || !event.enqueued || event.sequence == 0) return;
    on = event.stream;
    sequence = event.sequence;
  }
  retire(on, sequence, std::string());
}

void StreamTracker::wait(Node &event) {
  feeder_->breakStreak();  // a command waited for: no longer back to back
  uint32_t on = 0;
  uint64_t sequence = 0;
  if (placeOnceEnqueued(event, on, sequence) && sequence > 0) {
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
    if (wholeStream || (marker && !marker->recorded.load(std::memory_order_acquire))) feeder_->drain();
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
  event.changed.wait(lock, [&] { return event.status == NodeStatus::Complete; });
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
            Error(Errc::kernel, entry.event->work->describe() + " did not complete on the device: " + failure)));
    } else if (entry.start && entry.end && entry.start->handle && entry.end->handle) {
      uint64_t start = 0, end = 0;
      char *error = nullptr;
      if (backend_.marker_time(device_, entry.start->handle, &start, &error) == 0 &&
          backend_.marker_time(device_, entry.end->handle, &end, &error) == 0)
        entry.event->setDeviceTimes(start, end);
      else
        ONEPASS_LOG(Warning, "no device timestamps for " << entry.event->work->describe() << ": " << takeError(error));
    }
    // What it depended on finished on the device before it ran: commands
    // whose completion no one has seen yet (other streams') complete now too
    // (§4.6.6: after waiting for a command, those it depended on report
    // complete).
    std::vector<std::shared_ptr<Node>> unseen;
    if (failure.empty()) {
      std::lock_guard<std::mutex> lock(entry.event->mutex);
      for (const auto &dependency : entry.event->dependencies)
        if (dependency->tracker && !dependency->complete.load(std::memory_order_acquire)) unseen.push_back(dependency);
    }
    for (const auto &dependency : unseen) dependency->tracker->retireFinished(*dependency);  // (first: in order)
    entry.event->markComplete();
  }
}

StreamPoller::Scan StreamTracker::scan() {
  StreamPoller::Scan result;
  for (uint32_t index = 0; index < streamCount(); ++index) {
    // A stream still being fed is reaped by the thread feeding it.
    Stream &stream = *streams_[index];
    const uint64_t fed = stream.fed.load(std::memory_order_relaxed);
    if (fed != stream.fedSeen) {
      stream.fedSeen = fed;
      result.pending = true;
      continue;
    }
    Front front = retireFront(index);
    result.pending |= front != Front::None;
    result.polled |= front == Front::Pending;
    result.progress |= front == Front::Retired;
  }
  return result;
}

}  // namespace onepass::rt
