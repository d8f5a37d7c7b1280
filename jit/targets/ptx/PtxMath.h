// Math in PTX kernels (stage 2, NVPTX). C math calls (`sinf`, `pow` …) and the
// LLVM math intrinsics NVPTX cannot select become calls into NVIDIA's libdevice
// (`__nv_sinf` …), found in the CUDA installation at run time and linked only
// into kernels that need it. Calls carrying the `afn` flag (-ffast-math,
// sycl::native::) use libdevice's fast variants where it has them.
#pragma once

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>

namespace onepass::jit {

struct LibdeviceLocation {
  std::string path;      // libdevice.10.bc, or empty if the caller found none
  std::string searched;  // where the caller looked, for the error message
};

// Redirects the module's math calls to libdevice, links the libdevice
// functions they reach and sets libdevice's flush-to-zero switch from
// `entry`'s single-precision denormal mode. Then checks that every function
// the kernel calls has a definition: a call nothing on the GPU defines is an
// error naming the function, not a PTX link failure later.
llvm::Error lowerMathToLibdevice(llvm::Module &module, llvm::Function &entry, const LibdeviceLocation &libdevice,
                                 llvm::StringRef kernelName);

}  // namespace onepass::jit
