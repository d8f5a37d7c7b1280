// Issue 21: the error paths the SYCL 2020 specification names. Each misuse
// below is one the spec's text says must throw a sycl::exception with a given
// errc; the program provokes it, checks the code, and then checks that the
// queue still runs a kernel and a memcpy (a rejected call leaves nothing
// half-submitted behind). Cases that need a second device (a device outside
// a context) run only where there is one.
#include "check.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

using onepass_test::check;
using onepass_test::checkEqual;
using onepass_test::checkThrows;

class FirstKernel;
class SecondKernel;
class NeedsGpuAndCpu;
class UsesScale;
class OnlyOnGpus;
class WithSecondaryQueue;
class OnlyOnCpus;

namespace {

constexpr sycl::specialization_id<int> kScale(3);

int &casesProvoked() {
  static int count = 0;
  return count;
}

// The queue still works: a kernel fills device memory and a memcpy brings it
// back. A different pattern each time, so an earlier result cannot pass.
void checkQueueWorks(sycl::queue &q, const std::string &after) {
  constexpr std::size_t kCount = 64;
  static int round = 0;
  const int seed = ++round * 1000;
  int *device = sycl::malloc_device<int>(kCount, q);
  std::vector<int> host(kCount, -1);
  sycl::event filled =
      q.parallel_for(sycl::range<1>(kCount), [=](sycl::id<1> i) { device[i] = seed + static_cast<int>(i[0]); });
  q.memcpy(host.data(), device, kCount * sizeof(int), filled);  // the queue is out of order
  q.wait_and_throw();
  onepass_test::checkArray("the queue after " + after, kCount, host.data(),
                           [&](std::size_t i) { return seed + static_cast<int>(i); });
  sycl::free(device, q);
}

// One case: `body` must throw errc `code`, and the queue works afterwards.
template <typename Body> void expectErrc(sycl::queue &q, const std::string &what, sycl::errc code, Body &&body) {
  ++casesProvoked();
  checkThrows(what, code, body);
  checkQueueWorks(q, what);
}

bool hasSecondDevice(const sycl::queue &q, sycl::device &other) {
  for (const sycl::device &d : sycl::device::get_devices())
    if (d != q.get_device()) {
      other = d;
      return true;
    }
  return false;
}

// §3.7.1 / §4.9.4: one command group executes at most one command.
void commandGroups(sycl::queue &q) {
  int *a = sycl::malloc_shared<int>(4, q);
  std::fill(a, a + 4, 0);
  expectErrc(q, "a kernel and a host_task in one command group", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.single_task([=] { a[0] = 1; });
      h.host_task([=] { a[1] = 1; });
    });
  });
  expectErrc(q, "a memcpy and a kernel in one command group", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.memcpy(a + 2, a, sizeof(int));
      h.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { a[i] = 2; });
    });
  });
  q.wait();
  checkEqual("rejected command groups ran nothing", 0, a[0] + a[1] + a[2] + a[3]);
  sycl::free(a, q);
}

// §4.9.4.2.3: the global range must be a multiple of the local range;
// §5.8.1: reqd_work_group_size must match the launch's local range.
void ndRanges(sycl::queue &q) {
  int *touched = sycl::malloc_shared<int>(1, q);
  *touched = 0;
  expectErrc(q, "nd_range: global 100 not a multiple of local 32", sycl::errc::nd_range, [&] {
    q.parallel_for(sycl::nd_range<1>(sycl::range<1>(100), sycl::range<1>(32)), [=](sycl::nd_item<1>) { *touched = 1; });
  });
  expectErrc(q, "nd_range: global {8,8,6} not a multiple of local {2,2,4}", sycl::errc::nd_range, [&] {
    q.parallel_for(sycl::nd_range<3>(sycl::range<3>(8, 8, 6), sycl::range<3>(2, 2, 4)),
                   [=](sycl::nd_item<3>) { *touched = 1; });
  });
  // The spec names no errc for a work-group above the device's maximum;
  // OnePass reports it as errc::nd_range (the "nd_range" meaning of §4.13.2).
  const std::size_t maxGroup = q.get_device().get_info<sycl::info::device::max_work_group_size>();
  expectErrc(q, "nd_range: a work-group of max_work_group_size + 1", sycl::errc::nd_range, [&] {
    q.parallel_for(sycl::nd_range<1>(sycl::range<1>(maxGroup + 1), sycl::range<1>(maxGroup + 1)),
                   [=](sycl::nd_item<1>) { *touched = 1; });
  });
  expectErrc(q, "reqd_work_group_size(8) launched with groups of 4", sycl::errc::nd_range, [&] {
    q.parallel_for(sycl::nd_range<1>(sycl::range<1>(16), sycl::range<1>(4)),
                   [=](sycl::nd_item<1>) [[sycl::reqd_work_group_size(8)]] { *touched = 1; });
  });
  q.wait();
  checkEqual("rejected nd_range kernels ran nothing", 0, *touched);
  sycl::free(touched, q);
}

