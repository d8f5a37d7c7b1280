// A node of the task graph (runtime-spec.md, "Dependencies"): one command,
// what it waits for, who waits for it, and where it runs. The executor and
// the stream tracker schedule nodes; the SYCL layer's event_impl is a node
// (a sycl::event is the handle of its command's node) and adds nothing the
// scheduler reads.
#pragma once

#include "Log.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace onepass::rt {

class StreamTracker;
class AsyncWork;
class Executor;

uint64_t nowNanoseconds();

// Spins for at most kSpinNanoseconds until `ready()` holds. Waking a sleeping
// thread costs tens of microseconds, as much as a small GPU kernel; a short
// spin first makes back-to-back submit+wait cheap. Returns whether it held.
// Not on machines of one or two cores: there the spinning threads would take
// the cores from the threads doing the work (a long tail of slow launches).
// ONEPASS_SPIN overrides the choice (e.g. off on a node whose cores are all
// taken by MPI ranks).
inline constexpr uint64_t kSpinNanoseconds = 50000;
bool spinningPays();
template <typename Ready> bool spinUntil(Ready ready) {
  if (!spinningPays()) return ready();
  uint64_t deadline = nowNanoseconds() + kSpinNanoseconds;
  for (unsigned i = 0;; ++i) {
    if (ready()) return true;
    if ((i & 63) == 63 && nowNanoseconds() > deadline) return false;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
}

// Collects the asynchronous errors of nodes (a queue's) until someone asks
// for them; the SYCL layer delivers them to an async_handler (SYCL 2020
// §4.13.1.1). Errors never taken are logged when the sink goes.
class ErrorSink {
public:
  virtual ~ErrorSink();
  void push(std::exception_ptr error);
  std::vector<std::exception_ptr> take();

private:
  std::mutex mutex_;
  std::vector<std::exception_ptr> pending_;
};

// What an asynchronous error says, whatever its type.
std::string describeError(const std::exception_ptr &error);

enum class NodeStatus { Submitted, Running, Complete };

struct Node {
  virtual ~Node() = default;  // the SYCL layer's events are nodes; the core's own (transfers) are not events
  std::mutex mutex;
  // Called once, when the node completes (the executor's nodes waiting on it).
  std::vector<std::function<void()>> successors;
  std::condition_variable changed;
  NodeStatus status = NodeStatus::Submitted;
  std::atomic<bool> complete{false};  // mirrors status == Complete, for spinning waiters
  std::vector<std::shared_ptr<Node>> dependencies;
  std::shared_ptr<ErrorSink> errors;
  bool profiling = false;
  std::thread::id heldBy;  // a host_accessor's hold: the thread that holds it
  // The executor whose lanes run it (a synchronous node of a device's executor:
  // a buffer's transfer, a kernel on the CPU device), so that a thread waiting
  // for it can run it once it is ready instead of waking a lane. Null for the
  // host executor's nodes (hostExecutorIfMade) and asynchronous nodes.
  std::atomic<Executor *> executor{nullptr};
  uint64_t submitTime = 0, startTime = 0, endTime = 0;
  bool deviceTimes = false;  // start/end came from the device's markers

  // Asynchronous nodes (StreamTracker): where they were enqueued.
  StreamTracker *tracker = nullptr;  // null for synchronous nodes
  uint32_t stream = 0;
  int streamHint = -1;                // the stream to use if no dependency decides (in-order queues)
  int pinnedStream = -1;              // the stream it must run on (a queue made from a native stream)
  uint64_t sequence = 0;              // position on the stream; 0 until enqueued
  std::atomic<bool> enqueued{false};  // on its stream (or complete); set under `mutex`
  bool completionWanted = false;      // asked for before it was enqueued
  std::vector<std::function<void()>> enqueuedSuccessors;
  // What it runs (set when it is enqueued): `work`, owned by `ownedWork`, or
  // the node's own `embeddedWork` (a kernel's node and operation are one
  // object, the SYCL layer's KernelNode).
  AsyncWork *work = nullptr;
  std::shared_ptr<AsyncWork> ownedWork;
  AsyncWork *embeddedWork = nullptr;

  void markRunning();
  void markComplete();
  void wait();
  // The status, after making sure an asynchronous node's completion will be
  // noticed (asking is a reason to).
  NodeStatus currentStatus();
  // Registers `successor` to run at completion; false if already complete.
  bool addSuccessor(std::function<void()> successor);
  // Registers `successor` to run once the node is enqueued on its stream (or
  // complete); false if it already is.
  bool addEnqueuedSuccessor(std::function<void()> successor);
  // Records the node's place on its stream (it is running from then on) and
  // releases enqueued successors.
  void markEnqueued(uint32_t onStream, uint64_t atSequence, bool &wanted);
  // The same for a node no other thread can reach yet: no lock, no waiters.
  void markEnqueuedUnpublished(uint32_t onStream, uint64_t atSequence);
  void setDeviceTimes(uint64_t start, uint64_t end);
};

}  // namespace onepass::rt
