// Where the CUDA toolkit's files that OnePass uses at run time are: today
// libdevice (libdevice.10.bc, NVIDIA's math library as LLVM bitcode), which
// the JIT links into kernels that call math functions. The toolkit is
// optional: kernels without math run with the driver alone.
#pragma once

#include <string>

namespace onepass::cuda {

struct Libdevice {
  std::string path;      // empty if none was found
  std::string root;      // the toolkit's directory it was found in (bin/ptxas may be there)
  std::string identity;  // for the kernel cache key: path, size and modification time
  std::string missing;   // where we looked and how to point OnePass at a toolkit
};

// Looks in $ONEPASS_CUDA_PATH alone if it is set; otherwise in $CUDA_PATH,
// $CUDA_HOME, then the usual installation directories (/usr/local/cuda, /opt/cuda, /usr/lib/cuda,
// /usr/lib/nvidia-cuda-toolkit), for nvvm/libdevice/libdevice.10.bc or
// libdevice/libdevice.10.bc.
Libdevice findLibdevice();

}  // namespace onepass::cuda
