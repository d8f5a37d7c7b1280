// SYCL 2020 §4.3: the SYCL 1.2.1 header name, kept for older code. It is
// <sycl/sycl.hpp>, with `cl::sycl` as another name of namespace `sycl`.
#pragma once

#include "../sycl/sycl.hpp"

namespace cl {
namespace sycl = ::sycl;
}  // namespace cl
