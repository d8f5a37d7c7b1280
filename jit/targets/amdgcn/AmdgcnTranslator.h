// The AMDGCN target (stage 2) for AMD GPUs through HSA: LLVM's AMDGPU
// backend for the device's gfx architecture (amdgcn-amd-amdhsa, code object
// v5), linked in process by lld into a code object (.hsaco). The entry is an
// HSA kernel over the kernel's fields (pointers as global pointers), then, for
// a range kernel, its global range (GridEntry.h); work-item queries read the
// work-item and workgroup ids and the dispatch packet; local accessors use the
// dispatch's dynamic LDS; math calls AMD's ocml (ROCm device libraries).
#pragma once

#include "sycl/detail/onepass_abi.hpp"

#include "Driver.h"

#include <memory>
#include <string>

namespace onepass::jit {

inline constexpr const char *kAmdgcnKernelSymbol = ONEPASS_ABI_AMDGCN_KERNEL;

struct AmdgcnTarget {
  std::string arch;         // "gfx942"
  std::string deviceLibraries;  // the directory of ocml.bc ("" if none was found)
  std::string deviceLibrariesMissing;  // where the caller looked
};

std::unique_ptr<Translator> makeAmdgcnTranslator(const AmdgcnTarget &target);

}  // namespace onepass::jit
