// The stream tracker's poller (StreamPoller.h).
#include "StreamPoller.h"

namespace onepass::rt {

StreamPoller::StreamPoller(std::function<Scan()> scan) : scan_(std::move(scan)) {
  thread_ = std::thread([this] { loop(); });
}

StreamPoller::~StreamPoller() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void StreamPoller::notify(bool urgent) {
  // Sequentially consistent with the poller's state and its reading of
  // recorded_: either it sees the new marker or this sees it sleeping.
  State state = state_.load();
  if (state == State::Asleep || (urgent && state == State::Dozing)) {
    std::lock_guard<std::mutex> lock(mutex_);
    wake_.notify_one();
  }
}

void StreamPoller::loop() {
  using Clock = std::chrono::steady_clock;
  auto lastWork = Clock::now();
  for (;;) {
    const uint64_t seen = recorded_.load();
    const Scan scan = scan_();
    if (scan.progress) continue;
    std::unique_lock<std::mutex> lock(mutex_);
    if (stop_) return;
    if (scan.pending) lastWork = Clock::now();
    // Work is on the device, or was a moment ago (back-to-back launches): look
    // again soon, without a wake-up from the submitting threads, which would
    // cost them a system call. Not in a tight loop either, which would contend
    // with launches for the driver's locks (waiting threads wait on their own
    // marker, they do not depend on this latency). Only urgent requests wake
    // the poller early.
    if (scan.pending || Clock::now() - lastWork < kDozeFor) {
      state_.store(State::Dozing);
      // Only streams being fed (their feeders reap them): doze, not poll;
      // fewer wake-ups near the submitting thread.
      if (recorded_.load() == seen) wake_.wait_for(lock, scan.polled ? kPollInterval : kDozeInterval);
    } else {
      state_.store(State::Asleep);
      // A marker recorded since the scan may have notified nobody.
      if (recorded_.load() == seen) wake_.wait(lock);
    }
    state_.store(State::Polling);
  }
}

}  // namespace onepass::rt
