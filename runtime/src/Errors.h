// Helpers to raise the runtime's one error type, sycl::exception.
#pragma once

#include <sycl/exception.hpp>

#include <cstdlib>
#include <string>

namespace onepass::rt {

[[noreturn]] inline void raise(sycl::errc code, const std::string &message) {
  throw sycl::exception(sycl::make_error_code(code), message);
}

// A backend call failed with `error` (a malloc'ed message, or null): frees it
// and raises `what: error`.
[[noreturn]] inline void raiseBackendError(sycl::errc code, const std::string &what, char *error) {
  std::string message = what + ": " + (error ? error : "unknown error");
  std::free(error);
  raise(code, message);
}

}  // namespace onepass::rt
