// Runs the nodes of the task graph of one device (or of the host, for host
// tasks). A node becomes ready when its last dependency completes (events call
// their successors); ready nodes run in submission order of readiness on
// `lanes` worker threads, so independent nodes may run concurrently, also on
// one device (runtime-spec.md, "Dependencies").
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace sycl::detail {
struct event_impl;
}

namespace onepass::rt {

class Executor {
public:
  explicit Executor(unsigned lanes);
  ~Executor();
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  // Runs `work` once every event in event->dependencies is complete, then
  // completes `event`. An exception from `work` goes to the event's error sink.
  void submit(std::shared_ptr<sycl::detail::event_impl> event, std::function<void()> work);

  unsigned lanes() const { return static_cast<unsigned>(threads_.size()); }

private:
  struct Task {
    std::shared_ptr<sycl::detail::event_impl> event;
    std::function<void()> work;
  };
  void enqueue(Task task);
  void loop(unsigned lane);

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Task> tasks_;
  std::atomic<size_t> queued_{0};  // tasks_.size(), readable without the lock
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

// Where host tasks run: not on a device's lanes, so a long host task never
// holds up kernels that do not depend on it.
Executor &hostExecutor();

}  // namespace onepass::rt
