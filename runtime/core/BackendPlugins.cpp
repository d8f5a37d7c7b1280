#include "BackendPlugins.h"

#include "JitLibrary.h"
#include "Log.h"

#include <dlfcn.h>

#include <cstdlib>

namespace onepass::rt {

namespace {

void logFromPlugin(int level, const char *message) {
  LogLevel l = level <= 0   ? LogLevel::Error
               : level == 1 ? LogLevel::Warning
               : level == 2 ? LogLevel::Info
                            : LogLevel::Debug;
  if (logEnabled(l)) logMessage(l, message);
}

const onepass_runtime_services kServices = {ONEPASS_BACKEND_INTERFACE_VERSION, logFromPlugin};

}  // namespace

const onepass_backend *loadBackendPlugin(const char *name, std::string &why) {
  std::string path = runtimeLibraryDirectory() + "/onepass/libonepass-backend-" + name + ".so";
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    why = "the backend plugin cannot be loaded (" + std::string(reason ? reason : path) + ")";
    return nullptr;
  }
  auto entry = reinterpret_cast<onepass_backend_entry_fn>(dlsym(handle, ONEPASS_BACKEND_ENTRY_SYMBOL));
  if (!entry) {
    why = path + " is not a OnePass backend plugin";
    return nullptr;
  }
  char *reason = nullptr;
  const onepass_backend *table = entry(&kServices, &reason);
  if (!table) {
    why = reason ? reason : "no reason given";
    std::free(reason);
    ONEPASS_LOG(Info, "backend " << name << " is absent: " << why);
    return nullptr;
  }
  if (table->interface_version != ONEPASS_BACKEND_INTERFACE_VERSION) {
    why = path + " implements backend interface version " + std::to_string(table->interface_version) +
          ", this runtime needs " + std::to_string(ONEPASS_BACKEND_INTERFACE_VERSION);
    return nullptr;
  }
  ONEPASS_LOG(Info, "backend " << name << " loaded with " << table->device_count() << " device(s)");
  return table;
}

}  // namespace onepass::rt
