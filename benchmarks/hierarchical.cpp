// Hierarchical kernels (parallel_for_work_group, SYCL 2020 §4.9.4.2.4)
// against the same work written as nd_range kernels, in one process; the
// ratio is nd_range time / hierarchical time (1.0: as fast):
//   1. a triad, one parallel_for_work_item over each group;
//   2. per-group sums: the work-items load into a work-group scope array, then
//      a loop of the work-group scope halves it with one parallel_for_work_item
//      per step, and the leader writes the group's sum (the nd_range kernel:
//      a local accessor, the same tree, barriers).
// Also timed, as "one item/group": the triad as OnePass ran every hierarchical
// kernel on GPUs before (one work-item per group, looping over its items).
// Each result is checked. Best of 5 rounds of 20 launches.
//   ONEPASS_DEVICE=gpu benchmarks/programs/hierarchical [elements, default 2^24]
#include "timing.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr std::size_t kGroup = 256;

template <typename Launch> double bestSeconds(sycl::queue &q, Launch launch) {
  return bench::bestPerLaunch(5, 20, launch, [&] { q.wait(); });
}

bool close(float got, float want) { return std::fabs(got - want) <= 1e-3f * std::max(1.0f, std::fabs(want)); }

}  // namespace

int main(int argc, char **argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : std::size_t(1) << 24;
  if (n == 0 || n % kGroup != 0) {
    std::fprintf(stderr, "hierarchical: the element count must be a positive multiple of %zu\n", kGroup);
    return 2;
  }
  sycl::queue q;
  const std::size_t groups = n / kGroup;
  float *a = sycl::malloc_device<float>(n, q);
  float *b = sycl::malloc_device<float>(n, q);
  float *c = sycl::malloc_device<float>(n, q);
  float *sums = sycl::malloc_device<float>(groups, q);
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<float>(i % 17) * 0.25f;
  q.memcpy(a, host.data(), n * sizeof(float));
  q.fill(b, 2.0f, n).wait();
  std::printf("hierarchical kernels vs nd_range on %s, %zu elements, groups of %zu\n",
              q.get_device().get_info<sycl::info::device::name>().c_str(), n, kGroup);
  int bad = 0;
  auto check = [&](const char *what, auto want) {
    std::vector<float> got(n);
    q.memcpy(got.data(), c, n * sizeof(float)).wait();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += !close(got[i], want(i));
    if (wrong) std::printf("  WRONG: %s: %zu of %zu elements\n", what, wrong, n);
    bad += wrong != 0;
  };

  // 1. The triad.
  auto triadHier = [&] {
    q.submit([&](sycl::handler &h) {
      h.parallel_for_work_group(sycl::range<1>(groups), sycl::range<1>(kGroup), [=](sycl::group<1> g) {
        g.parallel_for_work_item([&](sycl::h_item<1> it) {
          const std::size_t i = it.get_global_id(0);
          c[i] = a[i] + 3.0f * b[i];
        });
      });
    });
  };
  auto triadNd = [&] {
    q.parallel_for(sycl::nd_range<1>(n, kGroup), [=](sycl::nd_item<1> it) {
      const std::size_t i = it.get_global_id(0);
      c[i] = a[i] + 3.0f * b[i];
    });
  };
  auto triadOnePerGroup = [&] {
    q.parallel_for(sycl::nd_range<1>(groups, 1), [=](sycl::nd_item<1> it) {
      const std::size_t g = it.get_group(0);
      for (std::size_t l = 0; l < kGroup; ++l) c[g * kGroup + l] = a[g * kGroup + l] + 3.0f * b[g * kGroup + l];
    });
  };
  auto triadWant = [&](std::size_t i) { return host[i] + 6.0f; };
  const double tHier = bestSeconds(q, triadHier);
  check("hierarchical triad", triadWant);
  const double tNd = bestSeconds(q, triadNd);
  check("nd_range triad", triadWant);
  const double tOne = bestSeconds(q, triadOnePerGroup);
  check("one-item triad", triadWant);
  std::printf("triad        hierarchical %8.1f us   nd_range %8.1f us   ratio %.3f   one item/group %8.1f us (%.1fx "
              "the hierarchical time)\n",
              tHier * 1e6, tNd * 1e6, tNd / tHier, tOne * 1e6, tOne / tHier);

  // 2. Per-group sums through a work-group scope array.
  auto sumsHier = [&] {
    q.submit([&](sycl::handler &h) {
      h.parallel_for_work_group(sycl::range<1>(groups), sycl::range<1>(kGroup), [=](sycl::group<1> g) {
        float tile[kGroup];
        g.parallel_for_work_item([&](sycl::h_item<1> it) { tile[it.get_local_id(0)] = a[it.get_global_id(0)]; });
        for (std::size_t half = kGroup / 2; half > 0; half /= 2)
          g.parallel_for_work_item(sycl::range<1>(half), [&](sycl::h_item<1> it) {
            const std::size_t l = it.get_logical_local_id(0);
            tile[l] += tile[l + half];
          });
        sums[g.get_group_id(0)] = tile[0];
      });
    });
  };
  auto sumsNd = [&] {
    q.submit([&](sycl::handler &h) {
      sycl::local_accessor<float, 1> tile(sycl::range<1>(kGroup), h);
      h.parallel_for(sycl::nd_range<1>(n, kGroup), [=](sycl::nd_item<1> it) {
        const std::size_t l = it.get_local_id(0);
        tile[l] = a[it.get_global_id(0)];
        for (std::size_t half = kGroup / 2; half > 0; half /= 2) {
          sycl::group_barrier(it.get_group());
          if (l < half) tile[l] += tile[l + half];
        }
        if (l == 0) sums[it.get_group(0)] = tile[0];
      });
    });
  };
  auto checkSums = [&](const char *what) {
    std::vector<float> got(groups);
    q.memcpy(got.data(), sums, groups * sizeof(float)).wait();
    std::size_t wrong = 0;
    for (std::size_t g = 0; g < groups; ++g) {
      float want = 0;
      for (std::size_t l = 0; l < kGroup; ++l) want += host[g * kGroup + l];
      wrong += !close(got[g], want);
    }
    if (wrong) std::printf("  WRONG: %s: %zu of %zu sums\n", what, wrong, groups);
    bad += wrong != 0;
  };
  q.fill(sums, -1.0f, groups).wait();
  const double sHier = bestSeconds(q, sumsHier);
  checkSums("hierarchical group sums");
  q.fill(sums, -1.0f, groups).wait();
  const double sNd = bestSeconds(q, sumsNd);
  checkSums("nd_range group sums");
  std::printf("group sums   hierarchical %8.1f us   nd_range %8.1f us   ratio %.3f\n", sHier * 1e6, sNd * 1e6,
              sNd / sHier);

  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(c, q);
  sycl::free(sums, q);
  return bad ? 1 : 0;
}
