// The SYCL API's accessor requirements (buffer_access) as the core's
// (core/buffer/Buffer.h).
#pragma once

#include "buffer/Buffer.h"

#include <sycl/detail/runtime_api.hpp>

#include <vector>

namespace onepass::rt {

BufferAccess coreAccess(const sycl::detail::buffer_access &access);
BufferAccessList coreAccesses(const std::vector<sycl::detail::buffer_access> &accesses);

}  // namespace onepass::rt
