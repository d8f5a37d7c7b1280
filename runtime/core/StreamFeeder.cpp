// The stream tracker's feeder (StreamFeeder.h).
#include "StreamFeeder.h"

#include "Node.h"
#include "StreamTracker.h"

namespace onepass::rt {

StreamFeeder::StreamFeeder(bool enabled, bool always, std::function<void(FeederCall &)> perform)
    : enabled_(enabled), always_(always), perform_(std::move(perform)) {}

StreamFeeder::~StreamFeeder() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true);
  }
  wake_.notify_all();
  thread_.join();  // it makes what it still holds first
}

bool StreamFeeder::deferring(bool launch) {
  if (!enabled_) return false;
  if (always_) {
    start();
    return true;
  }
  if (busy()) return true;  // calls still in the ring: this one goes behind them
  if (!launch) return false;
  const uint32_t streak = streak_.load(std::memory_order_relaxed) + 1;
  streak_.store(streak, std::memory_order_relaxed);
  if (streak < kStreak) return false;
  // Back to back: hand over while the feeder is awake; wake it now and then
  // (a system call), making the calls on the caller's thread until it is.
  if (!asleep_.load()) return true;
  if (streak % kStreak == 0) wake();
  return false;
}

void StreamFeeder::hand(FeederCall call) {
  const uint64_t ticket = handed_.fetch_add(1, std::memory_order_acq_rel);
  Slot &slot = slots_[ticket % kRing];
  // A full ring (the device's driver far behind): sleep while the feeder
  // frees the slot. Spinning would take cycles from the feeder's core (a
  // sibling hardware thread) or from the machine.
  while (slot.turn.load(std::memory_order_acquire) != ticket) std::this_thread::sleep_for(kBackOff);
  slot.call = std::move(call);
  slot.turn.store(ticket + 1);  // sequentially consistent: against the feeder falling asleep
  if (asleep_.load()) wake();
}

void StreamFeeder::drain() {
  if (!enabled_) return;
  const uint64_t target = handed_.load(std::memory_order_acquire);
  auto drained = [&] { return fedOn_.load(std::memory_order_acquire) >= target; };
  while (!spinUntil(drained)) std::this_thread::sleep_for(std::chrono::microseconds(20));
}

// The ring and the thread, made when first wanted: not on the way to a
// program's first launch.
void StreamFeeder::start() {
  std::call_once(started_, [this] {
    slots_.reset(new Slot[kRing]);
    for (uint64_t i = 0; i < kRing; ++i) slots_[i].turn.store(i, std::memory_order_relaxed);
    thread_ = std::thread([this] { feed(); });
  });
}

void StreamFeeder::wake() {
  start();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    wanted_ = true;
  }
  wake_.notify_one();
}

// What the next calls will read was written on the submitting thread's core:
// fetching it while the driver works on this call takes those transfers off
// the feeder's path (the next slot's operation now, the slot after it for the
// next round).
void StreamFeeder::prefetchAhead() {
  __builtin_prefetch(&slots_[(next_ + 1) % kRing]);
  const Slot &next = slots_[next_ % kRing];
  if (next.turn.load(std::memory_order_acquire) != next_ + 1) return;
  if (const auto *work = reinterpret_cast<const char *>(next.call.work))
    for (int line = 0; line < 8; ++line) __builtin_prefetch(work + 64 * line);
}

void StreamFeeder::feed() {
  asleep_.store(false);
  for (;;) {
    Slot &slot = slots_[next_ % kRing];
    auto filled = [&] { return slot.turn.load(std::memory_order_acquire) == next_ + 1; };
    if (filled() || (spinUntil([&] { return filled() || stop_.load(std::memory_order_relaxed); }) && filled())) {
      FeederCall call = std::move(slot.call);
      slot.turn.store(next_ + kRing, std::memory_order_release);
      ++next_;
      prefetchAhead();
      perform_(call);
      fedOn_.store(next_, std::memory_order_release);
      continue;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (stop_.load() && !filled()) return;  // every call handed over is made
    asleep_.store(true);                    // sequentially consistent: against hand()'s fill
    wake_.wait(lock, [&] { return wanted_ || stop_.load() || slot.turn.load() == next_ + 1; });
    wanted_ = false;
    asleep_.store(false);
  }
}

}  // namespace onepass::rt
