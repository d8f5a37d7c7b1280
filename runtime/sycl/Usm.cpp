// Unified shared memory (SYCL 2020 §4.8) on the core's allocation table
// (core/Usm.h); an allocation belongs to its context.
#include "Errors.h"
#include "Runtime.h"
#include "Usm.h"

#include <algorithm>

using namespace onepass;

namespace {

uint32_t backendKind(sycl::detail::usm_kind kind) {
  switch (kind) {
  case sycl::detail::usm_kind::host: return ONEPASS_USM_HOST;
  case sycl::detail::usm_kind::shared: return ONEPASS_USM_SHARED;
  default: return ONEPASS_USM_DEVICE;
  }
}

sycl::detail::usm_kind syclKind(uint32_t kind) {
  switch (kind) {
  case ONEPASS_USM_HOST: return sycl::detail::usm_kind::host;
  case ONEPASS_USM_SHARED: return sycl::detail::usm_kind::shared;
  default: return sycl::detail::usm_kind::device;
  }
}

const char *kindName(sycl::detail::usm_kind kind) {
  switch (kind) {
  case sycl::detail::usm_kind::host: return "host";
  case sycl::detail::usm_kind::shared: return "shared";
  default: return "device";
  }
}

bool hasAspect(const sycl::detail::device_impl &device, sycl::aspect wanted) {
  const std::vector<sycl::aspect> &aspects = device.properties.aspects;
  return std::find(aspects.begin(), aspects.end(), wanted) != aspects.end();
}

// The device that makes a host allocation of `ctx`: `requested` if it can
// (a queue's device, for the queue forms), else the context's first device
// that can (§4.8.3.3).
std::shared_ptr<sycl::detail::device_impl> hostAllocator(const sycl::detail::context_impl &ctx,
                                                         const std::shared_ptr<sycl::detail::device_impl> &requested) {
  const auto &devices = ctx.devices;
  if (std::find(devices.begin(), devices.end(), requested) != devices.end() &&
      hasAspect(*requested, sycl::aspect::usm_host_allocations))
    return requested;
  for (const auto &device : devices)
    if (hasAspect(*device, sycl::aspect::usm_host_allocations)) return device;
  rt::raise(sycl::errc::feature_not_supported,
            "host USM allocation: no device of the context has aspect::usm_host_allocations");
}

}  // namespace

namespace sycl::detail {

void *usm_allocate(std::size_t bytes, std::size_t alignment, usm_kind kind, const std::shared_ptr<device_impl> &dev,
                   const std::shared_ptr<context_impl> &ctx) {
  // SYCL 2020 §4.8.3.2-5: a device allocation needs the device to have the
  // kind's aspect (errc::feature_not_supported) and to be in the context
  // (errc::invalid); a host allocation ignores the device and needs a device
  // of the context with usm_host_allocations, which makes it.
  std::shared_ptr<device_impl> maker = kind == usm_kind::host ? hostAllocator(*ctx, dev) : dev;
  if (kind != usm_kind::host) {
    if (std::find(ctx->devices.begin(), ctx->devices.end(), dev) == ctx->devices.end())
      rt::raise(errc::invalid, std::string(kindName(kind)) +
                                   " USM allocation: the device is not part of the context (SYCL 2020 §4.8.3)");
    if (!hasAspect(*dev, kind == usm_kind::device ? aspect::usm_device_allocations : aspect::usm_shared_allocations))
      rt::raise(errc::feature_not_supported, std::string(kindName(kind)) + " USM allocation: device " +
                                                 dev->properties.name + " does not support " + kindName(kind) +
                                                 " USM allocations");
  }
  // Failure to allocate returns nullptr.
  return rt::usmAllocate(maker, bytes, alignment, backendKind(kind), std::weak_ptr<const void>(ctx));
}

void usm_free(void *pointer, const context_impl &ctx) {
  rt::syclCall([&] { rt::usmFree(pointer, &ctx, "sycl::free"); });
}

// SYCL 2020 §4.8.4: a pointer of another context is `unknown` to this one.
usm_kind usm_pointer_kind(const void *pointer, const context_impl &ctx) {
  std::optional<rt::UsmAllocation> allocation = rt::usmFind(pointer, &ctx);
  return allocation ? syclKind(allocation->kind) : usm_kind::unknown;
}

std::shared_ptr<device_impl> usm_pointer_device(const void *pointer, const context_impl &ctx) {
  std::optional<rt::UsmAllocation> allocation = rt::usmFind(pointer, &ctx);
  // Every device the core knows is a SYCL device (Runtime.h).
  return allocation ? std::static_pointer_cast<device_impl>(allocation->device) : nullptr;
}

}  // namespace sycl::detail