// §4.7.6.11: a local_accessor in a single_task or a parallel_for over a
// range is errc::kernel_argument at submission.
void kernelArguments(sycl::queue &q) {
  int *out = sycl::malloc_shared<int>(4, q);
  std::fill(out, out + 4, 0);
  expectErrc(q, "a local_accessor in a single_task", sycl::errc::kernel_argument, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::local_accessor<int, 1> scratch(sycl::range<1>(4), h);
      h.single_task([=] {
        scratch[0] = 7;
        out[0] = scratch[0];
      });
    });
  });
  expectErrc(q, "a local_accessor in a parallel_for over a range", sycl::errc::kernel_argument, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::local_accessor<int, 1> scratch(sycl::range<1>(4), h);
      h.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) {
        scratch[i] = 7;
        out[i] = scratch[i];
      });
    });
  });
  q.wait();
  checkEqual("rejected kernels with local_accessors ran nothing", 0, out[0] + out[1] + out[2] + out[3]);
  // Not a sentence of the spec, but the errc it defines for this (§4.13.2):
  // more local memory than the device has is errc::memory_allocation.
  const std::size_t available = q.get_device().get_info<sycl::info::device::local_mem_size>();
  expectErrc(q, "a local_accessor larger than the device's local memory", sycl::errc::memory_allocation, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::local_accessor<char, 1> huge(sycl::range<1>(available + 1), h);
      h.parallel_for(sycl::nd_range<1>(4, 4), [=](sycl::nd_item<1> it) {
        huge[it.get_local_id(0)] = 1;
        out[it.get_local_id(0)] = huge[it.get_local_id(0)];
      });
    });
  });
  sycl::free(out, q);
}

// §5.7 / §5.8.1 / §4.11.9: a kernel using what the device lacks, or missing
// from the kernel bundle the command group uses, is errc::kernel_not_supported.
void kernelsNotSupported(sycl::queue &q) {
  int *out = sycl::malloc_shared<int>(8, q);
  std::fill(out, out + 8, 0);
  expectErrc(q, "device_has(aspect::gpu, aspect::cpu): no device has both", sycl::errc::kernel_not_supported, [&] {
    q.parallel_for<NeedsGpuAndCpu>(sycl::range<1>(8),
                                   [=](sycl::item<1> it)
                                       [[sycl::device_has(sycl::aspect::gpu, sycl::aspect::cpu)]] { out[it[0]] = 1; });
  });
  const std::vector<std::size_t> sizes = q.get_device().get_info<sycl::info::device::sub_group_sizes>();
  if (std::find(sizes.begin(), sizes.end(), std::size_t(128)) == sizes.end()) {
    expectErrc(q, "reqd_sub_group_size(128) on a device without it", sycl::errc::kernel_not_supported, [&] {
      q.parallel_for(sycl::nd_range<1>(8, 8),
                     [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(128)]] { out[it.get_global_id(0)] = 2; });
    });
  }
  const sycl::context ctx = q.get_context();
  auto firstOnly = sycl::get_kernel_bundle<sycl::bundle_state::executable>(ctx, {q.get_device()},
                                                                           {sycl::get_kernel_id<FirstKernel>()});
  expectErrc(q, "a kernel missing from the command group's kernel bundle", sycl::errc::kernel_not_supported, [&] {
    q.submit([&](sycl::handler &h) {
      h.use_kernel_bundle(firstOnly);
      h.single_task<SecondKernel>([=] { out[0] = 3; });
    });
  });
  q.wait();
  checkEqual("rejected kernels ran nothing", 0, int(8 - std::count(out, out + 8, 0)));
  q.single_task<FirstKernel>([=] { out[1] = 4; }).wait();
  checkEqual("FirstKernel runs", 4, out[1]);
  sycl::free(out, q);
}

