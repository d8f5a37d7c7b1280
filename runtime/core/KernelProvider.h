// The kernel provider: the one place that answers "the binary of kernel K on
// device D with values S" (ARCHITECTURE.md, seams 2 and 3). It owns the
// in-memory map of loaded kernels, the persistent cache (keys, lookup, store),
// the one call into the JIT and the JIT's warm-up. Backends only describe
// their devices' targets, finalize and load binaries, and launch; they never
// call back for any of this. Every device, the CPU's too, goes this way:
//
//   queue (sycl/Queue.cpp) -> provideKernel: memory hit -> the backend's handle
//     miss -> persistent cache (KernelCache) hit -> backend.load_kernel
//     miss -> the target's JIT output from the cache (GPU targets; onepass-cache
//             warm --target puts it there) -> backend.finalize_binary (if any)
//             -> cache store -> backend.load_kernel
//     miss -> JIT (onepass_jit_compile for the device's target)
//          -> backend.finalize_binary (if any) -> cache store -> backend.load_kernel
#pragma once

#include "KernelRegistry.h"
#include "Device.h"
#include "BackendInterface.h"

#include "onepass/jit/jit_api.h"

#include <functional>
#include <string>
#include <vector>

namespace onepass::rt {

// Asks `backend` for device `index`'s target; false with `error` if it fails.
bool describeTarget(const onepass_backend &backend, uint32_t index, DeviceTarget &target, std::string &error);
// A target's name for messages and keys: "sm_90", "SPIR-V", "gfx942", "the host CPU".
std::string targetName(uint32_t kind, uint32_t arch);

// The backend's handle of `kernel` (host entry `hostEntry`) built for `device`
// and this launch's values: its launch constants (read from launch.object),
// and its work-group range on targets that compile it in. From memory, else
// the persistent cache, else the JIT. Throws Error(Errc::build)
// naming the kernel, the device and the reason. `generic`: the binary that
// takes any launch, with none of the launch's values compiled in (what a
// kernel bundle builds ahead of launches; `launch` is not read).
// `globalOffset`: an nd_range launch's 3 offsets (deprecated), or null.
void *provideKernel(const Device &device, const RegisteredKernel &kernel, const void *hostEntry,
                    const onepass_backend_launch &launch, bool generic = false,
                    const uint64_t *globalOffset = nullptr);

// `onepass-cache warm --target`: the JIT's output of the kernel's generic
// binary for `target` (a GPU target; no device of it needed) into the
// persistent cache, where a device of that target finds it at its first
// launch, finalizes it and skips the JIT. `transform` (if set) turns the
// output into what is stored. `found`: it was there already. Returns "" or
// what went wrong.
std::string buildForTarget(const RegisteredKernel &kernel, const DeviceTarget &target,
                           const std::function<std::string(std::vector<unsigned char> &)> &transform, bool &found);

// What the kernel's generic binary can take on the device (built if it is not
// yet): 0s where the backend has no per-kernel limits (the device's apply).
struct KernelLimits {
  uint64_t maxWorkGroupSize = 0;
  uint64_t privateBytes = 0;
};
KernelLimits kernelLimits(const Device &device, const RegisteredKernel &kernel, const void *hostEntry);
// The same for a binary already loaded (`handle`, provideKernel's): false
// and `error` if the backend cannot say.
bool loadedKernelLimits(const Device &device, void *handle, KernelLimits &limits, std::string &error);

// Before the backends start: loads the JIT library on a background thread, in
// parallel with the drivers' start-up (unless ONEPASS_JIT_WARMUP=0, the
// program has no kernels, or the cache holds the kernels of `host`, the CPU
// device's target, that it can know before their launch).
void preloadJit(const DeviceTarget *host);
// Once the devices are known: on that thread, warms the JIT up for the first
// device whose target has a warm-up (a GPU), if one of the registered kernels
// is not in the persistent cache for it; otherwise lets the thread go.
void warmUpJit(const std::vector<const Device *> &devices);

// OnePass and LLVM versions, the JIT interface and the builtin libraries'
// hashes: the first part of every persistent cache key.
const std::string &toolchainId();

}  // namespace onepass::rt
