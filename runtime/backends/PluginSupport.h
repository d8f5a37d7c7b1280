// What the plugins that drive a vendor's library share (OpenCL, Level Zero,
// HSA): loading the library and its functions, the strings of
// onepass_backend_device_info, a synchronous backend's table, and the
// answer of onepass_backend_entry.
#pragma once

#include "BackendErrors.h"
#include "BackendInterface.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace onepass::rt {

// dlopen's a vendor library; null with `why` saying which one is missing
// (`what` describes it: "the oneAPI Level Zero loader").
inline void *openVendorLibrary(const char *soname, const char *what, std::string &why) {
  void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!library) why = std::string(soname) + " (" + what + ") cannot be loaded";
  return library;
}

// One function of a vendor library; false with `why` naming it and the
// version that has it (`needed`: "OpenCL 2.1 or newer is needed").
template <typename Function> bool resolveVendorFunction(void *library, const char *soname, const char *name,
                                                        Function &function, const char *needed, std::string &why) {
  function = reinterpret_cast<Function>(dlsym(library, name));
  if (!function) why = std::string(soname) + " lacks " + name + " (" + needed + ")";
  return function != nullptr;
}

// A string field of onepass_backend_device_info, cut to fit.
inline void copyInfoString(char *to, size_t capacity, const std::string &from) {
  std::strncpy(to, from.c_str(), capacity - 1);
  to[capacity - 1] = '\0';
}

// The table of a backend whose operations are synchronous, one at a time
// per device (no streams): the caller sets the functions.
inline onepass_backend synchronousBackendTable(const char *name, const char *platformName) {
  onepass_backend table{};
  table.interface_version = ONEPASS_BACKEND_INTERFACE_VERSION;
  table.name = name;
  table.platform_name = platformName;
  table.platform_vendor = "OnePass";
  table.concurrent_operations = 1;
  table.streams = 0;
  return table;
}

// onepass_backend_entry's answer: `start` runs once, returning the table or
// null with `reason` saying why the backend cannot work here; every call
// answers the same. (Each plugin instantiates it once: its statics are the
// plugin's.)
template <typename Start> const onepass_backend *answerBackendEntry(Start &&start, char **why) {
  static const onepass_backend *table = nullptr;
  static std::string *reason = new std::string;  // never destroyed: the runtime may ask during exit
  static std::once_flag once;
  std::call_once(once, [&] { table = start(*reason); });
  if (!table && why) {
    *why = static_cast<char *>(std::malloc(reason->size() + 1));
    if (*why) std::memcpy(*why, reason->c_str(), reason->size() + 1);
  }
  return table;
}

}  // namespace onepass::rt
