// The directory of the shared library that contains a given symbol: how
// OnePass's libraries find their installed neighbours (lib/onepass/...)
// without any path baked in at build time. Header-only, because each library
// must ask about a symbol of its own.
#pragma once

#include <dlfcn.h>

#include <string>

namespace onepass {

inline std::string directoryOfLibraryContaining(const void *symbol) {
  Dl_info info{};
  if (!dladdr(symbol, &info) || !info.dli_fname) return ".";
  std::string path = info.dli_fname;
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

}  // namespace onepass