// §4.7.2 buffers, §4.7.6.9 accessors, §4.9.4.3 explicit copies.
void buffersAndAccessors(sycl::queue &q) {
  std::vector<int> data(64);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<int>(i);
  sycl::buffer<int> b(data.data(), sycl::range<1>(64));
  sycl::buffer<int, 2> grid{sycl::range<2>(8, 10)};
  expectErrc(q, "accessor: offset 60 + range 8 > 64", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::range<1>(8), sycl::id<1>(60), sycl::write_only);
      h.single_task([=] { a[0] = -1; });
    });
  });
  expectErrc(q, "host_task accessor: offset 1 + range 64 > 64", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::range<1>(64), sycl::id<1>(1), sycl::read_write_host_task);
      h.host_task([=] { a[0] = -1; });
    });
  });
  expectErrc(q, "2-D accessor: range {9,1} > {8,10}", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(grid, h, sycl::range<2>(9, 1), sycl::read_only);
      h.single_task([=] { (void)a; });
    });
  });
  expectErrc(q, "accessor(read_only, no_init)", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::read_only, sycl::no_init);
      h.single_task([=] { (void)a; });
    });
  });
  expectErrc(q, "sub-buffer past the end (60 + 8 > 64)", sycl::errc::invalid,
             [&] { sycl::buffer<int> sub(b, sycl::id<1>(60), sycl::range<1>(8)); });
  expectErrc(q, "sub-buffer not contiguous (2x5 of 8x10)", sycl::errc::invalid,
             [&] { sycl::buffer<int, 2> sub(grid, sycl::id<2>(0, 0), sycl::range<2>(2, 5)); });
  // §4.7.2.3: a device accesses only sub-buffers whose origin is a multiple
  // of mem_base_addr_align (the accessor's constructor, or handler::require
  // for a placeholder, throws); a host accessor may read one anywhere.
  const std::size_t alignBytes = q.get_device().get_info<sycl::info::device::mem_base_addr_align>() / 8;
  sycl::buffer<int> spare{sycl::range<1>(64)};
  sycl::buffer<int> unaligned(spare, sycl::id<1>(1), sycl::range<1>(8));
  expectErrc(q, "device accessor of a sub-buffer at 4 bytes", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(unaligned, h, sycl::write_only);
      h.single_task([=] { a[0] = 1; });
    });
  });
  expectErrc(q, "handler::require of a placeholder of a sub-buffer at 4 bytes", sycl::errc::invalid, [&] {
    sycl::accessor<int, 1, sycl::access_mode::read> placeholder(unaligned);
    q.submit([&](sycl::handler &h) {
      h.require(placeholder);
      h.single_task([=] { (void)placeholder[0]; });
    });
  });
  check("a host_accessor of a sub-buffer at 4 bytes reads it", [&] {
    sycl::host_accessor a(unaligned, sycl::read_only);
    return a.get_range()[0] == 8;
  }());
  check("mem_base_addr_align is at least 128 bytes (the largest built-in type, double16)", alignBytes >= 128);
  sycl::buffer<int> aligned(spare, sycl::id<1>(alignBytes / sizeof(int)), sycl::range<1>(8));
  q.submit([&](sycl::handler &h) {
     sycl::accessor a(aligned, h, sycl::write_only);
     h.single_task([=] { a[0] = 77; });
   }).wait();
  check("a device accessor of a sub-buffer at mem_base_addr_align writes it",
        sycl::host_accessor(spare, sycl::read_only)[alignBytes / sizeof(int)] == 77);
  sycl::buffer<int> half(b, sycl::id<1>(0), sycl::range<1>(32));
  expectErrc(q, "sub-buffer of a sub-buffer", sycl::errc::invalid,
             [&] { sycl::buffer<int> sub(half, sycl::id<1>(0), sycl::range<1>(8)); });
  expectErrc(q, "reinterpret<int>(range 65) of 64 ints", sycl::errc::invalid,
             [&] { (void)b.reinterpret<int>(sycl::range<1>(65)); });
  sycl::buffer<char> odd{sycl::range<1>(6)};
  expectErrc(q, "reinterpret<int>() of 6 bytes", sycl::errc::invalid, [&] { (void)odd.reinterpret<int>(); });
  sycl::buffer<int> small{sycl::range<1>(4)};
  {
    sycl::host_accessor init(small, sycl::write_only, sycl::no_init);
    for (int i = 0; i < 4; ++i) init[i] = -7;
  }
  expectErrc(q, "copy(accessor, accessor) into a smaller destination", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::accessor from(b, h, sycl::read_only);
      sycl::accessor to(small, h, sycl::write_only);
      h.copy(from, to);
    });
  });
  const std::vector<int> untouched = onepass_test::contents(small);
  onepass_test::checkArray("the rejected copy left the destination alone", untouched.size(), untouched.data(),
                           [](std::size_t) { return -7; });
  expectErrc(q, "buffer::get_property of an absent property", sycl::errc::invalid,
             [&] { (void)b.get_property<sycl::property::buffer::use_host_ptr>(); });
  expectErrc(q, "accessor::get_property of an absent property", sycl::errc::invalid, [&] {
    sycl::host_accessor a(b, sycl::read_only);
    (void)a.get_property<sycl::property::no_init>();
  });
  const std::vector<int> after = onepass_test::contents(b);
  onepass_test::checkArray("the buffer after its rejected uses", after.size(), after.data(),
                           [](std::size_t i) { return static_cast<int>(i); });
}

