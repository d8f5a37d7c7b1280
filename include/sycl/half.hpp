// SYCL 2020 §4.14.1, the scalar types SYCL adds to C++'s: sycl::half, the
// IEEE 754 binary16 floating-point type, on the host and in kernels (and the
// deprecated sycl::byte). half wraps clang's _Float16, so device code sees
// LLVM `half`: native f16 instructions where the target has them (NVIDIA
// sm_53+, x86 AVX-512 FP16), float arithmetic rounded back to half where it
// has only conversions (F16C) or nothing.
//
// Arithmetic follows C++'s usual conversions as if half ranked below float:
// half op half and half op integer give half; half op float gives float and
// half op double gives double.
#pragma once

#include "detail/generic_types.hpp"
#include "detail/std_parts.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace sycl {

class half {
  // The type half and T are computed in, and the type of their result.
  template <typename T> using mixed_t = std::conditional_t<std::is_integral_v<T>, _Float16, T>;
  template <typename T> using mixed_result_t = std::conditional_t<std::is_integral_v<T>, half, T>;
  struct native_tag {};
  constexpr half(native_tag, _Float16 value) : value_(value) {}

public:
  half() = default;
  constexpr half(const half &) = default;
  constexpr half &operator=(const half &) = default;
  constexpr half(const float &value) : value_(static_cast<_Float16>(value)) {}
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, float>>>
  constexpr half(const T &value) : value_(static_cast<_Float16>(value)) {}

  constexpr operator float() const { return static_cast<float>(value_); }

  constexpr half operator+() const { return *this; }
  constexpr half operator-() const { return fromNative(-value_); }
  constexpr half &operator++() { return *this = fromNative(value_ + _Float16(1)); }
  constexpr half &operator--() { return *this = fromNative(value_ - _Float16(1)); }
  constexpr half operator++(int) {
    half old = *this;
    ++*this;
    return old;
  }
  constexpr half operator--(int) {
    half old = *this;
    --*this;
    return old;
  }

  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> || std::is_same_v<T, half>>>
  constexpr half &operator+=(const T &rhs) {
    return *this = half(*this + rhs);
  }
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> || std::is_same_v<T, half>>>
  constexpr half &operator-=(const T &rhs) {
    return *this = half(*this - rhs);
  }
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> || std::is_same_v<T, half>>>
  constexpr half &operator*=(const T &rhs) {
    return *this = half(*this * rhs);
  }
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> || std::is_same_v<T, half>>>
  constexpr half &operator/=(const T &rhs) {
    return *this = half(*this / rhs);
  }

  // half with half.
  friend constexpr half operator+(half a, half b) { return fromNative(a.value_ + b.value_); }
  friend constexpr half operator-(half a, half b) { return fromNative(a.value_ - b.value_); }
  friend constexpr half operator*(half a, half b) { return fromNative(a.value_ * b.value_); }
  friend constexpr half operator/(half a, half b) { return fromNative(a.value_ / b.value_); }
  friend constexpr bool operator==(half a, half b) { return a.value_ == b.value_; }
  friend constexpr bool operator!=(half a, half b) { return a.value_ != b.value_; }
  friend constexpr bool operator<(half a, half b) { return a.value_ < b.value_; }
  friend constexpr bool operator>(half a, half b) { return a.value_ > b.value_; }
  friend constexpr bool operator<=(half a, half b) { return a.value_ <= b.value_; }
  friend constexpr bool operator>=(half a, half b) { return a.value_ >= b.value_; }

  // half with another arithmetic type, on either side.
#define ONEPASS_HALF_MIXED(op, result)                                                                                 \
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>                                          \
  friend constexpr result operator op(half a, const T &b) {                                                            \
    return static_cast<result>(static_cast<mixed_t<T>>(a) op static_cast<mixed_t<T>>(b));                              \
  }                                                                                                                    \
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>                                          \
  friend constexpr result operator op(const T &a, half b) {                                                            \
    return static_cast<result>(static_cast<mixed_t<T>>(a) op static_cast<mixed_t<T>>(b));                              \
  }
  ONEPASS_HALF_MIXED(+, mixed_result_t<T>)
  ONEPASS_HALF_MIXED(-, mixed_result_t<T>)
  ONEPASS_HALF_MIXED(*, mixed_result_t<T>)
  ONEPASS_HALF_MIXED(/, mixed_result_t<T>)
  ONEPASS_HALF_MIXED(==, bool)
  ONEPASS_HALF_MIXED(!=, bool)
  ONEPASS_HALF_MIXED(<, bool)
  ONEPASS_HALF_MIXED(>, bool)
  ONEPASS_HALF_MIXED(<=, bool)
  ONEPASS_HALF_MIXED(>=, bool)
#undef ONEPASS_HALF_MIXED

  // The _Float16 value, for the library's own device code.
  constexpr _Float16 native() const { return value_; }
  static constexpr half fromNative(_Float16 value) { return half(native_tag{}, value); }

private:
  _Float16 value_;
};

static_assert(sizeof(half) == 2 && alignof(half) == 2, "sycl::half is a 16-bit type");

// §4.14.1, Table 121: SYCL's other scalar type, kept for SYCL 1.2.1 code.
using byte [[deprecated("use std::byte (SYCL 2020 §4.14.1)")]] = std::uint8_t;

}  // namespace sycl

// §4.14.1: std::numeric_limits must be specialized for half.
template <> class std::numeric_limits<sycl::half> {
public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr float_denorm_style has_denorm = denorm_present;
  static constexpr bool has_denorm_loss = false;
  static constexpr float_round_style round_style = round_to_nearest;
  static constexpr bool is_iec559 = true;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;

  static constexpr sycl::half min() noexcept { return sycl::half(6.103515625e-05f); }
  static constexpr sycl::half max() noexcept { return sycl::half(65504.0f); }
  static constexpr sycl::half lowest() noexcept { return sycl::half(-65504.0f); }
  static constexpr sycl::half epsilon() noexcept { return sycl::half(0.0009765625f); }
  static constexpr sycl::half round_error() noexcept { return sycl::half(0.5f); }
  static constexpr sycl::half infinity() noexcept { return sycl::half::fromNative(__builtin_inff16()); }
  static constexpr sycl::half quiet_NaN() noexcept { return sycl::half::fromNative(__builtin_nanf16("")); }
  static constexpr sycl::half signaling_NaN() noexcept { return sycl::half::fromNative(__builtin_nansf16("")); }
  static constexpr sycl::half denorm_min() noexcept { return sycl::half(5.9604644775390625e-08f); }
};

template <> struct std::hash<sycl::half> {
  std::size_t operator()(sycl::half h) const noexcept {
    return std::hash<std::uint16_t>()(__builtin_bit_cast(std::uint16_t, h));
  }
};
