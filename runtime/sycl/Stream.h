// sycl::stream's runtime side (Stream.cpp).
#pragma once

#include "Runtime.h"

#include <memory>
#include <vector>

namespace sycl::detail {

struct stream_impl {
  std::shared_ptr<device_impl> device;
  stream_control *control = nullptr;  // on the device, as the buffer and the slots
  char *out = nullptr;
  char *items = nullptr;
  std::size_t total = 0, workItem = 0;
  std::size_t itemCount = 0, itemStride = 0;
  ~stream_impl();
};

// Before the kernel is enqueued: a zeroed slot per work-item, and the
// control block that points at them.
void streamsPrepare(const std::vector<std::shared_ptr<stream_impl>> &streams, const kernel_launch_desc &kernel);
// After the kernel has run: prints what the streams hold to stdout.
void streamsPrint(const std::vector<std::shared_ptr<stream_impl>> &streams);

}  // namespace sycl::detail