// §4.9.2: a buffer reduction needs a buffer of one element; and
// initialize_to_identity needs an identity.
void reductions(sycl::queue &q) {
  sycl::buffer<int> four{sycl::range<1>(4)};
  sycl::buffer<int> none{sycl::range<1>(0)};
  expectErrc(q, "reduction of a buffer of 4 elements", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.parallel_for(sycl::range<1>(8), sycl::reduction(four, h, sycl::plus<int>()),
                     [=](sycl::id<1> i, auto &sum) { sum += static_cast<int>(i[0]); });
    });
  });
  expectErrc(q, "reduction(buffer, identity, combiner) of an empty buffer", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.parallel_for(sycl::range<1>(8), sycl::reduction(none, h, 0, sycl::plus<int>()),
                     [=](sycl::id<1> i, auto &sum) { sum += static_cast<int>(i[0]); });
    });
  });
  int *value = sycl::malloc_shared<int>(1, q);
  *value = 0;
  auto noKnownIdentity = [](int x, int y) { return x + y; };
  expectErrc(q, "initialize_to_identity with no identity", sycl::errc::invalid, [&] {
    (void)sycl::reduction(value, noKnownIdentity, sycl::property::reduction::initialize_to_identity());
  });
  sycl::free(value, q);
}

// §4.6.5 queue, §4.6.3 context, §4.6.6 event, §4.5.4 properties,
// §4.6.4 device, §4.6.1.1 selectors, §4.13.2 exception.
void queuesContextsDevices(sycl::queue &q) {
  expectErrc(q, "queue::get_property of an absent property", sycl::errc::invalid,
             [&] { (void)q.get_property<sycl::property::queue::enable_profiling>(); });
  expectErrc(q, "context::get_property of an absent property", sycl::errc::invalid,
             [&] { (void)q.get_context().get_property<sycl::property::queue::in_order>(); });
  sycl::event plain = q.single_task([] {});
  plain.wait();
  expectErrc(q, "event::get_profiling_info without enable_profiling", sycl::errc::invalid,
             [&] { (void)plain.get_profiling_info<sycl::info::event_profiling::command_end>(); });
  expectErrc(q, "info::device::parent_device of a root device", sycl::errc::invalid,
             [&] { (void)q.get_device().get_info<sycl::info::device::parent_device>(); });
  const auto partitions = q.get_device().get_info<sycl::info::device::partition_properties>();
  if (std::find(partitions.begin(), partitions.end(), sycl::info::partition_property::partition_equally) ==
      partitions.end())
    expectErrc(q, "create_sub_devices<partition_equally> on a device without it", sycl::errc::feature_not_supported,
               [&] { (void)q.get_device().create_sub_devices<sycl::info::partition_property::partition_equally>(1); });
  expectErrc(q, "device(aspect_selector(cpu, gpu)): no device has both", sycl::errc::runtime,
             [] { sycl::device none(sycl::aspect_selector(sycl::aspect::cpu, sycl::aspect::gpu)); });
  expectErrc(q, "queue(a selector rejecting every device)", sycl::errc::runtime,
             [] { sycl::queue none([](const sycl::device &) { return -1; }); });
  expectErrc(q, "exception::get_context without a context", sycl::errc::invalid,
             [] { (void)sycl::exception(sycl::errc::runtime, "no context").get_context(); });
  sycl::device other;
  if (hasSecondDevice(q, other)) {
    sycl::context otherContext(other);
    expectErrc(q, "queue(context, device) with a device the context lacks", sycl::errc::invalid,
               [&] { sycl::queue wrong(otherContext, q.get_device()); });
  } else {
    std::printf("(one device: no device outside a context to test queue(context, device) with)\n");
  }
}

