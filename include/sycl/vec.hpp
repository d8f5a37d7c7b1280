// SYCL 2020 §4.14.2: vec<DataT, NumElements>, its aliases (float4, int8,
// uchar16 ...), element access, swizzles (detail/vec_swizzle.hpp),
// convert, as, load and store.
//
// A vec stores its elements as an array (so operator[] returns a real
// reference) aligned to its size (§4.14.2.6: a 3-element vec takes 4); each
// operation copies the array into a clang vector of N lanes and back, which
// the optimizer reduces to one vector instruction per operation.
#pragma once

#include "half.hpp"
#include "detail/generic_types.hpp"
#include "detail/vec_lanes.hpp"
#ifdef SYCL_SIMPLE_SWIZZLES
#include "detail/vec_simple_swizzles.hpp"
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

// Values of the compiler's vector types travel between inline functions
// only; their by-value ABI (-Wpsabi: wider than the target's registers) never
// crosses a library boundary.
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"
#endif

namespace sycl {

// §4.14.2.1: named swizzle indexes.
struct elem {
  static constexpr int x = 0, y = 1, z = 2, w = 3;
  static constexpr int r = 0, g = 1, b = 2, a = 3;
  static constexpr int s0 = 0, s1 = 1, s2 = 2, s3 = 3, s4 = 4, s5 = 5, s6 = 6, s7 = 7;
  static constexpr int s8 = 8, s9 = 9, sA = 10, sB = 11, sC = 12, sD = 13, sE = 14, sF = 15;
};

namespace detail {
namespace swizzled {
template <typename DataT, int SourceN, bool Const, int... Indexes> class vec_swizzle;
}
using swizzled::vec_swizzle;
template <typename DataT, int N> struct vec_access;

// How many elements an argument of vec's element constructor contributes.
template <typename DataT, typename Arg, typename = void> struct vec_arg_count {
  static constexpr int value = std::is_convertible_v<Arg, DataT> ? 1 : 0;
};
template <typename DataT, int M> struct vec_arg_count<DataT, vec<DataT, M>> { static constexpr int value = M; };
template <typename DataT, typename Arg>
struct vec_arg_count<DataT, Arg, std::enable_if_t<is_swizzle_v<Arg> && std::is_same_v<element_type_t<Arg>, DataT>>> {
  static constexpr int value = int(element_traits<vec_value_t<Arg>>::count);
};

// T is a scalar operand of vec's operators: implicitly convertible to DataT
// and neither a vec nor a swizzle.
template <typename T, typename DataT> inline constexpr bool vec_scalar_operand_v =
    std::is_convertible_v<T, DataT> && !is_vec_v<T> && !is_swizzle_v<T>;

template <int N> constexpr bool valid_vec_size() { return N == 1 || N == 2 || N == 3 || N == 4 || N == 8 || N == 16; }

#ifdef SYCL_SIMPLE_SWIZZLES
template <typename Vec, int N> using vec_base = vec_simple_swizzles<Vec, N>;
#else
template <typename Vec, int N> struct vec_base {};
#endif
}  // namespace detail

template <typename DataT, int NumElements> class vec : public detail::vec_base<vec<DataT, NumElements>, NumElements> {
  static_assert(detail::valid_vec_size<NumElements>(), "SYCL 2020 §4.14.2: a vec has 1, 2, 3, 4, 8 or 16 elements");
  static_assert(detail::is_vec_element_v<DataT>,
                "SYCL 2020 §4.14.2: a vec's element type is a scalar arithmetic type, std::byte or sycl::half");

  static constexpr int kSlots = NumElements == 3 ? 4 : NumElements;
  using native_t = detail::native_vec_t<DataT, NumElements>;
  template <typename T> using scalar_if = std::enable_if_t<detail::vec_scalar_operand_v<T, DataT>, int>;

public:
  using element_type = DataT;
  using value_type = DataT;

  // --- constructors (§4.14.2.1, Table 122) --------------------------------
  constexpr vec() : elems_{} {}
  template <int M = NumElements, std::enable_if_t<M == 1, int> = 0> constexpr vec(const DataT &arg) : elems_{arg} {}
  template <int M = NumElements, std::enable_if_t<M != 1, int> = 0> explicit constexpr vec(const DataT &arg)
      : elems_{} {
    for (int i = 0; i < NumElements; ++i) elems_[i] = arg;
  }
  // Elements from scalars, vecs and swizzles whose element counts add up to
  // NumElements.
  template <typename... ArgTN,
            std::enable_if_t<(sizeof...(ArgTN) > 1 || (... && !detail::vec_scalar_operand_v<ArgTN, DataT>)) &&
                                 (... && (detail::vec_arg_count<DataT, ArgTN>::value > 0)) &&
                                 (0 + ... + detail::vec_arg_count<DataT, ArgTN>::value) == NumElements,
                             int> = 0>
  constexpr vec(const ArgTN &...args) : elems_{} {
    int next = 0;
    (append(next, args), ...);
  }
  constexpr vec(const vec &rhs) = default;
  constexpr vec &operator=(const vec &rhs) = default;
  template <typename T, scalar_if<T> = 0> constexpr vec &operator=(const T &rhs) {
    for (int i = 0; i < NumElements; ++i) elems_[i] = static_cast<DataT>(rhs);
    return *this;
  }

  // One-element vecs and scalars convert into each other.
  template <int M = NumElements, std::enable_if_t<M == 1, int> = 0> operator DataT() const { return elems_[0]; }
  template <typename T, int M = NumElements,
            std::enable_if_t<M == 1 && !std::is_same_v<T, DataT> && std::is_constructible_v<T, DataT>, int> = 0>
  explicit operator T() const {
    return static_cast<T>(elems_[0]);
  }

  static constexpr std::size_t byte_size() noexcept { return sizeof(vec); }
  static constexpr std::size_t size() noexcept { return NumElements; }
  [[deprecated("use size() (SYCL 2020)")]] std::size_t get_size() const { return byte_size(); }
  [[deprecated("use size() (SYCL 2020)")]] std::size_t get_count() const { return size(); }

  // §4.14.2.1 convert: each element converted, rounded as RoundingMode says.
  // automatic is the source element type's default (§4.14.2.5): to nearest
  // even from floating point, towards zero from integers.
  template <typename ConvertT, rounding_mode RoundingMode = rounding_mode::automatic>
  vec<ConvertT, NumElements> convert() const {
    using to_lane = detail::lane_t<ConvertT>;
    using from_lane = detail::lane_t<DataT>;
    using out_t = typename vec<ConvertT, NumElements>::native_t;
    constexpr bool from_float = detail::is_float_lane_v<from_lane>, to_float = detail::is_float_lane_v<to_lane>;
    constexpr rounding_mode mode = RoundingMode != rounding_mode::automatic ? RoundingMode
                                   : from_float                             ? rounding_mode::rte
                                                                            : rounding_mode::rtz;
    const native_t in = load_native();
    out_t out;
    if constexpr (std::is_same_v<ConvertT, bool>) {
      out = __builtin_convertvector(in != from_lane(0), out_t) & to_lane(1);
    } else if constexpr (from_float && !to_float) {
      // Round to an integral value first; C++'s conversion then truncates.
      if constexpr (mode == rounding_mode::rte)
        out = __builtin_convertvector(__builtin_elementwise_roundeven(in), out_t);
      else if constexpr (mode == rounding_mode::rtp)
        out = __builtin_convertvector(__builtin_elementwise_ceil(in), out_t);
      else if constexpr (mode == rounding_mode::rtn)
        out = __builtin_convertvector(__builtin_elementwise_floor(in), out_t);
      else out = __builtin_convertvector(in, out_t);
    } else if constexpr (to_float && mode != rounding_mode::rte && !std::is_same_v<to_lane, from_lane>) {
      // Directed rounding to floating point, where the value may not fit.
      for (int i = 0; i < NumElements; ++i) out[i] = detail::convert_lane<to_lane, from_lane, mode>(in[i]);
    } else {
      out = __builtin_convertvector(in, out_t);  // to nearest even, or exact, or integer wrap
    }
    return vec<ConvertT, NumElements>::from_native(out);
  }

  // §4.14.2.1 as: the same bytes as another vec (or scalar) of the same size.
  template <typename AsT> AsT as() const {
    static_assert(sizeof(AsT) == sizeof(vec), "SYCL 2020 §4.14.2.1: as() needs a type of the same size");
    return __builtin_bit_cast(AsT, *this);
  }

  // --- swizzles (§4.14.2.3) -----------------------------------------------
  template <int... Indexes> auto swizzle() { return make_swizzle<false, Indexes...>(); }
  template <int... Indexes> auto swizzle() const { return make_swizzle<true, Indexes...>(); }

  // lo, hi, odd, even (a 3-element vec is treated as 4, its fourth element undefined).
  template <int M = NumElements, std::enable_if_t<(M > 1), int> = 0> auto lo() { return part<false, 0, 1>(); }
  template <int M = NumElements, std::enable_if_t<(M > 1), int> = 0> auto lo() const { return part<true, 0, 1>(); }
  template <int M = NumElements, std::enable_if_t<(M > 1), int> = 0> auto hi() { return part<false, kSlots / 2, 1>(); }
  template <int M = NumElements, std::enable_if_t<(M > 1), int> = 0> auto hi() const {
    return part<true, kSlots / 2, 1>();
  }
  template <int M = NumElements, std::enable_if_t<(M > 1), int> = 0> auto even() { return part<false, 0, 2>(); }
  template <int M = NumElements, std::enable_if_t<(M > 1), int> = 0> auto even() const { return part<true, 0, 2>(); }
  template <int M = NumElements, std::enable_if_t<(M > 1), int> = 0> auto odd() { return part<false, 1, 2>(); }
  template <int M = NumElements, std::enable_if_t<(M > 1), int> = 0> auto odd() const { return part<true, 1, 2>(); }

  // --- element access -----------------------------------------------------
  DataT &operator[](int index) { return elems_[index]; }
  constexpr const DataT &operator[](int index) const { return elems_[index]; }

#define ONEPASS_VEC_ELEMENT(name, index, available)                                                                    \
  template <int M = NumElements, std::enable_if_t<(available), int> = 0> DataT &name() { return elems_[index]; }       \
  template <int M = NumElements, std::enable_if_t<(available), int> = 0> const DataT &name() const {                   \
    return elems_[index];                                                                                              \
  }
  ONEPASS_VEC_ELEMENT_ACCESSORS(ONEPASS_VEC_ELEMENT)
#undef ONEPASS_VEC_ELEMENT

  // --- load and store (§4.14.2.1) -----------------------------------------
  // From/to consecutive elements at ptr + offset * NumElements; ptr is a
  // pointer or a multi_ptr, aligned to alignof(DataT).
  template <typename Ptr> void load(std::size_t offset, Ptr ptr) {
    const DataT *from = detail_raw_pointer(ptr) + offset * NumElements;
    for (int i = 0; i < NumElements; ++i) elems_[i] = from[i];
  }
  template <typename Ptr> void store(std::size_t offset, Ptr ptr) const {
    DataT *to = detail_raw_pointer(ptr) + offset * NumElements;
    for (int i = 0; i < NumElements; ++i) to[i] = elems_[i];
  }

  // The operators (§4.14.2.1, Table 124) follow the class.

private:
  template <typename, int> friend class vec;
  template <typename, int, bool, int...> friend class detail::swizzled::vec_swizzle;
  friend struct detail::vec_access<DataT, NumElements>;

  // A vec and its compiler vector have the same size and bytes (§4.14.2.6:
  // a 3-element vec takes 4 elements, as ext_vector_type(3) does).
  constexpr native_t load_native() const { return __builtin_bit_cast(native_t, elems_); }
  static constexpr vec from_native(native_t v) {
    if constexpr (std::is_same_v<DataT, bool>) v = __builtin_convertvector(v != native_t(0), native_t) & native_t(1);
    return __builtin_bit_cast(vec, v);
  }
  static constexpr native_t zero() { return native_t(detail::lane_t<DataT>(0)); }
  template <typename T> static constexpr native_t splat(const T &scalar) {
    return native_t(__builtin_bit_cast(detail::lane_t<DataT>, static_cast<DataT>(scalar)));
  }

  template <typename Ptr> static auto detail_raw_pointer(Ptr ptr) {
    if constexpr (std::is_pointer_v<Ptr>) return ptr;
    else return ptr.get_raw();
  }

  template <typename Arg> constexpr void append(int &next, const Arg &arg) {
    if constexpr (detail::vec_scalar_operand_v<Arg, DataT>) {
      elems_[next++] = static_cast<DataT>(arg);
    } else {
      if constexpr (detail::is_swizzle_v<Arg>) {
        const auto value = arg.onepass_value();  // one load of the swizzled vec
        for (std::size_t i = 0; i < value.size(); ++i) elems_[next++] = value[int(i)];
      } else {
        for (std::size_t i = 0; i < arg.size(); ++i) elems_[next++] = arg[int(i)];
      }
    }
  }

  template <bool Const, int... Indexes> auto make_swizzle() const {
    static_assert(sizeof...(Indexes) > 0 && detail::valid_vec_size<int(sizeof...(Indexes))>(),
                  "SYCL 2020 §4.14.2.3: a swizzle has 1, 2, 3, 4, 8 or 16 indexes");
    static_assert((... && (Indexes >= 0 && Indexes < NumElements)),
                  "SYCL 2020 §4.14.2.3: swizzle indexes are between 0 and NumElements - 1");
    using view = detail::vec_swizzle<DataT, NumElements, Const, Indexes...>;
    return view(const_cast<DataT *>(elems_));
  }
  template <bool Const, int First, int Stride, std::size_t... I> auto part_of(std::index_sequence<I...>) const {
    using view = detail::vec_swizzle<DataT, NumElements, Const, int(First + Stride * int(I))...>;
    return view(const_cast<DataT *>(elems_));
  }
  template <bool Const, int First, int Stride> auto part() const {
    return part_of<Const, First, Stride>(std::make_index_sequence<std::size_t(kSlots / 2)>());
  }

  alignas(sizeof(DataT) * kSlots) DataT elems_[kSlots];
};

// §4.14.2.1 deduction guide: vec{1.f, 2.f, 3.f} is a vec<float, 3>.
template <class T, class... U> vec(T, U...) -> vec<T, sizeof...(U) + 1>;

namespace detail {
// vec internals for the library's own code (builtins): the compiler vector.
template <typename DataT, int N> struct vec_access {
  static auto native(const vec<DataT, N> &v) { return v.load_native(); }
  static vec<DataT, N> from_native(native_vec_t<DataT, N> v) { return vec<DataT, N>::from_native(v); }
  template <typename T> static auto splat(const T &scalar) { return vec<DataT, N>::splat(scalar); }
  static auto zero() { return vec<DataT, N>::zero(); }
};

template <typename T> struct non_deduced { using type = T; };
template <typename T> using non_deduced_t = typename non_deduced<T>::type;
template <typename DataT, typename S> using vec_scalar_if = std::enable_if_t<vec_scalar_operand_v<S, DataT>, int>;
template <typename DataT> using vec_any_if = int;
template <typename DataT> using vec_integral_if = std::enable_if_t<integral_lanes_v<DataT>, int>;
template <typename DataT> using vec_not_bool_if = std::enable_if_t<!std::is_same_v<DataT, bool>, int>;
}  // namespace detail

// --- operators (§4.14.2.1, Table 124) ---------------------------------------
// A vec operation may be contracted with the next (a * b + c becomes one
// fma, as CUDA and GCC do for their vector types): the operators are
// separate functions, so clang's default (contract within an expression)
// would never fuse `acc += d * s` on vecs.
#ifdef __clang__
#pragma float_control(push)
#pragma clang fp contract(fast)
#endif
// The spec makes them hidden friends. Here they are function templates of
// namespace sycl that accept only vecs, which ADL finds exactly as it finds
// hidden friends: clang checks every hidden friend template a class
// instantiation declares against all the others of the same name, so a TU
// with a hundred vec types would spend seconds on that alone. The right-hand
// vec is not deduced, so it converts from a swizzle or (one element) a
// scalar as a hidden friend's parameter would.
//
// Binary arithmetic (+ - * /), integral only (% & | ^ << >>), and their
// compound assignments: vec with vec, and vec with a scalar on either side.
#define ONEPASS_VEC_BINARY(op, enable_if)                                                                              \
  template <typename T, int N, enable_if<T> = 0>                                                                       \
  vec<T, N> operator op(const vec<T, N> &lhs, const detail::non_deduced_t<vec<T, N>> &rhs) {                           \
    using access = detail::vec_access<T, N>;                                                                           \
    return access::from_native(access::native(lhs) op access::native(rhs));                                            \
  }                                                                                                                    \
  template <typename T, int N, typename S, detail::vec_scalar_if<T, S> = 0, enable_if<T> = 0>                          \
  vec<T, N> operator op(const vec<T, N> &lhs, const S &rhs) {                                                          \
    using access = detail::vec_access<T, N>;                                                                           \
    return access::from_native(access::native(lhs) op access::splat(rhs));                                             \
  }                                                                                                                    \
  template <typename S, typename T, int N, detail::vec_scalar_if<T, S> = 0, enable_if<T> = 0>                          \
  vec<T, N> operator op(const S &lhs, const vec<T, N> &rhs) {                                                          \
    using access = detail::vec_access<T, N>;                                                                           \
    return access::from_native(access::splat(lhs) op access::native(rhs));                                             \
  }                                                                                                                    \
  template <typename T, int N, enable_if<T> = 0>                                                                       \
  vec<T, N> &operator op##=(vec<T, N> &lhs, const detail::non_deduced_t<vec<T, N>> &rhs) {                             \
    return lhs = lhs op rhs;                                                                                           \
  }                                                                                                                    \
  template <typename T, int N, typename S, detail::vec_scalar_if<T, S> = 0, enable_if<T> = 0>                          \
  vec<T, N> &operator op##=(vec<T, N> &lhs, const S &rhs) {                                                            \
    return lhs = lhs op rhs;                                                                                           \
  }
