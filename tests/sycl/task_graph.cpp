// The task graph that buffers build (runtime-spec.md, "Dependencies"; SYCL
// 2020 §3.8.2): command groups whose accessors conflict (overlapping pages, at
// least one writer) run in submission order; the others do not wait for one
// another. Chains of read-modify-write kernels, write-after-read, disjoint
// pages (the page_size property), sub-buffers and reinterpreted views of one
// storage, host accessors in the graph, event wait lists, handler::depends_on
// together with accessors, in-order queues, two queues (and two contexts) on
// one buffer, two devices on one buffer (the CPU and the GPU when there is
// one), and buffers destroyed while their commands are still queued.
#include "check.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

using onepass_test::check;
using onepass_test::checkArray;
using onepass_test::checkEqual;

namespace {

using page_size1 = sycl::ext::onepass::property::buffer::page_size<1>;
using page_size2 = sycl::ext::onepass::property::buffer::page_size<2>;
using status = sycl::info::event_command_status;

// Order-sensitive step: applying steps k = 0..n-1 in another order gives another value.
std::uint64_t step(std::uint64_t v, std::uint64_t k) { return v * 3 + k + 1; }

// Busy work of a few milliseconds inside a kernel; returns a value that
// depends on every iteration so that it cannot be left out.
inline std::uint64_t spin(std::uint64_t seed, int iterations) {
  std::uint64_t x = seed | 1;
  for (int k = 0; k < iterations; ++k) {  // xorshift: no closed form to optimize to
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

bool waitsFor(const sycl::event &e, const sycl::event &dependency) {
  std::vector<sycl::event> list = e.get_wait_list();
  return std::find(list.begin(), list.end(), dependency) != list.end();
}

// Polls until `e` completes or `limit` passes (a dependency that should not
// exist shows as a timeout, not as a hang).
bool completesWithin(const sycl::event &e, std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (e.get_info<sycl::info::event::command_execution_status>() == status::complete) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

using onepass_test::contents;

// --- chains -------------------------------------------------------------------------

// Read-modify-write kernels on one buffer give the serial result; slow
// readers in between see the value of their place in the chain (a writer
// must wait for the readers before it).
void chains(sycl::queue &q) {
  const std::size_t steps = 60;
  std::uint64_t initialValue = 5;
  sycl::buffer<std::uint64_t> v(&initialValue, sycl::range<1>(1));
  sycl::buffer<std::uint64_t> snapshots{sycl::range<1>(steps), {page_size1(sycl::range<1>(1))}};
  sycl::buffer<std::uint64_t> sink{sycl::range<1>(steps), {page_size1(sycl::range<1>(1))}};
  std::vector<std::uint64_t> expected(steps);
  std::uint64_t value = initialValue;
  for (std::size_t k = 0; k < steps; ++k) {
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(v, h, sycl::read_write);
      h.single_task([=] { a[0] = a[0] * 3 + k + 1; });
    });
    value = step(value, k);
    expected[k] = value;
    if (k % 3 == 0) {
      // A slow reader: reads at its end, when a wrongly unordered next writer
      // would already have changed the value.
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(v, h, sycl::read_only);
        sycl::accessor s(snapshots, h, sycl::range<1>(1), sycl::id<1>(k), sycl::write_only, sycl::no_init);
        sycl::accessor d(sink, h, sycl::range<1>(1), sycl::id<1>(k), sycl::write_only, sycl::no_init);
        h.single_task([=] {
          d[0] = spin(k, 400000);
          s[0] = a[0];
        });
      });
    }
  }
  std::vector<std::uint64_t> snaps = contents(snapshots);
  for (std::size_t k = 0; k < steps; k += 3)
    checkEqual("slow reader after step " + std::to_string(k) + " sees its value", expected[k], snaps[k]);
  std::vector<std::uint64_t> result = contents(v);
  checkEqual("chain of 60 read-modify-write kernels on one buffer", value, result[0]);

