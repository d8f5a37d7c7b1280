// parallel_for(nd_range) without barriers or local memory: every work-item
// records what its nd_item and group report, and the host checks it against
// the geometry (SYCL 2020 §4.9.1.2, §4.9.1.5, §4.9.1.7). Linear ids are
// row-major: the last dimension varies fastest. Also the nd_range errors of
// §4.9.4.2.3 and an empty global range.
#include "check.h"

#include <sycl/sycl.hpp>

#include <string>

using onepass_test::check;
using onepass_test::checkEqual;
using onepass_test::checkThrows;
using onepass_test::rangeText;

namespace {

struct record {
  std::size_t global[3], local[3], group[3];
  std::size_t globalRange[3], localRange[3], groupRange[3];
  std::size_t globalLinear, localLinear, groupLinear;
  std::size_t groupObjectId[3], groupLinearRange, localLinearRange;
  int leader;
  int visits;
};

template <int D> void run(sycl::queue &q, const std::size_t (&global)[D], const std::size_t (&local)[D]) {
  sycl::range<D> g, l;
  std::size_t total = 1, groupCount = 1;
  for (int d = 0; d < D; ++d) {
    g[d] = global[d];
    l[d] = local[d];
    total *= global[d];
    groupCount *= global[d] / local[d];
  }
  const std::string what = std::to_string(D) + "-D nd_range " + rangeText(global, D) + " / " + rangeText(local, D);
  record *out = sycl::malloc_shared<record>(total + 1, q);
  q.memset(out, 0, (total + 1) * sizeof(record)).wait();
  q.parallel_for(sycl::nd_range<D>(g, l), [=](sycl::nd_item<D> it) {
     // The slot comes from the global ids and ranges, independently of the linear-id queries.
     std::size_t slot = 0;
     for (int d = 0; d < D; ++d) slot = slot * it.get_global_range(d) + it.get_global_id(d);
     record &rec = out[slot];
     const sycl::group<D> grp = it.get_group();
     for (int d = 0; d < D; ++d) {
       rec.global[d] = it.get_global_id()[d];
       rec.local[d] = it.get_local_id(d);
       rec.group[d] = it.get_group(d);
       rec.globalRange[d] = it.get_global_range()[d];
       rec.localRange[d] = it.get_local_range(d);
       rec.groupRange[d] = it.get_group_range()[d];
       rec.groupObjectId[d] = grp[d];
     }
     rec.globalLinear = it.get_global_linear_id();
     rec.localLinear = it.get_local_linear_id();
     rec.groupLinear = it.get_group_linear_id();
     rec.groupLinearRange = grp.get_group_linear_range();
     rec.localLinearRange = grp.get_local_linear_range();
     rec.leader = grp.leader() ? 1 : 0;
     rec.visits += 1;
   }).wait();

  int shown = 0;
  std::size_t bad = 0, leaders = 0;
  for (std::size_t linear = 0; linear < total; ++linear) {
    std::size_t ids[3] = {0, 0, 0}, rest = linear;
    for (int d = D - 1; d >= 0; --d) {
      ids[d] = rest % global[d];
      rest /= global[d];
    }
    std::size_t localLinear = 0, groupLinear = 0;
    for (int d = 0; d < D; ++d) {
      localLinear = localLinear * local[d] + ids[d] % local[d];
      groupLinear = groupLinear * (global[d] / local[d]) + ids[d] / local[d];
    }
    const record &rec = out[linear];
    bool ok = rec.visits == 1 && rec.globalLinear == linear && rec.localLinear == localLinear &&
              rec.groupLinear == groupLinear && rec.groupLinearRange == groupCount &&
              rec.localLinearRange == total / groupCount && rec.leader == (localLinear == 0 ? 1 : 0);
    for (int d = 0; d < D; ++d)
      ok = ok && rec.global[d] == ids[d] && rec.local[d] == ids[d] % local[d] && rec.group[d] == ids[d] / local[d] &&
           rec.globalRange[d] == global[d] && rec.localRange[d] == local[d] &&
           rec.groupRange[d] == global[d] / local[d] && rec.groupObjectId[d] == ids[d] / local[d];
    leaders += rec.leader;
    if (ok) continue;
    ++bad;
    if (shown++ >= 6) continue;
    const std::string where = what + " work-item " + std::to_string(linear);
    checkEqual(where + " visits", 1, rec.visits);
    checkEqual(where + " get_global_linear_id", linear, rec.globalLinear);
    checkEqual(where + " get_local_linear_id", localLinear, rec.localLinear);
    checkEqual(where + " get_group_linear_id", groupLinear, rec.groupLinear);
    checkEqual(where + " get_group_linear_range", groupCount, rec.groupLinearRange);
    checkEqual(where + " leader", localLinear == 0 ? 1 : 0, rec.leader);
    for (int d = 0; d < D; ++d) {
      const std::string dim = "[" + std::to_string(d) + "]";
      checkEqual(where + " global id" + dim, ids[d], rec.global[d]);
      checkEqual(where + " local id" + dim, ids[d] % local[d], rec.local[d]);
      checkEqual(where + " group id" + dim, ids[d] / local[d], rec.group[d]);
      checkEqual(where + " group object id" + dim, ids[d] / local[d], rec.groupObjectId[d]);
      checkEqual(where + " global range" + dim, global[d], rec.globalRange[d]);
      checkEqual(where + " local range" + dim, local[d], rec.localRange[d]);
      checkEqual(where + " group range" + dim, global[d] / local[d], rec.groupRange[d]);
    }
  }
  if (bad > 6) checkEqual(what + ": work-items that differ", std::size_t(0), bad);
  checkEqual(what + ": one leader per group", groupCount, leaders);
  checkEqual(what + ": record past the end untouched", 0, out[total].visits);
  sycl::free(out, q);
}

}  // namespace

