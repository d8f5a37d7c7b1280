// SYCL 2020 §4.6.3 context.
#pragma once

#include "device.hpp"
#include "property_list.hpp"

namespace sycl {

class context : public detail::property_holder {
public:
  // §4.6.3: no SYCL 2020 property applies to a context; a list is accepted
  // and kept for has_property/get_property.
  explicit context(const property_list &props = {}) : context(device(), async_handler{}, props) {}
  explicit context(async_handler handler, const property_list &props = {})
      : context(device(), std::move(handler), props) {}
  explicit context(const device &dev, const property_list &props = {}) : context(dev, async_handler{}, props) {}
  // This one and the one of a list of devices: runtime/sycl/HeaderBodies.cpp.
  ONEPASS_RT_API explicit context(const device &dev, async_handler handler, const property_list &props = {});
  explicit context(const std::vector<device> &devices, const property_list &props = {})
      : context(devices, async_handler{}, props) {}
  ONEPASS_RT_API explicit context(const std::vector<device> &devices, async_handler handler,
                                  const property_list &props = {});

  // SYCL 1.2.1's forms over all the devices of a platform. SYCL 2020 §4.6.3
  // no longer lists them; kept for older code (the CTS's
  // context_constructors.cpp still tests them).
  explicit context(const platform &p, const property_list &props = {}) : context(p.get_devices(), props) {}
  explicit context(const platform &p, async_handler handler, const property_list &props = {})
      : context(p.get_devices(), std::move(handler), props) {}

  template <typename Param> typename Param::return_type get_info() const {
    namespace c = info::context;
    if constexpr (std::is_same_v<Param, c::platform>) return get_platform();
    else if constexpr (std::is_same_v<Param, c::devices>) return get_devices();
    else if constexpr (std::is_same_v<Param, c::atomic_memory_order_capabilities>)
      return common<info::device::atomic_memory_order_capabilities>();
    else if constexpr (std::is_same_v<Param, c::atomic_fence_order_capabilities>)
      return common<info::device::atomic_fence_order_capabilities>();
    else if constexpr (std::is_same_v<Param, c::atomic_memory_scope_capabilities>)
      return common<info::device::atomic_memory_scope_capabilities>();
    else if constexpr (std::is_same_v<Param, c::atomic_fence_scope_capabilities>)
      return common<info::device::atomic_fence_scope_capabilities>();
    else static_assert(sizeof(Param) == 0, "context info descriptor not supported by OnePass");
  }

  ONEPASS_RT_API std::vector<device> get_devices() const;  // runtime/sycl/HeaderBodies.cpp
  platform get_platform() const { return get_devices().front().get_platform(); }
  backend get_backend() const noexcept { return get_platform().get_backend(); }

  friend bool operator==(const context &a, const context &b) { return a.impl_ == b.impl_; }
  friend bool operator!=(const context &a, const context &b) { return !(a == b); }

  explicit context(std::shared_ptr<detail::context_impl> impl) : property_holder("context"), impl_(std::move(impl)) {}
  const std::shared_ptr<detail::context_impl> &impl() const { return impl_; }

private:
  // §4.6.3.2: what all the context's devices support.
  template <typename DeviceParam> typename DeviceParam::return_type common() const {
    typename DeviceParam::return_type result;
    bool first = true;
    for (const device &d : get_devices()) {
      auto values = d.get_info<DeviceParam>();
      if (first) result = values;
      else
        result.erase(std::remove_if(result.begin(), result.end(),
                                    [&](auto v) { return std::find(values.begin(), values.end(), v) == values.end(); }),
                     result.end());
      first = false;
    }
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
