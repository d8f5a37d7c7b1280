// Work-group algorithms (SYCL 2020 §4.17.3) on `group`: broadcast, votes,
// reductions, scans and the joint_* forms over memory (scans included), with work-groups of 64
// and of 100 work-items (not a power of two) and a 2-D group of 8 x 6; the
// host checks every work-item's results. Then values wider than 8 bytes
// (vec, marray, a struct with an order-sensitive operation) on work-groups
// and sub-groups, and the joint_* forms on sub-groups.
#include "check.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <string>

using onepass_test::checkEqual;

namespace {

struct record {
  long long broadcast;
  int sum, maximum, inclusive, exclusive, exclusiveInit, inclusiveInit, reduceInit;
  double doubleSum;
  int any, all, none, jointSum, jointAny, jointAll, jointNone, jointSumInit;
};

template <int D> void run(sycl::queue &q, sycl::range<D> global, sycl::range<D> local) {
  const std::size_t total = global.size(), size = local.size();
  record *out = sycl::malloc_shared<record>(total, q);
  int *values = sycl::malloc_shared<int>(37, q);
  for (int i = 0; i < 37; ++i) values[i] = i * 3 - 20;
  q.parallel_for(sycl::nd_range<D>(global, local), [=](sycl::nd_item<D> it) {
     const sycl::group<D> g = it.get_group();
     const int l = static_cast<int>(it.get_local_linear_id());
     record &r = out[it.get_global_linear_id()];
     r.broadcast = sycl::group_broadcast(g, (1LL << 40) + static_cast<long long>(it.get_global_linear_id()),
                                         g.get_local_linear_range() - 1);
     r.sum = sycl::reduce_over_group(g, l + 1, sycl::plus<int>());
     r.maximum = sycl::reduce_over_group(g, (l * 7) % 11, sycl::maximum<int>());
     r.reduceInit = sycl::reduce_over_group(g, 1, 1000, sycl::plus<int>());
     r.doubleSum = sycl::reduce_over_group(g, 0.5, sycl::plus<double>());
     r.inclusive = sycl::inclusive_scan_over_group(g, l + 1, sycl::plus<int>());
     r.inclusiveInit = sycl::inclusive_scan_over_group(g, 1, sycl::plus<int>(), 7);
     r.exclusive = sycl::exclusive_scan_over_group(g, 2, sycl::plus<int>());
     r.exclusiveInit = sycl::exclusive_scan_over_group(g, 1, 50, sycl::plus<int>());
     r.any = sycl::any_of_group(g, l == 3);
     r.all = sycl::all_of_group(g, l >= 0);
     r.none = sycl::none_of_group(g, l, [](int v) { return v < 0; });
     r.jointSum = sycl::joint_reduce(g, values, values + 37, sycl::plus<int>());
     r.jointSumInit = sycl::joint_reduce(g, values, values, 9, sycl::plus<int>());
     r.jointAny = sycl::joint_any_of(g, values, values + 37, [](int v) { return v == 16; });
     r.jointAll = sycl::joint_all_of(g, values, values + 37, [](int v) { return v > -21; });
     r.jointNone = sycl::joint_none_of(g, values, values + 37, [](int v) { return v > 1000; });
   }).wait_and_throw();
  int jointSum = 0;
  for (int i = 0; i < 37; ++i) jointSum += values[i];
  int maximum = 0;
  for (std::size_t k = 0; k < size; ++k) maximum = std::max(maximum, static_cast<int>((k * 7) % 11));
  int wrong = 0;
  for (std::size_t i = 0; i < total; ++i) {
    const record &r = out[i];
    wrong += r.sum != static_cast<int>(size * (size + 1) / 2) || r.maximum != maximum;
    wrong += r.reduceInit != 1000 + static_cast<int>(size) || r.doubleSum != 0.5 * static_cast<double>(size);
    wrong += r.any != 1 || r.all != 1 || r.none != 1;
    wrong += r.jointSum != jointSum || r.jointSumInit != 9 || r.jointAny != 1 || r.jointAll != 1 || r.jointNone != 1;
    wrong += (r.broadcast >> 40) != 1;
  }
  // Results that depend on the work-item's place in its group: checked in a
  // second kernel, which knows the mapping, and recorded as 1 (right) or 0.
  q.parallel_for(sycl::nd_range<D>(global, local), [=](sycl::nd_item<D> it) {
     record &r = out[it.get_global_linear_id()];
     const int l = static_cast<int>(it.get_local_linear_id());
     r.inclusive = r.inclusive == (l + 1) * (l + 2) / 2;
     r.inclusiveInit = r.inclusiveInit == 7 + l + 1;
     r.exclusive = r.exclusive == 2 * l;
     r.exclusiveInit = r.exclusiveInit == 50 + l;
     // The broadcast came from the group's last work-item.
     sycl::id<D> last = it.get_global_id();
     for (int d = 0; d < D; ++d) last[d] = it.get_group(d) * it.get_local_range(d) + it.get_local_range(d) - 1;
     std::size_t lastLinear = 0;
     for (int d = 0; d < D; ++d) lastLinear = lastLinear * it.get_global_range(d) + last[d];
     r.broadcast = r.broadcast == (1LL << 40) + static_cast<long long>(lastLinear);
   }).wait_and_throw();
  for (std::size_t i = 0; i < total; ++i) {
    const record &r = out[i];
    wrong += r.inclusive != 1 || r.inclusiveInit != 1 || r.exclusive != 1 || r.exclusiveInit != 1 || r.broadcast != 1;
  }
  // joint scans: each group scans its own 150 values (more than a chunk for
  // groups of 64 and 100, a partial last chunk).
  constexpr std::size_t length = 150;
  const std::size_t groups = total / size;
  int *input = sycl::malloc_shared<int>(groups * length, q);
  int *inclusive = sycl::malloc_shared<int>(groups * length, q),
      *exclusive = sycl::malloc_shared<int>(groups * length, q);
  int *inclusiveInit = sycl::malloc_shared<int>(groups * length, q);
  int *exclusiveInit = sycl::malloc_shared<int>(groups * length, q);
  for (std::size_t i = 0; i < groups * length; ++i) input[i] = static_cast<int>(i % 13) - 4;
  q.parallel_for(sycl::nd_range<D>(global, local), [=](sycl::nd_item<D> it) {
     const sycl::group<D> g = it.get_group();
     const std::size_t base = g.get_group_linear_id() * length;
     sycl::joint_inclusive_scan(g, input + base, input + base + length, inclusive + base, sycl::plus<int>());
     sycl::joint_exclusive_scan(g, input + base, input + base + length, exclusive + base, sycl::plus<int>());
     sycl::joint_inclusive_scan(g, input + base, input + base + length, inclusiveInit + base, sycl::plus<int>(), 10);
     sycl::joint_exclusive_scan(g, input + base, input + base + length, exclusiveInit + base, 20, sycl::plus<int>());
   }).wait_and_throw();
  for (std::size_t g = 0; g < groups; ++g) {
    int running = 0;
    for (std::size_t i = 0; i < length; ++i) {
      const std::size_t at = g * length + i;
      wrong += exclusive[at] != running || exclusiveInit[at] != 20 + running;
      running += input[at];
      wrong += inclusive[at] != running || inclusiveInit[at] != 10 + running;
    }
  }
  for (int *p : {input, inclusive, exclusive, inclusiveInit, exclusiveInit}) sycl::free(p, q);
  std::string what = std::to_string(D) + "-D work-groups of " + std::to_string(size);
  checkEqual(what + ": wrong results of work-group algorithms", 0, wrong);
  sycl::free(out, q);
  sycl::free(values, q);
}

// A 24-byte value and an associative, non-commutative operation on it: the
// combination of a run of values keeps the first one's `first`, the last
// one's `last`, and counts them, so it shows the order of the operands. A
// scan keeps that order (§4.17.3.6); a reduction is a generalized sum, free
// to reorder (§4.17.3.5), so only its count is checked.
struct span {
  long long first, last, count;
};
struct join {
  span operator()(const span &x, const span &y) const { return {x.first, y.last, x.count + y.count}; }
};
span spanOf(long long k) { return {k, k, 1}; }
bool same(const span &x, long long first, long long last, long long count) {
  return x.first == first && x.last == last && x.count == count;
}
bool same(const sycl::int4 &x, int a, int b, int c, int d) {
  return x[0] == a && x[1] == b && x[2] == c && x[3] == d;
}

struct wideRecord {
  sycl::int4 broadcast, sum, sumInit, inclusive, exclusive;
  sycl::marray<short, 7> broadcastM;
  span reduced, inclusiveSpan, exclusiveSpan;
};

// Work-group algorithms on values of 14 to 24 bytes: through the scratch,
// 8 bytes at a time.
template <int D> void runWide(sycl::queue &q, sycl::range<D> global, sycl::range<D> local) {
  const std::size_t total = global.size(), size = local.size();
  wideRecord *out = sycl::malloc_shared<wideRecord>(total, q);
  q.parallel_for(sycl::nd_range<D>(global, local), [=](sycl::nd_item<D> it) {
     const sycl::group<D> g = it.get_group();
     const int l = static_cast<int>(it.get_local_linear_id());
     wideRecord &r = out[it.get_global_linear_id()];
     const sycl::int4 v(1, l, 2 * l, -l);
     r.broadcast = sycl::group_broadcast(g, v, g.get_local_linear_range() - 1);
     r.broadcastM = sycl::group_broadcast(g, sycl::marray<short, 7>(static_cast<short>(l + 3)), sycl::id<D>());
     r.sum = sycl::reduce_over_group(g, v, sycl::plus<sycl::int4>());
     r.sumInit = sycl::reduce_over_group(g, v, sycl::int4(100), sycl::plus<sycl::int4>());
     r.inclusive = sycl::inclusive_scan_over_group(g, v, sycl::plus<sycl::int4>());
     r.exclusive = sycl::exclusive_scan_over_group(g, v, sycl::int4(10), sycl::plus<sycl::int4>());
     r.reduced = sycl::reduce_over_group(g, spanOf(l), join());
     r.inclusiveSpan = sycl::inclusive_scan_over_group(g, spanOf(l), join());
     r.exclusiveSpan = sycl::exclusive_scan_over_group(g, spanOf(l), spanOf(-1), join());
   }).wait_and_throw();
  int wrong = 0;
  const int n = static_cast<int>(size), all = n * (n - 1) / 2;
  for (std::size_t i = 0; i < total; ++i) {
    const wideRecord &r = out[i];
    // Global ids are row-major, like local ones, only in 1-D: recompute the
    // local linear id of global work-item i.
    std::size_t rest = i, localLinear = 0;
    for (int d = D - 1, stride = 1; d >= 0; --d) {
      localLinear += (rest % global[d]) % local[d] * stride;
      stride *= static_cast<int>(local[d]);
      rest /= global[d];
    }
    const int l = static_cast<int>(localLinear), before = l * (l - 1) / 2;
    wrong += !same(r.broadcast, 1, n - 1, 2 * (n - 1), 1 - n);
    for (short m : r.broadcastM) wrong += m != 3;
    wrong += !same(r.sum, n, all, 2 * all, -all) || !same(r.sumInit, 100 + n, 100 + all, 100 + 2 * all, 100 - all);
    wrong += !same(r.inclusive, l + 1, before + l, 2 * (before + l), -(before + l));
    wrong += !same(r.exclusive, 10 + l, 10 + before, 10 + 2 * before, 10 - before);
    wrong += r.reduced.count != n;
    wrong += !same(r.inclusiveSpan, 0, l, l + 1);
    wrong += !same(r.exclusiveSpan, -1, l == 0 ? -1 : l - 1, l + 1);
  }
  checkEqual(std::to_string(D) + "-D work-groups of " + std::to_string(size) + ": wrong results for wide values", 0,
             wrong);
  sycl::free(out, q);
}

struct subGroupRecord {
  unsigned local, size;
  span left, right, xorOne, selected, broadcast, reduced, inclusive;
  sycl::int4 sum, exclusive;
  int jointSum, jointSumInit, jointAny, jointAll, jointNone;
};

// Sub-groups: wide values through shuffles, and the joint_* forms (each
// sub-group scans its own copy of the input).
void runSubGroups(sycl::queue &q, std::size_t groupSize) {
  constexpr std::size_t groups = 3, length = 45;
  const std::size_t total = groups * groupSize;
  subGroupRecord *out = sycl::malloc_shared<subGroupRecord>(total, q);
  int *values = sycl::malloc_shared<int>(length, q);
  for (std::size_t i = 0; i < length; ++i) values[i] = static_cast<int>(i % 7) * 5 - 11;
  int *inclusive = sycl::malloc_shared<int>(total * length, q), *exclusive = sycl::malloc_shared<int>(total * length, q);
  int *inclusiveInit = sycl::malloc_shared<int>(total * length, q);
  int *exclusiveInit = sycl::malloc_shared<int>(total * length, q);
  q.parallel_for(sycl::nd_range<1>(total, groupSize), [=](sycl::nd_item<1> it) {
     const sycl::sub_group sg = it.get_sub_group();
     subGroupRecord &r = out[it.get_global_id(0)];
     const unsigned l = sg.get_local_linear_id();
     r.local = l;
     r.size = sg.get_local_linear_range();
     const span mine = spanOf(100 + l);
     r.left = sycl::shift_group_left(sg, mine, 2);
     r.right = sycl::shift_group_right(sg, mine);
     r.xorOne = sycl::permute_group_by_xor(sg, mine, 1);
     r.selected = sycl::select_from_group(sg, mine, sycl::id<1>(r.size - 1));
     r.broadcast = sycl::group_broadcast(sg, mine, r.size / 2);
     r.reduced = sycl::reduce_over_group(sg, mine, join());
     r.inclusive = sycl::inclusive_scan_over_group(sg, mine, join());
     const sycl::int4 v(1, static_cast<int>(l), 3, -static_cast<int>(l));
     r.sum = sycl::reduce_over_group(sg, v, sycl::plus<sycl::int4>());
     r.exclusive = sycl::exclusive_scan_over_group(sg, v, sycl::int4(7), sycl::plus<sycl::int4>());
     r.jointSum = sycl::joint_reduce(sg, values, values + length, sycl::plus<int>());
     r.jointSumInit = sycl::joint_reduce(sg, values, values + 3, 1000, sycl::plus<>());
     r.jointAny = sycl::joint_any_of(sg, values, values + length, [](int x) { return x == 19; });
     r.jointAll = sycl::joint_all_of(sg, values, values + length, [](int x) { return x >= -11; });
     r.jointNone = sycl::joint_none_of(sg, values, values + length, [](int x) { return x > 23; });
     // Output of sub-group k of the whole range at k * length.
     const std::size_t base = (it.get_group_linear_id() * sg.get_group_linear_range() + sg.get_group_linear_id()) * length;
     sycl::joint_inclusive_scan(sg, values, values + length, inclusive + base, sycl::plus<int>());
     sycl::joint_exclusive_scan(sg, values, values + length, exclusive + base, sycl::plus<int>());
     sycl::joint_inclusive_scan(sg, values, values + length, inclusiveInit + base, sycl::plus<int>(), 10);
     sycl::joint_exclusive_scan(sg, values, values + length, exclusiveInit + base, 20, sycl::plus<int>());
   }).wait_and_throw();
  int wrong = 0, jointSum = 0;
  for (std::size_t i = 0; i < length; ++i) jointSum += values[i];
  std::size_t subGroups = 0;
  for (std::size_t i = 0; i < total; ++i) {
    const subGroupRecord &r = out[i];
    const long long l = r.local, n = r.size;
    const int li = static_cast<int>(l), ni = static_cast<int>(n), before = li * (li - 1) / 2;
    subGroups += r.local == 0;
    wrong += l + 2 < n && !same(r.left, 102 + l, 102 + l, 1);
    wrong += l >= 1 && !same(r.right, 99 + l, 99 + l, 1);
    wrong += (l ^ 1) < n && !same(r.xorOne, 100 + (l ^ 1), 100 + (l ^ 1), 1);
    wrong += !same(r.selected, 99 + n, 99 + n, 1) || !same(r.broadcast, 100 + n / 2, 100 + n / 2, 1);
    wrong += r.reduced.count != n || !same(r.inclusive, 100, 100 + l, l + 1);
    wrong += !same(r.sum, ni, ni * (ni - 1) / 2, 3 * ni, -ni * (ni - 1) / 2);
    wrong += !same(r.exclusive, 7 + li, 7 + before, 7 + 3 * li, 7 - before);
    wrong += r.jointSum != jointSum || r.jointSumInit != 1000 + values[0] + values[1] + values[2];
    wrong += r.jointAny != 1 || r.jointAll != 1 || r.jointNone != 1;
  }
  for (std::size_t k = 0; k < subGroups; ++k) {
    int running = 0;
    for (std::size_t i = 0; i < length; ++i) {
      const std::size_t at = k * length + i;
      wrong += exclusive[at] != running || exclusiveInit[at] != 20 + running;
      running += values[i];
      wrong += inclusive[at] != running || inclusiveInit[at] != 10 + running;
    }
  }
  checkEqual("work-groups of " + std::to_string(groupSize) + ": wrong results of sub-group joint and wide algorithms",
             0, wrong);
  for (int *p : {values, inclusive, exclusive, inclusiveInit, exclusiveInit}) sycl::free(p, q);
  sycl::free(out, q);
}

}  // namespace

