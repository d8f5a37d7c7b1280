// SYCL 2020 §4.13.2: the error category of sycl::errc, and core errors as SYCL errors.
#include "Errors.h"

#include <sycl/exception.hpp>

namespace {
class SyclCategory : public std::error_category {
public:
  const char *name() const noexcept override { return "sycl"; }
  std::string message(int code) const override {
    switch (static_cast<sycl::errc>(code)) {
    case sycl::errc::success: return "success";
    case sycl::errc::runtime: return "runtime error";
    case sycl::errc::kernel: return "kernel error";
    case sycl::errc::accessor: return "accessor error";
    case sycl::errc::nd_range: return "invalid nd_range";
    case sycl::errc::event: return "event error";
    case sycl::errc::kernel_argument: return "invalid kernel argument";
    case sycl::errc::build: return "kernel build error";
    case sycl::errc::invalid: return "invalid argument or state";
    case sycl::errc::memory_allocation: return "memory allocation failure";
    case sycl::errc::platform: return "platform error";
    case sycl::errc::profiling: return "profiling error";
    case sycl::errc::feature_not_supported: return "feature not supported";
    case sycl::errc::kernel_not_supported: return "kernel not supported on this device";
    case sycl::errc::backend_mismatch: return "backend mismatch";
    }
    return "unknown SYCL error";
  }
};
}  // namespace

namespace sycl {
const std::error_category &sycl_category() noexcept {
  static const SyclCategory category;
  return category;
}
}  // namespace sycl

namespace onepass::rt {

sycl::errc syclErrc(Errc code) {
  switch (code) {
  case Errc::runtime: return sycl::errc::runtime;
  case Errc::kernel: return sycl::errc::kernel;
  case Errc::nd_range: return sycl::errc::nd_range;
  case Errc::kernel_argument: return sycl::errc::kernel_argument;
  case Errc::build: return sycl::errc::build;
  case Errc::invalid: return sycl::errc::invalid;
  case Errc::memory_allocation: return sycl::errc::memory_allocation;
  case Errc::profiling: return sycl::errc::profiling;
  case Errc::feature_not_supported: return sycl::errc::feature_not_supported;
  case Errc::kernel_not_supported: return sycl::errc::kernel_not_supported;
  }
  return sycl::errc::runtime;
}

std::exception_ptr toSycl(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const Error &e) {
    return std::make_exception_ptr(toSycl(e));
  } catch (...) {
    return error;
  }
}

}  // namespace onepass::rt
