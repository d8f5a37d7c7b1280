// SYCL 2020 §4.6.3 context.
#pragma once

#include "device.hpp"

namespace sycl {

class context {
public:
  explicit context(const async_handler &handler = {}) : context(device(), handler) {}
  explicit context(const device &dev, const async_handler &handler = {})
      : impl_(detail::make_context({dev.impl()}, handler)) {}
  explicit context(const std::vector<device> &devices, const async_handler &handler = {})
      : impl_(detail::make_context(impls(devices), handler)) {}

  std::vector<device> get_devices() const {
    std::vector<device> result;
    for (auto &d : detail::get_context_devices(*impl_)) result.push_back(device(d));
    return result;
  }
  platform get_platform() const { return get_devices().front().get_platform(); }
  backend get_backend() const noexcept { return get_platform().get_backend(); }

  friend bool operator==(const context &a, const context &b) { return a.impl_ == b.impl_; }
  friend bool operator!=(const context &a, const context &b) { return !(a == b); }

  explicit context(std::shared_ptr<detail::context_impl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::context_impl> &impl() const { return impl_; }

private:
  static std::vector<std::shared_ptr<detail::device_impl>> impls(const std::vector<device> &devices) {
    if (devices.empty()) throw exception(make_error_code(errc::invalid), "a context needs at least one device");
    std::vector<std::shared_ptr<detail::device_impl>> result;
    for (const device &d : devices) result.push_back(d.impl());
    return result;
  }
  std::shared_ptr<detail::context_impl> impl_;
};

// §4.13.2: exceptions that carry their context.
inline exception::exception(context ctx, std::error_code ec, const std::string &what_arg) : exception(ec, what_arg) {
  context_ = ctx.impl();
}
inline exception::exception(context ctx, std::error_code ec, const char *what_arg)
    : exception(std::move(ctx), ec, std::string(what_arg)) {}
inline exception::exception(context ctx, std::error_code ec) : exception(std::move(ctx), ec, ec.message()) {}
inline exception::exception(context ctx, int ev, const std::error_category &cat, const std::string &what_arg)
    : exception(std::move(ctx), std::error_code(ev, cat), what_arg) {}
inline exception::exception(context ctx, int ev, const std::error_category &cat, const char *what_arg)
    : exception(std::move(ctx), std::error_code(ev, cat), std::string(what_arg)) {}
inline exception::exception(context ctx, int ev, const std::error_category &cat)
    : exception(std::move(ctx), std::error_code(ev, cat)) {}
inline context exception::get_context() const {
  if (!context_)
    throw exception(make_error_code(errc::invalid), "exception::get_context: the exception has no context");
  return context(context_);
}

// sycl_khr_default_context: the context queues use when given none.
inline context platform::khr_get_default_context() const {
  return context(detail::get_platform_default_context(*impl_));
}

}  // namespace sycl

// §4.5.2: std::hash agrees with operator== (the same runtime object).
namespace std {
template <> struct hash<sycl::context> {
  size_t operator()(const sycl::context &c) const noexcept { return hash<const void *>()(c.impl().get()); }
};
}  // namespace std
