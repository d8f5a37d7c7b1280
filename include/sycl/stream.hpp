// SYCL 2020 §4.16: the stream class, buffered output from kernels.
//
// A stream is a handle (common reference semantics, §4.5.2) of a control
// block on the command group's device, made by the runtime with the stream:
// the stream's buffer (`size()` bytes) and, once the kernel is submitted,
// one slot per work-item of `get_work_item_buffer_size()` bytes plus the
// formatting state of the work-item's current statement. operator<< formats
// into the work-item's slot; `flush` and `endl` append the slot's text to the
// buffer in one piece (an atomic reservation, so a work-item's text is never
// mixed with another's), and the runtime appends what is left in each slot
// at the end of the kernel (§4.16.3) and prints the buffer to stdout before
// the command's event completes (§4.16.2). Text beyond either limit is
// dropped (the runtime says so once on stderr).
#pragma once

#include "detail/builtins.hpp"
#include "exception.hpp"
#include "handler.hpp"
#include "half.hpp"
#include "h_item.hpp"
#include "item.hpp"
#include "multi_ptr.hpp"
#include "nd_item.hpp"
#include "nd_range.hpp"
#include "property_list.hpp"
#include "range.hpp"
#include "vec.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace sycl {

class handler;

enum class stream_manipulator : unsigned char {
  flush,
  dec,
  hex,
  oct,
  noshowbase,
  showbase,
  noshowpos,
  showpos,
  endl,
  fixed,
  scientific,
  hexfloat,
  defaultfloat
};
inline constexpr stream_manipulator flush = stream_manipulator::flush;
inline constexpr stream_manipulator dec = stream_manipulator::dec;
inline constexpr stream_manipulator hex = stream_manipulator::hex;
inline constexpr stream_manipulator oct = stream_manipulator::oct;
inline constexpr stream_manipulator noshowbase = stream_manipulator::noshowbase;
inline constexpr stream_manipulator showbase = stream_manipulator::showbase;
inline constexpr stream_manipulator noshowpos = stream_manipulator::noshowpos;
inline constexpr stream_manipulator showpos = stream_manipulator::showpos;
inline constexpr stream_manipulator endl = stream_manipulator::endl;
inline constexpr stream_manipulator fixed = stream_manipulator::fixed;
inline constexpr stream_manipulator scientific = stream_manipulator::scientific;
inline constexpr stream_manipulator hexfloat = stream_manipulator::hexfloat;
inline constexpr stream_manipulator defaultfloat = stream_manipulator::defaultfloat;

namespace detail {
struct precision_manipulator {
  int precision;
};
struct width_manipulator {
  int width;
};

// Formats into a work-item's slot; what does not fit is dropped and noted.
class stream_writer {
public:
  stream_writer(stream_control *control, stream_slot *slot, std::uint32_t capacity)
      : control_(control), slot_(slot), text_(reinterpret_cast<char *>(slot + 1)), capacity_(capacity) {}

