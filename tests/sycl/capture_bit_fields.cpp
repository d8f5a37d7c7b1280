// Kernels capturing structs with bit-fields. OnePass passes the bytes that
// hold bit-fields as opaque integer chunks; bit-fields that share a byte with
// their neighbours (the usual case) must still arrive with every bit intact.
// Each kernel reads every member of the rebuilt object and writes it back.
// The captured objects are not const: a const object with a constant
// initializer would not be captured at all.
#include "check.h"

#include <sycl/sycl.hpp>

#include <string>

using onepass_test::checkEqual;

namespace {

// a and b share byte 0; b continues into byte 1.
struct shared_byte {
  unsigned a : 3;
  unsigned b : 13;
};

// Two halves of one byte.
struct nibbles {
  unsigned char low : 4;
  unsigned char high : 4;
};

// d starts inside byte 2 and runs to the end of the 8-byte unit.
struct spanning {
  unsigned a : 3;
  unsigned b : 13;
  int c : 7;
  unsigned long long d : 41;
};

// Bit-fields between ordinary members, a signed one holding a negative value.
struct between_members {
  char tag;
  unsigned flags : 5;
  int delta : 11;
  short after;
  unsigned wide : 20;
  double value;
};

void sharedByte(sycl::queue &q) {
  long long *out = sycl::malloc_shared<long long>(2, q);
  shared_byte v{5, 8000};
  q.single_task([=] {
     out[0] = v.a;
     out[1] = v.b;
   }).wait();
  checkEqual("shared_byte.a (3 bits)", 5LL, out[0]);
  checkEqual("shared_byte.b (13 bits)", 8000LL, out[1]);
  sycl::free(out, q);
}

void nibblePair(sycl::queue &q) {
  long long *out = sycl::malloc_shared<long long>(2, q);
  nibbles v{0xa, 0x5};
  q.single_task([=] {
     out[0] = v.low;
     out[1] = v.high;
   }).wait();
  checkEqual("nibbles.low", 0xaLL, out[0]);
  checkEqual("nibbles.high", 0x5LL, out[1]);
  sycl::free(out, q);
}

void spanningUnit(sycl::queue &q) {
  long long *out = sycl::malloc_shared<long long>(4, q);
  spanning v{6, 4097, -33, (1ULL << 40) + 12345};
  q.single_task([=] {
     out[0] = v.a;
     out[1] = v.b;
     out[2] = v.c;
     out[3] = static_cast<long long>(v.d);
   }).wait();
  checkEqual("spanning.a", 6LL, out[0]);
  checkEqual("spanning.b", 4097LL, out[1]);
  checkEqual("spanning.c (signed)", -33LL, out[2]);
  checkEqual("spanning.d (41 bits)", static_cast<long long>((1ULL << 40) + 12345), out[3]);
  sycl::free(out, q);
}

void betweenMembers(sycl::queue &q) {
  long long *out = sycl::malloc_shared<long long>(5, q);
  double *value = sycl::malloc_shared<double>(1, q);
  between_members v{};
  v.tag = 't';
  v.flags = 19;
  v.delta = -1000;
  v.after = -2;
  v.wide = 0xabcde;
  v.value = 0.75;
  q.single_task([=] {
     out[0] = v.tag;
     out[1] = v.flags;
     out[2] = v.delta;
     out[3] = v.after;
     out[4] = v.wide;
     *value = v.value;
   }).wait();
  checkEqual("between_members.tag", static_cast<long long>('t'), out[0]);
  checkEqual("between_members.flags", 19LL, out[1]);
  checkEqual("between_members.delta (signed)", -1000LL, out[2]);
  checkEqual("between_members.after", -2LL, out[3]);
  checkEqual("between_members.wide", 0xabcdeLL, out[4]);
  checkEqual("between_members.value", 0.75, *value);
  sycl::free(out, q);
  sycl::free(value, q);
}

// The whole object copied back as it is.
void wholeObject(sycl::queue &q) {
  spanning *out = sycl::malloc_shared<spanning>(1, q);
  spanning v{1, 8191, 63, 0x1ffffffffffULL};
  q.single_task([=] { *out = v; }).wait();
  checkEqual("whole spanning.a", 1u, static_cast<unsigned>(out->a));
  checkEqual("whole spanning.b", 8191u, static_cast<unsigned>(out->b));
  checkEqual("whole spanning.c", 63, static_cast<int>(out->c));
  checkEqual("whole spanning.d", 0x1ffffffffffULL, static_cast<unsigned long long>(out->d));
  sycl::free(out, q);
}

}  // namespace

int main() {
  sycl::queue q;
  onepass_test::runPart("bit-fields sharing a byte", [&] { sharedByte(q); });
  onepass_test::runPart("nibbles", [&] { nibblePair(q); });
  onepass_test::runPart("bit-field spanning bytes", [&] { spanningUnit(q); });
  onepass_test::runPart("bit-fields between members", [&] { betweenMembers(q); });
  onepass_test::runPart("whole object with bit-fields", [&] { wholeObject(q); });
  return onepass_test::report();
}