  // The same over a whole array with parallel_for, mixing 2-D and reinterpreted views.
  const std::size_t n = 4096;
  sycl::buffer<std::uint32_t, 2> grid{sycl::range<2>(64, 64)};
  auto flat = grid.reinterpret<std::uint32_t, 1>(sycl::range<1>(n));
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(grid, h, sycl::write_only, sycl::no_init);
    h.parallel_for(grid.get_range(), [=](sycl::id<2> i) { a[i] = static_cast<std::uint32_t>(i[0] * 64 + i[1]); });
  });
  std::vector<std::uint32_t> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = static_cast<std::uint32_t>(i);
  for (std::uint32_t k = 0; k < 20; ++k) {
    if (k % 2 == 0) {
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(flat, h, sycl::read_write);
        h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = a[i] * 5 + k; });
      });
    } else {
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(grid, h, sycl::read_write);
        h.parallel_for(grid.get_range(), [=](sycl::id<2> i) { a[i] = (a[i] ^ k) + static_cast<std::uint32_t>(i[1]); });
      });
    }
    for (std::size_t i = 0; i < n; ++i)
      want[i] = k % 2 == 0 ? want[i] * 5 + k : (want[i] ^ k) + static_cast<std::uint32_t>(i % 64);
  }
  std::vector<std::uint32_t> got = contents(flat);
  checkArray("20 kernels alternating a 2-D buffer and its 1-D reinterpretation", n, got.data(),
             [&](std::size_t i) { return want[i]; });

  // Sub-buffer and parent: a write through either orders the other.
  sycl::buffer<int> parent{sycl::range<1>(1000)};
  // (At element 384: a multiple of 128 bytes, info::device::mem_base_addr_align.)
  sycl::buffer<int> middle(parent, sycl::id<1>(384), sycl::range<1>(200));
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(parent, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(1000), [=](sycl::id<1> i) { a[i] = static_cast<int>(i[0]); });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(middle, h, sycl::read_write);
    h.single_task([=] {
      int dummy = static_cast<int>(spin(3, 300000) & 1);
      for (std::size_t i = 0; i < 200; ++i) a[i] = a[i] * 2 + dummy - dummy;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(parent, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(1000), [=](sycl::id<1> i) { a[i] += 1; });
  });
  std::vector<int> p = contents(parent);
  checkArray("parent -> sub-buffer (slow) -> parent", 1000, p.data(),
             [](std::size_t i) { return (i >= 384 && i < 584 ? static_cast<int>(i) * 2 : static_cast<int>(i)) + 1; });
}

// --- disjoint pages ---------------------------------------------------------------------

