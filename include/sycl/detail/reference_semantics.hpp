// What the SYCL classes with common reference semantics (SYCL 2020 §4.5.2)
// share: equality means "one is a copy of the other", and std::hash agrees
// with it.
#pragma once

#include "std_parts.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace sycl::detail {

// Objects that own no shared state to compare by (accessors: a kernel copies
// them byte for byte) carry an identity instead: a number drawn once per
// construction, kept by every copy. 0 is the identity of default-constructed
// objects, which are all alike.
inline std::uint64_t new_identity() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// Folds `value`'s hash into `seed` (for classes compared by several members).
template <typename T> void hash_combine(std::size_t &seed, const T &value) {
  seed ^= std::hash<T>()(value) + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2);
}

}  // namespace sycl::detail
