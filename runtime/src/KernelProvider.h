// The kernel provider: the one place that answers "the binary of kernel K on
// device D with values S" (ARCHITECTURE.md, seams 2 and 3). It owns the
// in-memory map of loaded kernels, the persistent cache (keys, lookup, store),
// the one call into the JIT and the JIT's warm-up. Backends only describe
// their devices' targets, finalize and load binaries, and launch; they never
// call back for any of this. Every device, the CPU's too, goes this way:
//
//   queue (Queue.cpp) -> provideKernel: memory hit -> the backend's handle
//     miss -> persistent cache (KernelCache) hit -> backend.load_kernel
//     miss -> JIT (onepass_jit_compile for the device's target)
//          -> backend.finalize_binary (if any) -> cache store -> backend.load_kernel
#pragma once

#include "KernelRegistry.h"
#include "BackendInterface.h"

#include "onepass/jit/jit_api.h"

#include <sycl/detail/runtime_api.hpp>

#include <string>

namespace onepass::rt {

// A device's JIT target, copied from its backend (onepass_backend_target).
struct DeviceTarget {
  uint32_t kind = 0;  // onepass_jit_target_kind
  uint32_t arch = 0, isaVersion = 0;
  std::string deviceLibrary, deviceLibraryMissing;
  std::string identity;            // the backend's part of cache keys
  bool perWorkGroupRange = false;  // nd_range kernels compiled per work-group range
  std::string name;                // for messages: "sm_90", "the host CPU"

  // The JIT's description of it (pointing into this object).
  onepass_jit_target jitTarget() const {
    return {kind, arch, isaVersion, deviceLibrary.c_str(), deviceLibraryMissing.c_str()};
  }
};

// Asks `backend` for device `index`'s target; false with `error` if it fails.
bool describeTarget(const onepass_backend &backend, uint32_t index, DeviceTarget &target, std::string &error);

// The backend's handle of `kernel` (host entry `hostEntry`) built for `device`
// and this launch's values: its launch constants (read from launch.object),
// and its work-group range on targets that compile it in. From memory, else
// the persistent cache, else the JIT. Throws sycl::exception(errc::build)
// naming the kernel, the device and the reason.
void *provideKernel(const sycl::detail::device_impl &device, const RegisteredKernel &kernel, const void *hostEntry,
                    const onepass_backend_launch &launch);

// Before the backends start: loads the JIT library on a background thread, in
// parallel with the drivers' start-up (unless ONEPASS_JIT_WARMUP=0 or the
// program has no kernels).
void preloadJit();
// Once the devices are known: on that thread, warms the JIT up for the first
// device whose target has a warm-up (a GPU), if one of the registered kernels
// is not in the persistent cache for it; otherwise lets the thread go.
void warmUpJit(const std::vector<const sycl::detail::device_impl *> &devices);

// OnePass and LLVM versions, the JIT interface and the builtin libraries'
// hashes: the first part of every persistent cache key.
const std::string &toolchainId();

}  // namespace onepass::rt
