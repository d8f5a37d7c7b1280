// single_task kernels and the values they capture. OnePass passes a kernel
// object to the device as its flattened fields (one scalar parameter per
// field, padding dropped) and rebuilds the object there; every captured
// value is written back to USM and compared here, bit for bit where a float
// could hide a difference (-0.0, NaN payloads, denormals). Bit-fields have a
// test of their own: capture_bit_fields.cpp.
#include "check.h"

#include <sycl/sycl.hpp>

#include <array>
#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

using onepass_test::check;
using onepass_test::checkEqual;

namespace {

enum plain_color { red = 3, green = 1000000 };
enum class small_code : std::uint8_t { low = 7, high = 250 };
enum class wide_code : std::int64_t { negative = -5000000000LL, positive = 5000000001LL };

template <typename T> bool sameBits(const T &a, const T &b) {
  static_assert(std::is_floating_point_v<T>);
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Padding after c, s, b and at the end.
struct mixed {
  char c;
  double d;
  short s;
  int i;
  bool b;
  float f;
  friend bool operator==(const mixed &x, const mixed &y) {
    return x.c == y.c && sameBits(x.d, y.d) && x.s == y.s && x.i == y.i && x.b == y.b && sameBits(x.f, y.f);
  }
};

struct with_array {
  int values[5];
  char tag;
  friend bool operator==(const with_array &x, const with_array &y) {
    return std::memcmp(x.values, y.values, sizeof x.values) == 0 && x.tag == y.tag;
  }
};

// More elements than OnePass flattens one by one: passed as opaque chunks.
struct big_array {
  std::int32_t values[100];
  friend bool operator==(const big_array &x, const big_array &y) {
    return std::memcmp(x.values, y.values, sizeof x.values) == 0;
  }
};

struct base_part {
  short b1;
  double b2;
};
struct derived : base_part {
  char d1;
  int d2;
  friend bool operator==(const derived &x, const derived &y) {
    return x.b1 == y.b1 && sameBits(x.b2, y.b2) && x.d1 == y.d1 && x.d2 == y.d2;
  }
};

union float_or_bits {
  float f;
  std::uint32_t bits;
};

struct nested {
  mixed m;
  with_array w;
  char last;
  friend bool operator==(const nested &x, const nested &y) { return x.m == y.m && x.w == y.w && x.last == y.last; }
};

// Copies `value` into a kernel, has the kernel write it back, compares.
template <typename T> void roundTrip(sycl::queue &q, const std::string &what, const T &value) {
  T *out = sycl::malloc_shared<T>(1, q);
  std::memset(static_cast<void *>(out), 0x5a, sizeof(T));
  q.single_task([=] { *out = value; }).wait();
  if (!(*out == value)) onepass_test::fail("round trip of " + what, "the captured value", "a different value");
  sycl::free(out, q);
}

// The same, with a char captured first and one last, so the value sits at an
// offset that needs padding in the kernel object.
template <typename T> void roundTripPadded(sycl::queue &q, const std::string &what, const T &value) {
  struct result {
    char before;
    T value;
    char after;
  };
  result *out = sycl::malloc_shared<result>(1, q);
  char before = 'B', after = 'A';  // not const: a const char would not be captured
  q.single_task([=] {
     out->before = before;
     out->value = value;
     out->after = after;
   }).wait();
  checkEqual("padded round trip of " + what + ": char before", 'B', out->before);
  checkEqual("padded round trip of " + what + ": char after", 'A', out->after);
  if (!(out->value == value))
    onepass_test::fail("padded round trip of " + what, "the captured value", "a different value");
  sycl::free(out, q);
}

template <typename T> struct float_bits {
  T value;
  friend bool operator==(const float_bits &x, const float_bits &y) { return sameBits(x.value, y.value); }
};

// Everything at once in one lambda: the order and offsets of many fields.
// The captured variables are not const: a const variable with a constant
// initializer is not odr-used by the lambda, so it would not be captured.
struct all_values {
  char c;
  signed char sc;
  unsigned char uc;
  short s;
  unsigned short us;
  int i;
  unsigned u;
  long l;
  unsigned long ul;
  long long ll;
  float f;
  double d;
  bool t, fa;
  plain_color color;
  small_code code;
  wide_code wide;
  mixed m;
  with_array w;
  std::array<float, 4> quad;
  int *pointer;
  const double *null_pointer;
  float_or_bits u_bits;
  derived der;
  sycl::range<3> range;
  sycl::id<2> id;
  float array_sum;
};

void captureEverything(sycl::queue &q) {
  char c = -128;
  signed char sc = -7;
  unsigned char uc = 255;
  short s = SHRT_MIN;
  unsigned short us = 65535;
  int i = INT_MIN + 1;
  unsigned u = 0xdeadbeefu;
  long l = LONG_MIN;
  unsigned long ul = ULONG_MAX - 1;
  long long ll = -1234567890123456789LL;
  float f = -0.0f;
  double d = std::numeric_limits<double>::denorm_min();
  bool t = true, fa = false;
  plain_color color = green;
  small_code code = small_code::high;
  wide_code wide = wide_code::negative;
  mixed m{'m', 2.5, -300, 77777, true, 1.25f};
  with_array w{{1, -2, 3, -4, 5}, 'w'};
  std::array<float, 4> quad{0.5f, -1.5f, 1e30f, 3.0f};
  int *target = sycl::malloc_shared<int>(1, q);
  *target = 0;
  int *pointer = target;
  const double *null_pointer = nullptr;
  float_or_bits u_bits;
  u_bits.bits = 0x7fc00123u;  // a quiet NaN with a payload
  derived der;
  der.b1 = -9;
  der.b2 = 6.0221e23;
  der.d1 = 'd';
  der.d2 = -424242;
  sycl::range<3> range(3, 1000000007ULL, 5);
  sycl::id<2> id(11, 13);

  all_values *out = sycl::malloc_shared<all_values>(1, q);
  std::memset(static_cast<void *>(out), 0, sizeof(all_values));
  q.single_task([=] {
     out->c = c;
     out->sc = sc;
     out->uc = uc;
     out->s = s;
     out->us = us;
     out->i = i;
     out->u = u;
     out->l = l;
     out->ul = ul;
     out->ll = ll;
     out->f = f;
     out->d = d;
     out->t = t;
     out->fa = fa;
     out->color = color;
     out->code = code;
     out->wide = wide;
     out->m = m;
     out->w = w;
     out->quad = quad;
     out->pointer = pointer;
     out->null_pointer = null_pointer;
     out->u_bits = u_bits;
     out->der = der;
     out->range = range;
     out->id = id;
     float sum = 0;
     for (float x : quad) sum += x;
     out->array_sum = sum;
     *pointer = 42;  // writes through the captured pointer
   }).wait();

  checkEqual("char", c, out->c);
  checkEqual("signed char", sc, out->sc);
  checkEqual("unsigned char", uc, out->uc);
  checkEqual("short", s, out->s);
  checkEqual("unsigned short", us, out->us);
  checkEqual("int", i, out->i);
  checkEqual("unsigned", u, out->u);
  checkEqual("long", l, out->l);
  checkEqual("unsigned long", ul, out->ul);
  checkEqual("long long", ll, out->ll);
  check("float -0.0 bits", sameBits(f, out->f));
  check("double denorm_min bits", sameBits(d, out->d));
  checkEqual("bool true", t, out->t);
  checkEqual("bool false", fa, out->fa);
  checkEqual("unscoped enum", color, out->color);
  checkEqual("enum class : uint8_t", code, out->code);
  checkEqual("enum class : int64_t", wide, out->wide);
  checkEqual("mixed.c", m.c, out->m.c);
  checkEqual("mixed.d", m.d, out->m.d);
  checkEqual("mixed.s", m.s, out->m.s);
  checkEqual("mixed.i", m.i, out->m.i);
  checkEqual("mixed.b", m.b, out->m.b);
  checkEqual("mixed.f", m.f, out->m.f);
  for (int k = 0; k < 5; ++k) checkEqual("with_array.values[" + std::to_string(k) + "]", w.values[k], out->w.values[k]);
  checkEqual("with_array.tag", w.tag, out->w.tag);
  for (int k = 0; k < 4; ++k) checkEqual("std::array<float, 4>[" + std::to_string(k) + "]", quad[k], out->quad[k]);
  checkEqual("sum over the captured std::array", 0.5f - 1.5f + 1e30f + 3.0f, out->array_sum);
  checkEqual("pointer", pointer, out->pointer);
  checkEqual("null pointer", null_pointer, out->null_pointer);
  checkEqual("value written through the captured pointer", 42, *target);
  checkEqual("union bits", u_bits.bits, out->u_bits.bits);
  checkEqual("derived base b1", der.b1, out->der.b1);
  checkEqual("derived base b2", der.b2, out->der.b2);
  checkEqual("derived d1", der.d1, out->der.d1);
  checkEqual("derived d2", der.d2, out->der.d2);
  for (int k = 0; k < 3; ++k) checkEqual("range<3>[" + std::to_string(k) + "]", range[k], out->range[k]);
  for (int k = 0; k < 2; ++k) checkEqual("id<2>[" + std::to_string(k) + "]", id[k], out->id[k]);
  sycl::free(out, q);
  sycl::free(target, q);
}

// A single_task that writes several values of its own.
void writeSeveral(sycl::queue &q) {
  long *out = sycl::malloc_shared<long>(4, q);
  double *real = sycl::malloc_shared<double>(1, q);
  q.single_task([=] {
     out[0] = 1;
     out[1] = -2;
     out[2] = 1L << 40;
     long sum = 0;
     for (int k = 1; k <= 100; ++k) sum += k;
     out[3] = sum;
     *real = 0.1 + 0.2;
   }).wait();
  checkEqual("single_task out[0]", 1L, out[0]);
  checkEqual("single_task out[1]", -2L, out[1]);
  checkEqual("single_task out[2]", 1L << 40, out[2]);
  checkEqual("single_task out[3] (sum 1..100)", 5050L, out[3]);
  checkEqual("single_task double 0.1 + 0.2", 0.1 + 0.2, *real);
  sycl::free(out, q);
  sycl::free(real, q);
}

// Each type alone, and again between two chars.
void roundTrips(sycl::queue &q) {
  roundTrip(q, "char", static_cast<char>(-3));
  roundTrip(q, "short", static_cast<short>(-31000));
  roundTrip(q, "int", -2147483647);
  roundTrip(q, "long", static_cast<long>(-9000000000000000000LL));
  roundTrip(q, "bool", true);
  roundTrip(q, "unscoped enum", red);
  roundTrip(q, "enum class : uint8_t", small_code::low);
  roundTrip(q, "float", float_bits<float>{std::numeric_limits<float>::denorm_min()});
  roundTrip(q, "double", float_bits<double>{-std::numeric_limits<double>::infinity()});
  roundTrip(q, "mixed", mixed{'x', -0.0, 12, -5, false, 3.5f});
  roundTrip(q, "with_array", with_array{{9, 8, 7, 6, 5}, 'z'});
  big_array big{};
  for (int k = 0; k < 100; ++k) big.values[k] = k * k - 5000;
  roundTrip(q, "big_array (100 ints)", big);
  roundTrip(q, "std::array<float, 4>", std::array<float, 4>{1.0f, 2.0f, -3.0f, 4.5f});
  roundTrip(q, "nested", nested{mixed{'n', 1e-300, -1, 2, true, -0.25f}, with_array{{1, 2, 3, 4, 5}, 'q'}, 'L'});
  int local = 0;
  roundTrip(q, "pointer", &local);

  roundTripPadded(q, "short", static_cast<short>(12345));
  roundTripPadded(q, "int", 0x12345678);
  roundTripPadded(q, "long long", -1LL);
  roundTripPadded(q, "double", float_bits<double>{3.141592653589793});
  roundTripPadded(q, "mixed", mixed{'p', 2.0, 3, 4, true, 5.0f});
  roundTripPadded(q, "std::array<float, 4>", std::array<float, 4>{-1.0f, 0.0f, 1.0f, 2.0f});
  roundTripPadded(q, "derived", [] {
    derived der;
    der.b1 = 1;
    der.b2 = 2.0;
    der.d1 = 3;
    der.d2 = 4;
    return der;
  }());
  roundTripPadded(q, "pointer", static_cast<const void *>(&local));
}

// A noexcept function calling one that may throw: clang emits an invoke with
// a terminate landing pad, which the device module must turn into a call.
struct counter {
  int value = 0;
  int next() { return value += 3; }
  int nextNoexcept() noexcept { return next() + 1; }
};

void noexceptCalls(sycl::queue &q) {
  int *out = sycl::malloc_shared<int>(1, q);
  q.single_task([=] {
     counter c;
     c.nextNoexcept();
     *out = c.nextNoexcept();
   }).wait();
  checkEqual("noexcept function calling a potentially-throwing one", 7, *out);
  sycl::free(out, q);
}

}  // namespace

int main() {
  sycl::queue q;
  onepass_test::runPart("noexcept calls", [&] { noexceptCalls(q); });
  onepass_test::runPart("single_task writing several values", [&] { writeSeveral(q); });
  onepass_test::runPart("one kernel capturing everything", [&] { captureEverything(q); });
  onepass_test::runPart("round trips", [&] { roundTrips(q); });
  return onepass_test::report();
}
