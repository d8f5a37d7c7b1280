// atomic_ref (SYCL 2020 §4.15.3) and atomic_fence (§4.15.1) in kernels: every
// operation on 32- and 64-bit integers, float, double and pointers, in global
// (USM) and local memory, with the results checked on the host. Values are
// chosen so that every order of the work-items gives the same result (sums
// of small integers are exact in float and double).
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstdint>
#include <vector>

using onepass_test::check;
using onepass_test::checkEqual;

namespace {

template <typename T> using device_ref = sycl::atomic_ref<T, sycl::memory_order::relaxed, sycl::memory_scope::device,
                                                          sycl::access::address_space::global_space>;

constexpr std::size_t kItems = 4096;

// A histogram: many work-items add to few counters.
void histogram(sycl::queue &q) {
  constexpr std::size_t bins = 16;
  unsigned *counts = sycl::malloc_shared<unsigned>(bins, q);
  for (std::size_t b = 0; b < bins; ++b) counts[b] = 0;
  q.parallel_for(sycl::range<1>(kItems), [=](sycl::id<1> i) {
     device_ref<unsigned>(counts[(i[0] * 7) % bins]).fetch_add(1u);
   }).wait_and_throw();
  int wrong = 0;
  for (std::size_t b = 0; b < bins; ++b) wrong += counts[b] != kItems / bins;
  checkEqual("histogram of 4096 items in 16 bins with fetch_add: wrong bins", 0, wrong);
  sycl::free(counts, q);
}

struct Results {
  long long sum64;
  int minimum, maximum;
  unsigned andBits, orBits, xorBits;
  float floatSum;
  double doubleSum, doubleMin, doubleMax;
  int exchanged, casProduct, counter, decremented;
  long long *cursorStart;
  long long *cursor;
  int fenced;
};

void everyOperation(sycl::queue &q) {
  Results *r = sycl::malloc_shared<Results>(1, q);
  long long *slots = sycl::malloc_shared<long long>(kItems, q);
  *r = Results{0, 1 << 30, -(1 << 30), ~0u, 0u, 0u, 0.0f, 0.0, 1e30, -1e30, -1, 1, 0, 0, slots, slots, 0};
  q.parallel_for(sycl::range<1>(kItems), [=](sycl::id<1> id) {
     const long long i = static_cast<long long>(id[0]);
     device_ref<long long>(r->sum64).fetch_add(i << 32);
     device_ref<int>(r->minimum).fetch_min(static_cast<int>(i) - 1000);
     device_ref<int>(r->maximum).fetch_max(static_cast<int>(i) - 1000);
     device_ref<unsigned>(r->andBits).fetch_and(~(1u << (i % 32)));
     device_ref<unsigned>(r->orBits).fetch_or(1u << (i % 32));
     device_ref<unsigned>(r->xorBits) ^= 1u << (i % 32);  // each bit 128 times: 0
     device_ref<float>(r->floatSum).fetch_add(1.0f);
     device_ref<double>(r->doubleSum) += 0.5;
     device_ref<double>(r->doubleMin).fetch_min(static_cast<double>(i) * 0.25);
     device_ref<double>(r->doubleMax).fetch_max(static_cast<double>(i) * 0.25);
     device_ref<int>(r->exchanged).exchange(7);
     // A product through compare-exchange: multiply by -1, 4096 times.
     device_ref<int> product(r->casProduct);
     int seen = product.load();
     while (!product.compare_exchange_weak(seen, -seen)) {
     }
     device_ref<int> counter(r->counter);
     counter++;
     ++counter;
     device_ref<int>(r->decremented)--;
     // Pointers: each work-item takes a slot of its own.
     long long *mine = device_ref<long long *>(r->cursor).fetch_add(1);
     *mine = i;
     sycl::atomic_fence(sycl::memory_order::seq_cst, sycl::memory_scope::device);
     sycl::atomic_ref<int, sycl::memory_order::acq_rel, sycl::memory_scope::device> fenced(r->fenced);
     fenced.store(1, sycl::memory_order::release);
   }).wait_and_throw();
  const long long n = static_cast<long long>(kItems);
  checkEqual("64-bit fetch_add", (n * (n - 1) / 2) << 32, r->sum64);
  checkEqual("fetch_min (int)", -1000, r->minimum);
  checkEqual("fetch_max (int)", static_cast<int>(n - 1 - 1000), r->maximum);
  checkEqual("fetch_and", 0u, r->andBits);
  checkEqual("fetch_or", ~0u, r->orBits);
  checkEqual("operator^= (fetch_xor)", 0u, r->xorBits);
  checkEqual("fetch_add (float)", static_cast<float>(n), r->floatSum);
  checkEqual("operator+= (double)", 0.5 * static_cast<double>(n), r->doubleSum);
  checkEqual("fetch_min (double)", 0.0, r->doubleMin);
  checkEqual("fetch_max (double)", static_cast<double>(n - 1) * 0.25, r->doubleMax);
  checkEqual("exchange", 7, r->exchanged);
  checkEqual("compare_exchange_weak loop (a product of 4096 factors -1)", 1, r->casProduct);
  checkEqual("operator++ (both forms)", static_cast<int>(2 * n), r->counter);
  checkEqual("operator--", static_cast<int>(-n), r->decremented);
  checkEqual("pointer fetch_add: the cursor moved by one element per work-item", r->cursorStart + n, r->cursor);
  std::vector<int> taken(kItems, 0);
  for (std::size_t s = 0; s < kItems; ++s)
    if (slots[s] >= 0 && slots[s] < n) ++taken[static_cast<std::size_t>(slots[s])];
  int wrong = 0;
  for (int t : taken) wrong += t != 1;
  checkEqual("pointer fetch_add: every work-item got a slot of its own", 0, wrong);
  checkEqual("store with release order", 1, r->fenced);
  sycl::free(r, q);
  sycl::free(slots, q);
}

// Atomics on local memory: each work-group counts its work-items whose id
// is odd, then one writes the count out.
void localAtomics(sycl::queue &q) {
  constexpr std::size_t groups = 16, size = 64;
  int *counts = sycl::malloc_shared<int>(groups, q);
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<int, 0> count(h);
     h.parallel_for(sycl::nd_range<1>(groups * size, size), [=](sycl::nd_item<1> it) {
       sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::work_group,
                        sycl::access::address_space::local_space>
           local(count);
       if (it.get_local_id(0) == 0) local.store(0);
       it.barrier();
       if (it.get_global_id(0) % 2 == 1) local.fetch_add(1);
       it.barrier();
       if (it.get_local_id(0) == 0) counts[it.get_group(0)] = local.load();
     });
   }).wait_and_throw();
  int wrong = 0;
  for (std::size_t g = 0; g < groups; ++g) wrong += counts[g] != static_cast<int>(size / 2);
  checkEqual("fetch_add on local memory: wrong groups", 0, wrong);
  sycl::free(counts, q);
}

