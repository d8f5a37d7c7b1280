// Where ROCm's device libraries are (ocml.bc, AMD's math library as LLVM
// bitcode), which the JIT links into AMD GPU kernels that call math
// functions: for the HSA backend and onepass-jit --target=amdgcn.
#pragma once

#include <string>

namespace onepass::hsa {

struct RocmDeviceLibraries {
  std::string directory;  // of ocml.bc; empty if none was found
  std::string identity;   // for the kernel cache key: directory, ocml.bc's size and modification time
  std::string missing;    // where we looked and how to point OnePass at them (empty if found)
};

// Looks in $ONEPASS_ROCM_DEVICE_LIBS alone if it is set; otherwise in
// Debian's /usr/lib/x86_64-linux-gnu/amdgcn/bitcode, /opt/rocm/amdgcn/bitcode
// and /opt/rocm/lib/amdgcn/bitcode.
RocmDeviceLibraries findRocmDeviceLibraries();

}  // namespace onepass::hsa
