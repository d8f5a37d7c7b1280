// sycl::ext::oneapi::experimental::printf (the sycl_ext_oneapi_printf
// extension's function, as DPC++ spells it): C's printf from device code.
// The format is a string in the program's constant data (a literal, or a
// constant array at namespace scope); the arguments are what C's printf takes
// after its default promotions. On the CPU device it is the C library's
// printf (text appears as it is printed); on NVIDIA GPUs it is CUDA's device
// printf (vprintf): the text appears when the host next waits for the kernel
// (its event, the queue, or a blocking copy), at most the driver's printf
// buffer of it (cuCtxSetLimit's CU_LIMIT_PRINTF_FIFO_SIZE, 1 MiB by default).
// The return value is the target's: the number of characters on the CPU, the
// number of arguments on NVIDIA GPUs, negative on an error.
#pragma once

#include "../../../detail/onepass_abi.hpp"

#include <type_traits>

extern "C" int __onepass_printf(const char *format, ...) __asm__(ONEPASS_ABI_PRINTF);

namespace sycl {
namespace ext::oneapi::experimental {

namespace detail {
template <typename T>
inline constexpr bool printf_argument_v =
    (std::is_arithmetic_v<T> && !std::is_same_v<std::remove_cv_t<T>, long double>) || std::is_pointer_v<T> ||
    std::is_enum_v<T> || std::is_null_pointer_v<T>;
// An enumeration is printed as its underlying integer (a scoped one too).
template <typename T> auto printf_value(T value) {
  if constexpr (std::is_enum_v<T>) return static_cast<std::underlying_type_t<T>>(value);
  else return value;
}
}  // namespace detail

template <typename FormatT, typename... Args> int printf(const FormatT *format, Args... args) {
  static_assert(std::is_same_v<std::remove_cv_t<FormatT>, char>, "printf's format is a string of char");
  static_assert((detail::printf_argument_v<Args> && ...),
                "printf's arguments must be integers, enumerations, floating-point values up to double or "
                "pointers (a sycl::half, vec or class object has no printf conversion: convert it first)");
  return __onepass_printf(format, detail::printf_value(args)...);
}

}  // namespace ext::oneapi::experimental
}  // namespace sycl
