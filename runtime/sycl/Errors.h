// The SYCL layer's errors: sycl::exception, raised here directly or turned
// from the core's onepass::rt::Error where a core call returns to the API.
#pragma once

#include "Error.h"

#include <sycl/exception.hpp>

#include <cstdlib>
#include <exception>
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

// The sycl::errc of a core error code (SYCL 2020 §4.13.2).
sycl::errc syclErrc(Errc code);
inline sycl::exception toSycl(const Error &error) {
  return sycl::exception(sycl::make_error_code(syclErrc(error.code())), error.what());
}
// An asynchronous error as the user sees it: a core error becomes a
// sycl::exception; anything else (a host task's own exception) stays as it is.
std::exception_ptr toSycl(std::exception_ptr error);

// Runs `body`, a call into the core, turning a core error into sycl::exception.
template <typename Body> decltype(auto) syclCall(Body &&body) {
  try {
    return body();
  } catch (const Error &error) {
    throw toSycl(error);
  }
}

}  // namespace onepass::rt
