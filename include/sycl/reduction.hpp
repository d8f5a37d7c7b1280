// SYCL 2020 §4.9.2 reductions: sycl::reduction over a USM pointer, a buffer or
// a span (an array reduction), the reducer a kernel combines into, and
// parallel_for with reductions over a range or an nd_range (defined in
// detail/reduction_kernel.hpp, which says how they run).
//
// A reduction works with any trivially copyable type (§4.9.2). With an
// identity (given, or known: §4.9.2.2's known_identity) a reducer starts from
// it; without one (a user's combiner of no known identity) a reducer holds no
// value until its first combine, and values that were never combined are
// left out of the result.
#pragma once

#include "accessor.hpp"
#include "atomic_ref.hpp"
#include "functional.hpp"
#include "handler.hpp"
#include "nd_item.hpp"
#include "property_list.hpp"
#include "span.hpp"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace sycl {

namespace property::reduction {
class initialize_to_identity : public detail::property_base {};
}  // namespace property::reduction

namespace detail {

// A partial result of one reduction variable: the value a reducer combines
// into. With an identity it starts from the identity.
template <typename T, typename Op, bool HasIdentity> struct accumulator {
  T value;
  T identity;
  Op op;
  accumulator(const T &identity_value, const Op &combiner)
      : value(identity_value), identity(identity_value), op(combiner) {}
  bool holds_value() const { return true; }
  void combine(const T &partial) { value = op(value, partial); }
  void merge(const accumulator &other) { combine(other.value); }
};
// Without an identity it starts empty: its first combine stores the partial
// value (a union: T need not be default constructible).
template <typename T, typename Op> struct accumulator<T, Op, false> {
  union {
    unsigned char nothing;
    T value;
  };
  bool holds = false;
  Op op;
  explicit accumulator(const Op &combiner) : nothing(0), op(combiner) {}
  bool holds_value() const { return holds; }
  void combine(const T &partial) {
    value = holds ? op(value, partial) : partial;
    holds = true;
  }
  void merge(const accumulator &other) {
    if (other.holds) combine(other.value);
  }
};
template <typename Accumulator> struct accumulator_traits;
template <typename T, typename Op, bool HasIdentity> struct accumulator_traits<accumulator<T, Op, HasIdentity>> {
  static constexpr bool has_identity = HasIdentity;
};

// The accumulators of a span reducer (§4.9.2.3 operator[]), one per element.
template <typename Accumulator, std::size_t Extent> struct accumulator_array {
  Accumulator element[Extent];
  explicit accumulator_array(const Accumulator &start) : accumulator_array(start, std::make_index_sequence<Extent>{}) {}
  template <std::size_t... I> accumulator_array(const Accumulator &start, std::index_sequence<I...>)
      : element{((void)I, start)...} {}
};

template <typename T, typename Op, int D, typename Storage> struct reducer_access;

}  // namespace detail

// §4.9.2.3: what a kernel combines its partial results into. Storage (the
// unspecified part of the spec's template) is the accumulator a reducer owns,
// or, for the element reducers a span reducer's operator[] returns, a
// reference to one of its accumulators.
template <typename T, typename BinaryOperation, int Dimensions = 0,
          typename Storage = detail::accumulator<T, BinaryOperation, true>>
class reducer {
  static_assert(Dimensions == 0, "reducers have 0 dimensions, or 1 for a span (§4.9.2.3)");
  using accumulator_type = std::remove_reference_t<Storage>;
  static constexpr bool known_identity = detail::accumulator_traits<accumulator_type>::has_identity;
  using start_type = std::conditional_t<std::is_reference_v<Storage>, accumulator_type &, const accumulator_type &>;

public:
  using value_type = T;
  using binary_operation = BinaryOperation;
  static constexpr int dimensions = Dimensions;

  explicit reducer(start_type start) : accumulator_(start) {}
  reducer(const reducer &) = delete;
  reducer(reducer &&) = delete;
  reducer &operator=(const reducer &) = delete;
  reducer &operator=(reducer &&) = delete;

  reducer &combine(const T &partial) {
    accumulator_.combine(partial);
    return *this;
  }
  // Only where the reduction has an identity (known or given).
  template <bool Known = known_identity, typename = std::enable_if_t<Known>> T identity() const {
    return accumulator_.identity;
  }

