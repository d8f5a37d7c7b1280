// A device as the runtime core sees it: the backend that drives it, what its
// kernels are compiled for, and the executor that runs its commands. The SYCL
// layer's device_impl is one, with its SYCL properties added.
#pragma once

#include "BackendInterface.h"
#include "Executor.h"
#include "StreamTracker.h"

#include "onepass/jit/jit_api.h"

#include <atomic>
#include <memory>
#include <mutex>
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

struct Device {
  const onepass_backend *backend = nullptr;
  uint32_t index = 0;
  std::string name;     // the device's, for messages
  DeviceTarget target;  // what its kernels are compiled for
  // The executor of its commands, made at first use.
  Executor &getExecutor();
  // Its stream tracker, if it has streams (after getExecutor).
  StreamTracker *streams() const { return streams_.get(); }

private:
  std::once_flag executorOnce_;
  std::atomic<Executor *> executorReady_{nullptr};  // set once made: no call_once per command
  // Asynchronous streams, if the backend has them (and ONEPASS_GPU_STREAMS
  // does not turn them off); made with the executor.
  std::unique_ptr<StreamTracker> streams_;
  std::unique_ptr<Executor> executor_;
};

}  // namespace onepass::rt
