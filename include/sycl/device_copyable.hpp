// SYCL 2020 §4.12.3 is_device_copyable and §3.13.1 device copyable types.
// Kernel objects and their captures are copied to a device byte for byte;
// a type the application declares device copyable (a specialization deriving
// from std::true_type) is copied the same way, hence SYCL_DEVICE_COPYABLE.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#define SYCL_DEVICE_COPYABLE 1

namespace sycl {

template <typename T> struct is_device_copyable;

namespace detail {
template <typename T, typename = void> struct device_copyable_implicitly : std::is_trivially_copyable<T> {};
template <typename T, std::size_t N> struct device_copyable_implicitly<T[N]> : is_device_copyable<T> {};
template <typename T, std::size_t N> struct device_copyable_implicitly<std::array<T, N>> : is_device_copyable<T> {};
template <typename T> struct device_copyable_implicitly<std::optional<T>> : is_device_copyable<T> {};
template <typename T, typename U> struct device_copyable_implicitly<std::pair<T, U>>
    : std::bool_constant<is_device_copyable<T>::value && is_device_copyable<U>::value> {};
template <typename... Ts> struct device_copyable_implicitly<std::tuple<Ts...>>
    : std::bool_constant<(is_device_copyable<Ts>::value && ...)> {};
template <typename... Ts> struct device_copyable_implicitly<std::variant<Ts...>>
    : std::bool_constant<(is_device_copyable<Ts>::value && ...)> {};
template <typename C, typename Tr> struct device_copyable_implicitly<std::basic_string_view<C, Tr>> : std::true_type {};
}  // namespace detail

// Specializable by the application for its own types (§4.12.3); arrays and
// cv-qualified forms of a device copyable type are device copyable.
template <typename T> struct is_device_copyable : detail::device_copyable_implicitly<T> {};
template <typename T> struct is_device_copyable<const T> : is_device_copyable<T> {};
template <typename T> struct is_device_copyable<volatile T> : is_device_copyable<T> {};
template <typename T> struct is_device_copyable<const volatile T> : is_device_copyable<T> {};

template <typename T> inline constexpr bool is_device_copyable_v = is_device_copyable<T>::value;

}  // namespace sycl