  // Table 107's shorthands (members, so that they work on the element
  // reducers operator[] returns by value too).
  template <typename Op = BinaryOperation, typename = std::enable_if_t<detail::is_family_v<plus, Op>>>
  reducer &operator+=(const T &partial) {
    return combine(partial);
  }
  template <typename Op = BinaryOperation, typename = std::enable_if_t<detail::is_family_v<multiplies, Op>>>
  reducer &operator*=(const T &partial) {
    return combine(partial);
  }
  template <typename Op = BinaryOperation,
            typename = std::enable_if_t<std::is_integral_v<T> && detail::is_family_v<bit_and, Op>>>
  reducer &operator&=(const T &partial) {
    return combine(partial);
  }
  template <typename Op = BinaryOperation,
            typename = std::enable_if_t<std::is_integral_v<T> && detail::is_family_v<bit_or, Op>>>
  reducer &operator|=(const T &partial) {
    return combine(partial);
  }
  template <typename Op = BinaryOperation,
            typename = std::enable_if_t<std::is_integral_v<T> && detail::is_family_v<bit_xor, Op>>>
  reducer &operator^=(const T &partial) {
    return combine(partial);
  }
  template <
      typename Op = BinaryOperation,
      typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> && detail::is_family_v<plus, Op>>>
  reducer &operator++() {
    return combine(T(1));
  }
  template <
      typename Op = BinaryOperation,
      typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> && detail::is_family_v<plus, Op>>>
  void operator++(int) {
    combine(T(1));
  }

private:
  friend struct detail::reducer_access<T, BinaryOperation, Dimensions, Storage>;
  Storage accumulator_;
};

// A span reduction's reducer (§4.9.2.3): operator[] gives element `index`'s
// reducer, of 0 dimensions.
template <typename T, typename BinaryOperation, typename Accumulator, std::size_t Extent>
class reducer<T, BinaryOperation, 1, detail::accumulator_array<Accumulator, Extent>> {
  static constexpr bool known_identity = detail::accumulator_traits<Accumulator>::has_identity;

public:
  using value_type = T;
  using binary_operation = BinaryOperation;
  static constexpr int dimensions = 1;

  explicit reducer(const Accumulator &start) : accumulators_(start) {}
  reducer(const reducer &) = delete;
  reducer(reducer &&) = delete;
  reducer &operator=(const reducer &) = delete;
  reducer &operator=(reducer &&) = delete;

  reducer<T, BinaryOperation, 0, Accumulator &> operator[](std::size_t index) {
    return reducer<T, BinaryOperation, 0, Accumulator &>(accumulators_.element[index]);
  }
  template <bool Known = known_identity, typename = std::enable_if_t<Known>> T identity() const {
    return accumulators_.element[0].identity;
  }

private:
  friend struct detail::reducer_access<T, BinaryOperation, 1, detail::accumulator_array<Accumulator, Extent>>;
  detail::accumulator_array<Accumulator, Extent> accumulators_;
};

namespace detail {

// The accumulator of element `index` of a reducer (for the group combination).
template <typename T, typename Op, typename Storage> struct reducer_access<T, Op, 0, Storage> {
  static std::remove_reference_t<Storage> &element(reducer<T, Op, 0, Storage> &r, std::size_t) {
    return r.accumulator_;
  }
};
template <typename T, typename Op, typename Accumulator, std::size_t Extent>
struct reducer_access<T, Op, 1, accumulator_array<Accumulator, Extent>> {
  static Accumulator &element(reducer<T, Op, 1, accumulator_array<Accumulator, Extent>> &r, std::size_t index) {
    return r.accumulators_.element[index];
  }
};
template <typename T, typename Op, int D, typename Storage>
auto &accumulator_of(reducer<T, Op, D, Storage> &r, std::size_t index) {
  return reducer_access<T, Op, D, Storage>::element(r, index);
}

// What a reduction is, as types: its value type and operation, its reducer's
// dimensions, how many variables it reduces (a span's extent, else 1) and
// whether it has an identity.
template <typename T, typename Op, int Dimensions, std::size_t Extent, bool HasIdentity> struct reduction_kind {
  static_assert(std::is_trivially_copyable_v<T>, "a reduction's type must be trivially copyable (SYCL 2020 §4.9.2)");
  using value_type = T;
  using operation = Op;
  static constexpr int dimensions = Dimensions;
  static constexpr std::size_t extent = Extent;
  static constexpr bool has_identity = HasIdentity;
  using accumulator_type = accumulator<T, Op, HasIdentity>;
  using reducer_type = std::conditional_t<Dimensions == 0, reducer<T, Op, 0, accumulator_type>,
                                          reducer<T, Op, 1, accumulator_array<accumulator_type, Extent>>>;
};

// What sycl::reduction returns: the variables, and what a reducer starts from.
template <typename Kind> struct usm_reduction {
  using kind = Kind;
  typename Kind::value_type *target;
  typename Kind::accumulator_type start;
  bool initialize;
};
template <typename Kind> struct buffer_reduction {
  using kind = Kind;
  accessor<typename Kind::value_type, 1, access_mode::read_write, sycl::target::device> data;
  typename Kind::accumulator_type start;
  bool initialize;
};

template <typename R> struct is_reduction : std::false_type {};
template <typename Kind> struct is_reduction<usm_reduction<Kind>> : std::true_type {};
template <typename Kind> struct is_reduction<buffer_reduction<Kind>> : std::true_type {};
template <typename R> inline constexpr bool is_reduction_v = is_reduction<std::decay_t<R>>::value;

// A reducer's start: the identity (given or known) and the combiner, or, with
// no identity, the combiner alone (§4.9.2.2: initialize_to_identity needs an
// identity).
template <typename T, typename Op, bool HasIdentity>
accumulator<T, Op, HasIdentity> reduction_start(Op combiner, const property_list &properties) {
  if constexpr (HasIdentity) {
    return {known_identity_v<Op, T>, combiner};
  } else {
    if (properties.has_property<property::reduction::initialize_to_identity>())
      throw exception(make_error_code(errc::invalid),
                      "reduction: initialize_to_identity needs an identity, and this operation has no known identity "
                      "for this type: give the reduction one (SYCL 2020 §4.9.2.2)");
    return accumulator<T, Op, false>(combiner);
  }
}
inline bool initializes(const property_list &properties) {
  return properties.has_property<property::reduction::initialize_to_identity>();
}
template <typename T, typename AllocatorT> void check_reduction_buffer(const buffer<T, 1, AllocatorT> &variable) {
  if (variable.size() != 1)
    throw exception(make_error_code(errc::invalid),
                    "reduction: the buffer must hold exactly one element (SYCL 2020 §4.9.2.1), not " +
                        std::to_string(variable.size()));
}

}  // namespace detail

