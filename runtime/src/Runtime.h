// The runtime's internal objects behind the SYCL API's handles
// (sycl/detail/runtime_api.hpp declares them, opaque to users).
#pragma once

#include "Executor.h"
#include "KernelProvider.h"
#include "StreamTracker.h"
#include "BackendInterface.h"

#include <sycl/detail/runtime_api.hpp>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace onepass::rt {

// Collects the asynchronous errors of a queue (SYCL 2020 §4.13.1.1) until the
// user asks for them (wait_and_throw, throw_asynchronous).
struct AsyncErrorSink {
  std::mutex mutex;
  std::vector<std::exception_ptr> pending;
  sycl::async_handler handler;
  void push(std::exception_ptr error);
  void deliver();  // hands pending errors to the handler, or the default one
  ~AsyncErrorSink();
};

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

}  // namespace onepass::rt

namespace sycl::detail {

struct platform_impl {
  const onepass_backend *backend = nullptr;
  platform_properties properties;
  std::vector<std::shared_ptr<device_impl>> devices;
  std::once_flag defaultContextOnce;
  std::shared_ptr<context_impl> defaultContext;  // all devices, no async handler
};

struct device_impl {
  const onepass_backend *backend = nullptr;
  uint32_t index = 0;
  platform_impl *platform = nullptr;  // platforms live for the whole process
  device_properties properties;
  onepass::rt::DeviceTarget target;  // what its kernels are compiled for
  std::once_flag executorOnce;
  std::atomic<onepass::rt::Executor *> executorReady{nullptr};  // set once made: no call_once per command
  // Asynchronous streams, if the backend has them (and ONEPASS_GPU_STREAMS
  // does not turn them off); made with the executor.
  std::unique_ptr<onepass::rt::StreamTracker> streams;
  std::unique_ptr<onepass::rt::Executor> executor;
  onepass::rt::Executor &getExecutor();
};

struct context_impl {
  std::vector<std::shared_ptr<device_impl>> devices;
  async_handler handler;
};

struct event_impl {
  std::mutex mutex;
  // Called once, when the event completes (the executor's nodes waiting on it).
  std::vector<std::function<void()>> successors;
  std::condition_variable changed;
  info::event_command_status status = info::event_command_status::submitted;
  std::atomic<bool> complete{false};  // mirrors status == complete, for spinning waiters
  std::vector<std::shared_ptr<event_impl>> dependencies;
  std::shared_ptr<onepass::rt::AsyncErrorSink> errors;
  bool profiling = false;
  std::thread::id heldBy;  // a host_accessor's hold: the thread that holds it
  uint64_t submitTime = 0, startTime = 0, endTime = 0;
  bool deviceTimes = false;  // start/end came from the device's markers

  // Asynchronous nodes (StreamTracker): where they were enqueued.
  onepass::rt::StreamTracker *tracker = nullptr;  // null for synchronous nodes
  uint32_t stream = 0;
  int streamHint = -1;                // the stream to use if no dependency decides (in-order queues)
  uint64_t sequence = 0;              // position on the stream; 0 until enqueued
  std::atomic<bool> enqueued{false};  // on its stream (or complete); set under `mutex`
  bool completionWanted = false;      // asked for before it was enqueued
  std::vector<std::function<void()>> enqueuedSuccessors;
  // What it runs (set when it is enqueued): `work`, owned by `ownedWork`, or
  // the event's own `embeddedWork` (a kernel's event and operation are one
  // object, Queue.cpp's KernelNode).
  onepass::rt::AsyncWork *work = nullptr;
  std::shared_ptr<onepass::rt::AsyncWork> ownedWork;
  onepass::rt::AsyncWork *embeddedWork = nullptr;

  void markRunning();
  void markComplete();
  void wait();
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

struct queue_impl {
  std::shared_ptr<context_impl> context;
  std::shared_ptr<device_impl> device;
  queue_options options;
  std::shared_ptr<onepass::rt::AsyncErrorSink> errors;
  std::mutex mutex;
  std::shared_ptr<event_impl> last;                     // the previous command (in-order: all queue::wait needs)
  std::deque<std::shared_ptr<event_impl>> outstanding;  // out-of-order queues: for queue::wait
  std::size_t sweepAt = 64;                             // next full sweep of `outstanding`
};

}  // namespace sycl::detail
