#include "ThreadPool.h"

namespace onepass::rt {

ThreadPool::ThreadPool(unsigned threads) {
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread &t : workers_) t.join();
}

void ThreadPool::drain(const std::function<void(size_t)> &body, size_t chunks) {
  for (size_t chunk = next_.fetch_add(1); chunk < chunks; chunk = next_.fetch_add(1)) {
    body(chunk);
    finished_.fetch_add(1);
  }
}

void ThreadPool::workerLoop() {
  uint64_t seen = 0;
  for (;;) {
    const std::function<void(size_t)> *body;
    size_t chunks;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      body = body_;
      chunks = chunks_;
      ++active_;  // the job cannot end, nor the next one start, while we are in it
    }
    drain(*body, chunks);
    std::lock_guard<std::mutex> lock(mutex_);
    if (--active_ == 0) done_.notify_all();
  }
}

void ThreadPool::run(size_t chunks, const std::function<void(size_t)> &body) {
  if (chunks == 0) return;
  if (chunks == 1 || workers_.empty()) {
    for (size_t i = 0; i < chunks; ++i) body(i);
    return;
  }
  std::lock_guard<std::mutex> job(jobMutex_);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return active_ == 0; });  // late workers of the last job
    body_ = &body;
    chunks_ = chunks;
    next_ = 0;
    finished_ = 0;
    ++generation_;
  }
  wake_.notify_all();
  drain(body, chunks);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return finished_.load() == chunks && active_ == 0; });
}

}  // namespace onepass::rt
