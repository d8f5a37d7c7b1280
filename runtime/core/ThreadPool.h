// The CPU device's worker threads. One job at a time: a job is a number of
// chunks, claimed by the workers and the calling thread until none is left.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace onepass::rt {

class ThreadPool {
public:
  explicit ThreadPool(unsigned threads);  // including the calling thread
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // Runs body(0) ... body(chunks - 1) on the pool and returns when all are done.
  void run(size_t chunks, const std::function<void(size_t)> &body);

private:
  void workerLoop();
  void drain(const std::function<void(size_t)> &body, size_t chunks);

  std::vector<std::thread> workers_;
  std::mutex jobMutex_;  // one job at a time
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(size_t)> *body_ = nullptr;
  size_t chunks_ = 0;
  std::atomic<size_t> next_{0};
  std::atomic<size_t> finished_{0};
  unsigned active_ = 0;  // workers inside drain()
  uint64_t generation_ = 0;
  bool stop_ = false;
};

}  // namespace onepass::rt
