// Events (SYCL 2020 §4.6.6) and asynchronous error delivery (§4.13.1).
#include "Environment.h"
#include "Errors.h"
#include "Log.h"
#include "Runtime.h"

#include <chrono>
#include <cstdio>
#include <thread>

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

namespace {
// What an asynchronous error says, whatever its type.
std::string describe(const std::exception_ptr &error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception &e) {
    return e.what();
  } catch (...) {
    return "an error of unknown type";
  }
}
}  // namespace

void AsyncErrorSink::push(std::exception_ptr error) {
  std::lock_guard<std::mutex> lock(mutex);
  pending.push_back(std::move(error));
}

void AsyncErrorSink::deliver() {
  sycl::exception_list list;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (pending.empty()) return;
    for (auto &e : pending) list.push_back(e);
    pending.clear();
  }
  if (handler) {
    handler(std::move(list));
    return;
  }
  // The default handler (§4.13.1.2): report every error, then terminate.
  for (const std::exception_ptr &e : list)
    std::fprintf(stderr, "onepass: unhandled asynchronous SYCL error: %s\n", describe(e).c_str());
  std::fprintf(stderr, "onepass: no async_handler was given to the queue or context; terminating\n");
  std::terminate();
}

AsyncErrorSink::~AsyncErrorSink() {
  // Errors nobody asked for must not vanish silently.
  for (const std::exception_ptr &e : pending)
    ONEPASS_LOG(Error, "asynchronous error never delivered (call queue::wait_and_throw): " << describe(e));
}

}  // namespace onepass::rt

namespace sycl::detail {

void event_impl::markRunning() {
  std::lock_guard<std::mutex> lock(mutex);
  status = info::event_command_status::running;
  if (profiling && !deviceTimes) startTime = onepass::rt::nowNanoseconds();
}

void event_impl::setDeviceTimes(uint64_t start, uint64_t end) {
  std::lock_guard<std::mutex> lock(mutex);
  startTime = start;
  endTime = end;
  deviceTimes = true;
}

void event_impl::markEnqueued(uint32_t onStream, uint64_t atSequence, bool &wanted) {
  std::vector<std::function<void()>> waiting;
  {
    std::lock_guard<std::mutex> lock(mutex);
    stream = onStream;
    sequence = atSequence;
    enqueued = true;
    if (status == info::event_command_status::submitted) {
      status = info::event_command_status::running;
      if (profiling && !deviceTimes) startTime = onepass::rt::nowNanoseconds();
    }
    wanted = completionWanted;
    waiting.swap(enqueuedSuccessors);
  }
  changed.notify_all();
  for (auto &successor : waiting) successor();
}

void event_impl::markEnqueuedUnpublished(uint32_t onStream, uint64_t atSequence) {
  stream = onStream;
  sequence = atSequence;
  status = info::event_command_status::running;
  if (profiling && !deviceTimes) startTime = onepass::rt::nowNanoseconds();
  enqueued.store(true, std::memory_order_release);
}

bool event_impl::addEnqueuedSuccessor(std::function<void()> successor) {
  std::lock_guard<std::mutex> lock(mutex);
  if (enqueued || status == info::event_command_status::complete) return false;
  enqueuedSuccessors.push_back(std::move(successor));
  return true;
}

void event_impl::markComplete() {
  std::vector<std::shared_ptr<event_impl>> finished;
  std::vector<std::function<void()>> waiting;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (profiling && !deviceTimes) endTime = onepass::rt::nowNanoseconds();
    status = info::event_command_status::complete;
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

bool event_impl::addSuccessor(std::function<void()> successor) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (status == info::event_command_status::complete) return false;
    successors.push_back(std::move(successor));
  }
  // Someone on the host now waits for this node: its completion must be seen.
  if (tracker) tracker->requestCompletion(*this);
  return true;
}

void event_impl::wait() {
  if (tracker && !complete.load(std::memory_order_acquire)) {
    tracker->wait(*this);
    return;
  }
  if (onepass::rt::spinUntil([&] { return complete.load(std::memory_order_acquire); })) return;
  std::unique_lock<std::mutex> lock(mutex);
  changed.wait(lock, [&] { return status == info::event_command_status::complete; });
}

void event_wait(const std::shared_ptr<event_impl> &event) {
  if (event) event->wait();
}

void event_wait_and_throw(const std::shared_ptr<event_impl> &event) {
  if (!event) return;
  event->wait();
  if (event->errors) event->errors->deliver();
}

info::event_command_status event_status(const event_impl &event) {
  // Asking is a reason to notice the completion of an asynchronous node.
  if (event.tracker && !event.complete.load(std::memory_order_acquire))
    event.tracker->requestCompletion(const_cast<event_impl &>(event));
  std::lock_guard<std::mutex> lock(const_cast<event_impl &>(event).mutex);
  return event.status;
}

std::vector<std::shared_ptr<event_impl>> event_dependencies(const event_impl &event) {
  std::lock_guard<std::mutex> lock(const_cast<event_impl &>(event).mutex);
  return event.dependencies;
}

uint64_t event_profiling(const event_impl &event, profiling_point point) {
  auto &e = const_cast<event_impl &>(event);
  if (!e.profiling)
    onepass::rt::raise(errc::invalid, "profiling information requires a queue created with "
                                      "property::queue::enable_profiling (SYCL 2020 §4.6.6.2)");
  if (point != profiling_point::submit) e.wait();
  std::lock_guard<std::mutex> lock(e.mutex);
  switch (point) {
  case profiling_point::submit: return e.submitTime;
  case profiling_point::start: return e.startTime;
  case profiling_point::end: return e.endTime;
  }
  return 0;
}

}  // namespace sycl::detail
