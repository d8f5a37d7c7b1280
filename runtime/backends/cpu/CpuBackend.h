// The CPU device, always present: kernels JIT-compiled to native code and run
// on a thread pool over all cores, memory from the host allocator.
#pragma once

#include "BackendInterface.h"

namespace onepass::rt {

const onepass_backend &cpuBackend();

}  // namespace onepass::rt
