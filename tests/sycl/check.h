// Result checking shared by the end-to-end SYCL programs in tests/sycl/.
// Every failed check prints one line with what was checked, the expected and
// the actual value; a program ends with `return onepass_test::report();`,
// which prints "PASSED" and returns 0 only if no check failed.
#pragma once

#include <sycl/sycl.hpp>

#include <cstddef>
#include <cstdio>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace onepass_test {

inline int &failureCount() {
  static int count = 0;
  return count;
}

// Names of the SYCL enumerators the tests compare.
inline const char *enumName(sycl::usm::alloc kind) {
  switch (kind) {
  case sycl::usm::alloc::host: return "usm::alloc::host";
  case sycl::usm::alloc::device: return "usm::alloc::device";
  case sycl::usm::alloc::shared: return "usm::alloc::shared";
  case sycl::usm::alloc::unknown: return "usm::alloc::unknown";
  }
  return "?";
}
inline const char *enumName(sycl::info::event_command_status status) {
  switch (status) {
  case sycl::info::event_command_status::submitted: return "submitted";
  case sycl::info::event_command_status::running: return "running";
  case sycl::info::event_command_status::complete: return "complete";
  }
  return "?";
}
inline const char *enumName(sycl::errc code) {
  switch (code) {
  case sycl::errc::success: return "errc::success";
  case sycl::errc::runtime: return "errc::runtime";
  case sycl::errc::kernel: return "errc::kernel";
  case sycl::errc::accessor: return "errc::accessor";
  case sycl::errc::nd_range: return "errc::nd_range";
  case sycl::errc::event: return "errc::event";
  case sycl::errc::kernel_argument: return "errc::kernel_argument";
  case sycl::errc::build: return "errc::build";
  case sycl::errc::invalid: return "errc::invalid";
  case sycl::errc::memory_allocation: return "errc::memory_allocation";
  case sycl::errc::platform: return "errc::platform";
  case sycl::errc::profiling: return "errc::profiling";
  case sycl::errc::feature_not_supported: return "errc::feature_not_supported";
  case sycl::errc::kernel_not_supported: return "errc::kernel_not_supported";
  case sycl::errc::backend_mismatch: return "errc::backend_mismatch";
  }
  return "errc::?";
}

template <typename T, typename = void> struct has_enum_name : std::false_type {};
template <typename T> struct has_enum_name<T, std::void_t<decltype(enumName(std::declval<T>()))>> : std::true_type {};

// Readable text for a checked value: SYCL enumerators by name, other enums
// and characters as numbers, pointers as addresses, booleans as words.
template <typename T> std::string show(const T &value) {
  std::ostringstream text;
  text << std::boolalpha;
  if constexpr (has_enum_name<T>::value) text << enumName(value);
  else if constexpr (std::is_enum_v<T>) text << static_cast<long long>(value);
  else if constexpr (std::is_same_v<T, char> || std::is_same_v<T, signed char> || std::is_same_v<T, unsigned char>)
    text << static_cast<int>(value);
  else if constexpr (std::is_pointer_v<T>) text << static_cast<const volatile void *>(value);
  else if constexpr (std::is_floating_point_v<T>)
    text << std::setprecision(std::numeric_limits<T>::max_digits10) << value;
  else text << value;
  return text.str();
}

inline void fail(const std::string &what, const std::string &expected, const std::string &actual) {
  ++failureCount();
  std::printf("FAILED: %s: expected %s, got %s\n", what.c_str(), expected.c_str(), actual.c_str());
}

inline bool check(const std::string &what, bool condition) {
  if (!condition) fail(what, "true", "false");
  return condition;
}

template <typename Expected, typename Actual>
bool checkEqual(const std::string &what, const Expected &expected, const Actual &actual) {
  if (expected == actual) return true;
  fail(what, show(expected), show(actual));
  return false;
}

// Compares `count` elements: `actual[i]` against `expected(i)`. Large arrays
// print their first few mismatches and then how many there were in all.
template <typename Actual, typename ExpectedAt>
bool checkArray(const std::string &what, std::size_t count, const Actual *actual, ExpectedAt expected) {
  constexpr std::size_t kMismatchesShown = 8;
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < count; ++i) {
    auto want = expected(i);
    if (want == actual[i]) continue;
    if (mismatches < kMismatchesShown) fail(what + "[" + std::to_string(i) + "]", show(want), show(actual[i]));
    ++mismatches;
  }
  if (mismatches > kMismatchesShown) {
    failureCount() += static_cast<int>(mismatches - kMismatchesShown);
    std::printf("FAILED: %s: %zu of %zu elements differ in all\n", what.c_str(), mismatches, count);
  }
  return mismatches == 0;
}

// Runs `body`, which must throw a sycl::exception with error code `code`.
template <typename Body> bool checkThrows(const std::string &what, sycl::errc code, Body &&body) {
  const std::string expected = std::string("sycl::exception with ") + enumName(code);
  try {
    body();
  } catch (const sycl::exception &e) {
    if (e.code() == sycl::make_error_code(code)) return true;
    fail(what, expected, show(static_cast<sycl::errc>(e.code().value())) + " (" + e.what() + ")");
    return false;
  } catch (const std::exception &e) {
    fail(what, expected, std::string("another exception: ") + e.what());
    return false;
  } catch (...) {
    fail(what, expected, "an exception of unknown type");
    return false;
  }
  fail(what, expected, "no exception");
  return false;
}

// Runs `body`, which must not throw.
template <typename Body> bool checkNoThrow(const std::string &what, Body &&body) {
  try {
    body();
    return true;
  } catch (const std::exception &e) {
    fail(what, "no exception", e.what());
  } catch (...) {
    fail(what, "no exception", "an exception of unknown type");
  }
  return false;
}

// Runs one part of a test program; an unexpected exception fails that part
// and lets the others still run.
// "{a,b,c}": the first `dims` values of a range, for test descriptions.
inline std::string rangeText(const std::size_t *values, int dims) {
  std::string text = "{";
  for (int d = 0; d < dims; ++d) text += (d ? "," : "") + std::to_string(values[d]);
  return text + "}";
}

template <typename Body> void runPart(const std::string &name, Body &&body) { checkNoThrow(name, body); }

// A part that needs an optional feature of the device (an aspect, §4.6.4.3):
// on a device without it, it is not run and says so.
template <typename Body> void runPartNeeding(const sycl::queue &q, sycl::aspect needed, const char *aspectName,
                                             const std::string &name, Body &&body) {
  if (!q.get_device().has(needed)) {
    std::printf("SKIPPED %s: the device has no aspect::%s\n", name.c_str(), aspectName);
    return;
  }
  runPart(name, body);
}

inline int report() {
  if (failureCount() == 0) {
    std::printf("PASSED\n");
    return 0;
  }
  std::printf("FAILED: %d check(s) failed\n", failureCount());
  return 1;
}

// A 1-D buffer's elements, read through a host_accessor.
template <typename T> std::vector<T> contents(sycl::buffer<T, 1> &b) {
  sycl::host_accessor a(b, sycl::read_only);
  return std::vector<T>(a.begin(), a.end());
}

}  // namespace onepass_test