// Joint scans whose input and result types differ (§4.17.4.17: the
// operation gives the result's type): without an init, the scan starts from
// the identity of the result's type (maximum of unsigned long long: 0), not
// the input's (float: -infinity, which has no unsigned value).
void mixedTypeScans(sycl::queue &q) {
  constexpr std::size_t length = 100, group = 32;
  float *input = sycl::malloc_shared<float>(length, q);
  unsigned long long *exclusive = sycl::malloc_shared<unsigned long long>(length, q);
  unsigned long long *inclusive = sycl::malloc_shared<unsigned long long>(length, q);
  for (std::size_t i = 0; i < length; ++i) input[i] = static_cast<float>((i * 7) % 31);
  q.parallel_for(sycl::nd_range<1>(group, group), [=](sycl::nd_item<1> it) {
     sycl::joint_exclusive_scan(it.get_group(), input, input + length, exclusive,
                                sycl::maximum<unsigned long long>());
     sycl::joint_inclusive_scan(it.get_group(), input, input + length, inclusive,
                                sycl::maximum<unsigned long long>());
   }).wait_and_throw();
  int wrong = 0;
  unsigned long long running = 0;
  for (std::size_t i = 0; i < length; ++i) {
    wrong += exclusive[i] != running;
    running = std::max(running, static_cast<unsigned long long>(input[i]));
    wrong += inclusive[i] != running;
  }
  checkEqual("joint scans of float into unsigned long long with maximum: wrong elements", 0, wrong);
  sycl::free(input, q);
  sycl::free(exclusive, q);
  sycl::free(inclusive, q);
}

int main() {
  sycl::queue q;
  std::printf("work-group algorithms on '%s'\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  run<1>(q, sycl::range<1>(4 * 64), sycl::range<1>(64));
  run<1>(q, sycl::range<1>(3 * 100), sycl::range<1>(100));
  run<2>(q, sycl::range<2>(16, 12), sycl::range<2>(8, 6));
  runWide<1>(q, sycl::range<1>(2 * 64), sycl::range<1>(64));
  runWide<1>(q, sycl::range<1>(3 * 100), sycl::range<1>(100));
  runWide<2>(q, sycl::range<2>(16, 12), sycl::range<2>(8, 6));
  runSubGroups(q, 64);
  runSubGroups(q, 36);  // a partial last sub-group on the CPU (8 x 4 + 4) and on a GPU (32 + 4)
  mixedTypeScans(q);
  return onepass_test::report();
}
