// What the tests of a backend plugin's C table (tests/fake_level_zero/
// level_zero_plugin.cpp, tests/fake_hsa/hsa_plugin.cpp) share: checks that
// count failures, the error strings the plugin allocates, and loading the
// plugin as the runtime does.
#pragma once

#include "BackendInterface.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace plugin_check {

inline int failures = 0;

inline bool check(const std::string &what, bool condition) {
  if (!condition) {
    ++failures;
    std::printf("FAILED: %s\n", what.c_str());
  }
  return condition;
}

// The message of a failed call (and frees it); "" if there was none.
inline std::string take(char *&error) {
  std::string text = error ? error : "";
  std::free(error);
  error = nullptr;
  return text;
}

inline void ignoreLog(int, const char *) {}

// The plugin at `path`, started (its entry point called); null after a
// failed check saying why.
inline const onepass_backend *loadBackend(const char *path) {
  void *plugin = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!check(std::string("the plugin loads: ") + (plugin ? "" : dlerror()), plugin != nullptr)) return nullptr;
  auto entry = reinterpret_cast<onepass_backend_entry_fn>(dlsym(plugin, ONEPASS_BACKEND_ENTRY_SYMBOL));
  if (!check("the plugin exports " ONEPASS_BACKEND_ENTRY_SYMBOL, entry != nullptr)) return nullptr;
  static const onepass_runtime_services services{ONEPASS_BACKEND_INTERFACE_VERSION, ignoreLog};
  char *error = nullptr;
  const onepass_backend *backend = entry(&services, &error);
  if (!check("the backend starts on the fake: " + take(error), backend != nullptr)) return nullptr;
  check("interface version", backend->interface_version == ONEPASS_BACKEND_INTERFACE_VERSION);
  return backend;
}

}  // namespace plugin_check
