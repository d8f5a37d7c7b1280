// Bodies of functions the public headers declare, compiled once here rather
// than in every TU that includes <sycl/sycl.hpp>, because of the templates
// they instantiate (issue 16's header cost: clang instantiates what an inline
// function uses even where the function is never called): exception's
// constructor, exception_list::push_back, property_holder's constructor
// (std::make_shared of a property_list), the device and platform lists, the
// aspect selector, context's constructors, the handler's requirement list,
// and the queue's shortcuts that are no templates (SYCL 2020 §4.6.5.2-3:
// memcpy, memset, prefetch and mem_advise with dependencies, each a
// queue::submit).
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <sycl/sycl.hpp>

#include <algorithm>
#include <iterator>

namespace sycl {

exception::exception(std::error_code ec, const std::string &what_arg)
    : code_(ec), what_(std::make_shared<std::string>(what_arg)) {}

void exception_list::push_back(std::exception_ptr e) { list_.push_back(std::move(e)); }

std::vector<device> context::get_devices() const {
  std::vector<device> result;
  for (auto &d : detail::get_context_devices(*impl_)) result.push_back(device(d));
  return result;
}

std::vector<device> device::get_devices(info::device_type type) {
  std::vector<device> result;
  for (const platform &p : platform::get_platforms())
    for (const device &d : p.get_devices(type)) result.push_back(d);
  return result;
}

bool platform::has(aspect a) const {
  const std::vector<device> devices = get_devices();
  return std::all_of(devices.begin(), devices.end(), [&](const device &d) { return d.has(a); });
}

std::vector<device> platform::get_devices(info::device_type type) const {
  std::vector<device> result;
  if (type == info::device_type::automatic) {  // the platform's device the default selector prefers
    const device *best = nullptr;
    int bestScore = -1;
    std::vector<device> all = get_devices();
    for (const device &d : all)
      if (int score = default_selector_v(d); score > bestScore) {
        best = &d;
        bestScore = score;
      }
    if (best) result.push_back(*best);
    return result;
  }
  for (auto &impl : detail::get_platform_devices(*impl_)) {
    device d(impl);
    if (type == info::device_type::all || d.get_info<info::device::device_type>() == type) result.push_back(d);
  }
  return result;
}

int detail::aspect_selector_fn::operator()(const device &d) const {
  const bool ok = std::all_of(required.begin(), required.end(), [&](aspect a) { return d.has(a); }) &&
                  std::none_of(denied.begin(), denied.end(), [&](aspect a) { return d.has(a); });
  return ok ? std::max(default_selector_v(d), 0) + 1 : -1;
}

detail::aspect_selector_fn aspect_selector(const std::vector<aspect> &required, const std::vector<aspect> &denied) {
  return detail::aspect_selector_fn{required, denied};
}

context::context(const device &dev, async_handler handler, const property_list &props)
    : property_holder("context", props), impl_(detail::make_context({dev.impl()}, handler)) {}

context::context(const std::vector<device> &devices, async_handler handler, const property_list &props)
    : property_holder("context", props) {
  if (devices.empty()) throw exception(make_error_code(errc::invalid), "a context needs at least one device");
  std::vector<std::shared_ptr<detail::device_impl>> impls;
  for (const device &d : devices) impls.push_back(d.impl());
  impl_ = detail::make_context(impls, handler);
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

void handler::add_access(const detail::buffer_access &access) {
  // §4.7.2.3: the origin of a sub-buffer that a device accesses must be a
  // multiple of the device's mem_base_addr_align, checked by the accessor's
  // constructor (or handler::require for a placeholder). Host tasks and host
  // accessors run on no device.
  const std::uintptr_t origin = access.token - detail::buffer_token(*access.buffer);
  if (!access.on_host && origin % detail::mem_base_addr_align_bytes != 0)
    throw exception(make_error_code(errc::invalid),
                    "accessor: the sub-buffer starts at byte " + std::to_string(origin) +
                        " of its buffer, which is not a multiple of info::device::mem_base_addr_align (" +
                        std::to_string(8 * detail::mem_base_addr_align_bytes) + " bits, " +
                        std::to_string(detail::mem_base_addr_align_bytes) +
                        " bytes): a device may access only sub-buffers that start there (SYCL 2020 §4.7.2.3)");
  if (desc_.accesses.empty()) desc_.accesses.reserve(4);  // one allocation for the usual one to four
  desc_.accesses.push_back(access);
}

void handler::check_secondary() const {
  if (desc_.kind != detail::command_kind::kernel || !desc_.kernel.host_entry) return;
  const char *name = detail::kernel_entry_name(desc_.kernel.host_entry);
  const std::string kernel = std::string("kernel '") + (name ? name : "?") + "'";
  for (const detail::queue_impl *q : {queue_, secondary_}) {
    const std::shared_ptr<detail::device_impl> dev = detail::get_queue_device(*q);
    const std::string why = detail::kernel_incompatibility(desc_.kernel.host_entry, *dev);
    if (!why.empty())
      throw exception(make_error_code(errc::kernel_not_supported),
                      kernel + " of a command group with a secondary queue does not suit the " +
                          (q == queue_ ? "primary" : "secondary") + " queue's device: " + why +
                          " (SYCL 2020 §5.7: it must suit both queues' devices)");
  }
  if (desc_.kernel.bundle && !bundle_has_secondary_)
    throw exception(make_error_code(errc::kernel_not_supported),
                    kernel + ": the kernel bundle the command group uses has no image for the secondary queue's "
                             "device (SYCL 2020 §4.9.4.4: it must suit both queues' devices)");
}

bool handler::has_access(const detail::buffer_access &access) const {
  return std::any_of(desc_.accesses.begin(), desc_.accesses.end(),
                     [&](const detail::buffer_access &a) { return detail::same_access(a, access); });
}

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
void handler_internals::drop_access(handler &h, const buffer_access &access) {
  auto &accesses = h.desc_.accesses;
  auto found = std::find_if(accesses.rbegin(), accesses.rend(),
                            [&](const buffer_access &a) { return same_access(a, access); });
  if (found != accesses.rend()) accesses.erase(std::next(found).base());
}

property_holder::property_holder(const char *owner, const property_list &props)
    : owner_(owner), props_(props.empty() ? nullptr : std::make_shared<const property_list>(props)) {}
}  // namespace detail

event queue::memcpy(void *destination, const void *source, std::size_t bytes, const std::vector<event> &dependencies) {
  return submit([&](handler &h) {
    h.depends_on(dependencies);
    h.memcpy(destination, source, bytes);
  });
}

event queue::memcpy(void *destination, const void *source, std::size_t bytes, event dependency) {
  return memcpy(destination, source, bytes, std::vector<event>{dependency});
}

event queue::memset(void *pointer, int value, std::size_t bytes, event dependency) {
  return memset(pointer, value, bytes, std::vector<event>{dependency});
}

event queue::prefetch(const void *ptr, std::size_t numBytes, event depEvent) {
  return prefetch(ptr, numBytes, std::vector<event>{depEvent});
}

event queue::mem_advise(const void *ptr, std::size_t numBytes, int advice, event depEvent) {
  return mem_advise(ptr, numBytes, advice, std::vector<event>{depEvent});
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
