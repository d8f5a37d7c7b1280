// Loads libonepass-jit.so on first use (dlopen, RTLD_LOCAL: its LLVM stays
// private) and exposes its C interface. A missing or mismatched library is a
// clear sycl::exception, never a crash.
#pragma once

#include "onepass/jit/jit_api.h"

#include <string>

namespace onepass::rt {

struct JitLibrary {
  decltype(&onepass_jit_compile_cpu) compileCpu = nullptr;
  decltype(&onepass_jit_load_cpu) loadCpu = nullptr;
  decltype(&onepass_jit_compile_ptx) compilePtx = nullptr;
  decltype(&onepass_jit_warm_up_ptx) warmUpPtx = nullptr;
  decltype(&onepass_jit_free) free = nullptr;
  decltype(&onepass_jit_version_string) versionString = nullptr;
  std::string path;
};

// Throws sycl::exception(errc::runtime) naming the path and the loader's error.
const JitLibrary &jitLibrary();

// The directory holding libonepass-rt.so (the install's lib/).
const std::string &runtimeLibraryDirectory();

}  // namespace onepass::rt
