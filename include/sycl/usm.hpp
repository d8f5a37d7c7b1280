// SYCL 2020 §4.8 unified shared memory.
#pragma once

#include "queue.hpp"

namespace sycl {

namespace usm {
enum class alloc { host, device, shared, unknown };
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
}  // namespace detail

// --- untyped allocation -------------------------------------------------------
inline void *aligned_alloc(std::size_t alignment, std::size_t bytes, const device &dev, const context &ctx,
                           usm::alloc kind, const property_list & = {}) {
  return detail::usm_allocate(bytes, alignment, detail::to_kind(kind), dev.impl(), ctx.impl());
}
inline void *aligned_alloc(std::size_t alignment, std::size_t bytes, const queue &q, usm::alloc kind,
                           const property_list &props = {}) {
  return aligned_alloc(alignment, bytes, q.get_device(), q.get_context(), kind, props);
}
inline void *malloc(std::size_t bytes, const device &dev, const context &ctx, usm::alloc kind,
                    const property_list &props = {}) {
  return aligned_alloc(0, bytes, dev, ctx, kind, props);
}
inline void *malloc(std::size_t bytes, const queue &q, usm::alloc kind, const property_list &props = {}) {
  return aligned_alloc(0, bytes, q, kind, props);
}

inline void *malloc_device(std::size_t bytes, const device &dev, const context &ctx, const property_list &props = {}) {
  return malloc(bytes, dev, ctx, usm::alloc::device, props);
}
inline void *malloc_device(std::size_t bytes, const queue &q, const property_list &props = {}) {
  return malloc(bytes, q, usm::alloc::device, props);
}
inline void *malloc_shared(std::size_t bytes, const device &dev, const context &ctx, const property_list &props = {}) {
  return malloc(bytes, dev, ctx, usm::alloc::shared, props);
}
inline void *malloc_shared(std::size_t bytes, const queue &q, const property_list &props = {}) {
  return malloc(bytes, q, usm::alloc::shared, props);
}
inline void *malloc_host(std::size_t bytes, const context &ctx, const property_list &props = {}) {
  return malloc(bytes, ctx.get_devices().front(), ctx, usm::alloc::host, props);
}
inline void *malloc_host(std::size_t bytes, const queue &q, const property_list &props = {}) {
  return malloc(bytes, q, usm::alloc::host, props);
}
inline void *aligned_alloc_device(std::size_t alignment, std::size_t bytes, const queue &q,
                                  const property_list &props = {}) {
  return aligned_alloc(alignment, bytes, q, usm::alloc::device, props);
}
inline void *aligned_alloc_shared(std::size_t alignment, std::size_t bytes, const queue &q,
                                  const property_list &props = {}) {
  return aligned_alloc(alignment, bytes, q, usm::alloc::shared, props);
}
inline void *aligned_alloc_host(std::size_t alignment, std::size_t bytes, const queue &q,
                                const property_list &props = {}) {
  return aligned_alloc(alignment, bytes, q, usm::alloc::host, props);
}

// --- typed allocation ---------------------------------------------------------
namespace detail {
// count * sizeof(T) without silent wrap-around (SYCL: allocation failure returns nullptr).
template <typename T> std::size_t usm_bytes(std::size_t count) {
  if (count > static_cast<std::size_t>(-1) / sizeof(T)) return static_cast<std::size_t>(-1);
  return count * sizeof(T);
}
}  // namespace detail

template <typename T> T *malloc_device(std::size_t count, const queue &q, const property_list &props = {}) {
  return static_cast<T *>(aligned_alloc(alignof(T), detail::usm_bytes<T>(count), q, usm::alloc::device, props));
}
template <typename T>
T *malloc_device(std::size_t count, const device &dev, const context &ctx, const property_list &props = {}) {
  return static_cast<T *>(aligned_alloc(alignof(T), detail::usm_bytes<T>(count), dev, ctx, usm::alloc::device, props));
}
template <typename T> T *malloc_shared(std::size_t count, const queue &q, const property_list &props = {}) {
  return static_cast<T *>(aligned_alloc(alignof(T), detail::usm_bytes<T>(count), q, usm::alloc::shared, props));
}
template <typename T>
T *malloc_shared(std::size_t count, const device &dev, const context &ctx, const property_list &props = {}) {
  return static_cast<T *>(aligned_alloc(alignof(T), detail::usm_bytes<T>(count), dev, ctx, usm::alloc::shared, props));
}
template <typename T> T *malloc_host(std::size_t count, const queue &q, const property_list &props = {}) {
  return static_cast<T *>(aligned_alloc(alignof(T), detail::usm_bytes<T>(count), q, usm::alloc::host, props));
}
template <typename T> T *malloc_host(std::size_t count, const context &ctx, const property_list &props = {}) {
  return static_cast<T *>(malloc_host(detail::usm_bytes<T>(count), ctx, props));
}
template <typename T> T *malloc(std::size_t count, const queue &q, usm::alloc kind, const property_list &props = {}) {
  return static_cast<T *>(aligned_alloc(alignof(T), detail::usm_bytes<T>(count), q, kind, props));
}

// --- release and queries ------------------------------------------------------
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

}  // namespace sycl
