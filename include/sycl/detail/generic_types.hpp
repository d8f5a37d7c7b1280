// The SYCL 2020 data types that generic code (builtins, group algorithms,
// marray/vec conversions) needs to name before their headers are read, and
// traits that recognise them. Each type is defined in its own header:
// half.hpp (§4.14.1), vec.hpp (§4.14.2), marray.hpp (§4.14.3).
#pragma once

#include <cstddef>
#include <type_traits>

namespace sycl {

class half;
template <typename DataT, int NumElements> class vec;
template <typename DataT, std::size_t NumElements> class marray;

namespace detail {

template <typename T> struct is_vec : std::false_type {};
template <typename T, int N> struct is_vec<vec<T, N>> : std::true_type {};
template <typename T> inline constexpr bool is_vec_v = is_vec<T>::value;

template <typename T> struct is_marray : std::false_type {};
template <typename T, std::size_t N> struct is_marray<marray<T, N>> : std::true_type {};
template <typename T> inline constexpr bool is_marray_v = is_marray<T>::value;

// A swizzle of a vec (vec.hpp) behaves, as a value, like the vec it makes:
// `vec_value<S>::type` is that vec for a swizzle, T itself for anything else.
template <typename T, typename = void> struct vec_value { using type = T; };
template <typename T> struct vec_value<T, std::void_t<typename T::onepass_swizzle_vec>> {
  using type = typename T::onepass_swizzle_vec;
};
template <typename T> using vec_value_t = typename vec_value<T>::type;
template <typename T> inline constexpr bool is_swizzle_v = !std::is_same_v<vec_value_t<T>, T>;

// The number of elements and element type of a scalar, vec or marray.
template <typename T> struct element_traits {
  using element_type = T;
  static constexpr std::size_t count = 1;
};
template <typename T, int N> struct element_traits<vec<T, N>> {
  using element_type = T;
  static constexpr std::size_t count = std::size_t(N);
};
template <typename T, std::size_t N> struct element_traits<marray<T, N>> {
  using element_type = T;
  static constexpr std::size_t count = N;
};
template <typename T> using element_type_t = typename element_traits<vec_value_t<T>>::element_type;

// half is a floating-point type of SYCL (§4.14.1) but not of C++.
template <typename T> inline constexpr bool is_sycl_floating_v = std::is_floating_point_v<T> || std::is_same_v<T, half>;

}  // namespace detail
}  // namespace sycl
