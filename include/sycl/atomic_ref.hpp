// SYCL 2020 §3.8.3 memory orders and §4.15.3 atomic_ref, §4.15.1 atomic_fence.
// Atomic operations on 32- and 64-bit integers, float, double and pointers,
// in any address space, on the host and in kernels (the same source for
// every device: clang's __atomic builtins become LLVM atomic instructions,
// which each target lowers: lock-prefixed instructions or compare-and-swap
// loops on the CPU, atom.* on NVIDIA GPUs).
//
// Memory scopes are accepted but not used to narrow anything yet: every
// operation is ordered for the whole system, which is correct for every scope
// and costs more only for orders stronger than relaxed.
#pragma once

#include "access.hpp"

#include <cstddef>
#include <type_traits>

namespace sycl {

namespace detail {

constexpr int builtin_order(memory_order order) {
  switch (order) {
  case memory_order::relaxed: return __ATOMIC_RELAXED;
  case memory_order::acquire: return __ATOMIC_ACQUIRE;
  case memory_order::release: return __ATOMIC_RELEASE;
  case memory_order::acq_rel: return __ATOMIC_ACQ_REL;
  case memory_order::seq_cst: return __ATOMIC_SEQ_CST;
  }
  return __ATOMIC_SEQ_CST;
}

// The order of the load (or store) half of an operation with `order`.
constexpr memory_order read_order(memory_order order) {
  return order == memory_order::acq_rel   ? memory_order::acquire
         : order == memory_order::release ? memory_order::relaxed
                                          : order;
}
constexpr memory_order write_order(memory_order order) {
  return order == memory_order::acq_rel   ? memory_order::release
         : order == memory_order::acquire ? memory_order::relaxed
                                          : order;
}
// A compare-exchange's order when it fails: no release part.
constexpr memory_order failure_order(memory_order order) { return read_order(order); }

template <typename T> inline constexpr bool atomic_integral_v =
    std::is_same_v<T, int> || std::is_same_v<T, unsigned int> || std::is_same_v<T, long> ||
    std::is_same_v<T, unsigned long> || std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long>;
template <typename T> inline constexpr bool atomic_floating_v = std::is_same_v<T, float> || std::is_same_v<T, double>;

// What every atomic_ref has: load, store, exchange, compare-exchange.
template <typename T, memory_order DefaultOrder, memory_scope DefaultScope> class atomic_ref_base {
public:
  using value_type = T;
  static constexpr std::size_t required_alignment = sizeof(T);
  static constexpr bool is_always_lock_free = true;
  static constexpr memory_order default_read_order = read_order(DefaultOrder);
  static constexpr memory_order default_write_order = write_order(DefaultOrder);
  static constexpr memory_order default_read_modify_write_order = DefaultOrder;
  static constexpr memory_scope default_scope = DefaultScope;

  explicit atomic_ref_base(T &ref) : ptr_(&ref) {}
  atomic_ref_base(const atomic_ref_base &) noexcept = default;
  atomic_ref_base &operator=(const atomic_ref_base &) = delete;

  bool is_lock_free() const noexcept { return true; }

  void store(T operand, memory_order order = default_write_order, memory_scope = default_scope) const noexcept {
    __atomic_store(ptr_, &operand, builtin_order(order));
  }
  T operator=(T desired) const noexcept {
    store(desired);
    return desired;
  }
  T load(memory_order order = default_read_order, memory_scope = default_scope) const noexcept {
    T value;
    __atomic_load(ptr_, &value, builtin_order(order));
    return value;
  }
  operator T() const noexcept { return load(); }
  T exchange(T operand, memory_order order = default_read_modify_write_order,
             memory_scope = default_scope) const noexcept {
    T old;
    __atomic_exchange(ptr_, &operand, &old, builtin_order(order));
    return old;
  }
  bool compare_exchange_weak(T &expected, T desired, memory_order success, memory_order failure,
                             memory_scope = default_scope) const noexcept {
    return __atomic_compare_exchange(ptr_, &expected, &desired, true, builtin_order(success), builtin_order(failure));
  }
  bool compare_exchange_weak(T &expected, T desired, memory_order order = default_read_modify_write_order,
                             memory_scope scope = default_scope) const noexcept {
    return compare_exchange_weak(expected, desired, order, failure_order(order), scope);
  }
  bool compare_exchange_strong(T &expected, T desired, memory_order success, memory_order failure,
                               memory_scope = default_scope) const noexcept {
    return __atomic_compare_exchange(ptr_, &expected, &desired, false, builtin_order(success), builtin_order(failure));
  }
  bool compare_exchange_strong(T &expected, T desired, memory_order order = default_read_modify_write_order,
                               memory_scope scope = default_scope) const noexcept {
    return compare_exchange_strong(expected, desired, order, failure_order(order), scope);
  }

protected:
  T *ptr_;
};

}  // namespace detail

template <typename T, memory_order DefaultOrder, memory_scope DefaultScope,
          access::address_space AddressSpace = access::address_space::generic_space>
class atomic_ref : public detail::atomic_ref_base<T, DefaultOrder, DefaultScope> {
  static_assert(detail::atomic_integral_v<T> || detail::atomic_floating_v<T>,
                "atomic_ref supports int, unsigned int, long, unsigned long, long long, unsigned long long, float, "
                "double and pointers");
  static_assert(AddressSpace == access::address_space::generic_space ||
                    AddressSpace == access::address_space::global_space ||
                    AddressSpace == access::address_space::local_space,
                "atomic_ref's address space is global, local or generic");
  using base = detail::atomic_ref_base<T, DefaultOrder, DefaultScope>;
  using base::ptr_;

public:
  using difference_type = T;
  using base::base;
  using base::operator=;
  using base::default_read_modify_write_order;
  using base::default_scope;