void disjointPages(sycl::queue &q) {
  const std::size_t half = 2048;
  sycl::buffer<int> b{sycl::range<1>(2 * half), {page_size1(sycl::range<1>(half))}};
  checkEqual("page_size property: get_page_size()", half, b.get_property<page_size1>().get_page_size()[0]);
  onepass_test::checkThrows("page_size with a zero extent", sycl::errc::invalid, [] {
    sycl::buffer<int> z{sycl::range<1>(8), {page_size1(sycl::range<1>(0))}};
  });
  onepass_test::checkNoThrow("page_size larger than the buffer", [&] {
    sycl::buffer<int> big{sycl::range<1>(8), {page_size1(sycl::range<1>(1000))}};
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(big, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(8), [=](sycl::id<1> i) { a[i] = static_cast<int>(i[0]); });
    });
    checkEqual("page_size larger than the buffer: element 7", 7, contents(big)[7]);
  });
  sycl::event low = q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::range<1>(half), sycl::id<1>(0), sycl::write_only, sycl::no_init);
    h.single_task([=] {
      int dummy = static_cast<int>(spin(1, 2000000) & 1);
      for (std::size_t i = 0; i < half; ++i) a[i] = static_cast<int>(i) + dummy - dummy;
    });
  });
  sycl::event high = q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::range<1>(half), sycl::id<1>(half), sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(half), [=](sycl::id<1> i) { a[i] = -static_cast<int>(i[0]); });
  });
  checkEqual("kernels on disjoint pages: the second does not wait for the first", false, waitsFor(high, low));
  // Independent: the second can complete while the first (slow) one still runs
  // (on one executor lane it may have to wait for it: only a timeout fails).
  check("kernel on the other page completes", completesWithin(high, std::chrono::seconds(20)));
  sycl::event both = q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(2 * half), [=](sycl::id<1> i) { a[i] *= 3; });
  });
  check("a kernel on both pages waits for the writer of the first", waitsFor(both, low));
  check("a kernel on both pages waits for the writer of the second", waitsFor(both, high));
  std::vector<int> got = contents(b);
  checkArray("kernels on disjoint halves, then one on the whole buffer", 2 * half, got.data(),
             [&](std::size_t i) { return 3 * (i < half ? static_cast<int>(i) : -static_cast<int>(i - half)); });

  // Two readers of one page do not wait for each other.
  sycl::buffer<int> out{sycl::range<1>(2)};
  sycl::event r1 = q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_only);
    sycl::accessor o(out, h, sycl::range<1>(1), sycl::id<1>(0), sycl::write_only);
    h.single_task([=] { o[0] = a[5]; });
  });
  sycl::buffer<int> out2{sycl::range<1>(1)};
  sycl::event r2 = q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_only);
    sycl::accessor o(out2, h, sycl::write_only);
    h.single_task([=] { o[0] = a[half + 5]; });
  });
  checkEqual("two read-only kernels: the second does not wait for the first", false, waitsFor(r2, r1));
  checkEqual("read-only kernel after the writer: value", 15, contents(out)[0]);
  checkEqual("read-only kernel after the writer: value (second)", -15, contents(out2)[0]);

  // 2-D pages: the left and right halves of every row are separate pages.
  sycl::buffer<int, 2> g{sycl::range<2>(16, 16), {page_size2(sycl::range<2>(16, 8))}};
  sycl::event left = q.submit([&](sycl::handler &h) {
    sycl::accessor a(g, h, sycl::range<2>(16, 8), sycl::id<2>(0, 0), sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<2>(16, 8), [=](sycl::id<2> i) { a[i] = static_cast<int>(i[0] * 100 + i[1]); });
  });
  sycl::event right = q.submit([&](sycl::handler &h) {
    sycl::accessor a(g, h, sycl::range<2>(16, 8), sycl::id<2>(0, 8), sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<2>(16, 8), [=](sycl::id<2> i) { a[i] = -static_cast<int>(i[0] * 100 + i[1]); });
  });
  checkEqual("2-D kernels on the left and right column pages: independent", false, waitsFor(right, left));
  sycl::event corner = q.submit([&](sycl::handler &h) {
    sycl::accessor a(g, h, sycl::range<2>(2, 2), sycl::id<2>(7, 7), sycl::read_write);
    h.parallel_for(sycl::range<2>(2, 2), [=](sycl::id<2> i) { a[i] += 1000; });
  });
  check("2-D kernel across both column pages waits for the left writer", waitsFor(corner, left));
  check("2-D kernel across both column pages waits for the right writer", waitsFor(corner, right));
  {
    sycl::host_accessor a(g, sycl::read_only);
    std::vector<int> values;
    for (std::size_t i = 0; i < 16; ++i)
      for (std::size_t j = 0; j < 16; ++j) values.push_back(a[i][j]);
    checkArray("2-D buffer with column pages", 256, values.data(), [](std::size_t k) {
      std::size_t i = k / 16, j = k % 16;
      int v = j < 8 ? static_cast<int>(i * 100 + j) : -static_cast<int>(i * 100 + j - 8);
      return (i == 7 || i == 8) && (j == 7 || j == 8) ? v + 1000 : v;
    });
  }
}

// --- host accessors in the graph -------------------------------------------------------------

