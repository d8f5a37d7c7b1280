// Loads libonepass-jit.so on first use (dlopen, RTLD_LOCAL: its LLVM stays
// private) and exposes its C interface. A missing or mismatched library is a
// clear sycl::exception, never a crash.
#pragma once

#include "onepass/jit/jit_api.h"

#include <string>

namespace onepass::rt {

struct JitLibrary {
  decltype(&onepass_jit_compile) compile = nullptr;
  decltype(&onepass_jit_warm_up) warmUp = nullptr;
  decltype(&onepass_jit_free) free = nullptr;
  decltype(&onepass_jit_version_string) versionString = nullptr;
  std::string path;
};

// Loads it once; nullptr and `error` (naming the path and the loader's
// error) if it cannot be loaded.
const JitLibrary *loadJitLibrary(std::string &error);
// The same, throwing Error(Errc::runtime) with that error.
const JitLibrary &jitLibrary();

// The directory holding libonepass-rt.so (the install's lib/).
const std::string &runtimeLibraryDirectory();

// The JIT library's path (ONEPASS_JIT_LIBRARY, or the install's).
std::string jitLibraryPath();
// What tells this JIT library's builds apart, without loading it: its GNU
// build ID (the linker's hash of its contents), else its size and time of
// modification; "" if it cannot be read.
std::string jitLibraryIdentity();

}  // namespace onepass::rt
