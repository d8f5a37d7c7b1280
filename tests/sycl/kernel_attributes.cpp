// SYCL 2020 §5.8.1 kernel attributes, in the three places SYCL puts them (a
// lambda's declarator, before a function object's operator(), between its
// name and parameters): [[sycl::reqd_work_group_size]] and
// [[sycl::reqd_sub_group_size]]. A kernel launched as its attributes require
// runs; an nd_range with another local range is errc::nd_range; a work-group
// larger than the device runs, or a sub-group size the device does not have,
// is errc::kernel_not_supported, before anything runs. Also
// [[sycl::work_group_size_hint]], which has no effect.
#include "check.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

using onepass_test::check;
using onepass_test::checkEqual;
using onepass_test::checkThrows;

namespace {

// Records each work-item's local range as the kernel saw it.
struct Recorder {
  std::size_t *out;
  [[sycl::reqd_work_group_size(4, 8)]] void operator()(sycl::nd_item<2> it) const {
    out[it.get_global_linear_id()] = it.get_local_range(0) * 100 + it.get_local_range(1);
  }
};

struct NameAttributed {
  std::size_t *out;
  void operator() [[sycl::reqd_work_group_size(16)]] (sycl::nd_item<1> it) const {
    out[it.get_global_id(0)] = it.get_local_range(0);
  }
};

void workGroupSizes(sycl::queue &q) {
  const std::size_t count = 64;
  std::size_t *out = sycl::malloc_shared<std::size_t>(count, q);
  auto zero = [&] { std::fill(out, out + count, std::size_t(0)); };

  // A lambda: the attribute after the parameter list.
  zero();
  q.parallel_for(sycl::nd_range<1>(count, 32), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(32)]] {
     out[it.get_global_id(0)] = it.get_local_range(0);
   }).wait();
  checkEqual("lambda with reqd_work_group_size(32): work-items that saw groups of 32", std::size_t(count),
             std::size_t(std::count(out, out + count, std::size_t(32))));
  checkThrows("lambda with reqd_work_group_size(32) launched with groups of 16", sycl::errc::nd_range, [&] {
    q.parallel_for(sycl::nd_range<1>(count, 16),
                   [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(32)]] { out[it.get_global_id(0)] = 1; });
  });

  // Function objects: before the declaration, and after the name.
  zero();
  q.parallel_for(sycl::nd_range<2>({8, 8}, {4, 8}), Recorder{out}).wait();
  checkEqual("function object with reqd_work_group_size(4, 8): work-items that saw groups of 4 x 8", std::size_t(count),
             std::size_t(std::count(out, out + count, std::size_t(408))));
  checkThrows("function object with reqd_work_group_size(4, 8) launched with groups of 8 x 4", sycl::errc::nd_range,
              [&] {
                q.parallel_for(sycl::nd_range<2>({8, 8}, {8, 4}), Recorder{out});
              });
  zero();
  q.parallel_for(sycl::nd_range<1>(count, 16), NameAttributed{out}).wait();
  checkEqual("reqd_work_group_size(16) between operator() and its parameters: work-items that saw groups of 16",
             std::size_t(count), std::size_t(std::count(out, out + count, std::size_t(16))));
  checkThrows("reqd_work_group_size(16) between operator() and its parameters, groups of 32", sycl::errc::nd_range,
              [&] { q.parallel_for(sycl::nd_range<1>(count, 32), NameAttributed{out}); });

  // More than any device here runs: not supported, whatever the nd_range.
  checkThrows("reqd_work_group_size(1 << 20)", sycl::errc::kernel_not_supported, [&] {
    q.parallel_for(sycl::nd_range<1>(1 << 20, 1 << 20),
                   [=](sycl::nd_item<1> it)
                       [[sycl::reqd_work_group_size(1 << 20)]] { out[0] = it.get_local_range(0); });
  });
  // Beyond 32 bits (the CTS's optional_kernel_features): the program compiles,
  // the launch is not supported.
  checkThrows("reqd_work_group_size(2^32)", sycl::errc::kernel_not_supported, [&] {
    q.parallel_for(sycl::nd_range<1>(1, 1), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(4294967296ull)]] {
      out[0] = it.get_local_range(0);
    });
  });
  // A hint changes nothing.
  zero();
  q.parallel_for(sycl::nd_range<1>(count, 8), [=](sycl::nd_item<1> it) [[sycl::work_group_size_hint(64)]] {
     out[it.get_global_id(0)] = it.get_local_range(0);
   }).wait();
  checkEqual("work_group_size_hint(64) launched with groups of 8: work-items that saw groups of 8", std::size_t(count),
             std::size_t(std::count(out, out + count, std::size_t(8))));
  sycl::free(out, q);
}

