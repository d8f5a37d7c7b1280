#include "JitLibrary.h"

#include "Environment.h"
#include "Error.h"
#include "Log.h"

#include "../../common/platform/LibraryDirectory.h"

#include <dlfcn.h>

#include <mutex>

namespace onepass::rt {

const std::string &runtimeLibraryDirectory() {
  static const std::string directory =
      directoryOfLibraryContaining(reinterpret_cast<const void *>(&runtimeLibraryDirectory));
  return directory;
}

namespace {

struct LoadResult {
  JitLibrary library;
  std::string error;
};

LoadResult load() {
  LoadResult result;
  std::string path = env::jitLibrary();
  if (path.empty()) path = runtimeLibraryDirectory() + "/onepass/libonepass-jit.so";
  result.library.path = path;
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    result.error = "OnePass cannot load its JIT library '" + path + "': " + (reason ? reason : "unknown error") +
                   " (reinstall OnePass, or set ONEPASS_JIT_LIBRARY to the library's path)";
    return result;
  }
  auto version =
      reinterpret_cast<decltype(&onepass_jit_interface_version)>(dlsym(handle, "onepass_jit_interface_version"));
  if (!version || version() != ONEPASS_JIT_INTERFACE_VERSION) {
    result.error = "the OnePass JIT library '" + path + "' has an incompatible interface (version " +
                   (version ? std::to_string(version()) : std::string("unknown")) + ", expected " +
                   std::to_string(ONEPASS_JIT_INTERFACE_VERSION) + ")";
    return result;
  }
  JitLibrary &lib = result.library;
  lib.compile = reinterpret_cast<decltype(lib.compile)>(dlsym(handle, "onepass_jit_compile"));
  lib.warmUp = reinterpret_cast<decltype(lib.warmUp)>(dlsym(handle, "onepass_jit_warm_up"));
  lib.loadCpu = reinterpret_cast<decltype(lib.loadCpu)>(dlsym(handle, "onepass_jit_load_cpu"));
  lib.free = reinterpret_cast<decltype(lib.free)>(dlsym(handle, "onepass_jit_free"));
  lib.versionString = reinterpret_cast<decltype(lib.versionString)>(dlsym(handle, "onepass_jit_version_string"));
  if (!lib.compile || !lib.warmUp || !lib.loadCpu || !lib.free || !lib.versionString)
    result.error = "the OnePass JIT library '" + path + "' lacks required functions";
  else ONEPASS_LOG(Info, "loaded JIT library " << path << " (" << lib.versionString() << ")");
  return result;
}

}  // namespace

const JitLibrary *loadJitLibrary(std::string &error) {
  static std::once_flag once;
  static LoadResult *result = nullptr;  // never destroyed: kernels may be built during exit
  std::call_once(once, [] { result = new LoadResult(load()); });
  if (!result->error.empty()) {
    error = result->error;
    return nullptr;
  }
  return &result->library;
}

const JitLibrary &jitLibrary() {
  std::string error;
  const JitLibrary *library = loadJitLibrary(error);
  if (!library) raise(Errc::runtime, error);
  return *library;
}

}  // namespace onepass::rt
