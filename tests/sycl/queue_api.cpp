// The queue's API beyond kernels (SYCL 2020 §4.6.5): the common property
// interface (§4.5.4.1) on queue and context, the (context, selector)
// constructors and their errors, info::queue, submit with a secondary queue,
// the explicit-copy shortcuts with shared pointers and accessor to accessor;
// buffers built with an allocator (§4.7.2.1); is_device_copyable (§4.12.3).
#include "check.h"

#include <sycl/sycl.hpp>

#include <memory>
#include <numeric>
#include <optional>
#include <tuple>
#include <vector>

using onepass_test::check;
using onepass_test::checkArray;
using onepass_test::checkEqual;
using onepass_test::checkThrows;

namespace {
struct not_trivial {
  not_trivial(const not_trivial &) {}
  int x;
};
struct declared_copyable {
  declared_copyable(const declared_copyable &) {}
  int x;
};
}  // namespace
template <> struct sycl::is_device_copyable<declared_copyable> : std::true_type {};

int main() {
  // Properties.
  sycl::queue plain;
  sycl::queue ordered{sycl::property_list{sycl::property::queue::in_order()}};
  check("queue without properties: !has_property<in_order>", !plain.has_property<sycl::property::queue::in_order>());
  check("in-order queue: has_property<in_order>", ordered.has_property<sycl::property::queue::in_order>());
  check("in-order queue: !has_property<enable_profiling>",
        !ordered.has_property<sycl::property::queue::enable_profiling>());
  sycl::queue copy = ordered;
  check("a copy of the queue keeps its properties", copy.has_property<sycl::property::queue::in_order>());
  checkThrows("get_property of a property the queue lacks", sycl::errc::invalid,
              [&] { (void)plain.get_property<sycl::property::queue::enable_profiling>(); });
  (void)ordered.get_property<sycl::property::queue::in_order>();
  checkThrows("get_property of a property the context lacks", sycl::errc::invalid,
              [&] { (void)plain.get_context().get_property<sycl::property::queue::in_order>(); });

  // (context, selector) constructors.
  sycl::context ctx{plain.get_device()};
  sycl::queue fromSelector{ctx, sycl::default_selector_v, sycl::property_list{sycl::property::queue::in_order()}};
  check("queue(context, selector): the context", fromSelector.get_context() == ctx);
  check("queue(context, selector): in order", fromSelector.is_in_order());
  check("info::queue::context", fromSelector.get_info<sycl::info::queue::context>() == ctx);
  check("info::queue::device", fromSelector.get_info<sycl::info::queue::device>() == plain.get_device());
  std::optional<sycl::device> other;
  for (const auto &d : sycl::device::get_devices())
    if (d != plain.get_device()) other = d;
  if (other) {
    sycl::context otherContext{*other};
    auto pickFirst = [&](const sycl::device &d) { return d == plain.get_device() ? 1 : -1; };
    checkThrows("queue(context, selector) when the context lacks the device", sycl::errc::invalid,
                [&] { sycl::queue q(otherContext, pickFirst); });
    checkThrows("queue(context, device) when the context lacks the device", sycl::errc::invalid,
                [&] { sycl::queue q(otherContext, plain.get_device()); });
  }

  // submit(cgf, secondary): the primary queue takes it; when the command group
  // cannot be submitted there, the secondary runs it.
  int *value = sycl::malloc_shared<int>(1, plain);
  *value = 0;
  plain.submit([&](sycl::handler &h) { h.single_task([=] { *value = 5; }); }, ordered).wait();
  checkEqual("submit with a secondary queue", 5, *value);
  sycl::free(value, plain);

  // parallel_for with an offset (deprecated): items start at the offset.
  int *offsets = sycl::malloc_shared<int>(12, plain);
  plain.parallel_for(sycl::range<2>(3, 4), sycl::id<2>(10, 20), [=](sycl::item<2> it) {
     offsets[it.get_linear_id()] = static_cast<int>(it.get_id(0) * 1000 + it.get_id(1) * 10 + it.get_offset()[1] / 10);
   }).wait();
  checkArray("parallel_for(range, offset, kernel): ids, offset, linear ids", 12, offsets, [](std::size_t i) {
    return static_cast<int>((10 + i / 4) * 1000 + (20 + i % 4) * 10 + 2);
  });
  plain.submit([&](sycl::handler &h) {
     h.parallel_for(sycl::range<1>(5), sycl::id<1>(7), [=](sycl::id<1> i) { offsets[i[0] - 7] = static_cast<int>(i[0]); });
   }).wait();
  checkArray("parallel_for(range, offset, kernel taking an id)", 5, offsets,
             [](std::size_t i) { return static_cast<int>(7 + i); });
  sycl::free(offsets, plain);

  // parallel_for({N1, N2[, N3]}, kernel): a braced list is a range.
  int *braced = sycl::malloc_shared<int>(24, plain);
  plain.submit([&](sycl::handler &h) {
     h.parallel_for({2, 3}, [=](sycl::item<2> it) { braced[it.get_linear_id()] = static_cast<int>(it.get_range(1)); });
   }).wait();
  plain.submit([&](sycl::handler &h) {
     h.parallel_for({2, 3, 4}, [=](sycl::id<3> i) { braced[6 + (i[0] * 12 + i[1] * 4 + i[2]) % 18] = 9; });
   }).wait();
  checkArray("parallel_for({2, 3}) and ({2, 3, 4})", 24, braced, [](std::size_t i) { return i < 6 ? 3 : 9; });
  sycl::free(braced, plain);

  // Explicit copies with shared pointers and from accessor to accessor.
  constexpr std::size_t n = 64;
  std::shared_ptr<int> src(new int[n], std::default_delete<int[]>());
  std::iota(src.get(), src.get() + n, 10);
  sycl::buffer<int, 1> a{sycl::range<1>(n)}, b{sycl::range<1>(n)};
  plain.copy(src, sycl::accessor(a, sycl::write_only)).wait();
  plain.copy(sycl::accessor(a, sycl::read_only), sycl::accessor(b, sycl::write_only)).wait();
  std::shared_ptr<int> dst(new int[n], std::default_delete<int[]>());
  plain.copy(sycl::accessor(b, sycl::read_only), dst).wait();
  checkArray("shared_ptr -> accessor -> accessor -> shared_ptr", n, dst.get(),
             [](std::size_t i) { return static_cast<int>(10 + i); });

  // Buffers with an allocator and their deduction guides.
  std::vector<int> host(n, 3);
  std::allocator<int> alloc;
  sycl::buffer fromContainer(host, alloc);
  static_assert(std::is_same_v<decltype(fromContainer), sycl::buffer<int, 1, std::allocator<int>>>);
  sycl::buffer fromIterators(host.begin(), host.end(), alloc);
  sycl::buffer<int, 1, std::allocator<int>> fromShared(src, sycl::range<1>(n), alloc);
  {
    sycl::host_accessor c(fromContainer), i(fromIterators), s(fromShared);
    check("buffer(container, allocator)", c[5] == 3 && c.size() == n);
    check("buffer(first, last, allocator)", i[7] == 3 && i.size() == n);
    check("buffer(shared_ptr, range, allocator)", s[2] == 12);
  }

  // set_final_data to a shared_ptr<T[]>: written there at destruction.
  std::shared_ptr<int[]> finalData(new int[n]);
  {
    sycl::buffer<int, 1> source{sycl::range<1>(n)};
    plain.submit([&](sycl::handler &h) {
      sycl::accessor acc(source, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { acc[i] = static_cast<int>(3 * i[0]); });
    });
    source.set_final_data(finalData);
  }
  checkArray("set_final_data(shared_ptr<T[]>)", n, finalData.get(), [](std::size_t i) { return static_cast<int>(3 * i); });

  // is_property_of (§4.5.4.1): each property with the classes it constructs.
  static_assert(sycl::is_property_of_v<sycl::property::queue::in_order, sycl::queue>);
  static_assert(sycl::is_property_of_v<sycl::property::queue::enable_profiling, sycl::queue>);
  static_assert(!sycl::is_property_of_v<sycl::property::queue::in_order, sycl::buffer<int>>);
  static_assert(sycl::is_property_of_v<sycl::property::buffer::use_host_ptr, sycl::buffer<float, 3>>);
  static_assert(sycl::is_property_of_v<sycl::property::buffer::use_mutex, sycl::buffer<int>>);
  static_assert(sycl::is_property_of_v<sycl::property::buffer::context_bound, sycl::buffer<int, 2>>);
  static_assert(!sycl::is_property_of_v<sycl::property::buffer::use_host_ptr, sycl::queue>);
  static_assert(sycl::is_property_of_v<sycl::property::no_init, sycl::accessor<int, 2>>);
  static_assert(sycl::is_property_of_v<sycl::property::no_init, sycl::host_accessor<int>>);
  static_assert(!sycl::is_property_of_v<sycl::property::no_init, sycl::queue>);
  static_assert(std::is_base_of_v<std::true_type, sycl::is_property_of<sycl::property::no_init, sycl::accessor<int>>>);

  // is_device_copyable.
  check("is_device_copyable_v<int>", sycl::is_device_copyable_v<int>);
  check("is_device_copyable_v<std::pair<int, float>>", sycl::is_device_copyable_v<std::pair<int, float>>);
  check("is_device_copyable_v<std::tuple<>>", sycl::is_device_copyable_v<std::tuple<>>);
  check("!is_device_copyable_v<not_trivial>", !sycl::is_device_copyable_v<not_trivial>);
  check("is_device_copyable_v<declared_copyable> (specialized)", sycl::is_device_copyable_v<declared_copyable>);
  check("is_device_copyable_v<const declared_copyable[4]>", sycl::is_device_copyable_v<const declared_copyable[4]>);
  check("is_device_copyable_v<std::optional<declared_copyable>>",
        sycl::is_device_copyable_v<std::optional<declared_copyable>>);
  check("!is_device_copyable_v<std::tuple<int, not_trivial>>", !sycl::is_device_copyable_v<std::tuple<int, not_trivial>>);
  return onepass_test::report();
}
