// Helpers to raise the runtime's one error type, sycl::exception.
#pragma once

#include <sycl/exception.hpp>

#include <string>

namespace onepass::rt {

[[noreturn]] inline void raise(sycl::errc code, const std::string &message) {
  throw sycl::exception(sycl::make_error_code(code), message);
}

}  // namespace onepass::rt
