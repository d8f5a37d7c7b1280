// Kernel launch checks: the kernel object, the ranges, the kernel's
// attributes and the features it uses, against the device.
#pragma once

#include "KernelRegistry.h"
#include "Runtime.h"

namespace sycl::detail {

// Throws sycl::exception (kernel_argument, nd_range, kernel_not_supported or
// memory_allocation) if `kernel` cannot run on `device` as `desc` asks.
void validateKernelLaunch(const onepass::rt::RegisteredKernel &kernel, const kernel_launch_desc &desc,
                          const device_impl &device);

// Why the kernel cannot run on the device whatever the launch (SYCL 2020
// §4.11.9: attributes, features, precision), or "" if it can.
std::string kernelIncompatibility(const onepass::rt::RegisteredKernel &kernel, const device_impl &device);

}  // namespace sycl::detail
