// Task-graph nodes: completion, successors, waiting (see Node.h).
#include "Node.h"
#include "Environment.h"
#include "Executor.h"
#include "StreamTracker.h"

#include <chrono>

namespace onepass::rt {

uint64_t nowNanoseconds() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

bool spinningPays() {
  static const bool pays = env::spin(std::thread::hardware_concurrency() > 2);
  return pays;
}

std::string describeError(const std::exception_ptr &error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception &e) {
    return e.what();
  } catch (...) {
    return "an error of unknown type";
  }
}

void ErrorSink::push(std::exception_ptr error) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.push_back(std::move(error));
}

std::vector<std::exception_ptr> ErrorSink::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::exception_ptr> taken;
  taken.swap(pending_);
  return taken;
}

ErrorSink::~ErrorSink() {
  // Errors nobody asked for must not vanish silently.
  for (const std::exception_ptr &e : pending_)
    ONEPASS_LOG(Error, "asynchronous error never delivered (call queue::wait_and_throw): " << describeError(e));
}

void Node::markRunning() {
  std::lock_guard<std::mutex> lock(mutex);
  status = NodeStatus::Running;
  if (profiling && !deviceTimes) startTime = nowNanoseconds();
}

void Node::setDeviceTimes(uint64_t start, uint64_t end) {
  std::lock_guard<std::mutex> lock(mutex);
  startTime = start;
  endTime = end;
  deviceTimes = true;
}

void Node::markEnqueued(uint32_t onStream, uint64_t atSequence, bool &wanted) {
  std::vector<std::function<void()>> waiting;
  {
    std::lock_guard<std::mutex> lock(mutex);
    stream = onStream;
    sequence = atSequence;
    enqueued = true;
    if (status == NodeStatus::Submitted) {
      status = NodeStatus::Running;
      if (profiling && !deviceTimes) startTime = nowNanoseconds();
    }
    wanted = completionWanted;
    waiting.swap(enqueuedSuccessors);
  }
  changed.notify_all();
  for (auto &successor : waiting) successor();
}

void Node::markEnqueuedUnpublished(uint32_t onStream, uint64_t atSequence) {
  stream = onStream;
  sequence = atSequence;
  status = NodeStatus::Running;
  if (profiling && !deviceTimes) startTime = nowNanoseconds();
  enqueued.store(true, std::memory_order_release);
}

bool Node::addEnqueuedSuccessor(std::function<void()> successor) {
  std::lock_guard<std::mutex> lock(mutex);
  if (enqueued || status == NodeStatus::Complete) return false;
  enqueuedSuccessors.push_back(std::move(successor));
  return true;
}

void Node::markComplete() {
  std::vector<std::shared_ptr<Node>> finished;
  std::vector<std::function<void()>> waiting;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (profiling && !deviceTimes) endTime = nowNanoseconds();
    status = NodeStatus::Complete;
    complete.store(true, std::memory_order_release);
    enqueued = true;
    finished = dependencies;
    waiting.swap(successors);
    for (auto &successor : enqueuedSuccessors) waiting.push_back(std::move(successor));
    enqueuedSuccessors.clear();
  }
  changed.notify_all();
  for (auto &successor : waiting) successor();
  // Complete dependencies need no wait lists of their own any more: dropping
  // them keeps chains of events (in-order queues) from growing without bound.
  for (const auto &dependency : finished) {
    std::lock_guard<std::mutex> lock(dependency->mutex);
    dependency->dependencies.clear();
  }
}

bool Node::addSuccessor(std::function<void()> successor) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (status == NodeStatus::Complete) return false;
    successors.push_back(std::move(successor));
  }
  // Someone on the host now waits for this node: its completion must be seen.
  if (tracker) tracker->requestCompletion(*this);
  return true;
}

void Node::wait() {
  if (tracker && !complete.load(std::memory_order_acquire)) {
    tracker->wait(*this);
    return;
  }
  // A host node behind asynchronous ones (a host task after a copy, as a
  // reduction into shared USM ends): wait for those on their streams, which
  // retires them now instead of at the poller's next look, up to
  // StreamPoller::kPollInterval later.
  if (!complete.load(std::memory_order_acquire)) {
    std::vector<std::shared_ptr<Node>> pending;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (status == NodeStatus::Submitted)
        for (const auto &dependency : dependencies)
          if (dependency->tracker && !dependency->complete.load(std::memory_order_acquire))
            pending.push_back(dependency);
    }
    for (const auto &dependency : pending) dependency->wait();
    // A node now ready (a host task, a buffer's transfer to the host behind a
    // kernel, as a host_accessor's): run it here rather than wait for a lane
    // to wake, which costs more than a small copy.
    Executor *runner = executor.load(std::memory_order_acquire);
    if (!runner) runner = hostExecutorIfMade();
    if (runner) runner->runIfQueued(*this);
  }
  if (spinUntil([&] { return complete.load(std::memory_order_acquire); })) return;
  std::unique_lock<std::mutex> lock(mutex);
  changed.wait(lock, [&] { return status == NodeStatus::Complete; });
}

NodeStatus Node::currentStatus() {
  if (tracker && !complete.load(std::memory_order_acquire)) tracker->requestCompletion(*this);
  std::lock_guard<std::mutex> lock(mutex);
  return status;
}

}  // namespace onepass::rt
