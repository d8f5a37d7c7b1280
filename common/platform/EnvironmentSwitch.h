// An environment switch that is on unless set to "0", "off" or "false" (the
// OnePass convention for turning a default off). Header-only: the runtime
// and the JIT library, which do not link each other, both read such switches.
#pragma once

#include <cstdlib>
#include <cstring>

namespace onepass {

inline bool switchedOff(const char *name) {
  const char *value = std::getenv(name);
  return value && (!std::strcmp(value, "0") || !std::strcmp(value, "off") || !std::strcmp(value, "false"));
}

inline bool onUnlessSwitchedOff(const char *name) { return !switchedOff(name); }

}  // namespace onepass
