// SPIR-V to SPIR 1.2 for OpenCL devices that take SPIR bitcode
// (cl_khr_spir) but no SPIR-V, such as Debian's PoCL: the Khronos
// SPIR-V/LLVM translator of LLVM 15 (libLLVMSPIRVLib.so.15, Debian's
// libllvmspirvlib15) and LLVM 15's C API, loaded in process with dlopen
// (RTLD_LOCAL: invisible to the application and to OnePass's own LLVM, which
// is linked in statically and hidden). PoCL 3.1 is built on that LLVM.
#pragma once

#include <mutex>
#include <string>
#include <vector>

namespace onepass::opencl {

// Whether the translator could be loaded; otherwise `why` says what is missing.
bool spirConverterAvailable(std::string &why);

// LLVM 15 in this process (the translator, and PoCL, which builds programs
// with it) is used by one thread at a time: the backend holds this lock
// around conversions and around building programs for SPIR devices.
std::mutex &llvm15Lock();

// SPIR 1.2 bitcode for a SPIR-V module, or false with `error`. Thread-safe.
bool convertSpirvToSpir(const void *spirv, size_t size, std::vector<char> &spir, std::string &error);

}  // namespace onepass::opencl