  stream_slot &state() { return *slot_; }
  void put(char c) {
    if (slot_->fill < capacity_) text_[slot_->fill++] = c;
    else control_->truncated = 1;
  }
  void put(const char *s) {
    while (*s) put(*s++);
  }
  // Pads to the statement's width (right-aligned), then writes `text`.
  // (As C++ streams do, a width applies to the next value only.)
  void field(const char *text, std::uint32_t length) {
    for (std::int32_t pad = slot_->width - static_cast<std::int32_t>(length); pad > 0; --pad) put(' ');
    for (std::uint32_t i = 0; i < length; ++i) put(text[i]);
    slot_->width = 0;
  }
  // Appends the slot's text to the stream's buffer in one piece.
  void flush() {
    const std::uint32_t n = slot_->fill;
    slot_->fill = 0;
    if (n == 0) return;
    const std::uint32_t start = __atomic_fetch_add(&control_->used, n, __ATOMIC_RELAXED);
    std::uint32_t fits = start >= control_->capacity ? 0 : control_->capacity - start;
    if (fits < n) control_->truncated = 1;
    if (fits > n) fits = n;
    for (std::uint32_t i = 0; i < fits; ++i) control_->out[start + i] = text_[i];
  }

private:
  stream_control *control_;
  stream_slot *slot_;
  char *text_;
  std::uint32_t capacity_;
};

// Digits of `value` in `base` into `out` (backwards from `end`); returns the
// first character.
inline char *format_unsigned(unsigned long long value, unsigned base, char *end) {
  do {
    const unsigned digit = static_cast<unsigned>(value % base);
    *--end = static_cast<char>(digit < 10 ? '0' + digit : 'a' + digit - 10);
    value /= base;
  } while (value);
  return end;
}

// (Templates, so that a TU pays for them only when it streams: the writer is
// always stream_writer.)
template <typename Writer> void write_integer(Writer &w, unsigned long long magnitude, bool negative) {
  auto &s = w.state();
  const unsigned base = s.base ? s.base : 10;
  char buffer[72];
  char *end = buffer + sizeof(buffer);
  char *p = format_unsigned(magnitude, base, end);
  if (s.showbase && base == 16) {
    *--p = 'x';
    *--p = '0';
  } else if (s.showbase && base == 8 && magnitude != 0) *--p = '0';
  if (negative) *--p = '-';
  else if (s.showpos && base == 10) *--p = '+';
  w.field(p, static_cast<std::uint32_t>(end - p));
}

// 10^k (0 <= k < 512) from the powers 10^(2^i).
inline double power_of_ten(int k) {
  double result = 1;
  if (k & 1) result *= 1e1;
  if (k & 2) result *= 1e2;
  if (k & 4) result *= 1e4;
  if (k & 8) result *= 1e8;
  if (k & 16) result *= 1e16;
  if (k & 32) result *= 1e32;
  if (k & 64) result *= 1e64;
  if (k & 128) result *= 1e128;
  if (k & 256) result *= 1e256;
  return result;
}

// A floating-point value as C++ streams print it (std::defaultfloat with the
// precision as %g, fixed as %f, scientific as %e, hexfloat as %a), with
// at most 16 significant digits computed (further digits print as 0).
template <typename Writer> void write_floating(Writer &w, double value) {
  stream_slot &s = w.state();
  char buffer[400];
  std::uint32_t n = 0;
  auto add = [&](char c) {
    if (n < sizeof(buffer)) buffer[n++] = c;
  };
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  const bool negative = bits >> 63;
  if (negative) add('-');
  else if (s.showpos) add('+');
  double x = negative ? -value : value;
  if (x != x || x == __builtin_inf()) {
    for (const char *t = x != x ? "nan" : "inf"; *t; ++t) add(*t);
    w.field(buffer, n);
    return;
  }
  if (s.notation == 3) {  // hexfloat: 0x1.<13 hex digits, trailing zeros dropped>p<exponent>
    int exponent = static_cast<int>((bits >> 52) & 0x7ff);
    std::uint64_t mantissa = bits & ((std::uint64_t(1) << 52) - 1);
    const bool zero = exponent == 0 && mantissa == 0;
    int e = zero ? 0 : exponent == 0 ? -1022 : exponent - 1023;
    add('0');
    add('x');
    add(exponent == 0 ? '0' : '1');
    if (mantissa) {
      add('.');
      for (int shift = 48; shift >= 0 && mantissa; shift -= 4) {
        const unsigned digit = static_cast<unsigned>((mantissa >> shift) & 0xf);
        add(static_cast<char>(digit < 10 ? '0' + digit : 'a' + digit - 10));
        mantissa &= (std::uint64_t(1) << shift) - 1;
      }
    }
    add('p');
    add(e < 0 ? '-' : '+');
    char digits[8];
    for (char *p = format_unsigned(static_cast<unsigned long long>(e < 0 ? -e : e), 10, digits + 8); p < digits + 8;
         ++p)
      add(*p);
    w.field(buffer, n);
    return;
  }
  const int precision = s.precision <= 0 ? 6 : s.precision - 1;
  // x = d.ddd * 10^exponent: scaled by one power of 10 near the value's
  // (a few roundings, so 16 significant digits are right, not 17).
  int exponent = 0;
  if (x != 0) {
    const int binary = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
    int guess = static_cast<int>((binary < -1022 ? -1074 : binary) * 0.30102999566398120);
    if (guess > 0) x /= power_of_ten(guess);
    else if (guess < -300) x = x * power_of_ten(300) * power_of_ten(-guess - 300);
    else if (guess < 0) x *= power_of_ten(-guess);
    exponent = guess;
    while (x >= 10) x /= 10, ++exponent;
    while (x < 1) x *= 10, --exponent;
  }
  auto digitsFor = [&](int significant, unsigned long long &digits, int &e) {
    e = exponent;
    const int computed = significant < 1 ? 1 : significant > 16 ? 16 : significant;
    double scaled = x;
    for (int i = 1; i < computed; ++i) scaled *= 10;
    digits = static_cast<unsigned long long>(scaled);
    const double fraction = scaled - static_cast<double>(digits);
    if (fraction > 0.5 || (fraction == 0.5 && (digits & 1))) ++digits;  // to nearest, ties to even
    unsigned long long limit = 1;
    for (int i = 0; i < computed; ++i) limit *= 10;
    if (digits >= limit) {  // rounding carried into a new digit
      digits /= 10;
      ++e;
    }
    return computed;
  };
  // Writes the digit string `digits` (count of them) as d.ddd or ddd.ddd.
  auto emitFixed = [&](unsigned long long digits, int count, int e, int decimals, bool trimZeros) {
    char d[20];
    char *first = format_unsigned(digits, 10, d + 20);
    if (x == 0) count = 1;
    auto digitAt = [&](int position) -> char {  // position 0: the most significant digit (10^e)
      return position >= 0 && position < count && first + position < d + 20 ? first[position] : '0';
    };
    if (e < 0) add('0');
    for (int p = 0; p <= e; ++p) add(digitAt(p));
    int last = decimals;
    if (trimZeros)
      while (last > 0 && digitAt(e + last) == '0') --last;
    if (last > 0 || (decimals > 0 && !trimZeros)) add('.');
    for (int i = 1; i <= last; ++i) add(digitAt(e + i));
  };
  auto emitExponent = [&](int e) {
    add('e');
    add(e < 0 ? '-' : '+');
    const int magnitude = e < 0 ? -e : e;
    if (magnitude < 10) add('0');
    char d[8];
    for (char *p = format_unsigned(static_cast<unsigned long long>(magnitude), 10, d + 8); p < d + 8; ++p) add(*p);
  };
  unsigned long long digits = 0;
  int e = 0;
  if (s.notation == 1) {  // fixed: `precision` decimals
    const int count = digitsFor(exponent + 1 + precision, digits, e);
    if (exponent + 1 + precision < 1) {  // all digits round away (below half a unit of the last decimal)
      const bool up = exponent + 1 + precision == 0 && x >= 5;
      digits = up ? 1 : 0;
      e = up ? -precision : 0;
      emitFixed(digits, 1, e, precision, false);
    } else emitFixed(digits, count, e, precision, false);
  } else if (s.notation == 2) {  // scientific: d.<precision digits>e±XX
    const int count = digitsFor(precision + 1, digits, e);
    emitFixed(digits, count, 0, precision, false);
    emitExponent(x == 0 ? 0 : e);
  } else {  // default (%g)
    const int p = precision == 0 ? 1 : precision;
    const int count = digitsFor(p, digits, e);
    if (x == 0) e = 0;
    if (e < p && e >= -4) emitFixed(digits, count, e, p - 1 - e, true);
    else {
      emitFixed(digits, count, 0, p - 1, true);
      emitExponent(e);
    }
  }
  w.field(buffer, n);
}

template <typename T> constexpr bool is_multi_ptr_v = false;
template <typename T, access::address_space S, access::decorated D> constexpr bool is_multi_ptr_v<multi_ptr<T, S, D>> =
    true;
template <typename T> constexpr bool is_id_or_range_v = false;
template <int D> constexpr bool is_id_or_range_v<id<D>> = true;
template <int D> constexpr bool is_id_or_range_v<range<D>> = true;
template <typename T> constexpr bool is_item_v = false;
template <int D, bool O> constexpr bool is_item_v<item<D, O>> = true;
template <typename T> constexpr bool is_nd_item_v = false;
template <int D> constexpr bool is_nd_item_v<nd_item<D>> = true;
template <typename T> constexpr bool is_work_group_v = false;
template <int D> constexpr bool is_work_group_v<group<D>> = true;
template <typename T> constexpr bool is_nd_range_v = false;
template <int D> constexpr bool is_nd_range_v<nd_range<D>> = true;
template <typename T> constexpr bool is_h_item_v = false;
template <int D> constexpr bool is_h_item_v<h_item<D>> = true;

template <typename T> constexpr bool stream_integer_v = std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                                        !std::is_same_v<T, char> && !std::is_same_v<T, signed char> &&
                                                        !std::is_same_v<T, unsigned char>;
}  // namespace detail

