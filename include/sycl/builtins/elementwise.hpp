// The machinery every SYCL 2020 built-in function (§4.17.4-4.17.10) shares:
// the spec's type lists, the rule that the arguments of a vec/marray
// overload agree in shape, and one element-wise mechanism that applies a
// scalar function lane by lane (broadcasting scalar arguments) over vec,
// swizzles of a vec, and marray.
//
// Every builtin is one (or two) constrained templates over its arguments;
// nothing is instantiated until a translation unit calls it. A swizzle is
// accepted wherever its vec is, and the result is then that vec (§4.17.4:
// "the return type is NonScalar unless NonScalar is the __swizzle__ type").
#pragma once

#include "../detail/generic_types.hpp"
#include "../half.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace sycl::detail {

template <typename T, typename... Ts> inline constexpr bool is_one_of_v = (std::is_same_v<T, Ts> || ...);

// --- The spec's element type lists -------------------------------------------
// Elements of a "generic floating point type" (§4.17.8).
template <typename T> inline constexpr bool is_float_element_v = is_one_of_v<T, float, double, half>;
// Elements of a "generic integer type" (§4.17.7); vec's int8_t ... uint64_t
// are among them.
template <typename T> inline constexpr bool is_integer_element_v =
    is_one_of_v<T, char, signed char, unsigned char, short, unsigned short, int, unsigned, long, unsigned long,
                long long, unsigned long long>;

// --- Shapes: a scalar, or a vec / swizzle / marray ("NonScalar") ---------------
template <typename T> inline constexpr bool is_nonscalar_v = is_vec_v<vec_value_t<T>> || is_marray_v<T>;
template <typename T> inline constexpr std::size_t element_count_v = element_traits<vec_value_t<T>>::count;

// T's shape with elements of type E: vec<E, N>, marray<E, N>, or E for a scalar.
template <typename T, typename E> struct rebind { using type = E; };
template <typename T, int N, typename E> struct rebind<vec<T, N>, E> { using type = vec<E, N>; };
template <typename T, std::size_t N, typename E> struct rebind<marray<T, N>, E> { using type = marray<E, N>; };
template <typename T, typename E> using rebind_t = typename rebind<vec_value_t<T>, E>::type;

// Whether A and B are both scalars, both marray, or both vec/swizzle, with
// the same number of elements (element types may differ).
template <typename A, typename B> inline constexpr bool same_layout_v =
    std::is_same_v<rebind_t<A, char>, rebind_t<B, char>>;

// The spec's "generic floating point type" and "generic integer type":
// a scalar of the element list, or a vec, swizzle or marray of one.
template <typename T> inline constexpr bool is_genfloat_v = is_float_element_v<element_type_t<T>>;
template <typename T> inline constexpr bool is_geninteger_v = is_integer_element_v<element_type_t<T>>;

// The result type of a builtin whose arguments T, Others... must agree in
// shape and element type (scalars: the same type; marray: the same marray;
// vec and swizzles: the same vec), when Condition holds: T, or T's vec for a
// swizzle. Used as a return type, it removes the overload otherwise.
template <bool Condition, typename T, typename... Others> using same_shape_result_t =
    std::enable_if_t<Condition && (std::is_same_v<vec_value_t<T>, vec_value_t<Others>> && ...), vec_value_t<T>>;
template <typename T, typename... Others> using genfloat_result_t = same_shape_result_t<is_genfloat_v<T>, T, Others...>;
template <typename T, typename... Others> using geninteger_result_t =
    same_shape_result_t<is_geninteger_v<T>, T, Others...>;
// The overloads taking a NonScalar and scalars of its element type.
template <typename T> using nonscalar_genfloat_result_t =
    std::enable_if_t<is_nonscalar_v<T> && is_genfloat_v<T>, vec_value_t<T>>;
template <typename T> using nonscalar_geninteger_result_t =
    std::enable_if_t<is_nonscalar_v<T> && is_geninteger_v<T>, vec_value_t<T>>;

// sycl::native and sycl::half_precision (§4.17.5, §4.17.6): vec, swizzle or marray of float.
template <typename T, typename... Others> using float_nonscalar_result_t =
    same_shape_result_t<is_nonscalar_v<T> && std::is_same_v<element_type_t<T>, float>, T, Others...>;

// Fixed-width integers by size in bytes (relational results, upsample).
template <std::size_t Bytes> struct fixed_int;
template <> struct fixed_int<1> {
  using signed_type = std::int8_t;
  using unsigned_type = std::uint8_t;
};
template <> struct fixed_int<2> {
  using signed_type = std::int16_t;
  using unsigned_type = std::uint16_t;
};
template <> struct fixed_int<4> {
  using signed_type = std::int32_t;
  using unsigned_type = std::uint32_t;
};
template <> struct fixed_int<8> {
  using signed_type = std::int64_t;
  using unsigned_type = std::uint64_t;
};
template <std::size_t Bytes> using fixed_signed_t = typename fixed_int<Bytes>::signed_type;
template <std::size_t Bytes> using fixed_unsigned_t = typename fixed_int<Bytes>::unsigned_type;

