// SYCL 2020 §4.8 unified shared memory: the allocation functions of §4.8.3,
// sycl::free (§4.8.3.6) and the pointer queries (§4.8.4). The allocator
// class of §4.8.3.1 is in usm_allocator.hpp.
#pragma once

#include "queue.hpp"

namespace sycl {

namespace usm {
enum class alloc { host, device, shared, unknown };
}

namespace detail {
// One allocation of `bytes` bytes of `kind`, aligned to `alignment` (0: the
// default); defined below. Every function of §4.8.3 comes down to it.
void *usm_alloc(std::size_t alignment, std::size_t bytes, const device &dev, const context &ctx, usm::alloc kind);
template <typename T> std::size_t usm_bytes(std::size_t count);
template <typename T> std::size_t usm_alignment(std::size_t alignment);
}  // namespace detail

// The property_list parameters are for future extensibility (§4.8.3): no USM
// allocation property exists in SYCL 2020, so they are accepted and unused.
// Failure to allocate returns nullptr; a device that lacks the kind's aspect
// is errc::feature_not_supported, a device outside the context errc::invalid.

// --- §4.8.3.5 parameterized allocation (Table 85) -------------------------------
inline void *malloc(std::size_t numBytes, const device &dev, const context &ctx, usm::alloc kind,
                    const property_list & = {}) {
  return detail::usm_alloc(0, numBytes, dev, ctx, kind);
}
template <typename T>
T *malloc(std::size_t count, const device &dev, const context &ctx, usm::alloc kind, const property_list & = {}) {
  return static_cast<T *>(detail::usm_alloc(alignof(T), detail::usm_bytes<T>(count), dev, ctx, kind));
}
inline void *malloc(std::size_t numBytes, const queue &q, usm::alloc kind, const property_list &props = {}) {
  return malloc(numBytes, q.get_device(), q.get_context(), kind, props);
}
template <typename T> T *malloc(std::size_t count, const queue &q, usm::alloc kind, const property_list &props = {}) {
  return malloc<T>(count, q.get_device(), q.get_context(), kind, props);
}
inline void *aligned_alloc(std::size_t alignment, std::size_t numBytes, const device &dev, const context &ctx,
                           usm::alloc kind, const property_list & = {}) {
  return detail::usm_alloc(alignment, numBytes, dev, ctx, kind);
}
template <typename T> T *aligned_alloc(std::size_t alignment, std::size_t count, const device &dev, const context &ctx,
                                       usm::alloc kind, const property_list & = {}) {
  return static_cast<T *>(
      detail::usm_alloc(detail::usm_alignment<T>(alignment), detail::usm_bytes<T>(count), dev, ctx, kind));
}
inline void *aligned_alloc(std::size_t alignment, std::size_t numBytes, const queue &q, usm::alloc kind,
                           const property_list &props = {}) {
  return aligned_alloc(alignment, numBytes, q.get_device(), q.get_context(), kind, props);
}
template <typename T> T *aligned_alloc(std::size_t alignment, std::size_t count, const queue &q, usm::alloc kind,
                                       const property_list &props = {}) {
  return aligned_alloc<T>(alignment, count, q.get_device(), q.get_context(), kind, props);
}

// --- §4.8.3.2 device allocation (Table 82) --------------------------------------
inline void *malloc_device(std::size_t numBytes, const device &dev, const context &ctx,
                           const property_list &props = {}) {
  return malloc(numBytes, dev, ctx, usm::alloc::device, props);
}
template <typename T>
T *malloc_device(std::size_t count, const device &dev, const context &ctx, const property_list &props = {}) {
  return malloc<T>(count, dev, ctx, usm::alloc::device, props);
}
inline void *malloc_device(std::size_t numBytes, const queue &q, const property_list &props = {}) {
  return malloc(numBytes, q, usm::alloc::device, props);
}
template <typename T> T *malloc_device(std::size_t count, const queue &q, const property_list &props = {}) {
  return malloc<T>(count, q, usm::alloc::device, props);
}
inline void *aligned_alloc_device(std::size_t alignment, std::size_t numBytes, const device &dev, const context &ctx,
                                  const property_list &props = {}) {
  return aligned_alloc(alignment, numBytes, dev, ctx, usm::alloc::device, props);
}
template <typename T> T *aligned_alloc_device(std::size_t alignment, std::size_t count, const device &dev,
                                              const context &ctx, const property_list &props = {}) {
  return aligned_alloc<T>(alignment, count, dev, ctx, usm::alloc::device, props);
}
inline void *aligned_alloc_device(std::size_t alignment, std::size_t numBytes, const queue &q,
                                  const property_list &props = {}) {
  return aligned_alloc(alignment, numBytes, q, usm::alloc::device, props);
}
template <typename T>
T *aligned_alloc_device(std::size_t alignment, std::size_t count, const queue &q, const property_list &props = {}) {
  return aligned_alloc<T>(alignment, count, q, usm::alloc::device, props);
}

// --- §4.8.3.3 host allocation (Table 83): the context's, on no one device --------
inline void *malloc_host(std::size_t numBytes, const context &ctx, const property_list &props = {}) {
  return malloc(numBytes, ctx.get_devices().front(), ctx, usm::alloc::host, props);
}
template <typename T> T *malloc_host(std::size_t count, const context &ctx, const property_list &props = {}) {
  return malloc<T>(count, ctx.get_devices().front(), ctx, usm::alloc::host, props);
}
inline void *malloc_host(std::size_t numBytes, const queue &q, const property_list &props = {}) {
  return malloc(numBytes, q, usm::alloc::host, props);
}
template <typename T> T *malloc_host(std::size_t count, const queue &q, const property_list &props = {}) {
  return malloc<T>(count, q, usm::alloc::host, props);
}
inline void *aligned_alloc_host(std::size_t alignment, std::size_t numBytes, const context &ctx,
                                const property_list &props = {}) {
  return aligned_alloc(alignment, numBytes, ctx.get_devices().front(), ctx, usm::alloc::host, props);
}
template <typename T>
T *aligned_alloc_host(std::size_t alignment, std::size_t count, const context &ctx, const property_list &props = {}) {
  return aligned_alloc<T>(alignment, count, ctx.get_devices().front(), ctx, usm::alloc::host, props);
}
inline void *aligned_alloc_host(std::size_t alignment, std::size_t numBytes, const queue &q,
                                const property_list &props = {}) {
  return aligned_alloc(alignment, numBytes, q, usm::alloc::host, props);
}
template <typename T>
T *aligned_alloc_host(std::size_t alignment, std::size_t count, const queue &q, const property_list &props = {}) {
  return aligned_alloc<T>(alignment, count, q, usm::alloc::host, props);
}

// --- §4.8.3.4 shared allocation (Table 84) --------------------------------------
inline void *malloc_shared(std::size_t numBytes, const device &dev, const context &ctx,
                           const property_list &props = {}) {
  return malloc(numBytes, dev, ctx, usm::alloc::shared, props);
}
template <typename T>
T *malloc_shared(std::size_t count, const device &dev, const context &ctx, const property_list &props = {}) {
  return malloc<T>(count, dev, ctx, usm::alloc::shared, props);
}
inline void *malloc_shared(std::size_t numBytes, const queue &q, const property_list &props = {}) {
  return malloc(numBytes, q, usm::alloc::shared, props);
}
template <typename T> T *malloc_shared(std::size_t count, const queue &q, const property_list &props = {}) {
  return malloc<T>(count, q, usm::alloc::shared, props);
}
inline void *aligned_alloc_shared(std::size_t alignment, std::size_t numBytes, const device &dev, const context &ctx,
                                  const property_list &props = {}) {
  return aligned_alloc(alignment, numBytes, dev, ctx, usm::alloc::shared, props);
}
template <typename T> T *aligned_alloc_shared(std::size_t alignment, std::size_t count, const device &dev,
                                              const context &ctx, const property_list &props = {}) {
  return aligned_alloc<T>(alignment, count, dev, ctx, usm::alloc::shared, props);
}
inline void *aligned_alloc_shared(std::size_t alignment, std::size_t numBytes, const queue &q,
                                  const property_list &props = {}) {
  return aligned_alloc(alignment, numBytes, q, usm::alloc::shared, props);
}
template <typename T>
T *aligned_alloc_shared(std::size_t alignment, std::size_t count, const queue &q, const property_list &props = {}) {
  return aligned_alloc<T>(alignment, count, q, usm::alloc::shared, props);
}

// --- §4.8.3.6 release, §4.8.4 queries -------------------------------------------
inline void free(void *ptr, const context &ctx) { detail::usm_free(ptr, *ctx.impl()); }
inline void free(void *ptr, const queue &q) { free(ptr, q.get_context()); }

inline usm::alloc get_pointer_type(const void *ptr, const context &ctx) {
  switch (detail::usm_pointer_kind(ptr, *ctx.impl())) {
  case detail::usm_kind::host: return usm::alloc::host;
  case detail::usm_kind::device: return usm::alloc::device;
  case detail::usm_kind::shared: return usm::alloc::shared;
  default: return usm::alloc::unknown;
  }
}
inline device get_pointer_device(const void *ptr, const context &ctx) {
  auto dev = detail::usm_pointer_device(ptr, *ctx.impl());
  if (!dev)
    throw exception(make_error_code(errc::invalid),
                    "get_pointer_device: the pointer is not a USM allocation of this context");
  return device(dev);
}

namespace detail {
inline usm_kind to_kind(usm::alloc kind) {
  switch (kind) {
  case usm::alloc::host: return usm_kind::host;
  case usm::alloc::device: return usm_kind::device;
  case usm::alloc::shared: return usm_kind::shared;
  default: break;
  }
  throw exception(make_error_code(errc::invalid), "USM allocation kind 'unknown' cannot be allocated");
}

// The runtime checks the device against the context and the kind's aspect
// (§4.8.3.2-5), and picks a device of the context for host allocations.
inline void *usm_alloc(std::size_t alignment, std::size_t bytes, const device &dev, const context &ctx,
                       usm::alloc kind) {
  return usm_allocate(bytes, alignment, to_kind(kind), dev.impl(), ctx.impl());
}

// count * sizeof(T) without silent wrap-around: a size no allocation can
// have, so the allocation fails (returns nullptr) as §4.8.3 says.
template <typename T> std::size_t usm_bytes(std::size_t count) {
  if (count > static_cast<std::size_t>(-1) / sizeof(T)) return static_cast<std::size_t>(-1);
  return count * sizeof(T);
}

// Table 80: a templated aligned allocation is aligned for T or to
// `alignment`, whichever is greater. An alignment that is not a power of two
// is passed on unchanged, for the backend to refuse (nullptr, as
// std::aligned_alloc does).
template <typename T> std::size_t usm_alignment(std::size_t alignment) {
  if ((alignment & (alignment - 1)) != 0) return alignment;
  return alignment > alignof(T) ? alignment : alignof(T);
}
}  // namespace detail

}  // namespace sycl
