// The common base of sycl::id and sycl::range (SYCL 2020 §4.9.1.1, §4.9.1.3):
// a fixed number of size_t values with element-wise arithmetic.
#pragma once

#include <utility>
#include <cstddef>
#include <type_traits>

namespace sycl::detail {

template <int Dimensions> class array {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "SYCL supports 1 to 3 dimensions");

public:
  static constexpr int dimensions = Dimensions;

  constexpr array() noexcept : values_{} {}
  template <typename... T,
            typename = std::enable_if_t<sizeof...(T) == Dimensions && (std::is_convertible_v<T, std::size_t> && ...)>>
  constexpr array(T... values) noexcept : values_{static_cast<std::size_t>(values)...} {}

  constexpr std::size_t get(int dimension) const noexcept { return values_[dimension]; }
  constexpr std::size_t &operator[](int dimension) noexcept { return values_[dimension]; }
  constexpr std::size_t operator[](int dimension) const noexcept { return values_[dimension]; }

protected:
  std::size_t values_[Dimensions];
};

// The row-major linear index of `ids` in `ranges`: the last dimension varies
// fastest (SYCL 2020 §3.11.1).
// Unrolled by the front end (device code is simplified without unrolling).
template <int Dimensions, std::size_t... Ds>
std::size_t linearize(const array<Dimensions> &ids, const array<Dimensions> &ranges, std::index_sequence<Ds...>) {
  std::size_t linear = 0;
  ((linear = linear * ranges[Ds] + ids[Ds]), ...);
  return linear;
}
template <int Dimensions> std::size_t linearize(const array<Dimensions> &ids, const array<Dimensions> &ranges) {
  return linearize<Dimensions>(ids, ranges, std::make_index_sequence<Dimensions>());
}

// SYCL 2020 §4.9.1.3/§4.9.1.4: one-dimensional ids and items convert to size_t.
// A base specialised on the dimension (not a conversion template) so that the
// conversion also takes part in built-in operators such as `pointer[id]`.
template <typename Derived, int Dimensions> struct size_t_conversion {};
template <typename Derived> struct size_t_conversion<Derived, 1> {
  constexpr operator std::size_t() const { return static_cast<const Derived &>(*this).get(0); }
};

}  // namespace sycl::detail