ONEPASS_VEC_BINARY(+, detail::vec_any_if)
ONEPASS_VEC_BINARY(-, detail::vec_any_if)
ONEPASS_VEC_BINARY(*, detail::vec_any_if)
ONEPASS_VEC_BINARY(/, detail::vec_any_if)
ONEPASS_VEC_BINARY(%, detail::vec_integral_if)
ONEPASS_VEC_BINARY(&, detail::vec_integral_if)
ONEPASS_VEC_BINARY(|, detail::vec_integral_if)
ONEPASS_VEC_BINARY(^, detail::vec_integral_if)
ONEPASS_VEC_BINARY(<<, detail::vec_integral_if)
ONEPASS_VEC_BINARY(>>, detail::vec_integral_if)
#undef ONEPASS_VEC_BINARY

// Relational and logical operators: -1 (true) or 0 lanes of a signed
// integer type of the element's size.
#define ONEPASS_VEC_RELATION(op, expr)                                                                                 \
  template <typename T, int N>                                                                                         \
  vec<detail::rel_t<T>, N> operator op(const vec<T, N> &lhs, const detail::non_deduced_t<vec<T, N>> &rhs) {            \
    using access = detail::vec_access<T, N>;                                                                           \
    auto l = access::native(lhs), r = access::native(rhs);                                                             \
    return detail::vec_access<detail::rel_t<T>, N>::from_native(                                                       \
        __builtin_convertvector(expr, detail::native_vec_t<detail::rel_t<T>, N>));                                     \
  }                                                                                                                    \
  template <typename T, int N, typename S, detail::vec_scalar_if<T, S> = 0>                                            \
  vec<detail::rel_t<T>, N> operator op(const vec<T, N> &lhs, const S &rhs) {                                           \
    return lhs op vec<T, N>(static_cast<T>(rhs));                                                                      \
  }                                                                                                                    \
  template <typename S, typename T, int N, detail::vec_scalar_if<T, S> = 0>                                            \
  vec<detail::rel_t<T>, N> operator op(const S &lhs, const vec<T, N> &rhs) {                                           \
    return vec<T, N>(static_cast<T>(lhs)) op rhs;                                                                      \
  }
