#include "StreamTracker.h"

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
struct StreamTracker::Marker {
  const onepass_backend &backend;
  uint32_t device;
  void *handle;
  uint64_t sequence;  // covers the stream's operations up to this one
  std::string failure;
  Marker(const onepass_backend &b, uint32_t d, void *h, uint64_t s) : backend(b), device(d), handle(h), sequence(s) {}
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
  for (uint32_t i = 0; i < std::min(std::max(1u, streams), kMaxStreams); ++i) streams_.push_back(std::make_unique<Stream>());
  poller_ = std::thread([this] { poll(); });
}

StreamTracker::~StreamTracker() {
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
  char *error = nullptr;
  void *handle = backend_.record_marker(device_, index, timing ? 1 : 0, &error);
  auto marker = std::make_shared<Marker>(backend_, device_, handle, stream.enqueued);
  if (!handle) marker->failure = "cannot record a marker on stream " + std::to_string(index) + ": " + takeError(error);
  stream.markers.push_back(marker);
  stream.marked = stream.enqueued;
  recorded_.fetch_add(1);
  return marker;
}

// The oldest marker that covers `sequence`, recorded now if none does yet.
std::shared_ptr<StreamTracker::Marker> StreamTracker::coveringMarkerLocked(Stream &stream, uint32_t index,
                                                                           uint64_t sequence) {
  if (sequence <= stream.completed) return nullptr;
  if (sequence > stream.marked) {
    auto marker = recordLocked(stream, index, false);
    notifyPoller();
    return marker;
  }
  for (const auto &marker : stream.markers)
    if (marker->sequence >= sequence) return marker;
  return nullptr;  // being retired right now
}

