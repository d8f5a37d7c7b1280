// What the plugins that drive a vendor's library share (OpenCL, Level Zero,
// HSA): loading the library and its functions, the strings of
// onepass_backend_device_info, a synchronous backend's table, the clock of
// marker times, and the answer of onepass_backend_entry.
#pragma once

#include "BackendErrors.h"
#include "BackendInterface.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
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

// Now on the clock of marker_time's answers (the host's steady clock), in ns.
inline uint64_t steadyNanoseconds() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
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

// Sets the arguments of jit_api.h's SPIR-V entry for a launch, in order
// (OpenCL, Level Zero): each field by value, a range kernel's range (one
// 64-bit value per dimension, SYCL order), and the work-group's local memory
// (its size, no value) when the kernel takes one more. `set(index, bytes,
// value)` sets one, returning 0 or 1 with *error set; `kernelArguments` is
// how many the loaded kernel takes.
template <typename Set>
int setSpirvKernelArguments(const onepass_backend_launch &launch, uint32_t kernelArguments, Set &&set, char **error) {
  uint32_t index = 0;
  const auto *object = static_cast<const char *>(launch.object);
  for (uint32_t f = 0; f < launch.field_count; ++f)
    if (set(index++, launch.field_sizes[f], object + launch.field_offsets[f])) return 1;
  if (launch.local_range[0] == 0)  // (an nd_range kernel's range is the grid's)
    for (unsigned i = 0; i < launch.dimensions && i < 3; ++i) {
      const uint64_t value = launch.global_range[i];
      if (set(index++, sizeof value, &value)) return 1;
    }
  if (index < kernelArguments && set(index++, std::max<uint64_t>(launch.local_memory_bytes, 1), nullptr)) return 1;
  if (index != kernelArguments)
    return reportBackendError(error, "internal error: the kernel takes " + std::to_string(kernelArguments) +
                                         " arguments, the launch has " + std::to_string(index));
  return 0;
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
