#include "Executor.h"

#include "Runtime.h"

namespace onepass::rt {

Executor::Executor() : thread_([this] { loop(); }) {}

Executor::~Executor() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  ready_.notify_all();
  thread_.join();
}

void Executor::submit(std::shared_ptr<sycl::detail::event_impl> event, std::function<void()> work) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.push_back(Task{std::move(event), std::move(work)});
    queued_.fetch_add(1, std::memory_order_release);
  }
  ready_.notify_one();
}

void Executor::loop() {
  for (;;) {
    Task task;
    spinUntil([&] { return queued_.load(std::memory_order_acquire) > 0; });
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ready_.wait(lock, [&] { return stop_ || !tasks_.empty(); });
      if (tasks_.empty()) return;  // stop requested and nothing left
      task = std::move(tasks_.front());
      tasks_.pop_front();
      queued_.fetch_sub(1, std::memory_order_relaxed);
    }
    for (const auto &dependency : task.event->dependencies) dependency->wait();
    task.event->markRunning();
    try {
      task.work();
    } catch (...) {
      if (task.event->errors) task.event->errors->push(std::current_exception());
    }
    task.event->markComplete();
  }
}

}  // namespace onepass::rt
