// sycl::reduction beyond 4- and 8-byte arithmetic types (SYCL 2020 §4.9.2:
// any trivially copyable type): bool and sycl::half (no atomic of their
// size: the groups' values are combined by the last group to finish), a
// 12-byte struct, a combiner with no known identity (reducers that hold no
// value until their first combine), and span (array) reductions with
// reducer::operator[] (§4.9.2.3), over range and nd_range kernels with many
// work-groups.
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstdint>

using onepass_test::checkEqual;

namespace {

// 12 bytes, no known identity for plus.
struct triple {
  int a, b, c;
  friend triple operator+(const triple &x, const triple &y) { return {x.a + y.a, x.b + y.b, x.c + y.c}; }
};
// A user's combiner with no known identity.
struct add_ints {
  int operator()(int x, int y) const { return x + y; }
};
// Keeps the value of larger magnitude (no identity; 2 bytes).
struct larger_short {
  short operator()(short x, short y) const { return (x < 0 ? -x : x) < (y < 0 ? -y : y) ? y : x; }
};

void boolAndHalf(sycl::queue &q) {
  constexpr std::size_t n = 70001;  // 274 groups of 256 over a range
  bool *flags = sycl::malloc_shared<bool>(3, q);
  flags[0] = true;   // all of the values are true: stays true
  flags[1] = false;  // one of them is: becomes true
  flags[2] = true;   // replaced (initialize_to_identity), then one false
  q.parallel_for(
       sycl::range<1>(n), sycl::reduction(&flags[0], sycl::logical_and<bool>()),
       sycl::reduction(&flags[1], sycl::logical_or<bool>()),
       sycl::reduction(&flags[2], sycl::logical_and<bool>(), sycl::property::reduction::initialize_to_identity()),
       [=](sycl::id<1> i, auto &all, auto &any, auto &allButOne) {
         all.combine(i[0] < n);
         any.combine(i[0] == n - 7);
         allButOne.combine(i[0] != 12345);
       })
      .wait_and_throw();
  checkEqual("bool logical_and over a range", true, flags[0]);
  checkEqual("bool logical_or over a range", true, flags[1]);
  checkEqual("bool logical_and with initialize_to_identity", false, flags[2]);

  sycl::free(flags, q);

  // (Sums and maxima of halves: arithmetic in half, aspect::fp16.)
  onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "half reductions", [&] {
    sycl::half *halves = sycl::malloc_shared<sycl::half>(2, q);
    halves[0] = 3.0f;
    halves[1] = 0.0f;
    constexpr std::size_t groups = 50, size = 64;
    q.parallel_for(sycl::nd_range<1>(groups * size, size), sycl::reduction(&halves[0], sycl::plus<sycl::half>()),
                   sycl::reduction(&halves[1], sycl::maximum<sycl::half>()),
                   [=](sycl::nd_item<1> it, auto &sum, auto &high) {
                     sum += sycl::half(it.get_global_id(0) % 2 == 0 ? 0.5f : 0.0f);  // 1600 halves
                     high.combine(sycl::half(static_cast<float>(it.get_group(0))));
                   })
        .wait_and_throw();
    checkEqual("half sum over an nd_range (exact in half)", 803.0f, static_cast<float>(halves[0]));
    checkEqual("half maximum over an nd_range", 49.0f, static_cast<float>(halves[1]));
    sycl::free(halves, q);
  });
}

void structsAndNoIdentity(sycl::queue &q) {
  constexpr std::size_t n = 100000;
  triple *sum = sycl::malloc_shared<triple>(1, q);
  *sum = {1, 2, 3};
  q.parallel_for(sycl::range<1>(n), sycl::reduction(sum, sycl::plus<triple>()), [=](sycl::id<1> i, auto &s) {
     s += triple{1, static_cast<int>(i[0] % 3), -1};
   }).wait_and_throw();
  checkEqual("12-byte struct sum, no known identity: a", 1 + static_cast<int>(n), sum->a);
  checkEqual("12-byte struct sum, no known identity: b", 2 + 99999, sum->b);
  checkEqual("12-byte struct sum, no known identity: c", 3 - static_cast<int>(n), sum->c);

  // A 4-byte user combiner without identity (atomic compare-and-swap), where
  // only a few work-items combine: most groups hold no value.
  int *ints = sycl::malloc_shared<int>(1, q);
  *ints = 100;
  q.parallel_for(sycl::range<1>(n), sycl::reduction(ints, add_ints()), [=](sycl::id<1> i, auto &r) {
     if (i[0] % 10007 == 0) r.combine(static_cast<int>(i[0]));
   }).wait_and_throw();
  checkEqual("identity-less int combiner, few work-items combine",
             100 + 10007 * (0 + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9), *ints);

  // No work-item combines: the value stays.
  short *shorts = sycl::malloc_shared<short>(1, q);
  *shorts = -5;
  q.parallel_for(sycl::nd_range<1>(4096, 128), sycl::reduction(shorts, larger_short()), [=](sycl::nd_item<1>, auto &) {
   }).wait_and_throw();
  checkEqual("identity-less 2-byte combiner, nothing combined: the value stays", static_cast<short>(-5), *shorts);
  q.parallel_for(sycl::nd_range<1>(4096, 128), sycl::reduction(shorts, larger_short()),
                 [=](sycl::nd_item<1> it, auto &r) {
                   if (it.get_global_id(0) == 3000) r.combine(-300);
                   if (it.get_global_id(0) == 17) r.combine(200);
                 })
      .wait_and_throw();
  checkEqual("identity-less 2-byte combiner over groups", static_cast<short>(-300), *shorts);

  // A buffer reduction with no known identity.
  sycl::buffer<int> total{sycl::range<1>(1)};
  {
    sycl::host_accessor t(total);
    t[0] = 7;
  }
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::range<1>(1000), sycl::reduction(total, h, add_ints()),
                   [=](sycl::id<1>, auto &r) { r.combine(2); });
  });
  checkEqual("buffer reduction, identity-less combiner", 2007, sycl::host_accessor(total)[0]);
  sycl::free(sum, q);
  sycl::free(ints, q);
  sycl::free(shorts, q);
}

