// Events (SYCL 2020 §4.6.6) and asynchronous error delivery (§4.13.1).
#include "Errors.h"
#include "Runtime.h"
#include "StreamTracker.h"

#include <algorithm>
#include <cstdio>
#include <thread>

namespace onepass::rt {

void AsyncErrorSink::deliver() {
  std::vector<std::exception_ptr> errors = take();
  if (errors.empty()) return;
  sycl::exception_list list;
  for (auto &e : errors) list.push_back(toSycl(std::move(e)));
  if (handler) {
    handler(std::move(list));
    return;
  }
  // The default handler (§4.13.1.2): report every error, then terminate.
  for (const std::exception_ptr &e : list)
    std::fprintf(stderr, "onepass: unhandled asynchronous SYCL error: %s\n", describeError(e).c_str());
  std::fprintf(stderr, "onepass: no async_handler was given to the queue or context; terminating\n");
  std::terminate();
}

}  // namespace onepass::rt

namespace sycl::detail {

std::shared_ptr<event_impl> event_make_complete() {
  auto event = std::make_shared<event_impl>();
  event->noCommand = true;
  static const backend defaultBackend = event_backend(nullptr);  // the default device's: fixed per process
  event->backendKind = defaultBackend;
  event->markComplete();
  return event;
}

void event_wait(const std::shared_ptr<event_impl> &event) {
  if (event) event->wait();
}

// §4.6.6 wait_and_throw: the unconsumed asynchronous errors of the event and
// of everything it waited for go to their queues' handlers (each queue's sink
// once; a core node's plain sink, a host accessor's, has no handler).
void event_wait_and_throw(const std::shared_ptr<event_impl> &event) {
  if (!event) return;
  event->wait();
  std::vector<onepass::rt::AsyncErrorSink *> sinks;
  std::vector<onepass::rt::Node *> pending{event.get()}, seen;
  std::vector<std::shared_ptr<onepass::rt::Node>> keep;  // the dependencies stay alive while we look
  while (!pending.empty()) {
    onepass::rt::Node *node = pending.back();
    pending.pop_back();
    if (std::find(seen.begin(), seen.end(), node) != seen.end()) continue;
    seen.push_back(node);
    if (auto *sink = dynamic_cast<onepass::rt::AsyncErrorSink *>(node->errors.get());
        sink && std::find(sinks.begin(), sinks.end(), sink) == sinks.end())
      sinks.push_back(sink);
    std::lock_guard<std::mutex> lock(node->mutex);
    for (const auto &dependency : node->dependencies) {
      keep.push_back(dependency);
      pending.push_back(dependency.get());
    }
  }
  for (onepass::rt::AsyncErrorSink *sink : sinks) sink->deliver();
}

info::event_command_status event_status(const event_impl &event) {
  switch (const_cast<event_impl &>(event).currentStatus()) {
  case onepass::rt::NodeStatus::Submitted: return info::event_command_status::submitted;
  case onepass::rt::NodeStatus::Running: return info::event_command_status::running;
  case onepass::rt::NodeStatus::Complete: return info::event_command_status::complete;
  }
  return info::event_command_status::complete;
}

std::vector<std::shared_ptr<event_impl>> event_dependencies(const event_impl &event) {
  std::lock_guard<std::mutex> lock(const_cast<event_impl &>(event).mutex);
  // The commands' events; not the core's own nodes (a buffer's transfers, a
  // host accessor's hold), which no user submitted.
  std::vector<std::shared_ptr<event_impl>> result;
  result.reserve(event.dependencies.size());
  for (const auto &node : event.dependencies)
    if (auto dependency = std::dynamic_pointer_cast<event_impl>(node)) result.push_back(std::move(dependency));
  return result;
}

uint64_t event_profiling(const event_impl &event, profiling_point point) {
  auto &e = const_cast<event_impl &>(event);
  if (e.noCommand)
    onepass::rt::raise(errc::invalid, "get_profiling_info: this event was default-constructed and is not "
                                      "associated with a command (SYCL 2020 §4.6.6.2)");
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

// The native event: the marker covering the command on its stream (recorded
// behind it if none does yet), or the backend's complete event once the
// command is complete. (A command that runs on no stream, a host task, is
// waited for: a native event cannot be completed from the host.)
void *event_native_handle(const std::shared_ptr<event_impl> &event) {
  if (!event || event->noCommand)
    onepass::rt::raise(errc::invalid, "get_native: this event was default-constructed and has no native event");
  if (!event->device || !event->device->backend->marker_native)
    onepass::rt::raise(errc::feature_not_supported,
                       "get_native: the event's device has no native events (backend interoperability needs the "
                       "CUDA backend)");
  std::lock_guard<std::mutex> lock(event->nativeMutex);
  if (event->native) return event->native;
  void *marker = nullptr;
  std::shared_ptr<void> keep;
  if (event->tracker) marker = onepass::rt::syclCall([&] { return event->tracker->markerFor(*event, keep); });
  else event->wait();
  const device_impl &dev = *event->device;
  void *native = nullptr;
  char *failure = nullptr;
  if (dev.backend->marker_native(dev.index, marker, &native, &failure))
    onepass::rt::raiseBackendError(
        errc::runtime, "get_native: asking device '" + dev.properties.name + "' for an event's native event failed",
        failure);
  event->native = native;
  event->nativeKeep = std::move(keep);
  return native;
}

// A node completed by a thread that waits for the native event (nothing
// else would tell the task graph when the user's event completes).
std::shared_ptr<event_impl> event_from_native(const context_impl &ctx, void *handle) {
  std::shared_ptr<device_impl> dev;
  for (const auto &d : ctx.devices)
    if (d->backend->adopt_native_event) {
      dev = d;
      break;
    }
  if (!dev)
    onepass::rt::raise(errc::feature_not_supported,
                       "make_event: no device of the context takes native events (backend interoperability needs the "
                       "CUDA backend)");
  char *failure = nullptr;
  void *marker = dev->backend->adopt_native_event(dev->index, handle, &failure);
  if (!marker) onepass::rt::raiseBackendError(errc::invalid, "make_event: the native event cannot be used", failure);
  auto event = std::make_shared<event_impl>();
  event->backendKind = dev->properties.backend_kind;
  event->device = dev;
  event->native = handle;
  event->markRunning();
  std::thread([event, marker] {
    const device_impl &d = *event->device;
    char *error = nullptr;
    if (d.backend->wait_marker(d.index, marker, &error) != 0) {
      // The user's work failed: the event completes all the same (its error is the user's to see).
      std::free(error);
    }
    d.backend->release_marker(d.index, marker);
    event->markComplete();
  }).detach();
  return event;
}

backend event_backend(const event_impl *event) noexcept {
  if (event) return event->backendKind;
  try {  // a default-constructed event acts as one of the default queue (§4.6.6)
    int best = -1;
    backend kind = backend::ext_onepass_cpu;
    for (const auto &platform : get_platform_impls())
      for (const auto &device : platform->devices)
        if (int score = default_selector_score(*device); score > best) {
          best = score;
          kind = device->properties.backend_kind;
        }
    return kind;
  } catch (...) {
  }
  return backend::ext_onepass_cpu;
}

}  // namespace sycl::detail
