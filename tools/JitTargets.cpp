#include "JitTargets.h"

#include "CudaToolkit.h"
#include "RocmDeviceLibraries.h"
#include "onepass/jit/jit_api.h"

#include <cstdio>

namespace onepass::tools {

std::string parseJitTarget(const std::string &target, std::string arch, bool allowHost, JitTargetChoice &out) {
  out = JitTargetChoice{};
  if (target == "ptx") {
    if (arch.empty()) arch = "sm_90";
    unsigned sm = 0;
    char rest = 0;
    // (sm_90a and the like are refused, not read as sm_90: the JIT knows no
    // architecture-specific features.)
    if (std::sscanf(arch.c_str(), "sm_%u%c", &sm, &rest) != 1 || sm < 20)
      return "--arch for ptx is an NVIDIA architecture such as sm_90, not '" + arch + "'";
    const onepass::cuda::Libdevice libdevice = onepass::cuda::findLibdevice();
    out = {ONEPASS_JIT_TARGET_PTX, sm, "sm_" + std::to_string(sm), libdevice.path, libdevice.missing, libdevice.root};
  } else if (target == "amdgcn") {
    if (arch.empty()) arch = "gfx942";
    unsigned gfx = 0;
    if (arch.rfind("gfx", 0) != 0 || arch.size() < 6 ||
        arch.find_first_not_of("0123456789abcdef", 3) != std::string::npos ||
        std::sscanf(arch.c_str() + 3, "%x", &gfx) != 1)
      return "--arch for amdgcn is an AMD GPU architecture such as gfx942, not '" + arch + "'";
    const onepass::hsa::RocmDeviceLibraries rocm = onepass::hsa::findRocmDeviceLibraries();
    out = {ONEPASS_JIT_TARGET_AMDGCN, gfx, arch, rocm.directory, rocm.missing, ""};
  } else if (target == "spirv") {
    if (!arch.empty()) return "--arch does not go with --target spirv (SPIR-V is one target for every device)";
    // (SPIR-V with sub-groups as the SPIR-V environment has them; the Level
    // Zero and OpenCL backends ask for ONEPASS_JIT_SPIRV_ONE_ITEM_SUB_GROUPS.)
    out = {ONEPASS_JIT_TARGET_SPIRV, 0, "SPIR-V", "", "", ""};
  } else if (allowHost && target == "x86") {
    if (!arch.empty()) return "--arch does not go with --target x86 (the JIT compiles for this host's CPU)";
    out = {ONEPASS_JIT_TARGET_HOST, 0, "the host CPU", "", "", ""};
  } else if (!allowHost && (target == "x86" || target == "cpu" || target == "host")) {
    return "--target " + target +
           ": the CPU device's kernels are compiled for the CPU that runs them; warm them on that machine "
           "with --device cpu";
  } else {
    return std::string(allowHost ? "--target is ptx, spirv, amdgcn or x86" : "--target is ptx, spirv or amdgcn") +
           ", not '" + target + "'";
  }
  return "";
}

}  // namespace onepass::tools
