// The kernels of every loaded binary, registered by the static constructors
// stage 1 adds to each object file. A kernel's identity is the address of its
// host entry function; the registry maps it to the image that holds the kernel.
#pragma once

#include "KernelImage.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace onepass::rt {

struct RegisteredKernel {
  const uint8_t *image = nullptr;  // lives as long as the binary that embeds it
  uint64_t imageSize = 0;
  uint64_t imageId = 0;
  const void *hostEntry = nullptr;  // the kernel's identity
  image::KernelView info;           // views into the image
  std::string name;                 // info.displayName, for users (a kernel_id's name)
  // Derived once, for every launch: the symbol NUL-terminated, and where each
  // kernel parameter lies in the kernel object.
  std::string symbol;
  std::vector<uint32_t> fieldOffsets, fieldSizes;
  std::vector<uint32_t> constantFields;  // indices of image::kFieldLaunchConstant fields
  bool capturesLocalAccessor = false;    // a field has image::kFieldLocalAccessor
};

// Returns the kernel for `hostEntry`; raises Error(Errc::kernel_not_supported) if the kernel is
// unknown or its image is corrupt (naming the binary and the problem).
// The record is shared: it stays valid after its image is unregistered.
std::shared_ptr<const RegisteredKernel> lookupKernel(const void *hostEntry);

// "'name' (file:line)": how error messages name a kernel.
std::string describeKernel(const RegisteredKernel &kernel);

// Calls `visit` with every usable kernel registered so far (outside the
// registry's lock).
void forEachKernel(const std::function<void(const RegisteredKernel &)> &visit);

// A registered image that exports SYCL_EXTERNAL functions (image::kFlagExports).
struct ExportingImage {
  const void *data = nullptr;
  uint64_t size = 0;
  uint64_t id = 0;  // image::ImageView::imageId
};
// The exporting images registered now, in registration order.
std::vector<ExportingImage> exportingImages();

}  // namespace onepass::rt