int main() {
  sycl::queue q;
  std::printf("Running on: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  const std::size_t maxGroup = q.get_device().get_info<sycl::info::device::max_work_group_size>();

  run<1>(q, {1024}, {64});
  run<1>(q, {96}, {96});
  run<1>(q, {7 * 13}, {7});  // groups narrower than a SIMD lane count, odd counts
  run<1>(q, {5}, {1});
  run<2>(q, {64, 48}, {8, 16});
  run<2>(q, {6, 40}, {3, 5});
  run<3>(q, {8, 12, 20}, {2, 3, 4});
  run<3>(q, {4, 4, 64}, {4, 1, 16});

  // An empty global range runs nothing, whatever the local range (§3.7.2.2).
  int *touched = sycl::malloc_shared<int>(1, q);
  *touched = 0;
  q.parallel_for(sycl::nd_range<1>(sycl::range<1>(0), sycl::range<1>(0)), [=](sycl::nd_item<1>) {
     *touched = 1;
   }).wait();
  q.parallel_for(sycl::nd_range<2>(sycl::range<2>(0, 8), sycl::range<2>(3, 3)), [=](sycl::nd_item<2>) {
     *touched = 1;
   }).wait();
  checkEqual("empty nd_ranges run no work-item", 0, *touched);

  // Errors, before anything runs (§4.9.4.2.3).
  checkThrows("global 100 not a multiple of local 32", sycl::errc::nd_range, [&] {
    q.parallel_for(sycl::nd_range<1>(sycl::range<1>(100), sycl::range<1>(32)), [=](sycl::nd_item<1>) { *touched = 2; });
  });
  checkThrows("global {16, 10} not a multiple of local {4, 4}", sycl::errc::nd_range, [&] {
    q.parallel_for(sycl::nd_range<2>(sycl::range<2>(16, 10), sycl::range<2>(4, 4)),
                   [=](sycl::nd_item<2>) { *touched = 2; });
  });
  checkThrows("a zero local range", sycl::errc::nd_range, [&] {
    q.parallel_for(sycl::nd_range<1>(sycl::range<1>(16), sycl::range<1>(0)), [=](sycl::nd_item<1>) { *touched = 2; });
  });
  checkThrows("a work-group larger than the device's maximum (" + std::to_string(maxGroup) + ")", sycl::errc::nd_range,
              [&] {
                q.parallel_for(sycl::nd_range<1>(sycl::range<1>(4 * maxGroup), sycl::range<1>(2 * maxGroup)),
                               [=](sycl::nd_item<1>) { *touched = 2; });
              });
  // info::device::max_work_item_sizes: each at most the largest group, and
  // the 1-D limit is the 3-D one's last dimension. A local range beyond it in
  // one dimension (while the group is small enough) is an error too.
  const sycl::range<3> most = q.get_device().get_info<sycl::info::device::max_work_item_sizes<3>>();
  const sycl::range<1> most1 = q.get_device().get_info<sycl::info::device::max_work_item_sizes<1>>();
  check("max_work_item_sizes<3> are between 1 and max_work_group_size", most[0] >= 1 && most[1] >= 1 && most[2] >= 1 &&
                                                                            most[0] <= maxGroup &&
                                                                            most[1] <= maxGroup && most[2] <= maxGroup);
  checkEqual("max_work_item_sizes<1> is the last dimension of max_work_item_sizes<3>", most[2], most1[0]);
  if (most[0] < maxGroup) {
    checkThrows("a local range beyond max_work_item_sizes in dimension 0 (" + std::to_string(most[0]) + ")",
                sycl::errc::nd_range, [&] {
                  q.parallel_for(
                      sycl::nd_range<3>(sycl::range<3>(2 * most[0] + 2, 1, 1), sycl::range<3>(most[0] + 1, 1, 1)),
                      [=](sycl::nd_item<3>) { *touched = 2; });
                });
  } else {
    std::printf("(this device allows its largest work-group in every dimension: no per-dimension limit to test)\n");
  }
  q.wait();
  checkEqual("no rejected kernel ran", 0, *touched);
  sycl::free(touched, q);
  {
    // §4.9.1.1: the logical, relational and unary operators of range and id
    // are element-wise; an item converts to one with an offset.
    sycl::range<2> a(3, 0), b(2, 5);
    onepass_test::check("range && range", (a && b) == sycl::range<2>(1, 0));
    onepass_test::check("range || range", (a || b) == sycl::range<2>(1, 1));
    onepass_test::check("range < range", (a < b) == sycl::range<2>(0, 1));
    onepass_test::check("range >= size_t", (a >= 3) == sycl::range<2>(1, 0));
    onepass_test::check("size_t > id", (2 > sycl::id<2>(1, 4)) == sycl::id<2>(1, 0));
    sycl::id<2> i(4, 7);
    onepass_test::check("unary -", (-i)[0] == std::size_t(-4));
    onepass_test::check("prefix ++", (++i) == sycl::id<2>(5, 8));
    onepass_test::check("postfix --", (i--) == sycl::id<2>(5, 8) && i == sycl::id<2>(4, 7));
    std::size_t *seen = sycl::malloc_shared<std::size_t>(2, q);
    q.parallel_for(sycl::range<1>(4), [=](sycl::item<1> it) {
       sycl::item<1, true> withOffset = it;
       if (it.get_id(0) == 3) {
         seen[0] = withOffset.get_id(0);
         seen[1] = withOffset.get_offset()[0];
       }
     }).wait();
    onepass_test::check("item<1> to item<1, true>", seen[0] == 3 && seen[1] == 0);
    q.parallel_for(sycl::range<1>(4), [=](sycl::item<1, false> it) {
       if (it.get_id(0) == 2) seen[0] = it.get_linear_id();
     }).wait();
    onepass_test::check("a kernel taking item<1, false>", seen[0] == 2);
    sycl::free(seen, q);
  }
  {
    // Deprecated nd_range offsets (§4.9.1.2): global ids start at the offset,
    // the linear id does not count it, local and group ids are unchanged.
    constexpr std::size_t n0 = 8, n1 = 12;
    std::size_t *out = sycl::malloc_shared<std::size_t>(n0 * n1 * 4, q);
    q.parallel_for(sycl::nd_range<2>(sycl::range<2>(n0, n1), sycl::range<2>(4, 6), sycl::id<2>(3, 5)),
                   [=](sycl::nd_item<2> it) {
                     std::size_t l = it.get_global_linear_id();
                     out[4 * l + 0] = it.get_global_id(0) * 100 + it.get_global_id()[1];
                     out[4 * l + 1] = it.get_offset()[0] * 100 + it.get_nd_range().get_offset()[1];
                     out[4 * l + 2] = it.get_group(0) * 100 + it.get_local_id(1);
                     out[4 * l + 3] = l;
                   })
        .wait();
    bool ok = true;
    for (std::size_t i = 0; i < n0 && ok; ++i)
      for (std::size_t j = 0; j < n1 && ok; ++j) {
        std::size_t l = i * n1 + j;
        ok = out[4 * l] == (i + 3) * 100 + j + 5 && out[4 * l + 1] == 305 &&
             out[4 * l + 2] == (i / 4) * 100 + j % 6 && out[4 * l + 3] == l;
        if (!ok) std::printf("offset nd_range: (%zu, %zu) got %zu %zu %zu %zu\n", i, j, out[4 * l], out[4 * l + 1],
                             out[4 * l + 2], out[4 * l + 3]);
      }
    check("parallel_for(nd_range with offset): ids, offset, linear id", ok);
    // The CTS's forms: a kernel taking a type converted from nd_item, and
    // one taking a kernel_handler too.
    struct Custom {
      Custom(sycl::nd_item<1> it) : global(it.get_global_id(0)) {}
      std::size_t global;
    };
    q.parallel_for<class offset_custom>(sycl::nd_range<1>(sycl::range<1>(8), sycl::range<1>(4), sycl::id<1>(2)),
                                        [=](Custom c) { out[c.global] = c.global + 1000; })
        .wait();
    q.parallel_for(sycl::nd_range<1>(sycl::range<1>(8), sycl::range<1>(4), sycl::id<1>(10)),
                   [=](sycl::nd_item<1> it, sycl::kernel_handler) { out[it.get_global_id(0)] = 2000; })
        .wait();
    bool forms = true;
    for (std::size_t i = 2; i < 10; ++i) forms = forms && out[i] == i + 1000;
    for (std::size_t i = 10; i < 18; ++i) forms = forms && out[i] == 2000;
    check("nd_range offsets with a converted nd_item and with a kernel_handler", forms);
    sycl::free(out, q);
  }
  return onepass_test::report();
}
