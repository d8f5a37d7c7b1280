// Unified shared memory (SYCL 2020 §4.8) on the core's allocation table
// (core/Usm.h); an allocation belongs to its context.
#include "Errors.h"
#include "Runtime.h"
#include "Usm.h"

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

}  // namespace

namespace sycl::detail {

void *usm_allocate(std::size_t bytes, std::size_t alignment, usm_kind kind, const std::shared_ptr<device_impl> &dev,
                   const std::shared_ptr<context_impl> &ctx) {
  // SYCL 2020 §4.8.3: failure returns nullptr.
  return rt::usmAllocate(dev, bytes, alignment, backendKind(kind), std::weak_ptr<const void>(ctx));
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