void StreamTracker::run(const std::shared_ptr<event_impl> &event, std::shared_ptr<AsyncWork> work) {
  // What the node must wait for on this device: per stream, the newest
  // operation among its unfinished dependencies there. No lock for the list:
  // it changes only when a successor of this node completes (markComplete
  // trims it), and none can before this node is enqueued.
  uint64_t needed[kMaxStreams] = {};
  int chosen = -1;
  for (const auto &dependency : event->dependencies) {
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
  const uint32_t index =
      chosen >= 0 ? static_cast<uint32_t>(chosen) : nextStream_.fetch_add(1, std::memory_order_relaxed) % streamCount();
  Stream &stream = *streams_[index];
  event->work = std::move(work);
  try {
    for (uint32_t on = 0; on < streamCount(); ++on)
      if (needed[on] > 0 && on != index) waitOnDevice(index, on, needed[on]);
    uint64_t sequence;
    bool wanted = false;
    {
      std::lock_guard<std::mutex> lock(stream.mutex);
      Entry entry{event, 0, nullptr, nullptr};
      if (event->profiling) entry.start = recordLocked(stream, index, true);
      event->work->enqueue(static_cast<int>(index));
      sequence = ++stream.enqueued;
      entry.sequence = sequence;
      if (event->profiling) entry.end = recordLocked(stream, index, true);
      stream.running.push_back(std::move(entry));
      if (sequence - stream.marked >= kMarkerInterval) recordLocked(stream, index, false);
    }
    event->markEnqueued(index, sequence, wanted);
    if (wanted) requestCompletion(*event);
    notifyPoller();
  } catch (...) {
    if (event->errors) event->errors->push(std::current_exception());
    event->markComplete();
  }
}

void StreamTracker::waitOnDevice(uint32_t index, uint32_t on, uint64_t sequence) {
  Stream &other = *streams_[on];
  std::lock_guard<std::mutex> lock(other.mutex);
  std::shared_ptr<Marker> marker = coveringMarkerLocked(other, on, sequence);
  if (!marker) return;  // complete already
  if (!marker->handle) raise(sycl::errc::runtime, marker->failure);
  char *error = nullptr;
  if (backend_.stream_wait_marker(device_, index, marker->handle, &error) != 0)
    raise(sycl::errc::runtime, "cannot order stream " + std::to_string(index) + " after stream " + std::to_string(on) +
                                   ": " + takeError(error));
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
  Stream &stream = *streams_[on];
  std::lock_guard<std::mutex> lock(stream.mutex);
  coveringMarkerLocked(stream, on, sequence);
}

void StreamTracker::wait(event_impl &event) {
  requestCompletion(event);
  std::shared_ptr<Marker> marker;
  uint32_t on = 0;
  {
    // It may still be on its way to the stream (the executor's feeder).
    spinUntil([&] { return event.enqueued.load(std::memory_order_acquire); });
    std::unique_lock<std::mutex> lock(event.mutex);
    event.changed.wait(lock, [&] { return event.enqueued.load(); });
    if (event.status != sycl::info::event_command_status::complete && event.sequence > 0) on = event.stream;
  }
  if (!event.complete.load(std::memory_order_acquire) && event.sequence > 0) {
    Stream &stream = *streams_[on];
    std::lock_guard<std::mutex> lock(stream.mutex);
    marker = coveringMarkerLocked(stream, on, event.sequence);
  }
  if (marker) {
    char *error = nullptr;
    std::string failure = marker->failure;
    if (marker->handle && backend_.wait_marker(device_, marker->handle, &error) != 0) failure = takeError(error);
    retire(on, marker, failure);
  }
  std::unique_lock<std::mutex> lock(event.mutex);
  event.changed.wait(lock, [&] { return event.status == sycl::info::event_command_status::complete; });
}

void StreamTracker::retire(uint32_t index, const std::shared_ptr<Marker> &marker, const std::string &failure) {
  Stream &stream = *streams_[index];
  std::vector<Entry> done;
  {
    std::lock_guard<std::mutex> lock(stream.mutex);
    while (!stream.markers.empty() && stream.markers.front()->sequence <= marker->sequence) stream.markers.pop_front();
    while (!stream.running.empty() && stream.running.front().sequence <= marker->sequence) {
      done.push_back(std::move(stream.running.front()));
      stream.running.pop_front();
    }
    stream.completed = std::max(stream.completed, marker->sequence);
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

void StreamTracker::notifyPoller() {
  // Sequentially consistent with the poller's idle flag and its reading of
  // recorded_: either it sees the new marker or this sees it idle.
  if (pollerIdle_.load()) {
    std::lock_guard<std::mutex> lock(pollerMutex_);
    pollerWake_.notify_one();
  }
}

void StreamTracker::poll() {
  for (;;) {
    const uint64_t seen = recorded_.load();
    bool pending = false, progress = false;
    for (uint32_t index = 0; index < streamCount(); ++index) {
      std::shared_ptr<Marker> front;
      {
        std::lock_guard<std::mutex> lock(streams_[index]->mutex);
        if (streams_[index]->markers.empty()) continue;
        front = streams_[index]->markers.front();
      }
      pending = true;
      if (!front->handle) {
        retire(index, front, front->failure);
        progress = true;
        continue;
      }
      char *error = nullptr;
      int state = backend_.query_marker(device_, front->handle, &error);
      if (state == 0) continue;
      retire(index, front, state < 0 ? takeError(error) : std::string());
      progress = true;
    }
    if (progress) continue;
    if (!pending) {
      std::unique_lock<std::mutex> lock(pollerMutex_);
      pollerIdle_.store(true);
      // A marker recorded since the scan may have notified nobody.
      if (recorded_.load() == seen && !stop_) pollerWake_.wait(lock);
      pollerIdle_.store(false);
      if (stop_) return;
      continue;
    }
    {
      std::lock_guard<std::mutex> lock(pollerMutex_);
      if (stop_) return;
    }
    // Work is on the device: query again soon, but not in a tight loop, which
    // would contend with launches for the driver's locks (waiting threads
    // wait on their own marker, they do not depend on this latency).
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

}  // namespace onepass::rt
