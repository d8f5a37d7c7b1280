// A launch's launch constants (onepass_backend_launch::constant_fields): the
// values the JIT compiles into a kernel's binary, so a backend keeps one
// binary per combination (its in-memory and persistent cache keys carry them).
#pragma once

#include "BackendInterface.h"

#include "onepass/jit/jit_api.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace onepass::backend {

// The JIT's request for them.
inline std::vector<onepass_jit_constant> launchConstants(const onepass_backend_launch &launch) {
  std::vector<onepass_jit_constant> constants;
  for (uint32_t i = 0; i < launch.constant_field_count; ++i) {
    const uint32_t field = launch.constant_fields[i];
    onepass_jit_constant constant{field, launch.field_sizes[field], 0};
    std::memcpy(&constant.value, static_cast<const char *>(launch.object) + launch.field_offsets[field],
                std::min<uint32_t>(constant.size, sizeof constant.value));
    constants.push_back(constant);
  }
  return constants;
}

// Their values as a cache key ("" without any).
inline std::string constantsKey(const std::vector<onepass_jit_constant> &constants) {
  std::string key;
  for (const onepass_jit_constant &constant : constants)
    key += std::to_string(constant.field) + "=" + std::to_string(constant.value) + ";";
  return key;
}

inline std::string constantsKey(const onepass_backend_launch &launch) { return constantsKey(launchConstants(launch)); }

}  // namespace onepass::backend
