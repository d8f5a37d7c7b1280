// Work-group algorithms (SYCL 2020 §4.17.3) on `group`: broadcast, votes,
// reductions, scans and the joint_* forms over memory (scans included), with work-groups of 64
// and of 100 work-items (not a power of two) and a 2-D group of 8 x 6; the
// host checks every work-item's results.
#include "check.h"

#include <sycl/sycl.hpp>

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

}  // namespace

int main() {
  sycl::queue q;
  std::printf("work-group algorithms on '%s'\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  run<1>(q, sycl::range<1>(4 * 64), sycl::range<1>(64));
  run<1>(q, sycl::range<1>(3 * 100), sycl::range<1>(100));
  run<2>(q, sycl::range<2>(16, 12), sycl::range<2>(8, 6));
  return onepass_test::report();
}