namespace detail {
template <typename T> constexpr int stream_list_size() {
  if constexpr (is_vec_v<T>) return T::size();
  else return T::dimensions;
}
// Calls field(label, value) for each pair.
template <typename F> void write_pairs(F &) {}
template <typename F, typename Value, typename... Rest>
void write_pairs(F &field, const char *label, const Value &value, const Rest &...rest) {
  field(label, value);
  write_pairs(field, rest...);
}
// name(label: value, label: value, ...)
template <typename Stream, typename... Fields>
void write_labelled(const Stream &os, stream_writer &w, const char *name, const Fields &...fields) {
  w.put(name);
  w.put('(');
  bool first = true;
  auto field = [&](const char *label, const auto &value) {
    if (!first) w.put(", ");
    first = false;
    w.put(label);
    w.put(": ");
    os << value;
  };
  write_pairs(field, fields...);
  w.put(')');
}
}  // namespace detail

inline detail::precision_manipulator setprecision(int precision) { return {precision}; }
inline detail::width_manipulator setw(int width) { return {width}; }

class stream {
public:
  // The command group's device holds the stream's memory (errc::invalid for
  // a size over 4 GiB; with a size of 0 everything written is dropped).
  stream(std::size_t totalBufferSize, std::size_t workItemBufferSize, handler &cgh, const property_list &propList = {});