// A hierarchical kernel's work-group size is its parallel_for_work_group's
// (its device work-groups are of one work-item): the attribute is checked
// against that, on a lambda and on a function object with several operators.
struct GroupRecorder {
  std::size_t *out;
  [[sycl::reqd_work_group_size(8)]] void operator()(sycl::nd_item<1> it) const { out[it.get_global_id(0)] = 1; }
  [[sycl::reqd_work_group_size(4, 2)]] void operator()(sycl::group<2> g) const {
    g.parallel_for_work_item([&](sycl::h_item<2> item) {
      out[item.get_global().get_linear_id()] = g.get_local_range(0) * 100 + g.get_local_range(1);
    });
  }
};

void hierarchicalSizes(sycl::queue &q) {
  const std::size_t count = 32;
  std::size_t *out = sycl::malloc_shared<std::size_t>(count, q);
  std::fill(out, out + count, std::size_t(0));
  q.submit([&](sycl::handler &h) {
     h.parallel_for_work_group(sycl::range<1>(4), sycl::range<1>(8),
                               [=](sycl::group<1> g) [[sycl::reqd_work_group_size(8)]] {
                                 g.parallel_for_work_item([&](sycl::h_item<1> item) {
                                   out[item.get_global_id(0)] = item.get_local_range(0);
                                 });
                               });
   }).wait();
  checkEqual("parallel_for_work_group lambda with reqd_work_group_size(8): work-items that saw groups of 8", count,
             std::size_t(std::count(out, out + count, std::size_t(8))));
  checkThrows("parallel_for_work_group lambda with reqd_work_group_size(8), groups of 4", sycl::errc::nd_range, [&] {
    q.submit([&](sycl::handler &h) {
      h.parallel_for_work_group(sycl::range<1>(8), sycl::range<1>(4),
                                [=](sycl::group<1>) [[sycl::reqd_work_group_size(8)]] { out[0] = 0; });
    });
  });
  checkThrows(
      "parallel_for_work_group lambda with reqd_work_group_size(1 << 20)", sycl::errc::kernel_not_supported, [&] {
        q.submit([&](sycl::handler &h) {
          h.parallel_for_work_group(sycl::range<1>(1), sycl::range<1>(1 << 20),
                                    [=](sycl::group<1>) [[sycl::reqd_work_group_size(1 << 20)]] { out[0] = 0; });
        });
      });
  std::fill(out, out + count, std::size_t(0));
  q.submit([&](sycl::handler &h) {
     h.parallel_for_work_group(sycl::range<2>(2, 2), sycl::range<2>(4, 2), GroupRecorder{out});
   }).wait();
  checkEqual("function object's group<2> operator with reqd_work_group_size(4, 2): work-items that saw 4 x 2", count,
             std::size_t(std::count(out, out + count, std::size_t(402))));
  q.parallel_for(sycl::nd_range<1>(count, 8), GroupRecorder{out}).wait();  // its nd_item operator, groups of 8
  checkEqual("the same function object's nd_item<1> operator with reqd_work_group_size(8)", count,
             std::size_t(std::count(out, out + count, std::size_t(1))));
  checkThrows("function object's group<2> operator with reqd_work_group_size(4, 2), groups of 2 x 4",
              sycl::errc::nd_range, [&] {
                q.submit([&](sycl::handler &h) {
                  h.parallel_for_work_group(sycl::range<2>(2, 2), sycl::range<2>(2, 4), GroupRecorder{out});
                });
              });
  sycl::free(out, q);
}

// Runs a kernel that requires sub-groups of `Size`: on a device that has them
// it runs with them, elsewhere it is not supported.
template <std::size_t Size> void requiredSubGroup(sycl::queue &q) {
  const std::vector<std::size_t> sizes = q.get_device().get_info<sycl::info::device::sub_group_sizes>();
  const bool supported = std::find(sizes.begin(), sizes.end(), Size) != sizes.end();
  const std::size_t count = 128;
  std::size_t *out = sycl::malloc_shared<std::size_t>(count, q);
  std::fill(out, out + count, std::size_t(0));
  auto launch = [&] {
    q.parallel_for(sycl::nd_range<1>(count, 64), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(Size)]] {
       out[it.get_global_id(0)] = it.get_sub_group().get_max_local_range()[0];
     }).wait();
  };
  const std::string what = "reqd_sub_group_size(" + std::to_string(Size) + ")";
  if (supported) {
    launch();
    checkEqual(what + ": work-items in sub-groups of that size", std::size_t(count),
               std::size_t(std::count(out, out + count, Size)));
  } else {
    checkThrows(what + " on a device without that size", sycl::errc::kernel_not_supported, launch);
    checkEqual(what + ": work-items that ran", std::size_t(0),
               std::size_t(count - std::count(out, out + count, std::size_t(0))));
  }
  sycl::free(out, q);
}

