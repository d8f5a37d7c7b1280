// Buffers (SYCL 2020 §4.7.2) on the core's (core/buffer/Buffer.h): this file
// turns the SYCL API's buffer descriptions and accessors into the core's.
#include "BufferAccesses.h"

#include "Errors.h"
#include "Runtime.h"

#include <cstring>

using namespace onepass;

namespace sycl::detail {

// A buffer is the core's Buffer.
struct buffer_impl : rt::Buffer {
  using Buffer::Buffer;
};

}  // namespace sycl::detail

namespace onepass::rt {

BufferAccess coreAccess(const sycl::detail::buffer_access &access) {
  BufferAccess core;
  core.buffer = access.buffer;
  core.writes = sycl::detail::mode_writes(access.mode);
  core.noInit = access.no_init;
  core.onHost = access.on_host;
  core.dimensions = access.dimensions;
  for (int d = 0; d < 3; ++d) {
    core.offset[d] = access.offset[d];
    core.range[d] = access.range[d];
  }
  return core;
}

BufferAccessList coreAccesses(const std::vector<sycl::detail::buffer_access> &accesses) {
  BufferAccessList core;
  for (const auto &access : accesses) core.push_back(coreAccess(access));
  return core;
}

}  // namespace onepass::rt

namespace sycl::detail {

std::shared_ptr<buffer_impl> make_buffer(const buffer_init &init, abi_2026_11_27c) {
  std::array<std::size_t, 3> extent = rt::toExtent3(init.dimensions, init.range, 1);
  std::array<std::size_t, 3> page = rt::toExtent3(init.dimensions, init.page_range, 1);
  if (init.page_range[0] == 0) page = {0, 0, 0};
  std::size_t total = init.element_size;
  for (int d = 0; d < 3; ++d)
    if (__builtin_mul_overflow(total, extent[d], &total))
      rt::raise(errc::invalid, "buffer: the range overflows the address space");
  if (total >= (std::size_t(1) << rt::kTokenOffsetBits))
    rt::raise(errc::memory_allocation,
              "buffer: " + std::to_string(total) + " bytes is more than OnePass supports (1 TiB)");
  std::unique_ptr<buffer_impl> buffer(new buffer_impl(extent, init.element_size, page));
  rt::syclCall([&] { rt::registerBuffer(*buffer, init.host_storage, init.initial_data); });
  buffer->keepAlive = init.keep_alive;
  if (init.bound_context)
    for (const std::shared_ptr<device_impl> &device : init.bound_context->devices)
      buffer->boundDevices.push_back(device.get());
  if (init.host_storage) {
    buffer->final = rt::Buffer::Final::pointer;
    buffer->finalData = init.host_storage;
  }
  if (init.final_data) {
    buffer->final = rt::Buffer::Final::pointer;
    buffer->finalData = init.final_data;
  }
  buffer->userMutex = init.final_mutex;
  return std::shared_ptr<buffer_impl>(buffer.release(), [](buffer_impl *b) { rt::destroyBuffer(b); });
}

std::uintptr_t buffer_token(const buffer_impl &buffer) { return buffer.token; }

void buffer_set_final_data(buffer_impl &buffer, void *destination) { rt::setFinalData(buffer, destination); }

void buffer_set_final_writer(buffer_impl &buffer, std::function<void(const void *)> writer) {
  rt::setFinalWriter(buffer, std::move(writer));
}

void buffer_set_write_back(buffer_impl &buffer, bool enabled) { rt::setWriteBack(buffer, enabled); }

void buffer_set_image_sampling(buffer_impl &buffer, const image_sampling &sampling) {
  auto image = std::make_unique<onepass_backend_image>();
  image->dimensions = static_cast<uint32_t>(sampling.dimensions);
  image->format = static_cast<uint32_t>(sampling.format);
  image->addressing = static_cast<uint32_t>(sampling.addressing);
  image->filtering = static_cast<uint32_t>(sampling.filtering);
  image->normalized = sampling.normalized ? 1 : 0;
  for (int d = 0; d < 3; ++d) image->range[d] = sampling.range[d];
  for (int d = 0; d < 2; ++d) image->pitch[d] = sampling.pitch[d];
  image->writable = sampling.writable ? 1 : 0;
  buffer.imageDescription = std::move(image);  // before any command can use the image
}

void *buffer_host_data(buffer_impl &buffer) {
  return rt::syclCall([&] { return rt::hostData(buffer); });
}

void host_task_bind_tokens(void *closure, std::size_t bytes, const std::vector<buffer_access> &accesses) {
  auto *words = static_cast<unsigned char *>(closure);
  for (std::size_t at = 0; at + sizeof(std::uintptr_t) <= bytes; at += alignof(std::uintptr_t)) {
    std::uintptr_t word;
    std::memcpy(&word, words + at, sizeof(word));
    if (!rt::isAccessorToken(word)) continue;
    for (const buffer_access &access : accesses) {
      const std::uintptr_t base = access.buffer->token;  // the buffer's id; its offsets below
      if ((word >> rt::kTokenOffsetBits) != (base >> rt::kTokenOffsetBits)) continue;
      char *address = static_cast<char *>(buffer_host_data(*access.buffer)) + (word - base);
      std::memcpy(words + at, &address, sizeof(address));
      break;
    }
  }
}

host_access buffer_acquire_host(const buffer_access &access) {
  rt::HostAccess held =
      rt::syclCall([&] { return rt::acquireHost(rt::coreAccess(access), std::make_shared<rt::Node>()); });
  host_access result;
  result.data = held.data;
  result.hold = std::move(held.hold);
  return result;
}

}  // namespace sycl::detail