  std::size_t size() const noexcept { return total_; }
  [[deprecated("use size()")]] std::size_t get_size() const { return total_; }
  std::size_t get_work_item_buffer_size() const { return work_item_; }
  [[deprecated("use get_work_item_buffer_size()")]] std::size_t get_max_statement_size() const { return work_item_; }

  // No property of SYCL 2020 applies to a stream.
  template <typename Property> bool has_property() const noexcept { return false; }
  template <typename Property> Property get_property() const {
    throw exception(make_error_code(errc::invalid), "stream::get_property: a stream has no properties");
  }

  friend bool operator==(const stream &a, const stream &b) { return a.control_ == b.control_; }
  friend bool operator!=(const stream &a, const stream &b) { return !(a == b); }

  // In kernels: the work-item's place to format its statement.
  detail::stream_writer writer() const {
    detail::stream_control *c = control_;
    std::size_t linear = 0;
    for (std::uint32_t d = 0; d < c->dims; ++d)
      linear = linear * __onepass_get_global_range(static_cast<int>(d)) + __onepass_get_global_id(static_cast<int>(d));
    if (linear >= c->item_count) linear = c->item_count - 1;  // (never: the runtime counts them)
    auto *slot = reinterpret_cast<detail::stream_slot *>(c->items + linear * c->item_stride);
    return detail::stream_writer(c, slot, static_cast<std::uint32_t>(work_item_));
  }

private:
  friend struct std::hash<stream>;
  detail::stream_control *control_ = nullptr;
  std::size_t total_ = 0, work_item_ = 0;
};

inline stream::stream(std::size_t totalBufferSize, std::size_t workItemBufferSize, handler &cgh, const property_list &)
    : total_(totalBufferSize), work_item_(workItemBufferSize) {
  control_ = static_cast<detail::stream_control *>(cgh.add_stream(totalBufferSize, workItemBufferSize));
}

