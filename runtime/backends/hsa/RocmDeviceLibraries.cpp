#include "RocmDeviceLibraries.h"

#include <sys/stat.h>

#include <cstdlib>
#include <vector>

namespace onepass::hsa {

RocmDeviceLibraries findRocmDeviceLibraries() {
  RocmDeviceLibraries found;
  std::vector<std::string> places;
  if (const char *chosen = std::getenv("ONEPASS_ROCM_DEVICE_LIBS"); chosen && *chosen) places.emplace_back(chosen);
  else places = {"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/opt/rocm/amdgcn/bitcode", "/opt/rocm/lib/amdgcn/bitcode"};
  std::string looked;
  for (const std::string &place : places) {
    struct stat info {};
    if (stat((place + "/ocml.bc").c_str(), &info) == 0) {
      found.directory = place;
      found.identity = place + " " + std::to_string(info.st_size) + " " + std::to_string(info.st_mtime);
      return found;
    }
    looked += (looked.empty() ? "looked for ocml.bc in " : ", ") + place;
  }
  found.missing = looked + "; install the ROCm device libraries (rocm-device-libs) or set ONEPASS_ROCM_DEVICE_LIBS";
  return found;
}

}  // namespace onepass::hsa