ONEPASS_VEC_RELATION(==, l == r)
ONEPASS_VEC_RELATION(!=, l != r)
ONEPASS_VEC_RELATION(<, l < r)
ONEPASS_VEC_RELATION(>, l > r)
ONEPASS_VEC_RELATION(<=, l <= r)
ONEPASS_VEC_RELATION(>=, l >= r)
ONEPASS_VEC_RELATION(&&, (l != access::zero()) & (r != access::zero()))
ONEPASS_VEC_RELATION(||, (l != access::zero()) | (r != access::zero()))
#undef ONEPASS_VEC_RELATION

#ifdef __clang__
#pragma float_control(pop)
#endif

template <typename T, int N> vec<detail::rel_t<T>, N> operator!(const vec<T, N> &v) { return v == vec<T, N>(); }
template <typename T, int N, detail::vec_integral_if<T> = 0> vec<T, N> operator~(const vec<T, N> &v) {
  using access = detail::vec_access<T, N>;
  return access::from_native(~access::native(v));
}
template <typename T, int N> vec<T, N> operator+(const vec<T, N> &v) { return v; }
template <typename T, int N> vec<T, N> operator-(const vec<T, N> &v) {
  using access = detail::vec_access<T, N>;
  return access::from_native(-access::native(v));
}
template <typename T, int N, detail::vec_not_bool_if<T> = 0> vec<T, N> &operator++(vec<T, N> &v) { return v += T(1); }
template <typename T, int N, detail::vec_not_bool_if<T> = 0> vec<T, N> &operator--(vec<T, N> &v) { return v -= T(1); }
template <typename T, int N, detail::vec_not_bool_if<T> = 0> vec<T, N> operator++(vec<T, N> &v, int) {
  vec<T, N> old = v;
  v += T(1);
  return old;
}
template <typename T, int N, detail::vec_not_bool_if<T> = 0> vec<T, N> operator--(vec<T, N> &v, int) {
  vec<T, N> old = v;
  v -= T(1);
  return old;
}