// §4.8.3 USM.
void usm(sycl::queue &q) {
  int onStack = 0;
  expectErrc(q, "get_pointer_device of a pointer that is no USM allocation", sycl::errc::invalid,
             [&] { (void)sycl::get_pointer_device(&onStack, q.get_context()); });
  sycl::device other;
  if (hasSecondDevice(q, other)) {
    sycl::context otherContext(other);
    expectErrc(q, "malloc_device with a device the context lacks", sycl::errc::invalid,
               [&] { (void)sycl::malloc_device(64, q.get_device(), otherContext); });
    expectErrc(q, "malloc_shared with a device the context lacks", sycl::errc::invalid,
               [&] { (void)sycl::malloc_shared(64, q.get_device(), otherContext); });
  }
}

// §4.11 kernel bundles, §4.9.4.4 use_kernel_bundle, §4.9.5 specialization
// constants.
void kernelBundles(sycl::queue &q) {
  const sycl::device dev = q.get_device();
  const sycl::context ctx = q.get_context();
  const sycl::kernel_id first = sycl::get_kernel_id<FirstKernel>();
  expectErrc(q, "has_kernel_bundle with no devices", sycl::errc::invalid,
             [&] { (void)sycl::has_kernel_bundle<sycl::bundle_state::executable>(ctx, std::vector<sycl::device>{}); });
  expectErrc(q, "get_kernel_bundle of a kernel no device of the list runs", sycl::errc::invalid, [&] {
    (void)sycl::get_kernel_bundle<sycl::bundle_state::executable>(ctx, {dev}, {sycl::get_kernel_id<NeedsGpuAndCpu>()});
  });
  auto input = sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, {dev}, {first});
  expectErrc(q, "compile for no devices", sycl::errc::invalid,
             [&] { (void)sycl::compile(input, std::vector<sycl::device>{}); });
  auto object = sycl::compile(input);
  expectErrc(q, "link for no devices", sycl::errc::invalid,
             [&] { (void)sycl::link(object, std::vector<sycl::device>{}); });
  expectErrc(q, "get_kernel_bundle(context, devices, selector) with no devices", sycl::errc::invalid, [&] {
    (void)sycl::get_kernel_bundle<sycl::bundle_state::executable>(
        ctx, std::vector<sycl::device>{},
        [](const sycl::device_image<sycl::bundle_state::executable> &) { return true; });
  });
  sycl::context ctxA(dev), ctxB(dev);
  auto inA = sycl::get_kernel_bundle<sycl::bundle_state::executable>(ctxA, {dev}, {first});
  auto inB = sycl::get_kernel_bundle<sycl::bundle_state::executable>(ctxB, {dev}, {first});
  expectErrc(q, "join of bundles of two contexts", sycl::errc::invalid, [&] {
    (void)sycl::join(std::vector<sycl::kernel_bundle<sycl::bundle_state::executable>>{inA, inB});
  });
  auto objectA = sycl::compile(sycl::get_kernel_bundle<sycl::bundle_state::input>(ctxA, {dev}, {first}));
  auto objectB = sycl::compile(sycl::get_kernel_bundle<sycl::bundle_state::input>(ctxB, {dev}, {first}));
  expectErrc(q, "link of object bundles of two contexts", sycl::errc::invalid, [&] {
    (void)sycl::link(std::vector<sycl::kernel_bundle<sycl::bundle_state::object>>{objectA, objectB});
  });
  auto firstOnly = sycl::get_kernel_bundle<sycl::bundle_state::executable>(ctx, {dev}, {first});
  expectErrc(q, "kernel_bundle::get_kernel<Name> of a kernel not in the bundle", sycl::errc::invalid,
             [&] { (void)firstOnly.get_kernel<SecondKernel>(); });
  expectErrc(q, "kernel_bundle::get_kernel(id) of a kernel not in the bundle", sycl::errc::invalid,
             [&] { (void)firstOnly.get_kernel(sycl::get_kernel_id<SecondKernel>()); });
  const sycl::kernel k = firstOnly.get_kernel<FirstKernel>();
  expectErrc(q, "info::kernel::num_args of a SYCL kernel", sycl::errc::invalid,
             [&] { (void)k.get_info<sycl::info::kernel::num_args>(); });
  expectErrc(q, "info::kernel_device_specific::global_work_size of a SYCL kernel", sycl::errc::invalid,
             [&] { (void)k.get_info<sycl::info::kernel_device_specific::global_work_size>(dev); });
  int *out = sycl::malloc_shared<int>(1, q);
  *out = 0;
  auto scaleBundle =
      sycl::get_kernel_bundle<sycl::bundle_state::executable>(ctx, {dev}, {sycl::get_kernel_id<UsesScale>()});
  expectErrc(q, "handler::get_specialization_constant after use_kernel_bundle", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.use_kernel_bundle(scaleBundle);
      (void)h.get_specialization_constant<kScale>();
    });
  });
  expectErrc(q, "handler::set_specialization_constant after use_kernel_bundle", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.use_kernel_bundle(scaleBundle);
      h.set_specialization_constant<kScale>(5);
    });
  });
  expectErrc(q, "handler::use_kernel_bundle after set_specialization_constant", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.set_specialization_constant<kScale>(5);
      h.use_kernel_bundle(scaleBundle);
    });
  });
  expectErrc(q, "handler::use_kernel_bundle of a bundle of another context", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.use_kernel_bundle(inA);
      h.single_task<FirstKernel>([=] { *out = -1; });
    });
  });
  {
    // §4.9.4.4: with a secondary queue, the bundle's context must be both
    // queues' (the command group fails on the primary queue, then on the
    // secondary one).
    sycl::queue inContextA(ctxA, dev), inContextB(ctxB, dev);
    int *outA = sycl::malloc_shared<int>(1, inContextA);  // memory of the primary queue's context
    *outA = 0;
    auto bundleA = sycl::get_kernel_bundle<sycl::bundle_state::executable>(
        ctxA, {dev}, {sycl::get_kernel_id<WithSecondaryQueue>()});
    expectErrc(q, "use_kernel_bundle with a secondary queue of another context", sycl::errc::invalid, [&] {
      inContextA.submit(
          [&](sycl::handler &h) {
            h.use_kernel_bundle(bundleA);
            h.single_task<WithSecondaryQueue>([=] { *outA = -1; });
          },
          inContextB);
    });
    inContextA.wait();
    checkEqual("the kernel of the rejected command group did not run", 0, *outA);
    sycl::free(outA, inContextA);
  }
  q.submit([&](sycl::handler &h) {
     h.use_kernel_bundle(scaleBundle);
     h.single_task<UsesScale>([=](sycl::kernel_handler kh) { *out = kh.get_specialization_constant<kScale>(); });
   }).wait();
  checkEqual("the bundle's kernel runs with the default constant after the rejected uses", 3, *out);
  sycl::device other;
  if (hasSecondDevice(q, other)) {
    expectErrc(q, "get_kernel_bundle with a device the context lacks", sycl::errc::invalid,
               [&] { (void)sycl::get_kernel_bundle<sycl::bundle_state::executable>(sycl::context(other), {dev}); });
    // §5.7: a kernel of a command group with a secondary queue must suit
    // both devices, even where the primary one could run it.
    sycl::queue secondary(other);
    if (dev.is_gpu() != other.is_gpu()) {
      expectErrc(q, "a kernel that suits the primary queue's device only, with a secondary queue",
                 sycl::errc::kernel_not_supported, [&] {
                   if (dev.is_gpu())
                     q.submit([&](sycl::handler &h) {
                        h.single_task<OnlyOnGpus>([=]() [[sycl::device_has(sycl::aspect::gpu)]] { *out = -2; });
                      }, secondary);
                   else
                     q.submit([&](sycl::handler &h) {
                        h.single_task<OnlyOnCpus>([=]() [[sycl::device_has(sycl::aspect::cpu)]] { *out = -2; });
                      }, secondary);
                 });
      q.wait();
      check("the rejected kernel did not run", *out != -2);
    }
  }
  sycl::free(out, q);
}

