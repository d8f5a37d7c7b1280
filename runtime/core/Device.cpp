// Devices as the core sees them (Device.h).
#include "Device.h"
#include "Environment.h"
#include "Log.h"

#include <algorithm>

namespace onepass::rt {

Executor &Device::getExecutor() {
  if (Executor *ready = executorReady_.load(std::memory_order_acquire)) return *ready;
  std::call_once(executorOnce_, [&] {
    // At most the backend's streams (ONEPASS_GPU_STREAMS may ask for fewer).
    unsigned count = backend->streams ? std::min(env::gpuStreams(backend->streams), backend->streams) : 0;
    if (count > 0) streams_ = std::make_unique<StreamTracker>(*backend, index, count);
    ONEPASS_LOG(Debug, "device '" << name << "': "
                                  << (count ? std::to_string(count) + " asynchronous streams"
                                            : std::string("synchronous operations")));
    executor_ = std::make_unique<Executor>(backend->concurrent_operations, streams_.get());
    executorReady_.store(executor_.get(), std::memory_order_release);
  });
  return *executor_;
}

}  // namespace onepass::rt