void hostAccessorsInGraph(sycl::queue &q) {
  const std::size_t n = 512;
  sycl::buffer<int> b{sycl::range<1>(n), {page_size1(sycl::range<1>(n / 2))}};
  sycl::event reader;
  {
    sycl::host_accessor a(b, sycl::write_only, sycl::no_init);
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<int>(i) * 2;
    reader = q.submit([&](sycl::handler &h) {
      sycl::accessor k(b, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { k[i] += 1; });
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    checkEqual("kernel submitted while a conflicting host_accessor lives: not complete", false,
               reader.get_info<sycl::info::event::command_execution_status>() == status::complete);
    a[7] = 700;  // still the application's: the kernel must see it
  }
  check("the kernel completes once the host_accessor is destroyed", completesWithin(reader, std::chrono::seconds(20)));
  std::vector<int> got = contents(b);
  checkArray("kernel after a host_accessor: sees its writes", n, got.data(),
             [](std::size_t i) { return (i == 7 ? 700 : static_cast<int>(i) * 2) + 1; });

  // A host_accessor of one page does not hold a kernel on the other page.
  {
    sycl::host_accessor a(b, sycl::range<1>(n / 2), sycl::id<1>(0));
    sycl::event other = q.submit([&](sycl::handler &h) {
      sycl::accessor k(b, h, sycl::range<1>(n / 2), sycl::id<1>(n / 2), sycl::read_write);
      h.parallel_for(sycl::range<1>(n / 2), [=](sycl::id<1> i) { k[i] = -k[i]; });
    });
    check("a kernel on the other page runs while a host_accessor holds the first",
          completesWithin(other, std::chrono::seconds(20)));
    a[0] = 12345;
  }
  got = contents(b);
  checkArray("host_accessor of one half while a kernel changed the other", n, got.data(), [](std::size_t i) {
    if (i == 0) return 12345;
    int v = (i == 7 ? 700 : static_cast<int>(i) * 2) + 1;
    return i >= n / 2 ? -v : v;
  });

  // Read-only host accessors and read-only kernels coexist.
  {
    sycl::host_accessor a(b, sycl::read_only);
    sycl::buffer<int> out{sycl::range<1>(1)};
    sycl::event e = q.submit([&](sycl::handler &h) {
      sycl::accessor k(b, h, sycl::read_only);
      sycl::accessor o(out, h, sycl::write_only);
      h.single_task([=] { o[0] = k[1]; });
    });
    check("a read-only kernel runs while a read-only host_accessor lives",
          completesWithin(e, std::chrono::seconds(20)));
    checkEqual("read-only kernel under a read-only host_accessor: value", a[1], contents(out)[0]);
  }
}

// --- explicit dependencies and wait lists ------------------------------------------------------

void explicitDependencies(sycl::queue &q) {
  int *flag = sycl::malloc_shared<int>(1, q);
  *flag = 0;
  sycl::buffer<int> x{sycl::range<1>(64)};
  sycl::buffer<int> y{sycl::range<1>(64)};
  sycl::event slow = q.submit([&](sycl::handler &h) {
    sycl::accessor a(x, h, sycl::write_only, sycl::no_init);
    h.single_task([=] {
      int dummy = static_cast<int>(spin(9, 2000000) & 1);
      for (int i = 0; i < 64; ++i) a[i] = i + dummy - dummy;
      *flag = 1;
    });
  });
  // No accessor in common with `slow`: only depends_on orders it.
  sycl::event after = q.submit([&](sycl::handler &h) {
    h.depends_on(slow);
    sycl::accessor a(y, h, sycl::write_only, sycl::no_init);
    h.single_task([=] {
      for (int i = 0; i < 64; ++i) a[i] = *flag * 10;
    });
  });
  check("depends_on: the event is in get_wait_list()", waitsFor(after, slow));
  // Both: an explicit dependency and an accessor conflict.
  sycl::event both = q.submit([&](sycl::handler &h) {
    h.depends_on(after);
    sycl::accessor a(x, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) { a[i] += 100; });
  });
  check("depends_on + accessor: the explicit dependency is in get_wait_list()", waitsFor(both, after));
  check("depends_on + accessor: the writer of the buffer is in get_wait_list()", waitsFor(both, slow));
  sycl::event unrelated = q.submit([&](sycl::handler &h) {
    sycl::accessor a(y, h, sycl::read_only);
    h.single_task([=] { (void)a[0]; });
  });
  checkEqual("a reader of y does not wait for the writer of x", false, waitsFor(unrelated, slow));
  check("a reader of y waits for the writer of y", waitsFor(unrelated, after));
  both.wait();
  std::vector<int> gotY = contents(y), gotX = contents(x);
  checkArray("depends_on without common accessors: ordered", 64, gotY.data(), [](std::size_t) { return 10; });
  checkArray("depends_on + accessor conflict", 64, gotX.data(),
             [](std::size_t i) { return static_cast<int>(i) + 100; });

  // depends_on a host task, with a buffer it does not use.
  *flag = 0;
  sycl::event hostTask = q.submit([&](sycl::handler &h) {
    h.host_task([=] {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      *flag = 2;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.depends_on(hostTask);
    sycl::accessor a(y, h, sycl::write_only);
    h.single_task([=] { a[0] = *flag; });
  });
  checkEqual("kernel depending on a host task", 2, contents(y)[0]);
  sycl::free(flag, q);
}

// --- in-order queue ------------------------------------------------------------------------------

void inOrderQueue() {
  sycl::queue q{sycl::property::queue::in_order()};
  int *flag = sycl::malloc_shared<int>(1, q);
  *flag = 0;
  sycl::buffer<int> a{sycl::range<1>(8)};
  sycl::buffer<int> b{sycl::range<1>(8)};
  // Different buffers: only the queue's order links the two kernels.
  q.submit([&](sycl::handler &h) {
    sycl::accessor x(a, h, sycl::write_only, sycl::no_init);
    h.single_task([=] {
      int dummy = static_cast<int>(spin(5, 2000000) & 1);
      x[0] = dummy;
      *flag = 7;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor x(b, h, sycl::write_only, sycl::no_init);
    h.single_task([=] { x[0] = *flag; });
  });
  checkEqual("in-order queue: kernel on another buffer runs after the previous one", 7, contents(b)[0]);

  // A chain on one buffer with host tasks in between.
  std::uint64_t start = 1;
  sycl::buffer<std::uint64_t> v(&start, sycl::range<1>(1));
  std::uint64_t want = start;
  for (std::uint64_t k = 0; k < 30; ++k) {
    if (k % 5 == 4) {
      q.submit([&](sycl::handler &h) {
        sycl::accessor x(v, h, sycl::read_write_host_task);
        h.host_task([=] { x[0] = x[0] * 3 + k + 1; });
      });
    } else {
      q.submit([&](sycl::handler &h) {
        sycl::accessor x(v, h, sycl::read_write);
        h.single_task([=] { x[0] = x[0] * 3 + k + 1; });
      });
    }
    want = step(want, k);
  }
  checkEqual("in-order queue: chain of kernels and host tasks on one buffer", want, contents(v)[0]);
  sycl::free(flag, q);
}

// --- device accessors in host tasks ------------------------------------------------------------

// §4.7.6.9 leaves a target::device accessor used in a host task undefined;
// OnePass gives it the host's copy (the CTS's host_task_invoke_api relies on
// it). The data must flow to and from kernels around the host task.
void deviceAccessorsInHostTasks(sycl::queue &q) {
  constexpr int n = 64;
  std::vector<int> data(n, 2);
  {
    sycl::buffer<int> buf(data.data(), sycl::range<1>(n));
    sycl::buffer<int> other{sycl::range<1>(n)};
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(buf, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += static_cast<int>(i[0]); });
    });
    q.submit([&](sycl::handler &h) {
      auto in = buf.get_access<sycl::access_mode::read, sycl::target::host_task>(h);
      auto out = buf.get_access<sycl::access_mode::write>(h);
      sycl::accessor o(other, h, sycl::write_only, sycl::no_init);
      long minusOne = -1;  // an integer with 0xF in its top bits is left alone
      h.host_task([=] {
        for (int i = 0; i < n; ++i) out[i] = in[i] * 10 + static_cast<int>(minusOne + 1);
        for (int i = 0; i < n; ++i) o[i] = 7;
      });
    });
    sycl::buffer<int> sub(buf, sycl::id<1>(n / 2), sycl::range<1>(n / 2));
    q.submit([&](sycl::handler &h) {
      sycl::accessor s(sub, h, sycl::read_write);
      h.host_task([=] {
        for (int i = 0; i < n / 2; ++i) s[i] += 1;
      });
    });
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(buf, h, sycl::read_write);
      sycl::accessor o(other, h, sycl::read_only);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += o[i]; });
    });
  }
  checkArray("device accessors in host tasks: kernel, host task (whole and sub-buffer), kernel", n, data.data(),
             [](std::size_t i) { return (2 + static_cast<int>(i)) * 10 + (i >= n / 2 ? 1 : 0) + 7; });
}

