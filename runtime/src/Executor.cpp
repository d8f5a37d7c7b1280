#include "Executor.h"

#include "Runtime.h"

namespace onepass::rt {

Executor::Executor(unsigned lanes) {
  for (unsigned lane = 0; lane < std::max(1u, lanes); ++lane) threads_.emplace_back([this, lane] { loop(lane); });
}

Executor::~Executor() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  ready_.notify_all();
  for (std::thread &thread : threads_) thread.join();
}

void Executor::submit(std::shared_ptr<sycl::detail::event_impl> event, std::function<void()> work) {
  // One count per dependency still running, plus one held here until every
  // dependency has been asked: the last to finish makes the node ready.
  struct Pending {
    std::atomic<size_t> remaining{1};
    Task task;
  };
  auto pending = std::make_shared<Pending>();
  pending->task = Task{event, std::move(work)};
  std::vector<std::shared_ptr<sycl::detail::event_impl>> dependencies;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    dependencies = event->dependencies;
  }
  auto release = [this, pending] {
    if (pending->remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) enqueue(std::move(pending->task));
  };
  for (const auto &dependency : dependencies) {
    pending->remaining.fetch_add(1, std::memory_order_relaxed);
    if (!dependency->addSuccessor(release)) pending->remaining.fetch_sub(1, std::memory_order_relaxed);
  }
  release();
}

void Executor::enqueue(Task task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.push_back(std::move(task));
    queued_.fetch_add(1, std::memory_order_release);
  }
  ready_.notify_one();
}

void Executor::loop(unsigned lane) {
  for (;;) {
    Task task;
    // Only the first lane spins: one hot waiter is enough for back-to-back launches.
    if (lane == 0) spinUntil([&] { return queued_.load(std::memory_order_acquire) > 0; });
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ready_.wait(lock, [&] { return stop_ || !tasks_.empty(); });
      if (tasks_.empty()) return;  // stop requested and nothing left
      task = std::move(tasks_.front());
      tasks_.pop_front();
      queued_.fetch_sub(1, std::memory_order_relaxed);
    }
    task.event->markRunning();
    try {
      task.work();
    } catch (...) {
      if (task.event->errors) task.event->errors->push(std::current_exception());
    }
    task.event->markComplete();
  }
}

Executor &hostExecutor() {
  static Executor executor(2);
  return executor;
}

}  // namespace onepass::rt