// --- The element-wise mechanism ------------------------------------------------
// A swizzle read as the vec it makes; anything else as itself.
template <typename T> constexpr decltype(auto) as_value(const T &x) {
  if constexpr (is_swizzle_v<T>) return vec_value_t<T>(x);
  else return x;
}

// Lane i of an argument: element i of a vec or marray; a scalar is broadcast.
template <typename T> constexpr auto lane_of(const T &x, std::size_t i) {
  if constexpr (is_nonscalar_v<T>) return x[i];
  else return x;
}

template <typename... Ts> struct first_nonscalar { using type = void; };
template <typename T, typename... Ts> struct first_nonscalar<T, Ts...> {
  using type = std::conditional_t<is_nonscalar_v<T>, T, typename first_nonscalar<Ts...>::type>;
};

template <typename F, typename... Values> constexpr auto lanewise_values(F f, const Values &...args) {
  using Shape = typename first_nonscalar<Values...>::type;
  using Lane = decltype(f(lane_of(args, 0)...));
  rebind_t<Shape, Lane> result;
  for (std::size_t i = 0; i < element_count_v<Shape>; ++i) result[i] = f(lane_of(args, i)...);
  return result;
}

// f applied lane by lane: the result has the shape of the vec/marray
// arguments (which the caller's constraints made agree) and f's result as
// element type; scalar arguments are broadcast. With only scalars, f(args...).
template <typename F, typename... Args> constexpr auto lanewise(F f, const Args &...args) {
  if constexpr ((is_nonscalar_v<Args> || ...)) return lanewise_values(f, as_value(args)...);
  else return f(args...);
}

// half is computed in float and rounded back: float holds every half exactly,
// and one float operation rounded to half is the correctly rounded half
// result for + - * / sqrt (float has more than 2 * 11 + 2 bits); the library
// functions stay within the spec's half ULP bounds (§4.17.4: 8192 ulp at most).
template <typename T> using computation_t = std::conditional_t<std::is_same_v<T, half>, float, T>;

template <typename F> struct half_in_float {
  F f;
  template <typename... Lanes> constexpr auto operator()(Lanes... lanes) const {
    if constexpr ((std::is_same_v<Lanes, half> || ...)) {
      auto result = f(static_cast<computation_t<Lanes>>(lanes)...);
      if constexpr (std::is_same_v<decltype(result), float>) return half(result);
      else return result;
    } else {
      return f(lanes...);
    }
  }
};

// lanewise for floating-point math: f sees float or double lanes, never half.
template <typename F, typename... Args> constexpr auto lanewise_math(F f, const Args &...args) {
  return lanewise(half_in_float<F>{f}, args...);
}

// §4.17.10: a comparison's result is bool for scalars and marray lanes, and
// -1 (true) or 0 in a signed integer of the element's size for vec lanes.
template <typename F, typename... Args> constexpr auto lanewise_relational(F f, const Args &...args) {
  using Shape = typename first_nonscalar<Args...>::type;
  if constexpr (is_vec_v<vec_value_t<Shape>>) {
    using Mask = fixed_signed_t<sizeof(element_type_t<Shape>)>;
    return lanewise([f](auto... lanes) { return f(lanes...) ? Mask(-1) : Mask(0); }, args...);
  } else {
    return lanewise(f, args...);
  }
}

// --- Results stored through a pointer (sincos, frexp, modf, fract, remquo, lgamma_r)
// Ptr: a plain pointer or a multi_ptr (anything whose operator* is a
// writable lvalue) to exactly T.
template <typename Ptr, typename T, typename = void> struct is_output_pointer : std::false_type {};
template <typename Ptr, typename T> struct is_output_pointer<Ptr, T, std::void_t<decltype(*std::declval<Ptr>())>>
    : std::bool_constant<std::is_lvalue_reference_v<decltype(*std::declval<Ptr>())> &&
                         std::is_same_v<std::remove_reference_t<decltype(*std::declval<Ptr>())>, T>> {};
// The pointer argument of a builtin over T storing Out per lane: pointing
// to Out, or to T's shape (vec for a swizzle) of Out.
template <typename T, typename Ptr, typename Out> inline constexpr bool is_output_pointer_v =
    is_output_pointer<Ptr, rebind_t<T, Out>>::value;

template <typename Out, typename Ptr, typename F, typename... Values>
auto lanewise_values_with_output(Ptr out, F f, const Values &...args) {
  using Shape = typename first_nonscalar<Values...>::type;
  using Lane = decltype(f(lane_of(args, 0)..., std::declval<Out &>()));
  rebind_t<Shape, Lane> result;
  rebind_t<Shape, Out> stored;
  for (std::size_t i = 0; i < element_count_v<Shape>; ++i) {
    Out lane_out{};
    result[i] = f(lane_of(args, i)..., lane_out);
    stored[i] = lane_out;
  }
  *out = stored;
  return result;
}

