// The stream tracker's poller (StreamTracker.h): a thread per device that
// watches the streams' markers and retires the work they cover, for nodes
// nobody waits on (waiting threads wait on their own marker).
//
// It polls while markers are pending, dozes (wakes up by itself) for a while
// after, and then sleeps until notified. It never takes a stream's lock while
// holding its own: `recorded` counts the markers recorded, so it sees whether
// one came since it last looked.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace onepass::rt {

class StreamPoller {
public:
  // What one look over the streams found.
  struct Scan {
    bool pending = false;   // work is outstanding somewhere
    bool progress = false;  // something was retired: look again at once
    bool polled = false;    // a marker was asked and is not complete yet
  };
  static constexpr std::chrono::microseconds kPollInterval{20}, kDozeInterval{200};
  static constexpr std::chrono::milliseconds kDozeFor{5};

  explicit StreamPoller(std::function<Scan()> scan);
  ~StreamPoller();
  StreamPoller(const StreamPoller &) = delete;
  StreamPoller &operator=(const StreamPoller &) = delete;

  // A marker was recorded: there is something to poll.
  void markerRecorded() { recorded_.fetch_add(1); }
  // Wakes the poller if it sleeps (or, `urgent`: someone on the host waits
  // for a completion, if it dozes).
  void notify(bool urgent);

private:
  enum class State { Polling, Dozing, Asleep };
  void loop();

  const std::function<Scan()> scan_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<State> state_{State::Polling};
  std::atomic<uint64_t> recorded_{0};
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace onepass::rt
