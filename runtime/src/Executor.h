// One worker thread per device that runs the device's operations in
// submission order, each after its dependencies. (The task-graph scheduler of
// the buffer runtime will replace this FIFO with a DAG that runs independent
// nodes concurrently.)
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace sycl::detail {
struct event_impl;
}

namespace onepass::rt {

class Executor {
public:
  Executor();
  ~Executor();
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  // Runs `work` once the dependencies of `event` are complete, then completes `event`.
  void submit(std::shared_ptr<sycl::detail::event_impl> event, std::function<void()> work);

private:
  struct Task {
    std::shared_ptr<sycl::detail::event_impl> event;
    std::function<void()> work;
  };
  void loop();

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Task> tasks_;
  std::atomic<size_t> queued_{0};  // tasks_.size(), readable without the lock
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace onepass::rt
