// The stream tracker's feeder (StreamTracker.h): a thread that makes the
// driver calls of back-to-back commands, so the driver's microseconds per
// launch run beside the submitting thread's preparation of the next command
// instead of after it.
//
// Calls go into a ring that any thread fills in ticket order and the feeder
// alone empties, in order (a bounded multi-producer queue: a slot's turn says
// whose it is). The feeder makes each call through the tracker's `perform`.
// Once kFeederStreak commands have come without a wait for any, launches go
// here; while anything is in the ring, every call goes here too (one order
// for all), and whatever needs the device to have a call waits for the
// feeder first (drain).
#pragma once

#include "BackendInterface.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace onepass::rt {

struct Node;
class AsyncWork;
struct StreamMarker;

// One driver call that puts work on a stream.
struct FeederCall {
  enum class Kind { Enqueue, Record, StreamWait } kind = Kind::Enqueue;
  uint32_t stream = 0;
  AsyncWork *work = nullptr;             // Enqueue: alive until its node retires, after this call
  Node *node = nullptr;                  // Enqueue, StreamWait: where a failure goes
  std::shared_ptr<StreamMarker> marker;  // Record, StreamWait
};

class StreamFeeder {
public:
  static constexpr uint64_t kRing = 1024;
  static constexpr uint32_t kStreak = 16;
  static constexpr std::chrono::microseconds kBackOff{50};

  // `enabled`: calls may be handed over at all; `always`: every call is
  // (ONEPASS_GPU_FEEDER=always). `perform` makes one call.
  StreamFeeder(bool enabled, bool always, std::function<void(FeederCall &)> perform);
  ~StreamFeeder();  // makes every call still in the ring first
  StreamFeeder(const StreamFeeder &) = delete;
  StreamFeeder &operator=(const StreamFeeder &) = delete;

  bool enabled() const { return enabled_; }
  // Whether a driver call goes to the feeder now (the caller holds the lock
  // of the call's stream). `launch`: an enqueue, which counts towards the streak.
  bool deferring(bool launch);
  void hand(FeederCall call);
  // Whether calls handed over are still to be made.
  bool busy() const { return handed_.load(std::memory_order_acquire) != fedOn_.load(std::memory_order_acquire); }
  // Waits until every call handed over so far is made.
  void drain();
  // A host thread waited for a command: commands are no longer back to back.
  void breakStreak() { streak_.store(0, std::memory_order_relaxed); }

private:
  struct Slot {
    std::atomic<uint64_t> turn{0};  // ticket t may fill it at t; filled at t + 1
    FeederCall call;
  };
  void start();
  void wake();
  void prefetchAhead();
  void feed();

  const bool enabled_, always_;
  const std::function<void(FeederCall &)> perform_;
  std::unique_ptr<Slot[]> slots_;
  alignas(64) std::atomic<uint64_t> handed_{0};  // tickets taken by submitting threads
  alignas(64) std::atomic<uint64_t> fedOn_{0};   // calls the feeder has made (it alone writes)
  uint64_t next_ = 0;                            // the feeder's next ticket (its own)
  // Commands submitted since a host thread last waited for one (racy counts
  // are fine: it only chooses between two correct paths).
  alignas(64) std::atomic<uint32_t> streak_{0};
  std::atomic<bool> asleep_{true};  // (also before its thread has started)
  std::once_flag started_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool wanted_ = false;  // under mutex_: woken to spin for what comes next
  std::thread thread_;
};

}  // namespace onepass::rt
