// Sub-groups (SYCL 2020 §4.9.1.8) and their group algorithms (§4.17.3):
// every work-item records its sub-group's geometry and what each algorithm
// gave it; the host checks both against the geometry the device reported
// (so the test holds for any sub-group size: 32 on NVIDIA GPUs, 8 on the
// CPU device), with work-groups of 64, 48 and 36 work-items (a partial last
// sub-group on a GPU, and with 36 on the CPU too).
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

using onepass_test::check;
using onepass_test::checkEqual;

namespace {

struct record {
  unsigned group, local, size, maxSize, count;
  unsigned linearInGroup;
  int broadcast, sum, maximum, inclusive, exclusive, exclusiveInit, left, right, xorOne, selected;
  double doubleSum;
  long long wideBroadcast;
  int any, all, none, leader;
};

void run(sycl::queue &q, std::size_t groupSize) {
  constexpr std::size_t groups = 5;
  const std::size_t total = groups * groupSize;
  record *out = sycl::malloc_shared<record>(total, q);
  q.parallel_for(sycl::nd_range<1>(total, groupSize), [=](sycl::nd_item<1> it) {
     const sycl::sub_group sg = it.get_sub_group();
     record &r = out[it.get_global_id(0)];
     const int lid = static_cast<int>(sg.get_local_linear_id());
     r.group = sg.get_group_linear_id();
     r.local = sg.get_local_linear_id();
     r.size = sg.get_local_linear_range();
     r.maxSize = static_cast<unsigned>(sg.get_max_local_range()[0]);
     r.count = sg.get_group_linear_range();
     r.linearInGroup = static_cast<unsigned>(it.get_local_linear_id());
     r.broadcast = sycl::group_broadcast(sg, static_cast<int>(it.get_global_id(0)));
     r.sum = sycl::reduce_over_group(sg, lid + 1, sycl::plus<int>());
     r.maximum = sycl::reduce_over_group(sg, (lid * 7) % 5, sycl::maximum<int>());
     r.inclusive = sycl::inclusive_scan_over_group(sg, lid + 1, sycl::plus<int>());
     r.exclusive = sycl::exclusive_scan_over_group(sg, 1, sycl::plus<int>());
     r.exclusiveInit = sycl::exclusive_scan_over_group(sg, 2, 100, sycl::plus<int>());
     r.left = sycl::shift_group_left(sg, lid);
     r.right = sycl::shift_group_right(sg, lid);
     r.xorOne = sycl::permute_group_by_xor(sg, lid, 1);
     r.selected = sycl::select_from_group(sg, lid * 10, sycl::id<1>(r.size - 1));
     r.doubleSum = sycl::reduce_over_group(sg, 0.5 * (lid + 1), sycl::plus<double>());
     r.wideBroadcast = sycl::group_broadcast(sg, (1LL << 40) + lid, r.size - 1);
     r.any = sycl::any_of_group(sg, lid == 0);
     r.all = sycl::all_of_group(sg, lid >= 0);
     r.none = sycl::none_of_group(sg, lid > 1000);
     r.leader = sg.leader();
     sycl::group_barrier(sg);
   }).wait_and_throw();

  const std::string what = "work-groups of " + std::to_string(groupSize) + ": ";
  const unsigned maxSize = out[0].maxSize;
  std::printf("%ssub-groups of at most %u work-items\n", what.c_str(), maxSize);
  if (!check(what + "the kernel reported a sub-group size", maxSize > 0)) {
    sycl::free(out, q);
    return;
  }
  int wrongGeometry = 0, wrong = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    for (std::size_t l = 0; l < groupSize; ++l) {
      const record &r = out[g * groupSize + l];
      // Consecutive work-items of the group, maxSize at a time.
      const unsigned expectedGroup = static_cast<unsigned>(l / maxSize),
                     expectedLocal = static_cast<unsigned>(l % maxSize);
      const unsigned expectedSize =
          static_cast<unsigned>(std::min<std::size_t>(maxSize, groupSize - std::size_t(expectedGroup) * maxSize));
      wrongGeometry += r.group != expectedGroup || r.local != expectedLocal || r.size != expectedSize ||
                       r.maxSize != maxSize || r.count != (groupSize + maxSize - 1) / maxSize || r.linearInGroup != l ||
                       r.leader != (r.local == 0);
      const int size = static_cast<int>(r.size), lid = static_cast<int>(r.local);
      const int first = static_cast<int>(g * groupSize + l) - lid;  // global id of the sub-group's first work-item
      int maximum = 0;
      for (int k = 0; k < size; ++k) maximum = std::max(maximum, (k * 7) % 5);
      wrong += r.broadcast != first;
      wrong += r.sum != size * (size + 1) / 2;
      wrong += r.maximum != maximum;
      wrong += r.inclusive != (lid + 1) * (lid + 2) / 2;
      wrong += r.exclusive != lid;
      wrong += r.exclusiveInit != 100 + 2 * lid;
      wrong += lid + 1 < size && r.left != lid + 1;
      wrong += lid >= 1 && r.right != lid - 1;
      wrong += (lid ^ 1) < size && r.xorOne != (lid ^ 1);
      wrong += r.selected != (size - 1) * 10;
      wrong += r.doubleSum != 0.25 * size * (size + 1);
      wrong += r.wideBroadcast != (1LL << 40) + (size - 1);
      wrong += r.any != 1 || r.all != 1 || r.none != 1;
    }
  }
  checkEqual(what + "work-items with a wrong sub-group geometry", 0, wrongGeometry);
  checkEqual(what + "wrong results of sub-group algorithms", 0, wrong);
  sycl::free(out, q);
}

}  // namespace

int main() {
  sycl::queue q;
  const sycl::device device = q.get_device();
  std::printf("sub-groups on '%s'\n", device.get_info<sycl::info::device::name>().c_str());
  const std::vector<std::size_t> sizes = device.get_info<sycl::info::device::sub_group_sizes>();
  check("the device reports one sub-group size", sizes.size() == 1);
  run(q, 64);
  run(q, 48);
  run(q, 36);  // a partial last sub-group on the CPU (8 + ... + 4) and on a GPU (32 + 4)
  // The kernel's sub-groups are the size the device reports.
  sycl::queue probe{device};
  unsigned *widest = sycl::malloc_shared<unsigned>(1, probe);
  probe
      .parallel_for(sycl::nd_range<1>(64, 64),
                    [=](sycl::nd_item<1> it) {
                      if (it.get_global_id(0) == 0)
                        *widest = static_cast<unsigned>(it.get_sub_group().get_max_local_range()[0]);
                    })
      .wait();
  checkEqual("the kernel's sub-group size is the device's", static_cast<unsigned>(sizes.at(0)), *widest);
  sycl::free(widest, probe);
  return onepass_test::report();
}
