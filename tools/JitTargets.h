// --target and --arch as onepass-jit and `onepass-cache warm --target` take
// them: the JIT target, its architecture and its device library (libdevice
// for PTX, ROCm's ocml for AMDGCN), found as the runtime's backends find them.
#pragma once

#include <cstdint>
#include <string>

namespace onepass::tools {

struct JitTargetChoice {
  uint32_t kind = 0;  // onepass_jit_target_kind
  uint32_t arch = 0;  // sm number; gfx number (hex digits); SPIR-V: 0
  std::string name;   // "sm_90", "gfx942", "SPIR-V", "the host CPU"
  std::string library, libraryMissing;
  std::string toolkitRoot;  // PTX: the CUDA toolkit libdevice came from ("" if none)
};

// Reads `target` (ptx, spirv, amdgcn; x86 where `allowHost`) and `arch`
// ("" for the default: sm_90, gfx942). Returns "" or what is wrong with them.
std::string parseJitTarget(const std::string &target, std::string arch, bool allowHost, JitTargetChoice &out);

}  // namespace onepass::tools