// --- two queues on one buffer -------------------------------------------------------------------

void twoQueues(sycl::queue &q1) {
  sycl::queue q2(q1.get_device());
  sycl::queue q3(sycl::context(q1.get_device()), q1.get_device());  // another context
  std::uint64_t start = 11;
  std::uint64_t want = start;
  {
    sycl::buffer<std::uint64_t> v(&start, sycl::range<1>(1));
    sycl::queue *queues[] = {&q1, &q2, &q3};
    for (std::uint64_t k = 0; k < 45; ++k) {
      queues[k % 3]->submit([&](sycl::handler &h) {
        sycl::accessor x(v, h, sycl::read_write);
        h.single_task([=] {
          int dummy = static_cast<int>(spin(k, 20000) & 1);
          x[0] = x[0] * 3 + k + 1 + dummy - dummy;
        });
      });
      want = step(want, k);
    }
  }
  checkEqual("three queues (two contexts) alternating on one buffer: serial result, written back", want, start);

  // One queue writes, the other reads, with a slow writer.
  sycl::buffer<int> b{sycl::range<1>(100)};
  q1.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
    h.single_task([=] {
      int dummy = static_cast<int>(spin(2, 1000000) & 1);
      for (int i = 0; i < 100; ++i) a[i] = i * i + dummy - dummy;
    });
  });
  sycl::buffer<int> sum{sycl::range<1>(1)};
  q2.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_only);
    sycl::accessor s(sum, h, sycl::write_only, sycl::no_init);
    h.single_task([=] {
      int total = 0;
      for (int i = 0; i < 100; ++i) total += a[i];
      s[0] = total;
    });
  });
  q2.wait();
  checkEqual("slow writer on one queue, reader on another", 328350, contents(sum)[0]);
}