// §4.5.1.2 get_native and §4.10.2 interop_handle: asking for another
// backend's native object is errc::backend_mismatch.
void interop(sycl::queue &q) {
  const bool onCuda = q.get_backend() == sycl::backend::cuda;
  if (!onCuda) {
    expectErrc(q, "get_native<cuda>(queue) of a non-CUDA queue", sycl::errc::backend_mismatch,
               [&] { (void)sycl::get_native<sycl::backend::cuda>(q); });
    expectErrc(q, "get_native<cuda>(context) of a non-CUDA context", sycl::errc::backend_mismatch,
               [&] { (void)sycl::get_native<sycl::backend::cuda>(q.get_context()); });
  }
  // Inside a host task the exception reaches the task, which records it.
  sycl::buffer<int> b{sycl::range<1>(4)};
  std::optional<sycl::errc> seen;
  ++casesProvoked();
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_write);
    h.host_task([=, &seen](sycl::interop_handle ih) {
      try {
        if (onCuda) (void)ih.get_native_mem<sycl::backend::ext_onepass_cpu>(a);
        else (void)ih.get_native_mem<sycl::backend::cuda>(a);
      } catch (const sycl::exception &e) {
        seen = static_cast<sycl::errc>(e.code().value());
      }
    });
  });
  q.wait_and_throw();
  check("interop_handle::get_native_mem of another backend threw", seen.has_value());
  if (seen) checkEqual("interop_handle::get_native_mem of another backend", sycl::errc::backend_mismatch, *seen);
  checkQueueWorks(q, "interop_handle::get_native_mem of another backend");
}

}  // namespace

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  onepass_test::runPart("command groups", [&] { commandGroups(q); });
  onepass_test::runPart("nd_ranges", [&] { ndRanges(q); });
  onepass_test::runPart("kernel arguments", [&] { kernelArguments(q); });
  onepass_test::runPart("kernels not supported", [&] { kernelsNotSupported(q); });
  onepass_test::runPart("buffers and accessors", [&] { buffersAndAccessors(q); });
  onepass_test::runPart("reductions", [&] { reductions(q); });
  onepass_test::runPart("queues, contexts, devices", [&] { queuesContextsDevices(q); });
  onepass_test::runPart("USM", [&] { usm(q); });
  onepass_test::runPart("kernel bundles", [&] { kernelBundles(q); });
  onepass_test::runPart("interop", [&] { interop(q); });
  std::printf("%d error cases provoked\n", casesProvoked());
  return onepass_test::report();
}