// --- sycl::reduction (§4.9.2.1) ---------------------------------------------
template <typename T, typename BinaryOperation>
detail::usm_reduction<detail::reduction_kind<T, BinaryOperation, 0, 1, true>>
reduction(T *variable, const T &identity, BinaryOperation combiner, const property_list &properties = {}) {
  return {variable, {identity, combiner}, detail::initializes(properties)};
}
template <typename T, typename BinaryOperation>
detail::usm_reduction<detail::reduction_kind<T, BinaryOperation, 0, 1, has_known_identity_v<BinaryOperation, T>>>
reduction(T *variable, BinaryOperation combiner, const property_list &properties = {}) {
  return {variable,
          detail::reduction_start<T, BinaryOperation, has_known_identity_v<BinaryOperation, T>>(combiner, properties),
          detail::initializes(properties)};
}

template <typename T, typename AllocatorT, typename BinaryOperation>
detail::buffer_reduction<detail::reduction_kind<T, BinaryOperation, 0, 1, true>>
reduction(buffer<T, 1, AllocatorT> variable, handler &cgh, const T &identity, BinaryOperation combiner,
          const property_list &properties = {}) {
  detail::check_reduction_buffer(variable);
  return {accessor<T, 1, access_mode::read_write, sycl::target::device>(variable, cgh),
          {identity, combiner},
          detail::initializes(properties)};
}
template <typename T, typename AllocatorT, typename BinaryOperation>
detail::buffer_reduction<detail::reduction_kind<T, BinaryOperation, 0, 1, has_known_identity_v<BinaryOperation, T>>>
reduction(buffer<T, 1, AllocatorT> variable, handler &cgh, BinaryOperation combiner,
          const property_list &properties = {}) {
  detail::check_reduction_buffer(variable);
  auto start =
      detail::reduction_start<T, BinaryOperation, has_known_identity_v<BinaryOperation, T>>(combiner, properties);
  return {accessor<T, 1, access_mode::read_write, sycl::target::device>(variable, cgh), start,
          detail::initializes(properties)};
}

// Array reductions (a span of a fixed extent): `Extent` independent
// reductions, through a reducer of 1 dimension.
template <typename T, std::size_t Extent, typename BinaryOperation,
          typename = std::enable_if_t<Extent != dynamic_extent>>
detail::usm_reduction<detail::reduction_kind<T, BinaryOperation, 1, Extent, true>>
reduction(span<T, Extent> variables, const T &identity, BinaryOperation combiner,
          const property_list &properties = {}) {
  return {variables.data(), {identity, combiner}, detail::initializes(properties)};
}
template <typename T, std::size_t Extent, typename BinaryOperation,
          typename = std::enable_if_t<Extent != dynamic_extent>>
detail::usm_reduction<detail::reduction_kind<T, BinaryOperation, 1, Extent, has_known_identity_v<BinaryOperation, T>>>
reduction(span<T, Extent> variables, BinaryOperation combiner, const property_list &properties = {}) {
  return {variables.data(),
          detail::reduction_start<T, BinaryOperation, has_known_identity_v<BinaryOperation, T>>(combiner, properties),
          detail::initializes(properties)};
}

}  // namespace sycl

#include "detail/reduction_kernel.hpp"