// §4.14.2.2: the aliases.
#define ONEPASS_VEC_ALIASES(name, type)                                                                                \
  using name##2 = vec<type, 2>;                                                                                        \
  using name##3 = vec<type, 3>;                                                                                        \
  using name##4 = vec<type, 4>;                                                                                        \
  using name##8 = vec<type, 8>;                                                                                        \
  using name##16 = vec<type, 16>;
ONEPASS_VEC_ALIASES(char, std::int8_t)
ONEPASS_VEC_ALIASES(uchar, std::uint8_t)
ONEPASS_VEC_ALIASES(short, std::int16_t)
ONEPASS_VEC_ALIASES(ushort, std::uint16_t)
ONEPASS_VEC_ALIASES(int, std::int32_t)
ONEPASS_VEC_ALIASES(uint, std::uint32_t)
ONEPASS_VEC_ALIASES(long, std::int64_t)
ONEPASS_VEC_ALIASES(ulong, std::uint64_t)
ONEPASS_VEC_ALIASES(half, half)
ONEPASS_VEC_ALIASES(float, float)
ONEPASS_VEC_ALIASES(double, double)
// SYCL 1.2.1 names, kept deprecated by implementations for old code.
ONEPASS_VEC_ALIASES(schar, signed char)
ONEPASS_VEC_ALIASES(longlong, long long)
ONEPASS_VEC_ALIASES(ulonglong, unsigned long long)
#undef ONEPASS_VEC_ALIASES

}  // namespace sycl

#ifdef __clang__
#pragma clang diagnostic pop
#endif

#include "detail/vec_swizzle.hpp"
