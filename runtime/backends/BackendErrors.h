// Reporting an error across the backend interface: a malloc'ed message the
// caller frees, and the return value 1. Shared by every backend.
#pragma once

#include <cstdlib>
#include <cstring>
#include <string>

namespace onepass::rt {

inline int reportBackendError(char **error, const std::string &message) {
  if (error) {
    *error = static_cast<char *>(std::malloc(message.size() + 1));
    if (*error) std::memcpy(*error, message.c_str(), message.size() + 1);
  }
  return 1;
}

}  // namespace onepass::rt
