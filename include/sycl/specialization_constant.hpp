// SYCL 2020 §4.9.5 specialization constants: specialization_id,
// handler::set/get_specialization_constant and kernel_handler, which a
// kernel takes as its last parameter to read them (kernel bundles' side:
// kernel_bundle.hpp).
//
// How OnePass passes them: the values a command group sets travel with the
// kernel object as launch constants, folded into the kernel by the JIT
// (detail::spec_values, a table of at most
// spec_values::max_constants values in spec_values::capacity bytes), and
// kernel_handler::get_specialization_constant looks its constant up there,
// falling back to the specialization_id's default value. A constant is named
// by a 64-bit hash of its specialization_id variable's mangled name, which
// stage 1 computes for host and device code alike (detail::spec_key). Two
// different variables whose names hash alike would be told apart on the host
// (errc::feature_not_supported if both are set in one command group), never
// mixed up silently.
#pragma once

#include "detail/defines.hpp"
#include "detail/builtins.hpp"
#include "exception.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

namespace sycl {

template <typename T> class specialization_id {
public:
  using value_type = T;
  template <class... Args, typename = std::enable_if_t<std::is_constructible_v<T, Args...>>>
  explicit constexpr specialization_id(Args &&...args) : default_value_(std::forward<Args>(args)...) {}
  specialization_id(const specialization_id &) = delete;
  specialization_id(specialization_id &&) = delete;
  specialization_id &operator=(const specialization_id &) = delete;
  specialization_id &operator=(specialization_id &&) = delete;

  // OnePass: the default value (a constant expression for constexpr ids).
  constexpr const T &default_value() const noexcept { return default_value_; }

private:
  T default_value_;
};

namespace detail {
template <auto &SpecName> using spec_value_t = typename std::remove_reference_t<decltype(SpecName)>::value_type;

// SpecName's key, the same in host and device code: stage 1 turns the call
// into the hash of the variable's mangled name, which tells apart every
// variable, instances of one variable template included.
template <auto &SpecName> std::uint64_t spec_key() { return __onepass_spec_key(&SpecName); }

// The values are launch constants (detail/defines.hpp): the JIT compiles
// each set of values into its own binary of the kernel, so a read folds to
// the constant and a branch on it disappears; a new set of values costs one
// compile, then the binary is reused (in memory and in the persistent cache).
// Unset bytes stay zero (the handler value-initializes the table), so equal
// sets compare equal. `used` is host-side bookkeeping.
struct ONEPASS_LAUNCH_CONSTANTS("count", "keys", "offsets", "data") spec_values {
  static constexpr std::size_t capacity = 256;
  static constexpr std::size_t max_constants = 16;

  // The value set for `key`, or null. Straight-line code rather than a loop:
  // with the table's values compiled in, it folds to the value before the
  // JIT's loop passes run, so a loop bound read from a constant is known
  // when they decide about unrolling and vectorizing.
  [[gnu::always_inline]] const void *find(std::uint64_t key) const {
    return find_in(key, std::make_index_sequence<max_constants>());
  }

  template <std::size_t... I> [[gnu::always_inline]] const void *find_in(std::uint64_t key, std::index_sequence<I...>) const {
    const void *found = nullptr;
    ((found = found ? found : (I < count && keys[I] == key ? data + offsets[I] : nullptr)), ...);
    return found;
  }

  std::uint32_t count = 0;
  std::uint32_t used = 0;
  std::uint64_t keys[max_constants];
  std::uint32_t offsets[max_constants];
  alignas(16) unsigned char data[capacity];
};

// The handler's table: the values, and the specialization_id that set each
// (host-side only: it tells apart two ids of the same key).
struct spec_table {
  spec_values values{};
  const void *ids[spec_values::max_constants]{};
  std::uint32_t sizes[spec_values::max_constants]{};

  // Sets (or overwrites) the value of `key`, set through specialization_id `id`.
  void set(std::uint64_t key, const void *id, const void *value, std::size_t size, std::size_t align,
           const char *what) {
    for (std::uint32_t i = 0; i < values.count; ++i)
      if (values.keys[i] == key) {
        if (ids[i] != id)
          throw exception(make_error_code(errc::feature_not_supported),
                          std::string(what) +
                              ": two specialization constants set in this command group have keys that collide (the "
                              "hashes of their variables' names): rename one");
        std::memcpy(values.data + values.offsets[i], value, size);
        return;
      }
    add(key, id, value, size, align, what);
  }
  // Every constant of `other` (after this table's own: its values win).
  void merge(const spec_table &other, const char *what) {
    for (std::uint32_t i = 0; i < other.values.count; ++i)
      set(other.values.keys[i], other.ids[i], other.values.data + other.values.offsets[i], other.sizes[i],
          alignof(std::max_align_t), what);
  }

private:
  void add(std::uint64_t key, const void *id, const void *value, std::size_t size, std::size_t align,
           const char *what) {
    std::size_t offset = (values.used + align - 1) / align * align;
    if (values.count == spec_values::max_constants || offset + size > spec_values::capacity)
      throw exception(make_error_code(errc::feature_not_supported),
                      std::string(what) + ": OnePass passes at most " + std::to_string(spec_values::max_constants) +
                          " specialization constants of at most " + std::to_string(spec_values::capacity) +
                          " bytes in all to one kernel");
    values.keys[values.count] = key;
    ids[values.count] = id;
    sizes[values.count] = static_cast<std::uint32_t>(size);
    values.offsets[values.count] = static_cast<std::uint32_t>(offset);
    std::memcpy(values.data + offset, value, size);
    ++values.count;
    values.used = static_cast<std::uint32_t>(offset + size);
  }
};

// The value of SpecName in `values`, or its default.
template <auto &SpecName> spec_value_t<SpecName> spec_value(const spec_values *values) {
  using T = spec_value_t<SpecName>;
  static_assert(std::is_trivially_copyable_v<T>, "a specialization constant's type must be device copyable");
  if (values)
    if (const void *set = values->find(spec_key<SpecName>())) {
      // (T need not be default constructible: its bytes, then T.)
      struct bytes {
        alignas(T) unsigned char data[sizeof(T)];
      } raw;
      std::memcpy(raw.data, set, sizeof(T));
      return __builtin_bit_cast(T, raw);
    }
  return SpecName.default_value();
}

struct kernel_handler_factory;
}  // namespace detail

// §4.9.5.3: the kernel's view of the command group's specialization constants.
class kernel_handler {
public:
  template <auto &SpecName> detail::spec_value_t<SpecName> get_specialization_constant() {
    return detail::spec_value<SpecName>(values_);
  }

private:
  friend struct detail::kernel_handler_factory;
  explicit kernel_handler(const detail::spec_values *values) : values_(values) {}
  const detail::spec_values *values_;
};

namespace detail {
struct kernel_handler_factory {
  static kernel_handler make(const spec_values *values) { return kernel_handler(values); }
};

// A kernel that takes a kernel_handler after its usual arguments, with the
// command group's values: launched as a kernel that takes only the usual ones.
template <typename Kernel> struct kernel_with_handler {
  Kernel kernel;
  spec_values values;
  template <typename... Args, typename = std::enable_if_t<std::is_invocable_v<const Kernel &, Args..., kernel_handler>>>
  void operator()(Args... args) const {
    kernel(args..., kernel_handler_factory::make(&values));
  }
};
}  // namespace detail

}  // namespace sycl