// §4.16.1 Table 139/140.
template <typename T> const stream &operator<<(const stream &os, const T &rhs) {
  detail::stream_writer w = os.writer();
  detail::stream_slot &s = w.state();
  if constexpr (std::is_same_v<T, stream_manipulator>) {
    switch (rhs) {
    case stream_manipulator::endl: w.put('\n'); [[fallthrough]];
    case stream_manipulator::flush: w.flush(); break;
    case stream_manipulator::dec: s.base = 0; break;
    case stream_manipulator::hex: s.base = 16; break;
    case stream_manipulator::oct: s.base = 8; break;
    case stream_manipulator::noshowbase: s.showbase = 0; break;
    case stream_manipulator::showbase: s.showbase = 1; break;
    case stream_manipulator::noshowpos: s.showpos = 0; break;
    case stream_manipulator::showpos: s.showpos = 1; break;
    case stream_manipulator::fixed: s.notation = 1; break;
    case stream_manipulator::scientific: s.notation = 2; break;
    case stream_manipulator::hexfloat: s.notation = 3; break;
    case stream_manipulator::defaultfloat: s.notation = 0; break;
    }
  } else if constexpr (std::is_same_v<T, detail::precision_manipulator>)
    s.precision = rhs.precision < 0 ? 0 : rhs.precision + 1;
  else if constexpr (std::is_same_v<T, detail::width_manipulator>) s.width = rhs.width;
  else if constexpr (std::is_same_v<T, bool>) {
    const char *text = rhs ? "true" : "false";
    w.field(text, rhs ? 4 : 5);
  } else if constexpr (std::is_same_v<T, char> || std::is_same_v<T, signed char> || std::is_same_v<T, unsigned char>) {
    const char c = static_cast<char>(rhs);
    w.field(&c, 1);
  } else if constexpr (std::is_same_v<T, std::byte>) {
    detail::write_integer(w, static_cast<unsigned long long>(rhs), false);
  } else if constexpr (detail::stream_integer_v<T>) {
    if constexpr (std::is_signed_v<T>) {
      const bool negative = rhs < 0 && (s.base == 0 || s.base == 10);
      const unsigned long long magnitude =
          negative ? 0ull - static_cast<unsigned long long>(rhs)
                   : static_cast<unsigned long long>(static_cast<std::make_unsigned_t<T>>(rhs));
      detail::write_integer(w, magnitude, negative);
    } else detail::write_integer(w, static_cast<unsigned long long>(rhs), false);
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, half>) {
    detail::write_floating(w, static_cast<double>(rhs));
  } else if constexpr (std::is_array_v<T> && std::is_same_v<std::remove_cv_t<std::remove_extent_t<T>>, char>) {
    for (std::size_t i = 0; i < std::extent_v<T> && rhs[i]; ++i) w.put(rhs[i]);
  } else if constexpr (std::is_pointer_v<T> && std::is_same_v<std::remove_cv_t<std::remove_pointer_t<T>>, char>) {
    w.put(rhs ? static_cast<const char *>(rhs) : "(null)");
  } else if constexpr (std::is_pointer_v<T>) {
    char buffer[24];
    char *end = buffer + sizeof(buffer);
    char *p = detail::format_unsigned(reinterpret_cast<std::uintptr_t>(rhs), 16, end);
    *--p = 'x';
    *--p = '0';
    w.field(p, static_cast<std::uint32_t>(end - p));
  } else if constexpr (detail::is_multi_ptr_v<T>) {
    os << static_cast<const void *>(rhs.get_raw());
  } else if constexpr (detail::is_vec_v<T> || detail::is_id_or_range_v<T>) {  // {a, b, c}
    w.put('{');
    for (int i = 0; i < detail::stream_list_size<T>(); ++i) {
      if (i) w.put(", ");
      if constexpr (detail::is_vec_v<T>) os << static_cast<typename T::element_type>(rhs[i]);
      else os << rhs[i];
    }
    w.put('}');
  } else if constexpr (detail::is_item_v<T>) {
    detail::write_labelled(os, w, "item", "range", rhs.get_range(), "id", rhs.get_id());
  } else if constexpr (detail::is_nd_item_v<T>) {
    detail::write_labelled(os, w, "nd_item", "global_id", rhs.get_global_id(), "local_id", rhs.get_local_id());
  } else if constexpr (detail::is_work_group_v<T>) {
    detail::write_labelled(os, w, "group", "id", rhs.get_group_id(), "range", rhs.get_group_range());
  } else if constexpr (detail::is_nd_range_v<T>) {
    detail::write_labelled(os, w, "nd_range", "global_range", rhs.get_global_range(), "local_range",
                           rhs.get_local_range(), "offset", rhs.get_offset());
  } else if constexpr (detail::is_h_item_v<T>) {
    detail::write_labelled(os, w, "h_item", "global_id", rhs.get_global_id(), "logical_local_id",
                           rhs.get_logical_local_id(), "physical_local_id", rhs.get_physical_local_id());
  } else static_assert(sizeof(T) == 0, "sycl::stream cannot output this type (SYCL 2020 §4.16.1, Table 139)");
  return os;
}

}  // namespace sycl

namespace std {
template <> struct hash<sycl::stream> {
  std::size_t operator()(const sycl::stream &s) const noexcept { return hash<const void *>()(s.control_); }
};
}  // namespace std
