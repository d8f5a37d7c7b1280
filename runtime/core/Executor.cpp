#include "Executor.h"

#include "Node.h"
#include "StreamTracker.h"

#include <algorithm>

namespace onepass::rt {

namespace {
std::atomic<Executor *> madeHostExecutor{nullptr};  // hostExecutor's, while it lives
}

Executor::Executor(unsigned lanes, StreamTracker *streams) : streams_(streams) {
  for (unsigned lane = 0; lane < std::max(1u, lanes); ++lane) threads_.emplace_back([this, lane] { loop(lane); });
}

Executor::~Executor() {
  Executor *self = this;
  madeHostExecutor.compare_exchange_strong(self, nullptr);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  ready_.notify_all();
  for (std::thread &thread : threads_) thread.join();
}

void Executor::submit(std::shared_ptr<Node> event, std::function<void()> work) {
  // (The host executor is destroyed at exit: its nodes find it through
  // hostExecutorIfMade. Devices' executors live as long as the process.)
  if (this != madeHostExecutor.load(std::memory_order_acquire)) event->executor.store(this, std::memory_order_release);
  submitTask(Task{std::move(event), std::move(work), nullptr, false});
}

void Executor::submitAsync(std::shared_ptr<Node> event, std::shared_ptr<AsyncWork> work, bool unpublished) {
  submitTask(Task{std::move(event), nullptr, std::move(work), true}, unpublished);
}

void Executor::submitTask(Task task, bool unpublished) {
  // A node whose dependencies are all satisfied already (the common case of
  // an in-order queue) needs no bookkeeping. Its event is not published yet,
  // so its dependency list does not change under us; complete and enqueued
  // never revert.
  const bool async = task.isAsync;
  auto satisfied = [&](const std::shared_ptr<Node> &dependency) {
    if (dependency->complete.load(std::memory_order_acquire)) return true;
    return async && streams_ && dependency->tracker == streams_ && dependency->enqueued.load(std::memory_order_acquire);
  };
  if (std::all_of(task.event->dependencies.begin(), task.event->dependencies.end(), satisfied)) {
    runNow(std::move(task), unpublished);
    return;
  }
  // One count per dependency still pending, plus one held here until every
  // dependency has been asked: the last to release makes the node ready.
  struct Pending {
    std::atomic<size_t> remaining{1};
    Task task;
  };
  auto pending = std::make_shared<Pending>();
  pending->task = std::move(task);
  const std::shared_ptr<Node> &event = pending->task.event;
  std::vector<std::shared_ptr<Node>> dependencies;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    dependencies = event->dependencies;
  }
  auto release = [this, pending] {
    if (pending->remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) enqueue(std::move(pending->task));
  };
  for (const auto &dependency : dependencies) {
    pending->remaining.fetch_add(1, std::memory_order_relaxed);
    // On this device's streams, being enqueued is enough: stream order and
    // markers order the node after it on the device.
    bool waits = async && streams_ && dependency->tracker == streams_ ? dependency->addEnqueuedSuccessor(release)
                                                                      : dependency->addSuccessor(release);
    if (!waits) pending->remaining.fetch_sub(1, std::memory_order_relaxed);
  }
  if (pending->remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) runNow(std::move(pending->task), false);
}

// A ready node: an asynchronous one is enqueued by the calling thread (saving
// a thread hop), others go to the lanes.
void Executor::runNow(Task task, bool unpublished) {
  if (task.isAsync) streams_->run(std::move(task.event), std::move(task.async), unpublished);
  else enqueue(std::move(task));
}

void Executor::enqueue(Task task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.push_back(std::move(task));
    queued_.fetch_add(1, std::memory_order_release);
  }
  ready_.notify_one();
}

bool Executor::runIfQueued(const Node &event) {
  Task task;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = std::find_if(tasks_.begin(), tasks_.end(),
                              [&](const Task &queued) { return !queued.isAsync && queued.event.get() == &event; });
    if (found == tasks_.end()) return false;
    task = std::move(*found);
    tasks_.erase(found);
    queued_.fetch_sub(1, std::memory_order_relaxed);
  }
  runTask(task);
  return true;
}

void Executor::runTask(Task &task) {
  task.event->markRunning();
  try {
    task.work();
  } catch (...) {
    if (task.event->errors) task.event->errors->push(std::current_exception());
  }
  task.event->markComplete();
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
    if (task.isAsync) {
      streams_->run(std::move(task.event), std::move(task.async), false);  // completes later, seen by the tracker
      continue;
    }
    runTask(task);
  }
}

Executor &hostExecutor() {
  static Executor executor(2);
  madeHostExecutor.store(&executor, std::memory_order_release);
  return executor;
}

Executor *hostExecutorIfMade() { return madeHostExecutor.load(std::memory_order_acquire); }

}  // namespace onepass::rt
