// SYCL 2020 §4.15.4: the SYCL 1.2.1 atomic types, deprecated in SYCL 2020:
// sycl::atomic<T, AddressSpace>, the free functions atomic_load ...
// atomic_fetch_max, and what an accessor of access_mode::atomic returns for
// an element (§4.7.6.9.4.9).
//
// An atomic is a pointer and the operations of atomic_ref (atomic_ref.hpp)
// on it; the memory order of each operation is the one passed (relaxed by
// default, as the spec says), the scope is the device.
#pragma once

#include "atomic_ref.hpp"
#include "multi_ptr.hpp"

#include <type_traits>

namespace sycl {

template <typename T, access::address_space AddressSpace = access::address_space::global_space> class atomic;

namespace detail {

// Element access of accessors of access_mode::atomic: an atomic on the
// element (§4.7.6.9.4.9; the other modes' is detail::plain_element).
template <access::address_space Space> struct atomic_element {
  template <typename T> using ref = atomic<T, Space>;
  static constexpr bool assignable = false;
  template <typename T> static atomic<T, Space> get(T &element) noexcept { return atomic<T, Space>(&element); }
};

template <typename T> inline constexpr bool legacy_atomic_v = atomic_integral_v<T> || std::is_same_v<T, float>;

}  // namespace detail

template <typename T, access::address_space AddressSpace>
class [[deprecated("sycl::atomic is deprecated in SYCL 2020: use sycl::atomic_ref")]] atomic {
  static_assert(
      detail::legacy_atomic_v<T>,
      "sycl::atomic supports int, unsigned int, long, unsigned long, long long, unsigned long long and float");
  static_assert(AddressSpace == access::address_space::global_space ||
                    AddressSpace == access::address_space::local_space ||
                    AddressSpace == access::address_space::generic_space,
                "sycl::atomic's address space is global, local or generic");
  using ref = atomic_ref<T, memory_order::relaxed, memory_scope::device, AddressSpace>;
  template <typename U = T> using if_integral = std::enable_if_t<!std::is_same_v<U, float>, int>;

public:
  // Table 136: PointerT is a type of T's size; the element is viewed as a T.
  template <typename PointerT, access::decorated IsDecorated> atomic(multi_ptr<PointerT, AddressSpace, IsDecorated> ptr)
      : ptr_(reinterpret_cast<T *>(ptr.get_raw())) {
    static_assert(sizeof(PointerT) == sizeof(T), "sycl::atomic: the pointer's element type must have the size of T");
  }

  void store(T operand, memory_order order = memory_order::relaxed) const noexcept { ref(*ptr_).store(operand, order); }
  T load(memory_order order = memory_order::relaxed) const noexcept { return ref(*ptr_).load(order); }
  T exchange(T operand, memory_order order = memory_order::relaxed) const noexcept {
    return ref(*ptr_).exchange(operand, order);
  }
  template <typename U = T, if_integral<U> = 0>
  bool compare_exchange_strong(T & expected, T desired, memory_order success = memory_order::relaxed,
                               memory_order failure = memory_order::relaxed) const noexcept {
    return ref(*ptr_).compare_exchange_strong(expected, desired, success, failure);
  }
  template <typename U = T, if_integral<U> = 0> T fetch_add(T operand, memory_order order = memory_order::relaxed)
      const noexcept {
    return ref(*ptr_).fetch_add(operand, order);
  }
  template <typename U = T, if_integral<U> = 0> T fetch_sub(T operand, memory_order order = memory_order::relaxed)
      const noexcept {
    return ref(*ptr_).fetch_sub(operand, order);
  }
  template <typename U = T, if_integral<U> = 0> T fetch_and(T operand, memory_order order = memory_order::relaxed)
      const noexcept {
    return ref(*ptr_).fetch_and(operand, order);
  }
  template <typename U = T, if_integral<U> = 0> T fetch_or(T operand, memory_order order = memory_order::relaxed)
      const noexcept {
    return ref(*ptr_).fetch_or(operand, order);
  }
  template <typename U = T, if_integral<U> = 0> T fetch_xor(T operand, memory_order order = memory_order::relaxed)
      const noexcept {
    return ref(*ptr_).fetch_xor(operand, order);
  }
  template <typename U = T, if_integral<U> = 0> T fetch_min(T operand, memory_order order = memory_order::relaxed)
      const noexcept {
    return ref(*ptr_).fetch_min(operand, order);
  }
  template <typename U = T, if_integral<U> = 0> T fetch_max(T operand, memory_order order = memory_order::relaxed)
      const noexcept {
    return ref(*ptr_).fetch_max(operand, order);
  }

private:
  friend struct detail::atomic_element<AddressSpace>;
  explicit atomic(T * ptr) noexcept : ptr_(ptr) {}

  T *ptr_;
};

// Table 138: each is the member function of the same name.
#define ONEPASS_LEGACY_ATOMIC_FN(name)                                                                                 \
  template <typename T, access::address_space AddressSpace>                                                            \
  [[deprecated("sycl::atomic_" #name " is deprecated in SYCL 2020: use sycl::atomic_ref")]] T atomic_##name(           \
      atomic<T, AddressSpace> object, T operand, memory_order order = memory_order::relaxed) noexcept {                \
    return object.name(operand, order);                                                                                \
  }
ONEPASS_LEGACY_ATOMIC_FN(exchange)
ONEPASS_LEGACY_ATOMIC_FN(fetch_add)
ONEPASS_LEGACY_ATOMIC_FN(fetch_sub)
ONEPASS_LEGACY_ATOMIC_FN(fetch_and)
ONEPASS_LEGACY_ATOMIC_FN(fetch_or)
ONEPASS_LEGACY_ATOMIC_FN(fetch_xor)
ONEPASS_LEGACY_ATOMIC_FN(fetch_min)
ONEPASS_LEGACY_ATOMIC_FN(fetch_max)
#undef ONEPASS_LEGACY_ATOMIC_FN

template <typename T, access::address_space AddressSpace>
[[deprecated("sycl::atomic_store is deprecated in SYCL 2020: use sycl::atomic_ref")]] void
atomic_store(atomic<T, AddressSpace> object, T operand, memory_order order = memory_order::relaxed) noexcept {
  object.store(operand, order);
}
template <typename T, access::address_space AddressSpace>
[[deprecated("sycl::atomic_load is deprecated in SYCL 2020: use sycl::atomic_ref")]] T
atomic_load(atomic<T, AddressSpace> object, memory_order order = memory_order::relaxed) noexcept {
  return object.load(order);
}
template <typename T, access::address_space AddressSpace>
[[deprecated("sycl::atomic_compare_exchange_strong is deprecated in SYCL 2020: use sycl::atomic_ref")]] bool
atomic_compare_exchange_strong(atomic<T, AddressSpace> object, T &expected, T desired,
                               memory_order success = memory_order::relaxed,
                               memory_order failure = memory_order::relaxed) noexcept {
  return object.compare_exchange_strong(expected, desired, success, failure);
}

}  // namespace sycl
