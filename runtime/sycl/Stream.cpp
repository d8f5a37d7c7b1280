// sycl::stream's runtime side (SYCL 2020 §4.16): the control block, the
// buffer and the work-items' slots on the device (sycl/stream.hpp formats
// into them), set up when the kernel is submitted and printed to stdout
// after it has run, before its event completes.
#include "Errors.h"
#include "Log.h"
#include "Runtime.h"
#include "Stream.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace onepass;

namespace sycl::detail {

namespace {

// Slots of work-items are 8-byte aligned: their head, then their text.
constexpr std::size_t kSlotAlignment = 8;

void *allocateOn(const device_impl &dev, std::size_t bytes, const char *what) {
  void *pointer = dev.backend->allocate(dev.index, bytes, 64, ONEPASS_USM_DEVICE);
  if (!pointer)
    rt::raise(errc::memory_allocation, std::string("sycl::stream: cannot allocate ") + std::to_string(bytes) +
                                           " bytes for " + what + " on '" + dev.properties.name + "'");
  return pointer;
}

}  // namespace

stream_impl::~stream_impl() {
  for (void *pointer : {static_cast<void *>(control), static_cast<void *>(out), static_cast<void *>(items)})
    if (pointer) device->backend->deallocate(device->index, pointer, ONEPASS_USM_DEVICE);
}

std::shared_ptr<stream_impl> stream_create(const queue_impl &queue, std::size_t total_bytes,
                                           std::size_t work_item_bytes, stream_control **control) {
  // (Sizes of 0 are allowed: everything written is dropped, §4.16.)
  if (total_bytes > UINT32_MAX || work_item_bytes > UINT32_MAX)
    rt::raise(errc::invalid, "sycl::stream: a buffer size over 4 GiB");
  auto s = std::make_shared<stream_impl>();
  s->device = queue.device;
  s->total = total_bytes;
  s->workItem = work_item_bytes;
  s->control = static_cast<stream_control *>(allocateOn(*s->device, sizeof(stream_control), "its control block"));
  s->out = static_cast<char *>(allocateOn(*s->device, std::max<std::size_t>(total_bytes, 1), "its buffer"));
  *control = s->control;
  return s;
}

void streamsPrepare(const std::vector<std::shared_ptr<stream_impl>> &streams, const kernel_launch_desc &kernel) {
  for (const auto &s : streams) {
    const device_impl &dev = *s->device;
    const std::uint32_t dims = kernel.single_task ? 0 : static_cast<std::uint32_t>(kernel.dimensions);
    std::size_t count = 1;
    for (std::uint32_t d = 0; d < dims; ++d) count *= kernel.global_range[d];
    count = std::max<std::size_t>(count, 1);
    const std::size_t stride =
        (sizeof(stream_slot) + s->workItem + kSlotAlignment - 1) / kSlotAlignment * kSlotAlignment;
    if (count > SIZE_MAX / stride)
      rt::raise(errc::memory_allocation, "sycl::stream: " + std::to_string(count) + " work-items of " +
                                             std::to_string(s->workItem) + " bytes each are too many");
    s->items = static_cast<char *>(allocateOn(dev, count * stride, "the work-items' buffers"));
    s->itemCount = count;
    s->itemStride = stride;
    backendFill(dev, -1, s->items, {0}, count * stride);
    stream_control c{};
    c.out = s->out;
    c.capacity = static_cast<std::uint32_t>(s->total);
    c.dims = dims;
    c.items = s->items;
    c.item_stride = stride;
    c.item_count = count;
    backendCopy(dev, -1, s->control, &c, sizeof(c), "sycl::stream: setting up the control block");
  }
}

void streamsPrint(const std::vector<std::shared_ptr<stream_impl>> &streams) {
  for (const auto &s : streams) {
    if (!s->items) continue;  // the kernel was never launched
    const device_impl &dev = *s->device;
    stream_control c{};
    backendCopy(dev, -1, &c, s->control, sizeof(c), "sycl::stream: reading the control block");
    const std::size_t flushed = std::min<std::size_t>(c.used, s->total);
    std::vector<char> text(flushed);
    if (flushed) backendCopy(dev, -1, text.data(), s->out, flushed, "sycl::stream: reading the buffer");
    // What the work-items did not flush (§4.16.3: the implicit flush at the
    // end of the kernel), up to the buffer's size.
    std::vector<char> slots(s->itemCount * s->itemStride);
    backendCopy(dev, -1, slots.data(), s->items, slots.size(), "sycl::stream: reading the work-items' buffers");
    bool truncated = c.truncated != 0 || c.used > s->total;
    for (std::size_t i = 0; i < s->itemCount; ++i) {
      const char *slot = slots.data() + i * s->itemStride;
      stream_slot head;
      std::memcpy(&head, slot, sizeof(head));
      const std::size_t fill = std::min<std::size_t>(head.fill, s->workItem);
      const std::size_t room = s->total - std::min(s->total, text.size());
      if (fill > room) truncated = true;
      text.insert(text.end(), slot + sizeof(stream_slot), slot + sizeof(stream_slot) + std::min(fill, room));
    }
    if (!text.empty()) {
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fflush(stdout);
    }
    if (truncated)
      std::fprintf(stderr,
                   "OnePass: sycl::stream: output was dropped: the kernel wrote more than the stream's %zu bytes, "
                   "or a work-item more than %zu bytes between flushes\n",
                   s->total, s->workItem);
  }
}

}  // namespace sycl::detail
