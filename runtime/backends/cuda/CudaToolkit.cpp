#include "CudaToolkit.h"

#include <sys/stat.h>

#include <cstdlib>
#include <vector>

namespace onepass::cuda {

Libdevice findLibdevice() {
  std::vector<std::string> roots;
  // ONEPASS_CUDA_PATH is authoritative; the others are hints among the usual places.
  const char *chosen = std::getenv("ONEPASS_CUDA_PATH");
  if (chosen && *chosen) {
    roots.emplace_back(chosen);
  } else {
    for (const char *variable : {"CUDA_PATH", "CUDA_HOME"})
      if (const char *value = std::getenv(variable); value && *value) roots.emplace_back(value);
    for (const char *root : {"/usr/local/cuda", "/opt/cuda", "/usr/lib/cuda", "/usr/lib/nvidia-cuda-toolkit"})
      roots.emplace_back(root);
  }

  Libdevice found;
  std::string searched;
  for (const std::string &root : roots)
    for (const char *relative : {"/nvvm/libdevice/libdevice.10.bc", "/libdevice/libdevice.10.bc"}) {
      const std::string path = root + relative;
      struct stat info {};
      if (stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
        found.path = path;
        found.root = root;
        found.identity = "libdevice " + path + " " + std::to_string(info.st_size) + " " +
                         std::to_string(static_cast<long long>(info.st_mtime));
        return found;
      }
      searched += (searched.empty() ? "" : ", ") + path;
    }
  found.identity = "no libdevice";
  found.missing = "looked for " + searched +
                  (chosen && *chosen ? "; ONEPASS_CUDA_PATH must name a CUDA toolkit directory"
                                     : "; install the CUDA toolkit or set ONEPASS_CUDA_PATH to its directory");
  return found;
}

}  // namespace onepass::cuda
