// Checks a kernel launch against the kernel's image and the device before
// anything is built or enqueued (SYCL 2020 §4.9.4.2, §4.7.6.11, §5.8.1): every
// problem is a synchronous sycl::exception at the submit call with the errc the
// specification names, naming the kernel and the device.
#include "KernelValidation.h"

#include "Errors.h"

#include <sycl/detail/onepass_abi.hpp>

#include <algorithm>
#include <string>

using namespace onepass;

namespace sycl::detail {

namespace {

static_assert(image::kAspectCount == static_cast<uint32_t>(aspect::usm_system_allocations) + 1 &&
                  image::kAspectFp64 == static_cast<uint32_t>(aspect::fp64),
              "the image's aspect bits are sycl::aspect's values");

// sycl::aspect's names, by value (for messages).
const char *aspectName(uint32_t value) {
  static const char *const names[image::kAspectCount] = {"cpu",
                                                         "gpu",
                                                         "accelerator",
                                                         "custom",
                                                         "emulated",
                                                         "host_debuggable",
                                                         "fp16",
                                                         "fp64",
                                                         "atomic64",
                                                         "image",
                                                         "online_compiler",
                                                         "online_linker",
                                                         "queue_profiling",
                                                         "usm_device_allocations",
                                                         "usm_host_allocations",
                                                         "usm_atomic_host_allocations",
                                                         "usm_shared_allocations",
                                                         "usm_atomic_shared_allocations",
                                                         "usm_system_allocations"};
  return value < image::kAspectCount ? names[value] : "?";
}

// §5.8.1, §4.11.9: a kernel with [[sycl::device_has(...)]] runs only on
// devices with every aspect it lists (errc::kernel_not_supported).
void checkRequiredAspects(const rt::RegisteredKernel &kernel, const device_impl &device) {
  const uint64_t required = kernel.info.requiredAspects;
  if (required == 0) return;
  std::string missing;
  for (uint32_t a = 0; a < image::kAspectCount; ++a)
    if ((required >> a & 1) && std::find(device.properties.aspects.begin(), device.properties.aspects.end(),
                                         static_cast<aspect>(a)) == device.properties.aspects.end())
      missing += std::string(missing.empty() ? "" : ", ") + "aspect::" + aspectName(a);
  if (!missing.empty())
    rt::raise(errc::kernel_not_supported, "kernel " + rt::describeKernel(kernel) + " requires " + missing +
                                              " ([[sycl::device_has]]), which device '" + device.properties.name +
                                              "' does not have (SYCL 2020 §5.8.1)");
}

static_assert(image::kFeatureBarrier == ONEPASS_KERNEL_FEATURE_BARRIER &&
                  image::kFeatureLocalMemory == ONEPASS_KERNEL_FEATURE_LOCAL_MEMORY &&
                  image::kFeatureAtomic64 == ONEPASS_KERNEL_FEATURE_ATOMIC64 &&
                  image::kFeatureFp16 == ONEPASS_KERNEL_FEATURE_FP16,
              "the backend interface's feature bits are the image's");

// What a kernel's work-group features demand (SYCL 2020 §4.7.6.11, §4.9.4.2.3).
void checkKernelFeatures(const rt::RegisteredKernel &kernel, const kernel_launch_desc &desc,
                         const device_impl &device) {
  const image::KernelView &info = kernel.info;
  const bool grouped = info.kind == image::KernelKind::NdRange;
  // §4.7.6.11: a local_accessor captured (used or not) by a single_task or a
  // parallel_for over a range is errc::kernel_argument (stage 1 flags its
  // fields; found once, when the image is registered).
  if (!grouped && kernel.capturesLocalAccessor)
    rt::raise(errc::kernel_argument, "kernel " + rt::describeKernel(kernel) +
                                         " captures a local_accessor, which only a parallel_for over an nd_range "
                                         "may (not single_task or a parallel_for over a range; SYCL 2020 §4.7.6.11)");
  if (!grouped && (info.features & (image::kFeatureLocalMemory | image::kFeatureBarrier)))
    rt::raise(errc::kernel_argument,
              "kernel " + rt::describeKernel(kernel) + " uses " +
                  (info.features & image::kFeatureLocalMemory
                       ? (info.groupLocalBytes ? "group_local_memory" : "a local_accessor")
                       : "a work-group barrier") +
                  ", which only a parallel_for over an nd_range may (not single_task or a parallel_for over a range)");
  // The work-group algorithms' scratch: 8 bytes per work-item of the largest group.
  const std::size_t scratch =
      info.features & image::kFeatureGroupScratch ? 8 * device.properties.max_work_group_size : 0;
  if (desc.local_memory_bytes + info.groupLocalBytes + scratch > device.properties.local_mem_size)
    rt::raise(
        errc::memory_allocation,
        "kernel " + rt::describeKernel(kernel) + ": its local accessors need " +
            std::to_string(desc.local_memory_bytes) + " bytes of local memory per work-group" +
            (info.groupLocalBytes ? " (and its group_local_memory " + std::to_string(info.groupLocalBytes) + ")" : "") +
            (scratch ? " (and its group algorithms " + std::to_string(scratch) + ")" : "") + ", more than device '" +
            device.properties.name + "' has (" + std::to_string(device.properties.local_mem_size) + " bytes)");
  const uint32_t missing =
      info.features & (image::kFeatureLocalMemory | image::kFeatureBarrier) & ~device.properties.kernel_features;
  if (missing)
    rt::raise(errc::kernel_not_supported,
              "kernel " + rt::describeKernel(kernel) + " uses " +
                  (missing & image::kFeatureBarrier ? "work-group barriers" : "work-group local memory") +
                  ", which device '" + device.properties.name + "' does not support yet");
}

// SYCL 2020 §5.8.1 kernel attributes: a required work-group size the device
// cannot run, or a required sub-group size it does not have, is
// errc::kernel_not_supported; an nd_range with another local range is
// errc::nd_range. (A parallel_for over a range has no observable
// work-groups: only the device limits apply to it.)
void checkKernelAttributes(const rt::RegisteredKernel &kernel, const kernel_launch_desc &desc,
                           const device_impl &device) {
  const image::KernelView &info = kernel.info;
  const auto &properties = device.properties;
  checkRequiredAspects(kernel, device);
  if (info.reqdSubGroupSize != 0 && std::find(properties.sub_group_sizes.begin(), properties.sub_group_sizes.end(),
                                              info.reqdSubGroupSize) == properties.sub_group_sizes.end()) {
    std::string sizes;
    for (std::size_t size : properties.sub_group_sizes) sizes += (sizes.empty() ? "" : ", ") + std::to_string(size);
    rt::raise(errc::kernel_not_supported, "kernel " + rt::describeKernel(kernel) + " requires sub-groups of " +
                                              std::to_string(info.reqdSubGroupSize) +
                                              " work-items ([[sycl::reqd_sub_group_size]]), which device '" +
                                              properties.name +
                                              "' does not have (info::device::sub_group_sizes: " + sizes + ")");
  }
  if (info.reqdWorkGroupSize[0] == 0) return;
  std::size_t required[3] = {1, 1, 1}, items = 1;
  for (uint32_t d = 0; d < info.dimensions; ++d) items *= required[d] = info.reqdWorkGroupSize[d];
  std::string requiredText = range_text(required, static_cast<int>(info.dimensions));
  if (std::find(required, required + 3, std::size_t{UINT32_MAX}) != required + 3)
    requiredText += " (4294967295 stands for any size of 2^32 or more)";
  for (uint32_t d = 0; d < info.dimensions; ++d)
    if (required[d] > properties.max_work_item_sizes[info.dimensions - 1 - d] || items > properties.max_work_group_size)
      rt::raise(errc::kernel_not_supported,
                "kernel " + rt::describeKernel(kernel) + " requires work-groups of " + requiredText +
                    " ([[sycl::reqd_work_group_size]]), more than device '" + properties.name + "' runs (" +
                    std::to_string(properties.max_work_group_size) +
                    " work-items, info::device::max_work_group_size and max_work_item_sizes)");
  if (info.kind != image::KernelKind::NdRange) return;
  // A hierarchical kernel's work-groups are the parallel_for_work_group's.
  const bool hierarchical = info.features & image::kFeatureHierarchical;
  const std::size_t *local = hierarchical ? desc.hierarchical_group : desc.local_range;
  for (uint32_t d = 0; d < info.dimensions; ++d)
    if (local[d] != required[d])
      rt::raise(errc::nd_range,
                "kernel " + rt::describeKernel(kernel) + " requires work-groups of " + requiredText +
                    " ([[sycl::reqd_work_group_size]]) but its " +
                    (hierarchical ? "parallel_for_work_group has work-group size " : "nd_range has local range ") +
                    range_text(local, desc.dimensions));
}

// §5.7: a kernel that uses an optional feature the device lacks is
// errc::kernel_not_supported, whether or not it declares
// [[sycl::device_has]]: double precision, half precision arithmetic (half
// values only loaded, stored and converted need no aspect: OpenCL's storage
// format) and 64-bit atomics, as stage 1 records them.
void checkOptionalFeatures(const rt::RegisteredKernel &kernel, const device_impl &device) {
  struct OptionalFeature {
    uint32_t feature;
    aspect needed;
    const char *what, *aspectName;
  };
  constexpr OptionalFeature optional[] = {
      {image::kFeatureFp64, aspect::fp64, "double precision", "fp64"},
      {image::kFeatureFp16, aspect::fp16, "half precision arithmetic", "fp16"},
      {image::kFeatureAtomic64, aspect::atomic64, "atomic operations on 64-bit values", "atomic64"}};
  const auto &aspects = device.properties.aspects;
  for (const OptionalFeature &o : optional)
    if ((kernel.info.features & o.feature) && std::find(aspects.begin(), aspects.end(), o.needed) == aspects.end())
      rt::raise(errc::kernel_not_supported, "kernel " + rt::describeKernel(kernel) + " uses " + o.what +
                                                ", which device '" + device.properties.name +
                                                "' does not support (it has no aspect::" + o.aspectName + ")");
}

}  // namespace

std::string kernelIncompatibility(const rt::RegisteredKernel &kernel, const device_impl &device) {
  // The device-level checks of a launch (a launch's own values aside).
  kernel_launch_desc neutral;
  neutral.dimensions = static_cast<int>(std::max(1u, kernel.info.dimensions));
  for (uint32_t d = 0; d < kernel.info.dimensions && d < 3; ++d)
    neutral.local_range[d] = neutral.hierarchical_group[d] =
        kernel.info.reqdWorkGroupSize[d] ? kernel.info.reqdWorkGroupSize[d] : 1;
  try {
    checkKernelAttributes(kernel, neutral, device);
    const uint32_t missing = kernel.info.features & (image::kFeatureLocalMemory | image::kFeatureBarrier) &
                             ~device.properties.kernel_features;
    if (missing)
      rt::raise(errc::kernel_not_supported,
                "kernel " + rt::describeKernel(kernel) + " uses " +
                    (missing & image::kFeatureBarrier ? "work-group barriers" : "work-group local memory") +
                    ", which device '" + device.properties.name + "' does not support yet");
    checkOptionalFeatures(kernel, device);
  } catch (const exception &e) {
    return e.what();
  }
  return {};
}

void validateKernelLaunch(const rt::RegisteredKernel &kernel, const kernel_launch_desc &desc,
                          const device_impl &device) {
  const image::KernelView &info = kernel.info;
  if (desc.object_size != info.objectSize)
    rt::raise(errc::kernel_argument, "kernel " + rt::describeKernel(kernel) + ": the host passes a " +
                                         std::to_string(desc.object_size) +
                                         "-byte kernel object but the device code expects " +
                                         std::to_string(info.objectSize) + " bytes (stale object file? rebuild it)");
  checkKernelAttributes(kernel, desc, device);
  // A hierarchical work-group's private_memory objects hold
  // ONEPASS_ABI_HIERARCHICAL_MAX_WORK_ITEMS Ts.
  if (info.features & image::kFeatureHierarchical) {
    std::size_t items = 1;
    for (int d = 0; d < desc.dimensions; ++d) items *= desc.hierarchical_group[d];
    if (items > ONEPASS_ABI_HIERARCHICAL_MAX_WORK_ITEMS)
      rt::raise(errc::nd_range,
                "kernel " + rt::describeKernel(kernel) + ": its parallel_for_work_group work-groups of " +
                    range_text(desc.hierarchical_group, desc.dimensions) + " (" + std::to_string(items) +
                    " work-items) exceed the " + std::to_string(ONEPASS_ABI_HIERARCHICAL_MAX_WORK_ITEMS) +
                    " work-items a hierarchical work-group holds in OnePass (private_memory's capacity)");
  }
  if (info.kind == image::KernelKind::NdRange) {
    std::size_t groupSize = 1, globalSize = 1;
    for (int d = 0; d < desc.dimensions; ++d) {
      groupSize *= desc.local_range[d];
      globalSize *= desc.global_range[d];
    }
    for (int d = 0; d < desc.dimensions && globalSize > 0; ++d) {
      const std::size_t most = device.properties.max_work_item_sizes[desc.dimensions - 1 - d];
      if (desc.local_range[d] > most)
        rt::raise(errc::nd_range, "kernel " + rt::describeKernel(kernel) + ": its local range " +
                                      range_text(desc.local_range, desc.dimensions) + " has " +
                                      std::to_string(desc.local_range[d]) + " work-items in dimension " +
                                      std::to_string(d) + ", more than device '" + device.properties.name +
                                      "' allows there (" + std::to_string(most) +
                                      ", info::device::max_work_item_sizes)");
    }
    if (globalSize > 0 && groupSize > device.properties.max_work_group_size)
      rt::raise(errc::nd_range, "kernel " + rt::describeKernel(kernel) + ": its work-groups of " +
                                    std::to_string(groupSize) + " work-items (local range " +
                                    range_text(desc.local_range, desc.dimensions) + ") exceed the largest device '" +
                                    device.properties.name + "' runs (" +
                                    std::to_string(device.properties.max_work_group_size) + ")");
  }
  checkKernelFeatures(kernel, desc, device);
  checkOptionalFeatures(kernel, device);
}

}  // namespace sycl::detail