void spans(sycl::queue &q) {
  constexpr std::size_t n = 30000, bins = 5;
  int *histogram = sycl::malloc_shared<int>(bins, q);
  for (std::size_t b = 0; b < bins; ++b) histogram[b] = 1;
  sycl::span<int, bins> counts(histogram, bins);
  q.parallel_for(sycl::range<1>(n), sycl::reduction(counts, sycl::plus<int>()), [=](sycl::id<1> i, auto &r) {
     r[i[0] % bins] += 1;
     ++r[0];
   }).wait_and_throw();
  checkEqual("span reduction (plus): bin 0", 1 + static_cast<int>(n / bins) + static_cast<int>(n), histogram[0]);
  for (std::size_t b = 1; b < bins; ++b)
    checkEqual("span reduction (plus): bin " + std::to_string(b), 1 + static_cast<int>(n / bins), histogram[b]);

  // A span of bools without atomics, with initialize_to_identity, over an nd_range.
  bool *seen = sycl::malloc_shared<bool>(4, q);
  for (int b = 0; b < 4; ++b) seen[b] = true;
  q.parallel_for(sycl::nd_range<1>(1024, 32),
                 sycl::reduction(sycl::span<bool, 4>(seen, 4), sycl::logical_or<bool>(),
                                 sycl::property::reduction::initialize_to_identity()),
                 [=](sycl::nd_item<1> it, auto &r) {
                   static_assert(std::remove_reference_t<decltype(r)>::dimensions == 1);
                   r[it.get_global_id(0) % 3].combine(it.get_global_id(0) == 1000 || it.get_global_id(0) == 2);
                 })
      .wait_and_throw();
  checkEqual("span<bool> logical_or: element 0", false, seen[0]);
  checkEqual("span<bool> logical_or: element 1 (1000 % 3)", true, seen[1]);
  checkEqual("span<bool> logical_or: element 2", true, seen[2]);
  checkEqual("span<bool> logical_or: element 3, never combined: the identity", false, seen[3]);

  // A span of 6 with a given identity and a user's combiner (a compare-and-swap
  // per element), small ranges: every element, not just the first and last.
  int *six = sycl::malloc_shared<int>(6, q);
  for (int e = 0; e < 6; ++e) six[e] = 6 + e;
  q.parallel_for(sycl::nd_range<1>(4, 4), sycl::reduction(sycl::span<int, 6>(six, 6), 0, add_ints()),
                 [=](sycl::nd_item<1> it, auto &r) {
                   for (int e = 0; e < 6; ++e) r[e].combine(static_cast<int>(it.get_global_id(0)) * (e + 1));
                 })
      .wait_and_throw();
  for (int e = 0; e < 6; ++e)
    checkEqual("span<int, 6> of a user's combiner: element " + std::to_string(e), 6 + e + 6 * (e + 1), six[e]);
  sycl::free(six, q);

  // A span with a given identity and a user's combiner.
  long long *wide = sycl::malloc_shared<long long>(2, q);
  wide[0] = 10;
  wide[1] = 20;
  q.parallel_for(sycl::range<1>(n), sycl::reduction(sycl::span<long long, 2>(wide, 2), 0LL, sycl::plus<long long>()),
                 [=](sycl::id<1> i, auto &r) {
                   r[0].combine(static_cast<long long>(i[0]));
                   r[1].combine(1);
                 })
      .wait_and_throw();
  checkEqual("span<long long> with identity: element 0", 10 + static_cast<long long>(n * (n - 1) / 2), wide[0]);
  checkEqual("span<long long> with identity: element 1", 20 + static_cast<long long>(n), wide[1]);
  sycl::free(histogram, q);
  sycl::free(seen, q);
  sycl::free(wide, q);
}

void reducerApi(sycl::queue &q) {
  int *out = sycl::malloc_shared<int>(2, q);
  out[0] = 0;
  out[1] = 4;
  int *identities = sycl::malloc_shared<int>(2, q);
  q.parallel_for(sycl::range<1>(1), sycl::reduction(&out[0], sycl::bit_and<int>()),
                 sycl::reduction(&out[1], 0, add_ints()),
                 [=](sycl::id<1>, auto &all, auto &given) {
                   identities[0] = all.identity();
                   identities[1] = given.identity();
                   all &= 1;
                   given.combine(3);
                 })
      .wait_and_throw();
  checkEqual("reducer::identity() of bit_and<int>", ~0, identities[0]);
  checkEqual("reducer::identity() of a given identity", 0, identities[1]);
  checkEqual("given identity: the value combined", 7, out[1]);
  sycl::free(out, q);
  sycl::free(identities, q);

  bool threw = false;
  int value = 0;
  try {
    (void)sycl::reduction(&value, add_ints(), sycl::property::reduction::initialize_to_identity());
  } catch (const sycl::exception &e) {
    threw = e.code() == sycl::errc::invalid;
  }
  checkEqual("initialize_to_identity without any identity throws errc::invalid", true, threw);
}

}  // namespace

int main() {
  sycl::queue q;
  std::printf("reduction types on '%s'\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  boolAndHalf(q);
  structsAndNoIdentity(q);
  spans(q);
  reducerApi(q);
  return onepass_test::report();
}