  T fetch_add(T operand, memory_order order = default_read_modify_write_order,
              memory_scope = default_scope) const noexcept {
    return __atomic_fetch_add(ptr_, operand, detail::builtin_order(order));
  }
  T fetch_sub(T operand, memory_order order = default_read_modify_write_order,
              memory_scope = default_scope) const noexcept {
    return __atomic_fetch_sub(ptr_, operand, detail::builtin_order(order));
  }
  T fetch_min(T operand, memory_order order = default_read_modify_write_order,
              memory_scope = default_scope) const noexcept {
    return __atomic_fetch_min(ptr_, operand, detail::builtin_order(order));
  }
  T fetch_max(T operand, memory_order order = default_read_modify_write_order,
              memory_scope = default_scope) const noexcept {
    return __atomic_fetch_max(ptr_, operand, detail::builtin_order(order));
  }
  template <typename U = T, typename = std::enable_if_t<detail::atomic_integral_v<U>>>
  T fetch_and(T operand, memory_order order = default_read_modify_write_order,
              memory_scope = default_scope) const noexcept {
    return __atomic_fetch_and(ptr_, operand, detail::builtin_order(order));
  }
  template <typename U = T, typename = std::enable_if_t<detail::atomic_integral_v<U>>>
  T fetch_or(T operand, memory_order order = default_read_modify_write_order,
             memory_scope = default_scope) const noexcept {
    return __atomic_fetch_or(ptr_, operand, detail::builtin_order(order));
  }
  template <typename U = T, typename = std::enable_if_t<detail::atomic_integral_v<U>>>
  T fetch_xor(T operand, memory_order order = default_read_modify_write_order,
              memory_scope = default_scope) const noexcept {
    return __atomic_fetch_xor(ptr_, operand, detail::builtin_order(order));
  }

  T operator+=(T operand) const noexcept { return fetch_add(operand) + operand; }
  T operator-=(T operand) const noexcept { return fetch_sub(operand) - operand; }
  template <typename U = T, typename = std::enable_if_t<detail::atomic_integral_v<U>>>
  T operator++(int) const noexcept {
    return fetch_add(1);
  }
  template <typename U = T, typename = std::enable_if_t<detail::atomic_integral_v<U>>> T operator++() const noexcept {
    return fetch_add(1) + 1;
  }
  template <typename U = T, typename = std::enable_if_t<detail::atomic_integral_v<U>>>
  T operator--(int) const noexcept {
    return fetch_sub(1);
  }
  template <typename U = T, typename = std::enable_if_t<detail::atomic_integral_v<U>>> T operator--() const noexcept {
    return fetch_sub(1) - 1;
  }
  template <typename U = T, typename = std::enable_if_t<detail::atomic_integral_v<U>>>
  T operator&=(T operand) const noexcept {
    return fetch_and(operand) & operand;
  }
  template <typename U = T, typename = std::enable_if_t<detail::atomic_integral_v<U>>>
  T operator|=(T operand) const noexcept {
    return fetch_or(operand) | operand;
  }
  template <typename U = T, typename = std::enable_if_t<detail::atomic_integral_v<U>>>
  T operator^=(T operand) const noexcept {
    return fetch_xor(operand) ^ operand;
  }
};

// Pointers: arithmetic in elements, as for built-in pointers.
template <typename T, memory_order DefaultOrder, memory_scope DefaultScope, access::address_space AddressSpace>
class atomic_ref<T *, DefaultOrder, DefaultScope, AddressSpace>
    : public detail::atomic_ref_base<T *, DefaultOrder, DefaultScope> {
  using base = detail::atomic_ref_base<T *, DefaultOrder, DefaultScope>;
  using base::ptr_;

public:
  using difference_type = std::ptrdiff_t;
  using base::base;
  using base::operator=;
  using base::default_read_modify_write_order;
  using base::default_scope;

  T *fetch_add(difference_type operand, memory_order order = default_read_modify_write_order,
               memory_scope = default_scope) const noexcept {
    return __atomic_fetch_add(ptr_, operand * static_cast<difference_type>(sizeof(T)), detail::builtin_order(order));
  }
  T *fetch_sub(difference_type operand, memory_order order = default_read_modify_write_order,
               memory_scope = default_scope) const noexcept {
    return __atomic_fetch_sub(ptr_, operand * static_cast<difference_type>(sizeof(T)), detail::builtin_order(order));
  }
  T *operator+=(difference_type operand) const noexcept { return fetch_add(operand) + operand; }
  T *operator-=(difference_type operand) const noexcept { return fetch_sub(operand) - operand; }
  T *operator++(int) const noexcept { return fetch_add(1); }
  T *operator++() const noexcept { return fetch_add(1) + 1; }
  T *operator--(int) const noexcept { return fetch_sub(1); }
  T *operator--() const noexcept { return fetch_sub(1) - 1; }
};

// §4.15.1: orders this work-item's memory accesses (for the whole system,
// whatever the scope; see above).
inline void atomic_fence(memory_order order, memory_scope) { __atomic_thread_fence(detail::builtin_order(order)); }

}  // namespace sycl
