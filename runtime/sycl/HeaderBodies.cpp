// Bodies of functions the public headers declare, compiled once here rather
// than in every TU that includes <sycl/sycl.hpp>, because of the templates
// they instantiate (issue 16's header cost): exception's constructor,
// exception_list::push_back, property_holder's constructor
// (std::make_shared of a property_list) and the queue's shortcuts that are
// no templates (SYCL 2020 §4.6.5.2-3: memcpy, memset, prefetch and
// mem_advise with a list of dependencies, each a queue::submit).
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <sycl/sycl.hpp>

namespace sycl {

exception::exception(std::error_code ec, const std::string &what_arg)
    : code_(ec), what_(std::make_shared<std::string>(what_arg)) {}

void exception_list::push_back(std::exception_ptr e) { list_.push_back(std::move(e)); }

std::vector<device> context::get_devices() const {
  std::vector<device> result;
  for (auto &d : detail::get_context_devices(*impl_)) result.push_back(device(d));
  return result;
}

std::vector<platform> platform::get_platforms() {
  std::vector<platform> result;
  for (auto &impl : detail::get_platform_impls()) result.push_back(platform(impl));
  return result;
}

std::vector<event> event::get_wait_list() const {
  std::vector<event> result;
  if (impl_)
    for (auto &dep : detail::event_dependencies(*impl_)) result.push_back(event(dep));
  return result;
}

void handler::add_access(const detail::buffer_access &access) { desc_.accesses.push_back(access); }

void *handler::add_stream(std::size_t total_bytes, std::size_t work_item_bytes) {
  detail::stream_control *control = nullptr;
  desc_.streams.push_back(detail::stream_create(*queue_, total_bytes, work_item_bytes, &control));
  return control;
}

void handler::memset(void *pointer, int value, std::size_t bytes) {
  begin_command(detail::command_kind::fill);
  desc_.destination = pointer;
  desc_.pattern.assign(1, static_cast<unsigned char>(value));
  desc_.count = bytes;
}

void handler::depends_on(event e) {
  if (e.impl()) desc_.dependencies.push_back(e.impl());
}

namespace detail {
property_holder::property_holder(const char *owner, const property_list &props)
    : owner_(owner), props_(props.empty() ? nullptr : std::make_shared<const property_list>(props)) {}
}  // namespace detail

event queue::memcpy(void *destination, const void *source, std::size_t bytes, const std::vector<event> &dependencies) {
  return submit([&](handler &h) {
    h.depends_on(dependencies);
    h.memcpy(destination, source, bytes);
  });
}

event queue::memset(void *pointer, int value, std::size_t bytes, const std::vector<event> &dependencies) {
  return submit([&](handler &h) {
    h.depends_on(dependencies);
    h.memset(pointer, value, bytes);
  });
}

event queue::prefetch(const void *ptr, std::size_t numBytes, const std::vector<event> &depEvents) {
  return submit([&](handler &h) {
    h.depends_on(depEvents);
    h.prefetch(ptr, numBytes);
  });
}

event queue::mem_advise(const void *ptr, std::size_t numBytes, int advice, const std::vector<event> &depEvents) {
  return submit([&](handler &h) {
    h.depends_on(depEvents);
    h.mem_advise(ptr, numBytes, advice);
  });
}

}  // namespace sycl