// --- two devices on one buffer ----------------------------------------------------------------

// The queue's device and another one (the CPU when the queue is on a GPU; the
// same device again when there is only one): the data moves between their
// allocations page by page (runtime-spec.md, "Data transfers").
void twoDevices(sycl::queue &q1) {
  sycl::device other = q1.get_device();
  for (const sycl::device &d : sycl::device::get_devices())
    if (d != q1.get_device()) other = d;
  sycl::queue q2(other);
  const std::size_t half = 1024, n = 2 * half;
  std::vector<int> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<int>(i) * 19 + 3;
  {
    sycl::buffer<int> b(host.data(), sycl::range<1>(n), {page_size1(sycl::range<1>(256))});
    // Each device changes one half, then the other device changes the whole
    // buffer, a part of a page, and the first device reads everything.
    q1.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::range<1>(half), sycl::id<1>(0), sycl::read_write);
      h.parallel_for(sycl::range<1>(half), [=](sycl::id<1> i) { a[i] += 1; });
    });
    q2.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::range<1>(half), sycl::id<1>(half), sycl::read_write);
      h.parallel_for(sycl::range<1>(half), [=](sycl::id<1> i) { a[i] += 2; });
    });
    q2.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] *= 2; });
    });
    q1.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::range<1>(100), sycl::id<1>(300), sycl::read_write);
      h.parallel_for(sycl::range<1>(100), [=](sycl::id<1> i) { a[i] = -a[i]; });
    });
    q2.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::range<1>(10), sycl::id<1>(350), sycl::read_write);
      h.parallel_for(sycl::range<1>(10), [=](sycl::id<1> i) { a[i] += 1000000; });
    });
    sycl::buffer<long long> sum{sycl::range<1>(1)};
    q1.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::read_only);
      sycl::accessor s(sum, h, sycl::write_only, sycl::no_init);
      h.single_task([=] {
        long long total = 0;
        for (std::size_t i = 0; i < n; ++i) total += a[i];
        s[0] = total;
      });
    });
    long long wantSum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      int v = (static_cast<int>(i) * 19 + 3 + (i < half ? 1 : 2)) * 2;
      if (i >= 300 && i < 400) v = -v;
      if (i >= 350 && i < 360) v += 1000000;
      wantSum += v;
    }
    checkEqual("two devices: sum read on the first device", wantSum, contents(sum)[0]);
  }
  checkArray("two devices on one buffer: written back", n, host.data(), [&](std::size_t i) {
    int v = (static_cast<int>(i) * 19 + 3 + (i < half ? 1 : 2)) * 2;
    if (i >= 300 && i < 400) v = -v;
    if (i >= 350 && i < 360) v += 1000000;
    return v;
  });
}

