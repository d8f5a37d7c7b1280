// The runtime core's one error type. The core knows nothing of SYCL: it
// raises onepass::rt::Error with a code that says what kind of failure it is,
// and the SYCL layer (runtime/sycl/) turns it into sycl::exception with the
// matching sycl::errc (SYCL 2020 §4.13.2) where it reaches the API, at once
// for synchronous errors and at delivery for asynchronous ones.
#pragma once

#include <cstdlib>
#include <exception>
#include <string>

namespace onepass::rt {

// What failed. The SYCL layer maps each to the sycl::errc of the same name.
enum class Errc {
  runtime,                // a backend, driver or library failure
  kernel,                 // a kernel failed while it ran
  nd_range,               // a launch range the device or kernel cannot take
  kernel_argument,        // a kernel argument the device cannot take
  build,                  // a kernel could not be compiled for the device
  invalid,                // an invalid argument or state
  memory_allocation,      // out of memory
  profiling,              // profiling information asked of a node without it
  feature_not_supported,  // the device lacks an optional feature
  kernel_not_supported,   // the kernel cannot run on the device
};

class Error : public std::exception {
public:
  Error(Errc code, std::string message) : code_(code), message_(std::move(message)) {}
  Errc code() const noexcept { return code_; }
  const char *what() const noexcept override { return message_.c_str(); }

private:
  Errc code_;
  std::string message_;
};

[[noreturn]] inline void raise(Errc code, const std::string &message) { throw Error(code, message); }

// A backend call failed with `error` (a malloc'ed message, or null): frees it
// and raises `what: error`.
[[noreturn]] inline void raiseBackendError(Errc code, const std::string &what, char *error) {
  std::string message = what + ": " + (error ? error : "unknown error");
  std::free(error);
  raise(code, message);
}

}  // namespace onepass::rt
