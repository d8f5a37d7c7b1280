// The SYCL layer's objects behind the SYCL API's handles
// (sycl/detail/runtime_api.hpp declares them, opaque to users).
#pragma once

#include "Device.h"
#include "Node.h"
#include "KernelProvider.h"
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

// A queue's asynchronous errors (SYCL 2020 §4.13.1.1), kept until the user
// asks for them (wait_and_throw, throw_asynchronous).
struct AsyncErrorSink : ErrorSink {
  sycl::async_handler handler;
  void deliver();  // hands pending errors to the handler, or the default one
};

}  // namespace onepass::rt

namespace sycl::detail {

struct platform_impl {
  const onepass_backend *backend = nullptr;
  platform_properties properties;
  std::vector<std::shared_ptr<device_impl>> devices;
  std::once_flag defaultContextOnce;
  std::shared_ptr<context_impl> defaultContext;  // all devices, no async handler
};

struct device_impl : onepass::rt::Device {
  platform_impl *platform = nullptr;  // platforms live for the whole process
  device_properties properties;
};

struct context_impl {
  std::vector<std::shared_ptr<device_impl>> devices;
  async_handler handler;
  // make_context: the user's native context (CUDA: a CUcontext) of devices[0],
  // what get_native answers for it; null: the devices' own.
  void *native = nullptr;
};

// An event is the handle of its command's task-graph node (core/Node.h).
struct event_impl : onepass::rt::Node {
  backend backendKind = backend::ext_onepass_cpu;  // of the queue that made it (event::get_backend)
  bool noCommand = false;                          // default-constructed: complete from the start
  std::shared_ptr<device_impl> device;             // of its queue (make_event: of its context)
  // Its native event once asked for (get_native), the same each time, and
  // what keeps it valid (a stream marker; for make_event, the adopted one).
  std::mutex nativeMutex;
  void *native = nullptr;
  std::shared_ptr<void> nativeKeep;
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
  // make_queue: the user's native queue (CUDA: a CUstream) and the device
  // stream number it was adopted as (commands run there); -1: none.
  void *native = nullptr;
  int pinnedStream = -1;
  // Device memory that reductions whose target the device should not touch
  // (host or shared USM) combine into on a GPU (reduction_cell_take): each
  // cell is free again once the event it was given back with is complete.
  // ~queue_impl frees them (after waiting), while `context` still lives.
  struct ReductionCell {
    void *memory = nullptr;
    void *staging = nullptr;  // pinned host memory, made for shared targets
    std::size_t bytes = 0;
    bool taken = false;
    std::shared_ptr<event_impl> busyUntil;
  };
  struct ReductionCells {
    std::mutex mutex;
    std::vector<ReductionCell> cells;
  };
  mutable ReductionCells reductionCells;
  ~queue_impl();
};

// A copy or fill through the device's backend: enqueued on `stream`, or done
// before returning if stream < 0. Failures are sycl::exceptions (errc::runtime).
void backendCopy(const device_impl &dev, int stream, void *destination, const void *source, std::size_t bytes,
                 const char *what);
void backendFill(const device_impl &dev, int stream, void *destination, const std::vector<unsigned char> &pattern,
                 std::size_t count);

}  // namespace sycl::detail