// --- buffers destroyed with work in flight ----------------------------------------------------

void destroyedWithWorkInFlight(sycl::queue &q) {
  sycl::buffer<int> result{sycl::range<1>(256)};
  for (int round = 0; round < 4; ++round) {
    sycl::buffer<int> temporary{sycl::range<1>(256)};
    q.submit([&](sycl::handler &h) {
      sycl::accessor t(temporary, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(256), [=](sycl::id<1> i) { t[i] = static_cast<int>(i[0]) + round; });
    });
    q.submit([&](sycl::handler &h) {
      sycl::accessor t(temporary, h, sycl::read_only);
      sycl::accessor r(result, h, round == 0 ? sycl::property_list{sycl::no_init} : sycl::property_list{});
      h.parallel_for(sycl::range<1>(256), [=](sycl::id<1> i) { r[i] = (round == 0 ? 0 : r[i]) + t[i]; });
    });
    // `temporary` is destroyed here, its kernels perhaps still queued.
  }
  std::vector<int> got = contents(result);
  checkArray("results computed from buffers destroyed with work in flight", 256, got.data(),
             [](std::size_t i) { return 4 * static_cast<int>(i) + 0 + 1 + 2 + 3; });
}

}  // namespace

int main() {
  sycl::queue q;
  onepass_test::runPart("chains", [&] { chains(q); });
  onepass_test::runPart("disjoint pages", [&] { disjointPages(q); });
  onepass_test::runPart("host accessors in the graph", [&] { hostAccessorsInGraph(q); });
  onepass_test::runPart("explicit dependencies and wait lists", [&] { explicitDependencies(q); });
  onepass_test::runPart("in-order queue", [&] { inOrderQueue(); });
  onepass_test::runPart("device accessors in host tasks", [&] { deviceAccessorsInHostTasks(q); });
  onepass_test::runPart("two queues on one buffer", [&] { twoQueues(q); });
  onepass_test::runPart("two devices on one buffer", [&] { twoDevices(q); });
  onepass_test::runPart("buffers destroyed with work in flight", [&] { destroyedWithWorkInFlight(q); });
  return onepass_test::report();
}