// Like lanewise, for f(lanes..., Out &out) returning a lane of the result and
// setting the lane of a second result, which is stored through `out`.
template <typename Out, typename Ptr, typename F, typename... Args>
auto lanewise_with_output(Ptr out, F f, const Args &...args) {
  if constexpr ((is_nonscalar_v<Args> || ...)) {
    return lanewise_values_with_output<Out>(out, f, as_value(args)...);
  } else {
    Out stored{};
    auto result = f(args..., stored);
    *out = stored;
    return result;
  }
}

}  // namespace sycl::detail

// SYCL 2020 rev 10 §4.17.5 and §4.17.7: the scalar forms of the
// floating-point builtins are functions of float, double and half, so their
// arguments convert as for any function call: sycl::pow(x, 2) with a float x
// is pow(float, float), sycl::clamp(x, 0, 1) clamp(float, float, float), and
// a class converting to float is a float. OnePass gives each builtin `name`
// one template that takes what those three functions would, picks the one
// overload resolution would (float_scalar_form below, declared only) and
// calls the builtin's template with it. A template, not three functions:
// nothing is instantiated for a TU that does not call it, and a
// non-template function of the user's with the same name and parameters is
// preferred to it. Arguments that are all of the builtin's own types
// (genfloat) go to the builtin's template directly.
namespace sycl::detail {
float float_scalar_form(float);
double float_scalar_form(double);
half float_scalar_form(half);
float float_scalar_form(float, float);
double float_scalar_form(double, double);
half float_scalar_form(half, half);
float float_scalar_form(float, float, float);
double float_scalar_form(double, double, double);
half float_scalar_form(half, half, half);
template <typename... Args> using float_scalar_form_t = decltype(float_scalar_form(std::declval<Args>()...));
template <typename... Args> inline constexpr bool all_genfloat_v = (is_genfloat_v<Args> && ...);
template <typename... Args> using scalar_form_enable_t = std::enable_if_t<!all_genfloat_v<Args...>>;
}  // namespace sycl::detail

#define ONEPASS_SCALAR_FLOAT_FORMS_1(name)                                                                             \
  template <typename A, typename R = detail::float_scalar_form_t<A>, typename = detail::scalar_form_enable_t<A>>       \
  auto name(A a)->decltype(name<R>(std::declval<R>())) {                                                               \
    return name<R>(static_cast<R>(a));                                                                                 \
  }
#define ONEPASS_SCALAR_FLOAT_FORMS_2(name)                                                                             \
  template <typename A, typename B, typename R = detail::float_scalar_form_t<A, B>,                                    \
            typename = detail::scalar_form_enable_t<A, B>>                                                             \
  auto name(A a, B b)->decltype(name<R, R>(std::declval<R>(), std::declval<R>())) {                                    \
    return name<R, R>(static_cast<R>(a), static_cast<R>(b));                                                           \
  }
#define ONEPASS_SCALAR_FLOAT_FORMS_3(name)                                                                             \
  template <typename A, typename B, typename C, typename R = detail::float_scalar_form_t<A, B, C>,                     \
            typename = detail::scalar_form_enable_t<A, B, C>>                                                          \
  auto name(A a, B b, C c)->decltype(name<R, R, R>(std::declval<R>(), std::declval<R>(), std::declval<R>())) {         \
    return name<R, R, R>(static_cast<R>(a), static_cast<R>(b), static_cast<R>(c));                                     \
  }
// A floating-point argument and an int (ldexp, pown, rootn).
#define ONEPASS_SCALAR_FLOAT_FORMS_1_INT(name)                                                                         \
  template <typename A, typename R = detail::float_scalar_form_t<A>, typename = detail::scalar_form_enable_t<A>>       \
  auto name(A a, int k)->decltype(name<R>(std::declval<R>(), k)) {                                                     \
    return name<R>(static_cast<R>(a), k);                                                                              \
  }
// Rev 10's `template <typename Ptr> float name(float x, Ptr p)` (fract,
// frexp, lgamma_r, modf, sincos): Ptr is the one template parameter, as
// name<Ptr>(x, p) expects.
#define ONEPASS_SCALAR_FLOAT_FORMS_PTR(name)                                                                           \
  template <typename Ptr> auto name(float x, Ptr p)->decltype(name<float, Ptr>(x, p)) {                                \
    return name<float, Ptr>(x, p);                                                                                     \
  }                                                                                                                    \
  template <typename Ptr> auto name(double x, Ptr p)->decltype(name<double, Ptr>(x, p)) {                              \
    return name<double, Ptr>(x, p);                                                                                    \
  }                                                                                                                    \
  template <typename Ptr> auto name(half x, Ptr p)->decltype(name<half, Ptr>(x, p)) { return name<half, Ptr>(x, p); }
