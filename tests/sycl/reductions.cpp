// sycl::reduction (SYCL 2020 §4.9.2): over USM pointers and buffers, with
// range and nd_range kernels, known and given identities, operations with
// an atomic form and without (a compare-and-swap loop), several reductions
// in one kernel, initialize_to_identity, and empty ranges. Sizes are not
// multiples of the group size; sums of small integers are exact in float.
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstdlib>

using onepass_test::checkEqual;

namespace {

// Not one of SYCL's function objects: combined with compare-and-swap.
struct larger_magnitude {
  long long operator()(long long a, long long b) const { return std::llabs(a) < std::llabs(b) ? b : a; }
};

void usmReductions(sycl::queue &q) {
  constexpr std::size_t n = 100003;
  int *ints = sycl::malloc_shared<int>(n, q);
  for (std::size_t i = 0; i < n; ++i) ints[i] = static_cast<int>(i % 1000) - 400;
  long long expectedSum = 0;
  int expectedMin = 1 << 30;
  for (std::size_t i = 0; i < n; ++i) {
    expectedSum += ints[i];
    expectedMin = std::min(expectedMin, ints[i]);
  }

  auto *results = sycl::malloc_shared<long long>(4, q);
  results[0] = 5;       // combined with the result (no initialize_to_identity)
  results[1] = 123456;  // replaced (initialize_to_identity)
  q.parallel_for(sycl::range<1>(n), sycl::reduction(&results[0], sycl::plus<long long>()),
                 [=](sycl::id<1> i, auto &sum) { sum += ints[i]; })
      .wait_and_throw();
  checkEqual("sum into a value of 5", 5 + expectedSum, results[0]);
  q.parallel_for(
       sycl::range<1>(n),
       sycl::reduction(&results[1], sycl::plus<long long>(), sycl::property::reduction::initialize_to_identity()),
       [=](sycl::id<1> i, auto &sum) { sum.combine(ints[i]); })
      .wait_and_throw();
  checkEqual("sum with initialize_to_identity", expectedSum, results[1]);

  // Two reductions in one kernel, one with a given identity, one with a
  // non-atomic operation.
  int *minimum = sycl::malloc_shared<int>(1, q);
  *minimum = 1 << 30;
  results[2] = 0;
  q.parallel_for(sycl::range<1>(n), sycl::reduction(minimum, 1 << 30, sycl::minimum<int>()),
                 sycl::reduction(&results[2], 0LL, larger_magnitude()),
                 [=](sycl::item<1> it, auto &low, auto &magnitude) {
                   low.combine(ints[it.get_id(0)]);
                   magnitude.combine(static_cast<long long>(ints[it]) * 3);
                 })
      .wait_and_throw();
  checkEqual("minimum (given identity) beside another reduction", expectedMin, *minimum);
  checkEqual("a compare-and-swap reduction (largest magnitude)", 599LL * 3, results[2]);

  // float and double, 2-D range.
  float *floatSum = sycl::malloc_shared<float>(1, q);
  double *doubleMax = sycl::malloc_shared<double>(1, q);
  *floatSum = 0;
  *doubleMax = -1;
  q.parallel_for(sycl::range<2>(301, 7), sycl::reduction(floatSum, sycl::plus<float>()),
                 sycl::reduction(doubleMax, sycl::maximum<double>()),
                 [=](sycl::id<2> i, auto &sum, auto &high) {
                   sum += 1.0f;
                   high.combine(static_cast<double>(i[0] * 10 + i[1]) * 0.5);
                 })
      .wait_and_throw();
  checkEqual("float sum over a 2-D range", 301.0f * 7.0f, *floatSum);
  checkEqual("double maximum over a 2-D range", (300.0 * 10 + 6) * 0.5, *doubleMax);

  // An empty range: the value stays; with initialize_to_identity it becomes the identity.
  results[3] = 42;
  q.parallel_for(sycl::range<1>(0), sycl::reduction(&results[3], sycl::plus<long long>()), [=](sycl::id<1>, auto &sum) {
     sum += 1;
   }).wait_and_throw();
  checkEqual("empty range: the value stays", 42LL, results[3]);
  unsigned *bits = sycl::malloc_shared<unsigned>(1, q);
  *bits = 77;
  q.parallel_for(sycl::range<1>(0),
                 sycl::reduction(bits, sycl::bit_and<unsigned>(), sycl::property::reduction::initialize_to_identity()),
                 [=](sycl::id<1>, auto &all) { all &= 0u; })
      .wait_and_throw();
  checkEqual("empty range with initialize_to_identity: the identity", ~0u, *bits);
  sycl::free(ints, q);
  sycl::free(results, q);
  sycl::free(minimum, q);
  sycl::free(floatSum, q);
  sycl::free(doubleMax, q);
  sycl::free(bits, q);
}

void ndRangeReduction(sycl::queue &q) {
  // Work-groups of 100 (not a power of two).
  constexpr std::size_t groups = 37, size = 100;
  int *count = sycl::malloc_shared<int>(1, q);
  unsigned *bits = sycl::malloc_shared<unsigned>(1, q);
  *count = 0;
  *bits = 0;
  q.parallel_for(sycl::nd_range<1>(groups * size, size), sycl::reduction(count, sycl::plus<int>()),
                 sycl::reduction(bits, sycl::bit_or<unsigned>()),
                 [=](sycl::nd_item<1> it, auto &c, auto &b) {
                   ++c;
                   b |= 1u << (it.get_group(0) % 32);
                 })
      .wait_and_throw();
  checkEqual("nd_range reduction: count of work-items", static_cast<int>(groups * size), *count);
  checkEqual("nd_range reduction: bit_or of the groups' bits", ~0u, *bits);
  sycl::free(count, q);
  sycl::free(bits, q);
}

void bufferReductions(sycl::queue &q) {
  constexpr std::size_t n = 5000;
  sycl::buffer<double, 1> total(sycl::range<1>(1)), product(sycl::range<1>(1));
  {
    sycl::host_accessor t(total), p(product);
    t[0] = 1000.0;
    p[0] = 99.0;
  }
  q.submit([&](sycl::handler &h) {
    h.parallel_for(
        sycl::range<1>(n), sycl::reduction(total, h, sycl::plus<double>()),
        sycl::reduction(product, h, sycl::multiplies<double>(), sycl::property::reduction::initialize_to_identity()),
        [=](sycl::id<1> i, auto &sum, auto &prod) {
          sum += static_cast<double>(i[0]);
          if (i[0] % 1000 == 0) prod *= 2.0;
        });
  });
  sycl::host_accessor t(total), p(product);
  checkEqual("buffer reduction: sum added to the buffer's value", 1000.0 + n * (n - 1) / 2.0, t[0]);
  checkEqual("buffer reduction with initialize_to_identity: product", 32.0, p[0]);

  // On a GPU the groups' values of a buffer reduction are combined by a host
  // task into the buffer's host copy (reduction_kernel.hpp): a value a kernel
  // left on the device is the start, back-to-back reductions see each
  // other's results, and a kernel after them reads the last on the device.
  sycl::buffer<int, 1> count(sycl::range<1>(1)), seen(sycl::range<1>(1));
  q.submit([&](sycl::handler &h) {
    sycl::accessor c(count, h, sycl::write_only, sycl::no_init);
    h.single_task([=] { c[0] = 5; });
  });
  constexpr int rounds = 20;
  for (int r = 0; r < rounds; ++r)
    q.submit([&](sycl::handler &h) {
      h.parallel_for(sycl::range<1>(n), sycl::reduction(count, h, sycl::plus<int>()),
                     [=](sycl::id<1>, auto &sum) { sum += 1; });
    });
  q.submit([&](sycl::handler &h) {
    sycl::accessor c(count, h, sycl::read_only);
    sycl::accessor o(seen, h, sycl::write_only, sycl::no_init);
    h.single_task([=] { o[0] = c[0] * 2; });
  });
  sycl::host_accessor counted(count), doubled(seen);
  checkEqual("20 buffer reductions after a kernel's write", 5 + rounds * static_cast<int>(n), counted[0]);
  checkEqual("a kernel reading the buffer after them", 2 * (5 + rounds * static_cast<int>(n)), doubled[0]);
}

// Targets in host or shared USM: on a GPU the kernel combines into a cell of
// device memory, copied to the target after it (reduction_kernel.hpp). The
// event a submission returns covers that copy; back-to-back reductions
// into one target, on an in-order queue and chained by events on an
// out-of-order one, each start from the last one's result; only the
// target's bytes are written.
void cellReductions(sycl::queue &q) {
  constexpr std::size_t n = 4099;
  constexpr int rounds = 40;
  int *ones = sycl::malloc_device<int>(n, q);
  q.fill(ones, 1, n).wait();

  sycl::queue ordered(q.get_device(), sycl::property::queue::in_order());
  long long *line = sycl::malloc_shared<long long>(3, ordered);
  line[0] = -1;
  line[1] = 7;
  line[2] = -2;
  for (int r = 0; r < rounds; ++r)
    ordered.parallel_for(sycl::range<1>(n), sycl::reduction(&line[1], sycl::plus<long long>()),
                         [=](sycl::id<1> i, auto &sum) { sum += ones[i]; });
  ordered.wait_and_throw();
  checkEqual("40 reductions back to back (in-order queue) into one shared target", 7 + rounds * (long long)n,
             line[1]);
  checkEqual("the target's neighbours are untouched", -1LL, line[0]);
  checkEqual("the target's neighbours are untouched (after)", -2LL, line[2]);

  int *host = sycl::malloc_host<int>(1, q);
  *host = 100;
  sycl::event last;
  for (int r = 0; r < rounds; ++r)
    last = q.submit([&](sycl::handler &h) {
      h.depends_on(last);
      h.parallel_for(sycl::range<1>(n), sycl::reduction(host, sycl::plus<int>()),
                     [=](sycl::id<1> i, auto &sum) { sum += ones[i]; });
    });
  last.wait_and_throw();  // the event alone: the copy to the target is part of it
  checkEqual("40 reductions chained by events into a host USM target", 100 + rounds * static_cast<int>(n), *host);

  float *shared = sycl::malloc_shared<float>(2, q);
  shared[0] = 12345.0f;
  shared[1] = -3.0f;
  q.parallel_for(sycl::range<1>(n),
                 sycl::reduction(shared, sycl::plus<float>(), sycl::property::reduction::initialize_to_identity()),
                 sycl::reduction(shared + 1, sycl::maximum<float>()),
                 [=](sycl::id<1> i, auto &sum, auto &high) {
                   sum += 1.0f;
                   high.combine(static_cast<float>(i[0] % 100));
                 })
      .wait();
  checkEqual("two shared targets, one initialized to the identity: sum", static_cast<float>(n), shared[0]);
  checkEqual("two shared targets: maximum combined with -3", 99.0f, shared[1]);

  // A shared target's result reaches it through pinned memory and a host
  // store: the event submit returns covers that store, so a chain by events
  // and a kernel reading the target on the device after it see every result.
  double *total = sycl::malloc_shared<double>(1, q);
  *total = 0.5;
  sycl::event chained;
  for (int r = 0; r < rounds; ++r)
    chained = q.submit([&](sycl::handler &h) {
      h.depends_on(chained);
      h.parallel_for(sycl::range<1>(n), sycl::reduction(total, sycl::plus<double>()),
                     [=](sycl::id<1> i, auto &sum) { sum += static_cast<double>(ones[i]); });
    });
  double *twice = sycl::malloc_device<double>(1, q);
  q.single_task(chained, [=] { *twice = *total * 2.0; }).wait_and_throw();
  double back = 0;
  q.memcpy(&back, twice, sizeof back).wait();
  checkEqual("40 reductions chained by events into a shared target, read by a kernel", 2.0 * (0.5 + rounds * n),
             back);
  checkEqual("the same shared target read on the host", 0.5 + rounds * n, *total);

  sycl::free(total, q);
  sycl::free(twice, q);
  sycl::free(ones, q);
  sycl::free(line, ordered);
  sycl::free(host, q);
  sycl::free(shared, q);
}

}  // namespace

int main() {
  sycl::queue q;
  std::printf("reductions on '%s'\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  usmReductions(q);
  ndRangeReduction(q);
  bufferReductions(q);
  cellReductions(q);
  return onepass_test::report();
}