void hostSide() {
  int value = 5;
  sycl::atomic_ref<int, sycl::memory_order::seq_cst, sycl::memory_scope::system> ref(value);
  ref.fetch_add(3);
  int expected = 8;
  check("atomic_ref on the host: compare_exchange_strong", ref.compare_exchange_strong(expected, 10));
  checkEqual("atomic_ref on the host: the value", 10, value);
  check("is_lock_free", ref.is_lock_free());
  checkEqual("required_alignment", sizeof(int), decltype(ref)::required_alignment);
  check("default orders of acq_rel",
        sycl::atomic_ref<int, sycl::memory_order::acq_rel, sycl::memory_scope::device>::default_read_order ==
                sycl::memory_order::acquire &&
            sycl::atomic_ref<int, sycl::memory_order::acq_rel, sycl::memory_scope::device>::default_write_order ==
                sycl::memory_order::release);
}

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
// The deprecated SYCL 1.2.1 atomics (§4.15.4): sycl::atomic from
// access_mode::atomic accessors (global and target::local) and from a
// multi_ptr, its members and the free functions.
void legacyAtomics(sycl::queue &q) {
  constexpr std::size_t groups = 8, groupSize = 64;
  int counters[4] = {0, 1 << 20, -(1 << 20), 0};
  unsigned bits = 0;
  float floatValue = 0.0f;
  std::vector<int> perGroup(groups, 0);
  {
    sycl::buffer<int, 1> counterBuf(counters, sycl::range<1>(4));
    sycl::buffer<unsigned, 1> bitBuf(&bits, sycl::range<1>(1));
    sycl::buffer<float, 1> floatBuf(&floatValue, sycl::range<1>(1));
    sycl::buffer<int, 1> groupBuf(perGroup.data(), sycl::range<1>(groups));
    q.submit([&](sycl::handler &h) {
      auto c = counterBuf.get_access<sycl::access_mode::atomic>(h);
      sycl::accessor<unsigned, 1, sycl::access_mode::atomic> b(bitBuf, h);
      sycl::accessor<float, 1, sycl::access_mode::read_write> f(floatBuf, h);
      sycl::accessor<int, 1, sycl::access_mode::write> g(groupBuf, h);
      sycl::accessor<int, 1, sycl::access_mode::atomic, sycl::target::local> local(sycl::range<1>(1), h);
      h.parallel_for(sycl::nd_range<1>(groups * groupSize, groupSize), [=](sycl::nd_item<1> it) {
        const int i = static_cast<int>(it.get_global_linear_id());
        if (it.get_local_linear_id() == 0) local[0].store(0);
        sycl::group_barrier(it.get_group());
        local[0].fetch_add(1);
        sycl::atomic_fetch_add(local[0], 1);  // each work-item adds 2
        sycl::group_barrier(it.get_group());
        if (it.get_local_linear_id() == 0) g[it.get_group_linear_id()] = sycl::atomic_load(local[0]);
        c[0].fetch_add(1);
        sycl::atomic_fetch_sub(c[0], 3);  // each work-item: -2
        c[1].fetch_min(i);
        sycl::atomic_fetch_max(c[2], i);
        b[0].fetch_or(1u << (i % 32));
        sycl::atomic_fetch_xor(b[0], 0u);
        int expected = 0;
        sycl::atomic<int> third(c.get_multi_ptr<sycl::access::decorated::yes>() + 3);
        sycl::atomic_compare_exchange_strong(third, expected, i + 1);  // one work-item wins
        if (i == 0) {
          sycl::atomic<float> fa(f.get_multi_ptr<sycl::access::decorated::no>());
          fa.store(2.5f);
          sycl::atomic_exchange(fa, fa.load() + 1.0f);
        }
      });
    });
  }
  const int items = static_cast<int>(groups * groupSize);
  checkEqual("sycl::atomic fetch_add/atomic_fetch_sub through an atomic accessor", -2 * items, counters[0]);
  checkEqual("sycl::atomic fetch_min", 0, counters[1]);
  checkEqual("sycl::atomic_fetch_max", items - 1, counters[2]);
  check("sycl::atomic_compare_exchange_strong: one work-item's value", counters[3] >= 1 && counters[3] <= items);
  checkEqual("sycl::atomic fetch_or: every bit", ~0u, bits);
  check("sycl::atomic<float> from a multi_ptr: store, load, atomic_exchange", floatValue == 3.5f);
  int wrongGroups = 0;
  for (int v : perGroup) wrongGroups += v != static_cast<int>(2 * groupSize);
  checkEqual("target::local atomic accessor: groups whose count is not 2 x 64", 0, wrongGroups);

  // On the host: sycl::atomic over a multi_ptr.
  long long value = 40;
  sycl::atomic<long long, sycl::access::address_space::generic_space> a{
      sycl::multi_ptr<long long, sycl::access::address_space::generic_space, sycl::access::decorated::no>(&value)};
  long long expected = 40;
  check("host sycl::atomic compare_exchange_strong", a.compare_exchange_strong(expected, 41));
  checkEqual("host sycl::atomic_fetch_and then the value", 41LL, sycl::atomic_fetch_and(a, 0xFFLL));
  checkEqual("host sycl::atomic: exchange", 41LL, a.exchange(7));
  checkEqual("host sycl::atomic: the value", 7LL, value);
}
#pragma clang diagnostic pop

}  // namespace

int main() {
  sycl::queue q;
  std::printf("atomics on '%s'\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  histogram(q);
  everyOperation(q);
  localAtomics(q);
  hostSide();
  legacyAtomics(q);
  return onepass_test::report();
}