// [[sycl::device_has(...)]] (§5.8.1, §4.11.9): a kernel runs only on devices
// with every aspect it lists; elsewhere it is incompatible and its launch is
// errc::kernel_not_supported.
struct NeedsGpu {
  int *out;
  [[sycl::device_has(sycl::aspect::gpu)]] void operator()(sycl::item<1> it) const { out[it[0]] = 1; }
};
struct NeedsCpu {
  int *out;
  [[sycl::device_has(sycl::aspect::cpu)]] void operator()(sycl::item<1> it) const { out[it[0]] = 2; }
};
struct NeedsNothing {
  int *out;
  [[sycl::device_has()]] void operator()(sycl::item<1> it) const { out[it[0]] = 3; }
};
class NeedsGpuName;
class NeedsCpuName;

void deviceHas(sycl::queue &q) {
  const bool gpu = q.get_device().is_gpu();
  int *out = sycl::malloc_shared<int>(8, q);
  std::fill(out, out + 8, 0);
  auto runs = [&](const std::string &what, int expected, auto launch) {
    launch();
    checkEqual(what + ": work-items that ran", 8, int(std::count(out, out + 8, expected)));
  };
  auto rejected = [&](const std::string &what, auto launch) {
    checkThrows(what, sycl::errc::kernel_not_supported, launch);
  };
  auto launchGpu = [&] { q.submit([&](sycl::handler &h) { h.parallel_for<NeedsGpuName>(8, NeedsGpu{out}); }).wait(); };
  auto launchCpu = [&] { q.submit([&](sycl::handler &h) { h.parallel_for<NeedsCpuName>(8, NeedsCpu{out}); }).wait(); };
  if (gpu) runs("device_has(aspect::gpu) on a GPU", 1, launchGpu);
  else rejected("device_has(aspect::gpu) on a device without aspect::gpu", launchGpu);
  if (!gpu) runs("device_has(aspect::cpu) on the CPU device", 2, launchCpu);
  else rejected("device_has(aspect::cpu) on a device without aspect::cpu", launchCpu);
  runs("device_has() (no aspects)", 3, [&] { q.parallel_for(8, NeedsNothing{out}).wait(); });
  // §4.11.9: is_compatible and the bundles follow the attribute.
  const sycl::device dev = q.get_device();
  checkEqual("is_compatible of device_has(aspect::gpu)", gpu, sycl::is_compatible<NeedsGpuName>(dev));
  checkEqual("is_compatible of device_has(aspect::cpu)", !gpu, sycl::is_compatible<NeedsCpuName>(dev));
  checkEqual("has_kernel_bundle of device_has(aspect::gpu)", gpu,
             sycl::has_kernel_bundle<NeedsGpuName, sycl::bundle_state::executable>(q.get_context(), {dev}));
  // Aspects named without sycl:: (a using-directive), several at once.
  {
    using namespace sycl;
    std::fill(out, out + 8, 0);
    auto both = [&] {
      q.parallel_for(8, [=](item<1> it) [[sycl::device_has(aspect::gpu, aspect::cpu)]] { out[it[0]] = 4; }).wait();
    };
    rejected("device_has(aspect::gpu, aspect::cpu): no device has both", both);
  }
  sycl::free(out, q);
}

// Attribute arguments may be object-like macros (SIZE_MAX: more than any
// device runs, so the launch is errc::kernel_not_supported).
#define ONEPASS_TEST_GROUP (2 * 4)
void macroArguments(sycl::queue &q) {
  const std::size_t count = 64;
  std::size_t *out = sycl::malloc_shared<std::size_t>(count, q);
  std::fill(out, out + count, std::size_t(0));
  q.parallel_for(sycl::nd_range<1>(count, 8), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(
                                                  ONEPASS_TEST_GROUP)]] {
     out[it.get_global_id(0)] = it.get_local_range(0);
   }).wait();
  checkEqual("reqd_work_group_size(ONEPASS_TEST_GROUP), a macro of (2 * 4): work-items that saw groups of 8", count,
             std::size_t(std::count(out, out + count, std::size_t(8))));
  checkThrows("reqd_work_group_size(SIZE_MAX)", sycl::errc::kernel_not_supported, [&] {
    q.parallel_for(sycl::nd_range<1>(1, 1), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(SIZE_MAX)]] {
       out[0] = it.get_local_range(0);
     }).wait();
  });
  sycl::free(out, q);
}

}  // namespace

int main() {
  sycl::queue q;
  std::printf("kernel attributes on '%s'\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  workGroupSizes(q);
  hierarchicalSizes(q);
  requiredSubGroup<8>(q);
  requiredSubGroup<32>(q);
  deviceHas(q);
  macroArguments(q);
  return onepass_test::report();
}
