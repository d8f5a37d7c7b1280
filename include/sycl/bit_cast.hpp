// SYCL 2020 §3.9.2: sycl::bit_cast, C++20's std::bit_cast pre-adopted for
// SYCL's C++17 minimum. The object representation of `from` read as a To, in
// constant expressions, host code and kernels alike.
#pragma once

#include <type_traits>

namespace sycl {

template <typename To, typename From> constexpr std::enable_if_t<
    sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>, To>
bit_cast(const From &from) noexcept {
  return __builtin_bit_cast(To, from);
}

}  // namespace sycl
