// ONEPASS_DEVICE_SELECTOR's grammar (README "Environment variables"): a
// comma-separated list of terms, each maybe negated with `!`: `cpu`, `gpu`
// (a device kind), `cuda`, `opencl`, `level_zero` or `hip` (a backend), `<backend>:<n>` or `<backend>:*` (a
// backend's n-th device, or all of them), or any other word, a
// case-insensitive part of the device's name (`h100`). A device is seen if
// it matches a positive term (or there is none) and no negated one. The SYCL
// layer applies it to the platforms (runtime/sycl/Platform.cpp).
#pragma once

#include <string>
#include <vector>

namespace onepass::rt {

struct SelectorTerm {
  bool negated = false;
  std::string backend;  // "cpu", "cuda", "opencl", "level_zero", "hip", or "" for any
  std::string type;     // "cpu", "gpu", or "" for any
  int index = -1;       // -1: every device of the backend
  std::string name;     // a part of the name, lowercase, or ""
  // `deviceBackend` one of the backend words above; `deviceIndex` the device's place among
  // its backend's devices.
  bool matches(const std::string &deviceBackend, bool isGpu, const std::string &deviceName, int deviceIndex) const;
};

// `text` in ASCII lower case (device names and terms compare so; the SYCL
// layer reads ONEPASS_DEVICE so too).
std::string lowercase(std::string text);

// The terms of `text`, or false with `error` naming the bad term and why.
bool parseSelector(const std::string &text, std::vector<SelectorTerm> &terms, std::string &error);

// Whether a device with these traits is seen under `terms`.
bool selectorSelects(const std::vector<SelectorTerm> &terms, const std::string &deviceBackend, bool isGpu,
                     const std::string &deviceName, int deviceIndex);

}  // namespace onepass::rt
