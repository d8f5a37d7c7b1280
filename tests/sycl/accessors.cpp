// Buffer accessors (SYCL 2020 §4.7.6.9, §4.7.6.10): access modes by tag, by
// explicit template arguments and by buffer::get_access; ranged accessors in
// 1-3 dimensions (offsets, get_pointer, subscripts); no_init; placeholders and
// handler::require; the errors of invalid accessors; host_accessor in all its
// forms; target::host_task accessors in host tasks and the asynchronous errors
// of host tasks; explicit copies, fill and update_host with accessors.
// Iterators, 0-dimensional accessors, std::hash and the deprecated forms are
// tested in accessor_api.cpp.
#include "check.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

using onepass_test::check;
using onepass_test::checkArray;
using onepass_test::checkEqual;
using onepass_test::checkNoThrow;
using onepass_test::checkThrows;

namespace {

using sycl::access_mode;
using sycl::target;

int initial(std::size_t i) { return static_cast<int>(i) * 3 + 1; }

using onepass_test::contents;

// A 1-D int buffer holding initial(i).
sycl::buffer<int> initialBuffer(std::size_t n) {
  std::vector<int> data(n);
  for (std::size_t i = 0; i < n; ++i) data[i] = initial(i);
  return sycl::buffer<int>(data.begin(), data.end());
}

// --- access modes and types ------------------------------------------------------

// A kernel given as a named function object holding accessors.
struct ScaleKernel {
  sycl::accessor<int, 1, access_mode::read> in;
  sycl::accessor<int, 1, access_mode::write> out;
  int factor;
  void operator()(sycl::id<1> i) const { out[i] = in[i] * factor; }
};

void modesAndTypes(sycl::queue &q) {
  const std::size_t n = 256;
  sycl::buffer<int> in = initialBuffer(n);
  sycl::buffer<int> out{sycl::range<1>(n)};

  // Tags and CTAD.
  q.submit([&](sycl::handler &h) {
    sycl::accessor r(in, h, sycl::read_only);
    sycl::accessor w(out, h, sycl::write_only);
    static_assert(std::is_same_v<decltype(r), sycl::accessor<int, 1, access_mode::read, target::device>>);
    static_assert(std::is_same_v<decltype(w), sycl::accessor<int, 1, access_mode::write, target::device>>);
    static_assert(std::is_same_v<decltype(r)::value_type, const int>, "read accessor: value_type is const");
    static_assert(std::is_same_v<decltype(w)::value_type, int>);
    checkEqual("accessor(b, h, read_only).is_placeholder()", false, r.is_placeholder());
    checkEqual("accessor(b, h, read_only).size()", n, r.size());
    checkEqual("accessor(b, h, read_only).byte_size()", n * sizeof(int), r.byte_size());
    checkEqual("accessor(b, h, read_only).get_range()", true, r.get_range() == sycl::range<1>(n));
    checkEqual("non-ranged accessor get_offset()", true, r.get_offset() == sycl::id<1>(0));
    checkEqual("non-empty accessor empty()", false, r.empty());
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { w[i] = r[i] + 10; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor rw(out, h, sycl::read_write);
    sycl::accessor deduced(in, h);  // no tag: read_write
    static_assert(std::is_same_v<decltype(rw), sycl::accessor<int, 1, access_mode::read_write, target::device>>);
    static_assert(std::is_same_v<decltype(deduced), sycl::accessor<int, 1, access_mode::read_write, target::device>>);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
      rw[i] = rw[i] * 2;
      deduced[i] = deduced[i] + 1;
    });
  });
  std::vector<int> got = contents(out), gotIn = contents(in);
  checkArray("tags: write_only then read_write", n, got.data(), [](std::size_t i) { return (initial(i) + 10) * 2; });
  checkArray("accessor without a tag is read_write", n, gotIn.data(), [](std::size_t i) { return initial(i) + 1; });

  // Explicit template arguments, and the deprecated spellings.
  q.submit([&](sycl::handler &h) {
    sycl::accessor<int, 1, access_mode::read, target::device> r(in, h);
    sycl::accessor<const int, 1, access_mode::read> constRead(in, h);
    sycl::accessor<int, 1, sycl::access::mode::discard_write> w(out, h);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { w[i] = r[i] - constRead[i] + static_cast<int>(i[0]); });
  });
  got = contents(out);
  checkArray("explicit accessor<..., read> / <const int> / discard_write", n, got.data(),
             [](std::size_t i) { return static_cast<int>(i); });

  // buffer::get_access.
  q.submit([&](sycl::handler &h) {
    auto r = in.get_access<access_mode::read>(h);
    auto w = out.get_access<access_mode::write>(h);
    auto rw = in.get_access(h);  // read_write
    static_assert(std::is_same_v<decltype(r), sycl::accessor<int, 1, access_mode::read, target::device>>);
    static_assert(std::is_same_v<decltype(rw)::value_type, int>);
    (void)rw;
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { w[i] = r[i] * 3; });
  });
  got = contents(out);
  checkArray("buffer::get_access<read> / <write>", n, got.data(), [](std::size_t i) { return (initial(i) + 1) * 3; });

  // SYCL 2020 Table 22: get_access(args...) as if accessor{*this, args...}, and
  // the same for get_host_access.
  q.submit([&](sycl::handler &h) {
    auto r = in.get_access(h, sycl::read_only);
    auto w = out.get_access(h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { w[i] = r[i] * 5; });
  });
  {
    auto a = out.get_host_access(sycl::read_only);
    checkEqual("buffer::get_host_access(read_only)", (initial(7) + 1) * 5, a[7]);
  }

  // A function object holding accessors.
  q.submit([&](sycl::handler &h) {
    ScaleKernel k{sycl::accessor<int, 1, access_mode::read>(in, h), sycl::accessor<int, 1, access_mode::write>(out, h),
                  7};
    h.parallel_for(sycl::range<1>(n), k);
  });
  got = contents(out);
  checkArray("accessors as members of a kernel function object", n, got.data(),
             [](std::size_t i) { return (initial(i) + 1) * 7; });

  // Two accessors of one buffer in one command group: read the first half,
  // write the second (the command must not wait for itself).
  {
    sycl::buffer<int> both = initialBuffer(n);
    q.submit([&](sycl::handler &h) {
      sycl::accessor low(both, h, sycl::range<1>(n / 2), sycl::id<1>(0), sycl::read_only);
      sycl::accessor high(both, h, sycl::range<1>(n / 2), sycl::id<1>(n / 2), sycl::write_only);
      h.parallel_for(sycl::range<1>(n / 2), [=](sycl::id<1> i) { high[i] = -low[i]; });
    });
    got = contents(both);
    checkArray("read and write accessors of one buffer in one command group", n, got.data(),
               [&](std::size_t i) { return i < n / 2 ? initial(i) : -initial(i - n / 2); });
  }
  {
    // Two read_write accessors of the same whole buffer in one command group.
    sycl::buffer<int> same = initialBuffer(n);
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(same, h, sycl::read_write);
      sycl::accessor b(same, h, sycl::read_write);
      h.single_task([=] {
        for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + 1;
      });
    });
    got = contents(same);
    checkArray("two read_write accessors of one buffer in one command group", n, got.data(),
               [](std::size_t i) { return initial(i) + 1; });
  }

  // Accessor copies and comparisons.
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(out, h, sycl::write_only);
    auto copy = a;
    checkEqual("a copy of an accessor compares equal", true, copy == a);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { copy[i] = 42; });
  });
  got = contents(out);
  checkArray("kernel through a copy of an accessor", n, got.data(), [](std::size_t) { return 42; });

  // §4.7.6.9.3: implicit conversions to the read-only specializations.
  std::vector<int> inBefore = contents(in);
  q.submit([&](sycl::handler &h) {
    sycl::accessor<int, 1, access_mode::read_write> rw(in, h);
    sycl::accessor<const int, 1, access_mode::read> r1 = rw;
    sycl::accessor<int, 1, access_mode::read> r2 = rw;
    sycl::accessor<const int, 1, access_mode::read> r3 = r2;
    sycl::accessor w(out, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { w[i] = r1[i] + r2[i] + r3[i]; });
  });
  got = contents(out);
  checkArray("implicit conversions to read-only accessors", n, got.data(),
             [&](std::size_t i) { return 3 * inBefore[i]; });
  // The accessor is a ReversibleContainer (§4.7.6.9.1): begin/end in kernels.
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(out, h, sycl::read_write);
    h.single_task([=] {
      int k = 0;
      for (int &x : a) x = k++;
      *a.rbegin() = -1;
    });
  });
  got = contents(out);
  checkEqual("accessor begin/end in a kernel: out[10]", 10, got[10]);
  checkEqual("accessor rbegin in a kernel: out[n - 1]", -1, got[n - 1]);
}

// --- ranged accessors -------------------------------------------------------------------

void rangedAccessors(sycl::queue &q) {
  {
    const std::size_t n = 100, offset = 30, count = 10;
    sycl::buffer<int> b = initialBuffer(n);
    sycl::buffer<int> facts{sycl::range<1>(4)};
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::range<1>(count), sycl::id<1>(offset), sycl::read_write);
      sycl::accessor f(facts, h, sycl::write_only, sycl::no_init);
      checkEqual("1-D ranged accessor get_offset()", offset, a.get_offset()[0]);
      checkEqual("1-D ranged accessor get_range()", count, a.get_range()[0]);
      checkEqual("1-D ranged accessor size()", count, a.size());
      checkEqual("1-D ranged accessor byte_size()", count * sizeof(int), a.byte_size());
      h.single_task([=] {
        // get_pointer(): the start of the buffer, not of the range (§4.7.6.9.1).
        f[0] = &a[0] == a.get_pointer() + offset ? 1 : 0;
        f[1] = a.get_pointer()[0];
        f[2] = &a[sycl::id<1>(3)] == &a[3] ? 1 : 0;
        f[3] = a[sycl::id<1>(9)];
        for (std::size_t i = 0; i < count; ++i) a[i] = -a[i];
      });
    });
    std::vector<int> f = contents(facts);
    checkEqual("1-D ranged accessor: &a[0] == get_pointer() + offset", 1, f[0]);
    checkEqual("1-D ranged accessor: get_pointer()[0] is the buffer's first element", initial(0), f[1]);
    checkEqual("1-D ranged accessor: a[id] and a[size_t] are the same element", 1, f[2]);
    checkEqual("1-D ranged accessor: a[id(9)] reads element offset + 9", initial(offset + 9), f[3]);
    std::vector<int> got = contents(b);
    checkArray("1-D ranged accessor (30, +10) negated: the buffer", n, got.data(),
               [&](std::size_t i) { return i >= offset && i < offset + count ? -initial(i) : initial(i); });
    // The same through parallel_for over the accessor's range.
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::range<1>(5), sycl::id<1>(95), sycl::write_only);
      h.parallel_for(a.get_range(), [=](sycl::id<1> i) { a[i] = 1000 + static_cast<int>(i[0]); });
    });
    got = contents(b);
    checkArray("1-D ranged accessor at the end (95, +5): the buffer's last elements", 5, got.data() + 95,
               [](std::size_t i) { return 1000 + static_cast<int>(i); });
    checkEqual("1-D ranged accessor at the end: element before untouched", initial(94), got[94]);
  }
  {
    const std::size_t R0 = 8, R1 = 12;
    std::vector<int> host(R0 * R1);
    std::iota(host.begin(), host.end(), 0);
    {
      sycl::buffer<int, 2> b(host.data(), sycl::range<2>(R0, R1));
      sycl::buffer<int> facts{sycl::range<1>(3)};
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(b, h, sycl::range<2>(3, 4), sycl::id<2>(2, 5), sycl::read_write);
        sycl::accessor f(facts, h, sycl::write_only, sycl::no_init);
        checkEqual("2-D ranged accessor get_offset()", true, a.get_offset() == sycl::id<2>(2, 5));
        checkEqual("2-D ranged accessor get_range()", true, a.get_range() == sycl::range<2>(3, 4));
        checkEqual("2-D ranged accessor size()", std::size_t(12), a.size());
        h.parallel_for(a.get_range(), [=](sycl::id<2> i) {
          a[i] = -a[i];
          if (i[0] == 0 && i[1] == 0) {
            f[0] = &a[0][0] == a.get_pointer() + 2 * R1 + 5 ? 1 : 0;
            f[1] = &a[sycl::id<2>(2, 3)] == &a[2][3] ? 1 : 0;
            f[2] = a.get_pointer()[R1 + 1];  // element (1, 1), outside the range
          }
        });
      });
      std::vector<int> f = contents(facts);
      checkEqual("2-D ranged accessor: &a[0][0] == get_pointer() + offset", 1, f[0]);
      checkEqual("2-D ranged accessor: a[id(2, 3)] is a[2][3]", 1, f[1]);
      checkEqual("2-D ranged accessor: get_pointer() indexes the whole buffer", static_cast<int>(R1 + 1), f[2]);
      // Through [i][j] subscripts in a second kernel.
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(b, h, sycl::range<2>(2, 3), sycl::id<2>(6, 0), sycl::write_only);
        h.parallel_for(sycl::range<2>(2, 3),
                       [=](sycl::id<2> i) { a[i[0]][i[1]] = 7000 + static_cast<int>(i[0] * 10 + i[1]); });
      });
    }
    checkArray("2-D ranged accessors (box 2..4 x 5..8 negated; 6..7 x 0..2 written)", R0 * R1, host.data(),
               [&](std::size_t k) {
                 std::size_t i = k / R1, j = k % R1;
                 if (i >= 2 && i < 5 && j >= 5 && j < 9) return -static_cast<int>(k);
                 if (i >= 6 && i < 8 && j < 3) return 7000 + static_cast<int>((i - 6) * 10 + j);
                 return static_cast<int>(k);
               });
  }
  {
    const std::size_t R0 = 4, R1 = 5, R2 = 6;
    std::vector<int> host(R0 * R1 * R2);
    std::iota(host.begin(), host.end(), 0);
    {
      sycl::buffer<int, 3> b(host.data(), sycl::range<3>(R0, R1, R2));
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(b, h, sycl::range<3>(2, 2, 3), sycl::id<3>(1, 3, 2), sycl::read_write);
        checkEqual("3-D ranged accessor get_offset()", true, a.get_offset() == sycl::id<3>(1, 3, 2));
        checkEqual("3-D ranged accessor size()", std::size_t(12), a.size());
        h.parallel_for(a.get_range(), [=](sycl::id<3> i) { a[i[0]][i[1]][i[2]] += 1000; });
      });
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(b, h, sycl::range<3>(1, 1, 2), sycl::id<3>(3, 0, 0), sycl::read_write);
        h.parallel_for(a.get_range(), [=](sycl::id<3> i) { a[i] = a[i] * -1; });
      });
    }
    checkArray("3-D ranged accessors (box 1..2 x 3..4 x 2..4; 3 x 0 x 0..1)", host.size(), host.data(),
               [&](std::size_t k) {
                 std::size_t i = k / (R1 * R2), j = k / R2 % R1, l = k % R2;
                 if (i >= 1 && i < 3 && j >= 3 && j < 5 && l >= 2 && l < 5) return static_cast<int>(k) + 1000;
                 if (i == 3 && j == 0 && l < 2) return -static_cast<int>(k);
                 return static_cast<int>(k);
               });
  }
}

// --- invalid accessors --------------------------------------------------------------------

void invalidAccessors(sycl::queue &q) {
  sycl::buffer<int> b1{sycl::range<1>(100)};
  sycl::buffer<int, 2> b2{sycl::range<2>(8, 12)};
  sycl::buffer<int, 3> b3{sycl::range<3>(4, 5, 6)};
  auto submitWith = [&](auto makeAccessor) {
    q.submit([&](sycl::handler &h) {
      auto a = makeAccessor(h);
      h.single_task([=] { (void)a; });
    });
  };
  checkThrows("1-D accessor offset 95 + range 10 > 100", sycl::errc::invalid, [&] {
    submitWith(
        [&](sycl::handler &h) { return sycl::accessor(b1, h, sycl::range<1>(10), sycl::id<1>(95), sycl::read_only); });
  });
  checkThrows("1-D accessor range 101 > 100", sycl::errc::invalid, [&] {
    submitWith([&](sycl::handler &h) { return sycl::accessor(b1, h, sycl::range<1>(101), sycl::write_only); });
  });
  checkThrows("2-D accessor offset + range exceed dimension 0", sycl::errc::invalid, [&] {
    submitWith([&](sycl::handler &h) { return sycl::accessor(b2, h, sycl::range<2>(3, 4), sycl::id<2>(6, 0)); });
  });
  checkThrows("2-D accessor offset + range exceed dimension 1", sycl::errc::invalid, [&] {
    submitWith([&](sycl::handler &h) { return sycl::accessor(b2, h, sycl::range<2>(1, 4), sycl::id<2>(0, 9)); });
  });
  checkThrows("3-D accessor offset + range exceed dimension 2", sycl::errc::invalid, [&] {
    submitWith([&](sycl::handler &h) { return sycl::accessor(b3, h, sycl::range<3>(1, 1, 6), sycl::id<3>(0, 0, 1)); });
  });
  checkThrows("buffer::get_access(h, range, offset) out of bounds", sycl::errc::invalid, [&] {
    submitWith(
        [&](sycl::handler &h) { return b1.get_access<access_mode::read>(h, sycl::range<1>(50), sycl::id<1>(51)); });
  });
  checkThrows("placeholder accessor out of bounds (at construction)", sycl::errc::invalid,
              [&] { sycl::accessor p(b1, sycl::range<1>(60), sycl::id<1>(41), sycl::read_write); });
  checkThrows("host_accessor out of bounds", sycl::errc::invalid,
              [&] { sycl::host_accessor a(b1, sycl::range<1>(1), sycl::id<1>(100)); });
  checkThrows("2-D host_accessor out of bounds", sycl::errc::invalid,
              [&] { sycl::host_accessor a(b2, sycl::range<2>(8, 13)); });
  checkThrows("buffer::get_host_access(range, offset) out of bounds", sycl::errc::invalid,
              [&] { (void)b1.get_host_access(sycl::range<1>(90), sycl::id<1>(20)); });

  // §4.7.6.4: no_init is allowed only with write and read_write.
  checkThrows("accessor(read_only, no_init)", sycl::errc::invalid, [&] {
    submitWith([&](sycl::handler &h) { return sycl::accessor(b1, h, sycl::read_only, sycl::no_init); });
  });
  checkThrows("accessor<int, 1, read>(b, h, {no_init})", sycl::errc::invalid, [&] {
    submitWith([&](sycl::handler &h) {
      return sycl::accessor<int, 1, access_mode::read>(b1, h, sycl::property_list{sycl::no_init});
    });
  });
  checkThrows("placeholder accessor(read_only, no_init)", sycl::errc::invalid,
              [&] { sycl::accessor p(b1, sycl::read_only, sycl::no_init); });
  checkThrows("host_accessor(read_only, no_init)", sycl::errc::invalid,
              [&] { sycl::host_accessor a(b1, sycl::read_only, sycl::no_init); });

  // After all these, the buffers and the queue still work.
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b1, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(100), [=](sycl::id<1> i) { a[i] = static_cast<int>(i[0]) + 3; });
  });
  std::vector<int> got = contents(b1);
  checkArray("buffer used after failed accessor constructions", 100, got.data(),
             [](std::size_t i) { return static_cast<int>(i) + 3; });
}

// --- no_init -------------------------------------------------------------------------------

void noInit(sycl::queue &q) {
  const std::size_t n = 1000;
  {
    sycl::buffer<int> b = initialBuffer(n);
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = 5 - static_cast<int>(i[0]); });
    });
    std::vector<int> got = contents(b);
    checkArray("write_only + no_init over the whole buffer", n, got.data(),
               [](std::size_t i) { return 5 - static_cast<int>(i); });
  }
  {
    // §4.7.6.4: with a ranged no_init accessor "the values of unwritten
    // elements outside of this range are preserved".
    std::vector<int> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>(i) * 17 + 2;
    sycl::buffer<int> b(values.begin(), values.end());
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::range<1>(10), sycl::id<1>(500), sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(10), [=](sycl::id<1> i) { a[i] = -1; });
    });
    std::vector<int> got = contents(b);
    checkArray("ranged write_only + no_init: elements outside the range preserved", n, got.data(),
               [](std::size_t i) { return i >= 500 && i < 510 ? -1 : static_cast<int>(i) * 17 + 2; });
  }
  {
    sycl::buffer<int, 2> b{sycl::range<2>(16, 16)};
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
      h.parallel_for(b.get_range(), [=](sycl::id<2> i) { a[i] = static_cast<int>(i[0] * 16 + i[1]); });
    });
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::range<2>(2, 16), sycl::id<2>(7, 0), sycl::read_write, sycl::no_init);
      h.parallel_for(a.get_range(), [=](sycl::id<2> i) { a[i] = 9999; });
    });
    sycl::host_accessor a(b, sycl::read_only);
    std::vector<int> got;
    for (std::size_t i = 0; i < 16; ++i)
      for (std::size_t j = 0; j < 16; ++j) got.push_back(a[i][j]);
    checkArray("2-D ranged read_write + no_init rows 7-8: other rows preserved", 256, got.data(),
               [](std::size_t k) { return k / 16 == 7 || k / 16 == 8 ? 9999 : static_cast<int>(k); });
  }
  {
    // The same where the data was last written by a kernel (on a device with
    // its own memory, the device's copy is the current one), with a no_init
    // host_accessor and then a no_init host task accessor of one part each.
    sycl::buffer<int> b{sycl::range<1>(n)};
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = static_cast<int>(i[0]) * 13 + 4; });
    });
    {
      sycl::host_accessor w(b, sycl::range<1>(3), sycl::id<1>(100), sycl::write_only, sycl::no_init);
      for (int &x : w) x = -100;
    }
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::range<1>(3), sycl::id<1>(200), sycl::write_only_host_task, sycl::no_init);
      h.host_task([=] {
        for (std::size_t i = 0; i < 3; ++i) a[i] = -200;
      });
    });
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += 1; });
    });
    std::vector<int> got = contents(b);
    checkArray("kernel, ranged no_init host_accessor, ranged no_init host task, kernel: elements outside preserved", n,
               got.data(), [](std::size_t i) {
                 if (i >= 100 && i < 103) return -99;
                 if (i >= 200 && i < 203) return -199;
                 return static_cast<int>(i) * 13 + 5;
               });
  }
  {
    // Deprecated discard_read_write on a range (values unlike other tests',
    // so that reused device memory cannot hide lost data).
    std::vector<int> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>(i) * 11 + 7;
    sycl::buffer<int> b(values.begin(), values.end());
    q.submit([&](sycl::handler &h) {
      auto a = b.get_access<access_mode::discard_read_write>(h, sycl::range<1>(4), sycl::id<1>(0));
      h.single_task([=] {
        for (int i = 0; i < 4; ++i) a[i] = 77;
      });
    });
    std::vector<int> got = contents(b);
    checkArray("discard_read_write on [0, 4): other elements preserved", n, got.data(),
               [](std::size_t i) { return i < 4 ? 77 : static_cast<int>(i) * 11 + 7; });
  }
}

// --- placeholders -------------------------------------------------------------------------

void placeholders(sycl::queue &q) {
  const std::size_t n = 128;
  sycl::buffer<int> b = initialBuffer(n);
  sycl::accessor p(b, sycl::read_write);
  checkEqual("accessor(b, read_write).is_placeholder()", true, p.is_placeholder());
  checkEqual("placeholder size()", n, p.size());
  for (int round = 0; round < 3; ++round) {
    q.submit([&](sycl::handler &h) {
      h.require(p);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { p[i] = p[i] * 2 + 1; });
    });
  }
  std::vector<int> got = contents(b);
  checkArray("placeholder + require in 3 command groups", n, got.data(),
             [](std::size_t i) { return ((initial(i) * 2 + 1) * 2 + 1) * 2 + 1; });

  // A ranged placeholder, and require called twice (the second has no effect).
  sycl::accessor ranged(b, sycl::range<1>(4), sycl::id<1>(10), sycl::write_only);
  static_assert(std::is_same_v<decltype(ranged)::value_type, int>);
  checkEqual("ranged placeholder get_offset()", std::size_t(10), ranged.get_offset()[0]);
  q.submit([&](sycl::handler &h) {
    h.require(ranged);
    h.require(ranged);
    h.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { ranged[i] = -5; });
  });
  std::vector<int> after = contents(b);
  checkArray("ranged placeholder (10, +4) + require", n, after.data(),
             [&](std::size_t i) { return i >= 10 && i < 14 ? -5 : got[i]; });

  // A read-only placeholder and a write accessor in one command group.
  sycl::buffer<int> out{sycl::range<1>(n)};
  sycl::accessor readOnly(b, sycl::read_only);
  q.submit([&](sycl::handler &h) {
    h.require(readOnly);
    sycl::accessor o(out, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { o[i] = readOnly[i] + 1; });
  });
  std::vector<int> copied = contents(out);
  checkArray("read_only placeholder + require", n, copied.data(), [&](std::size_t i) { return after[i] + 1; });

  // A placeholder used without handler::require: a synchronous
  // errc::kernel_argument at submission, which names require().
  sycl::accessor unbound(b, sycl::write_only);
  bool thrown = false;
  try {
    q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { unbound[i] = 0; }); });
  } catch (const sycl::exception &e) {
    thrown = true;
    checkEqual("placeholder without require: error code", sycl::errc::kernel_argument,
               static_cast<sycl::errc>(e.code().value()));
    std::string message = e.what();
    if (!check("placeholder without require: the message mentions require",
               message.find("require") != std::string::npos))
      std::printf("  (the message was: %s)\n", message.c_str());
  } catch (const std::exception &e) {
    onepass_test::fail("placeholder without require", "sycl::exception", std::string("another exception: ") + e.what());
    thrown = true;
  }
  check("placeholder without require: submit throws", thrown);
  // The failed submission left nothing behind: the buffer is unchanged and usable.
  std::vector<int> unchanged = contents(b);
  checkArray("buffer after the failed submission: unchanged", n, unchanged.data(),
             [&](std::size_t i) { return after[i]; });
  q.submit([&](sycl::handler &h) {
    h.require(unbound);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { unbound[i] = 0; });
  });
  std::vector<int> zeros = contents(b);
  checkArray("the same placeholder, then required", n, zeros.data(), [](std::size_t) { return 0; });

  // An accessor bound to another command group is not bound to this one.
  sycl::buffer<int> other{sycl::range<1>(8)};
  sycl::accessor<int, 1, access_mode::write> foreign;
  q.submit([&](sycl::handler &h) {
    foreign = sycl::accessor<int, 1, access_mode::write>(other, h);
    h.single_task([=] { foreign[0] = 1; });
  });
  checkThrows("an accessor of an earlier command group used in a kernel", sycl::errc::kernel_argument,
              [&] { q.submit([&](sycl::handler &h) { h.single_task([=] { foreign[1] = 2; }); }); });
}

// --- default-constructed and zero-sized accessors -------------------------------------------

void emptyAccessors(sycl::queue &q) {
  sycl::accessor<int, 1, access_mode::read_write> none;
  checkEqual("default-constructed accessor empty()", true, none.empty());
  checkEqual("default-constructed accessor size()", std::size_t(0), none.size());
  checkEqual("default-constructed accessor is_placeholder()", false, none.is_placeholder());
  sycl::buffer<int> b = initialBuffer(16);
  // It may be passed to a kernel that does not dereference it (§4.7.6.9.1).
  checkNoThrow("kernel capturing a default-constructed accessor", [&] {
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::write_only);
      h.single_task([=] { a[0] = none.empty() ? 100 : -100; });
    });
    std::vector<int> got = contents(b);
    checkEqual("kernel capturing a default-constructed accessor: result", 100, got[0]);
  });
  // §4.9.4.1: require "has no effect unless acc is a placeholder accessor".
  checkNoThrow("handler::require(default-constructed accessor)", [&] {
    q.submit([&](sycl::handler &h) {
      h.require(none);
      h.single_task([] {});
    });
    q.wait();
  });
  // A zero-sized ranged accessor (§4.7: permitted).
  checkNoThrow("zero-sized ranged accessor", [&] {
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::range<1>(0), sycl::id<1>(5), sycl::read_write);
      checkEqual("zero-sized ranged accessor empty()", true, a.empty());
      h.parallel_for(sycl::range<1>(0), [=](sycl::id<1> i) { a[i] = 1; });
    });
    q.wait();
  });
  std::vector<int> got = contents(b);
  checkArray("buffer after a zero-sized accessor", 15, got.data() + 1, [](std::size_t i) { return initial(i + 1); });
}

// --- host_accessor ---------------------------------------------------------------------------------

void hostAccessors(sycl::queue &q) {
  const std::size_t n = 64;
  sycl::buffer<int> b = initialBuffer(n);
  {
    sycl::host_accessor a(b);
    static_assert(std::is_same_v<decltype(a), sycl::host_accessor<int, 1, access_mode::read_write>>);
    checkEqual("host_accessor(b).size()", n, a.size());
    checkEqual("host_accessor(b).byte_size()", n * sizeof(int), a.byte_size());
    checkEqual("host_accessor(b).get_offset()", std::size_t(0), a.get_offset()[0]);
    checkEqual("host_accessor(b).empty()", false, a.empty());
    for (std::size_t i = 0; i < n; ++i) a[i] += 1;
  }
  {
    sycl::host_accessor a(b, sycl::property_list{});
    checkEqual("host_accessor(b, property_list) sees the earlier host write", initial(3) + 1, a[3]);
  }
  {
    sycl::host_accessor r(b, sycl::read_only);
    static_assert(std::is_same_v<decltype(r), sycl::host_accessor<int, 1, access_mode::read>>);
    static_assert(std::is_same_v<decltype(r)::value_type, const int>, "read-only host_accessor: value_type is const");
    static_assert(std::is_same_v<decltype(r[0]), const int &>);
    std::vector<int> values(r.begin(), r.end());
    checkArray("host_accessor(read_only): begin()/end()", n, values.data(),
               [](std::size_t i) { return initial(i) + 1; });
    // A second read-only host accessor at the same time.
    sycl::host_accessor r2(b, sycl::read_only);
    checkEqual("two read-only host_accessors at once", r[5], r2[5]);
  }
  {
    sycl::host_accessor w(b, sycl::write_only);
    static_assert(std::is_same_v<decltype(w), sycl::host_accessor<int, 1, access_mode::write>>);
    std::fill(w.begin(), w.end(), 9);
  }
  {
    sycl::host_accessor rw(b, sycl::read_write);
    int sum = std::accumulate(rw.begin(), rw.end(), 0);
    checkEqual("host_accessor(write_only) + std::fill then read_write sum", static_cast<int>(9 * n), sum);
  }
  {
    // Ranged forms: begin()/end() cover the range, [i] adds the offset.
    sycl::host_accessor ranged(b, sycl::range<1>(8), sycl::id<1>(20));
    static_assert(std::is_same_v<decltype(ranged), sycl::host_accessor<int, 1, access_mode::read_write>>);
    checkEqual("ranged host_accessor get_offset()", std::size_t(20), ranged.get_offset()[0]);
    checkEqual("ranged host_accessor size()", std::size_t(8), ranged.size());
    checkEqual("ranged host_accessor end() - begin()", std::ptrdiff_t(8), ranged.end() - ranged.begin());
    int k = 0;
    for (int &x : ranged) x = 100 + k++;
    checkEqual("ranged host_accessor [0] is element 20", 100, ranged[0]);
    checkEqual("ranged host_accessor [id(7)] is element 27", 107, ranged[sycl::id<1>(7)]);
  }
  {
    {
      sycl::host_accessor head(b, sycl::range<1>(2));
      checkEqual("host_accessor(b, range) starts at 0: get_offset()", std::size_t(0), head.get_offset()[0]);
      head[1] = -2;
    }
    {
      sycl::host_accessor tagged(b, sycl::range<1>(4), sycl::read_only);
      static_assert(std::is_same_v<decltype(tagged)::value_type, const int>);
      checkEqual("host_accessor(b, range, read_only)[1]", -2, tagged[1]);
    }
    // (One at a time: a host_accessor that conflicts with a live one waits for it.)
    sycl::host_accessor taggedOffset(b, sycl::range<1>(4), sycl::id<1>(60), sycl::write_only);
    for (int &x : taggedOffset) x = 60;
  }
  {
    std::vector<int> got = contents(b);
    checkArray("buffer after ranged host_accessors", n, got.data(), [](std::size_t i) {
      if (i == 1) return -2;
      if (i >= 20 && i < 28) return 100 + static_cast<int>(i - 20);
      if (i >= 60) return 60;
      return 9;
    });
  }
  {
    // A write_only + no_init host accessor of a part: the rest is preserved.
    sycl::host_accessor w(b, sycl::range<1>(4), sycl::id<1>(30), sycl::write_only, sycl::no_init);
    static_assert(std::is_same_v<decltype(w), sycl::host_accessor<int, 1, access_mode::write>>);
    for (int &x : w) x = 31;
  }
  {
    auto a = b.get_host_access();
    static_assert(std::is_same_v<decltype(a), sycl::host_accessor<int, 1, access_mode::read_write>>);
    checkEqual("get_host_access(): element 30 (written with no_init)", 31, a[30]);
    checkEqual("get_host_access(): element 29 (preserved)", 9, a[29]);
    checkEqual("get_host_access(): element 34 (preserved)", 9, a[34]);
  }
  {
    auto r = b.get_host_access<access_mode::read>();
    static_assert(std::is_same_v<decltype(r)::value_type, const int>);
    auto part = b.get_host_access<access_mode::read>(sycl::range<1>(3), sycl::id<1>(20));
    checkEqual("get_host_access<read>(range, offset)[2]", 102, part[2]);
    checkEqual("get_host_access<read>()[63]", 60, r[63]);
  }
  {
    // 2-D host accessors.
    sycl::buffer<int, 2> g{sycl::range<2>(5, 7)};
    {
      sycl::host_accessor w(g, sycl::write_only, sycl::no_init);
      for (std::size_t i = 0; i < 5; ++i)
        for (std::size_t j = 0; j < 7; ++j) w[i][j] = static_cast<int>(i * 7 + j);
    }
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(g, h, sycl::read_write);
      h.parallel_for(g.get_range(), [=](sycl::id<2> i) { a[i] *= 2; });
    });
    sycl::host_accessor r(g, sycl::range<2>(2, 3), sycl::id<2>(3, 4), sycl::read_only);
    checkEqual("2-D ranged host_accessor get_range()", true, r.get_range() == sycl::range<2>(2, 3));
    checkEqual("2-D ranged host_accessor [1][2] is element (4, 6)", (4 * 7 + 6) * 2, r[1][2]);
    checkEqual("2-D ranged host_accessor [id(0, 0)] is element (3, 4)", (3 * 7 + 4) * 2, r[sycl::id<2>(0, 0)]);
  }
  {
    // Copies of a host_accessor hold the buffer until the last one goes.
    sycl::buffer<int> c = initialBuffer(n);
    std::optional<sycl::host_accessor<int, 1, access_mode::read_write>> copy;
    {
      sycl::host_accessor a(c);
      copy = a;
    }
    (*copy)[0] = 555;
    copy.reset();
    std::vector<int> got = contents(c);
    checkEqual("write through a copy of a host_accessor", 555, got[0]);
  }
  sycl::host_accessor<int> none;
  checkEqual("default-constructed host_accessor empty()", true, none.empty());

  {
    // §4.7.6.10: host_accessor is a ReversibleContainer in every dimension.
    sycl::buffer<int, 2> g{sycl::range<2>(3, 4)};
    sycl::host_accessor a(g);
    int k = 0;
    for (int &x : a) x = k++;
    checkEqual("2-D host_accessor begin()/end(): last", 11, *a.rbegin());
    checkEqual("host_accessor cbegin()", 0, *a.cbegin());
    checkEqual("2-D host_accessor filled through begin()/end(): [1][2]", 6, a[1][2]);
  }
  {
    // The ranged deduction guides with a property list (one at a time: the
    // second writes what the first reads).
    std::vector<int> before = contents(b);
    {
      sycl::host_accessor t(b, sycl::range<1>(2), sycl::id<1>(1), sycl::read_only, sycl::property_list{});
      static_assert(std::is_same_v<decltype(t), sycl::host_accessor<int, 1, access_mode::read>>);
      checkEqual("host_accessor(b, range, id, read_only, property_list)[0] is element 1", before[1], t[0]);
    }
    {
      sycl::host_accessor t2(b, sycl::range<1>(2), sycl::write_only, sycl::no_init);
      static_assert(std::is_same_v<decltype(t2), sycl::host_accessor<int, 1, access_mode::write>>);
      t2[0] = 71;
      t2[1] = 72;
    }
    std::vector<int> after = contents(b);
    checkArray("host_accessor(b, range, write_only, no_init): the buffer", n, after.data(), [&](std::size_t i) {
      return i == 0 ? 71 : i == 1 ? 72 : before[i];
    });
    sycl::accessor p1(b, sycl::range<1>(2), sycl::id<1>(1), sycl::write_only, sycl::no_init);
    sycl::accessor p2(b, sycl::range<1>(2), sycl::write_only, sycl::no_init);
    static_assert(
        std::is_same_v<decltype(p1),
                       sycl::accessor<int, 1, access_mode::write, target::device, sycl::access::placeholder::true_t>>);
    static_assert(std::is_same_v<decltype(p2), decltype(p1)>);
    checkEqual("accessor(b, range, id, write_only, no_init) is a placeholder", true, p1.is_placeholder());
  }
}

// A host_accessor waits for the kernels before it, and kernels after it wait
// until it is destroyed.
void hostAccessorOrdering(sycl::queue &q) {
  const std::size_t n = 32;
  sycl::buffer<std::uint64_t> b{sycl::range<1>(n)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
    h.single_task([=] {
      for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t x = i + 1;
        for (int k = 0; k < 200000; ++k) {  // xorshift: no closed form to optimize to
          x ^= x << 13;
          x ^= x >> 7;
          x ^= x << 17;
        }
        a[i] = x | 1;
      }
    });
  });
  {
    sycl::host_accessor a(b, sycl::read_only);
    std::size_t zeros = 0;
    for (std::size_t i = 0; i < n; ++i) zeros += a[i] == 0;
    checkEqual("host_accessor after a slow kernel: elements not yet written", std::size_t(0), zeros);
  }
  std::atomic<bool> kernelRan{false};
  sycl::event later;
  {
    sycl::host_accessor a(b);
    for (std::size_t i = 0; i < n; ++i) a[i] = i;
    later = q.submit([&](sycl::handler &h) {
      sycl::accessor k(b, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { k[i] = k[i] * 10 + 1; });
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    checkEqual("a kernel waits while a conflicting host_accessor lives", false,
               later.get_info<sycl::info::event::command_execution_status>() ==
                   sycl::info::event_command_status::complete);
    for (std::size_t i = 0; i < n; ++i) kernelRan = kernelRan || a[i] != i;
    a[n - 1] = 1000;  // still ours: the kernel must see it
  }
  later.wait();
  checkEqual("host_accessor data unchanged by the waiting kernel while it lived", false, kernelRan.load());
  std::vector<std::uint64_t> got = contents(b);
  checkArray("kernel after a host_accessor sees its writes", n, got.data(),
             [&](std::size_t i) { return (i == n - 1 ? 1000 : i) * 10 + 1; });
}

// --- host tasks ------------------------------------------------------------------------------------

// Two conflicting host_accessors alive in one thread would wait for each
// other forever: the second is an errc::invalid error, and a disjoint one is fine.
void hostAccessorSelfConflict() {
  sycl::buffer<int> b{sycl::range<1>(1 << 16),
                      {sycl::ext::onepass::property::buffer::page_size<1>(sycl::range<1>(1 << 15))}};
  sycl::host_accessor first(b, sycl::range<1>(100), sycl::id<1>(0), sycl::write_only);
  onepass_test::checkThrows("a second conflicting host_accessor in the holding thread", sycl::errc::invalid,
                            [&] { sycl::host_accessor second(b, sycl::read_only); });
  sycl::host_accessor other(b, sycl::range<1>(100), sycl::id<1>(1 << 15), sycl::write_only);  // another page
  other[0] = 5;
  first[0] = 4;
  onepass_test::checkEqual("host_accessors of disjoint pages coexist", 5, other[0]);
}

void hostTasks(sycl::queue &q) {
  const std::size_t n = 200;
  sycl::buffer<int> b{sycl::range<1>(n)};
  sycl::buffer<int> out{sycl::range<1>(n)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = static_cast<int>(i[0]) * 2; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_write_host_task);
    static_assert(std::is_same_v<decltype(a), sycl::accessor<int, 1, access_mode::read_write, target::host_task>>);
    h.host_task([=] {
      for (std::size_t i = 0; i < n; ++i) a[i] += 1;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor in(b, h, sycl::read_only_host_task);
    sycl::accessor o(out, h, sycl::write_only_host_task);
    static_assert(std::is_same_v<decltype(in), sycl::accessor<int, 1, access_mode::read, target::host_task>>);
    static_assert(std::is_same_v<decltype(o), sycl::accessor<int, 1, access_mode::write, target::host_task>>);
    h.host_task([=] {
      for (std::size_t i = 0; i < n; ++i) o[i] = in[i] * 3;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(out, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] -= 1; });
  });
  std::vector<int> got = contents(out);
  checkArray("kernel -> host_task(read_write) -> host_task(read -> write) -> kernel", n, got.data(),
             [](std::size_t i) { return (static_cast<int>(i) * 2 + 1) * 3 - 1; });

  // get_access with target::host_task, and a ranged host_task accessor.
  q.submit([&](sycl::handler &h) {
    auto a = b.get_access<access_mode::read_write, target::host_task>(h);
    static_assert(std::is_same_v<decltype(a), sycl::accessor<int, 1, access_mode::read_write, target::host_task>>);
    sycl::accessor part(out, h, sycl::range<1>(10), sycl::id<1>(100), sycl::write_only_host_task);
    h.host_task([=] {
      a[0] = -7;
      for (std::size_t i = 0; i < 10; ++i) part[i] = 12345;
    });
  });
  got = contents(out);
  checkArray("ranged write_only_host_task accessor (100, +10)", n, got.data(),
             [](std::size_t i) { return i >= 100 && i < 110 ? 12345 : (static_cast<int>(i) * 2 + 1) * 3 - 1; });
  std::vector<int> gotB = contents(b);
  checkEqual("get_access<read_write, host_task>: element 0", -7, gotB[0]);

  // A host task on a 2-D buffer.
  sycl::buffer<int, 2> g{sycl::range<2>(3, 4)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(g, h, sycl::write_only_host_task, sycl::no_init);
    h.host_task([=] {
      for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 4; ++j) a[i][j] = static_cast<int>(i * 4 + j);
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(g, h, sycl::read_write);
    h.parallel_for(g.get_range(), [=](sycl::id<2> i) { a[i] += 100; });
  });
  {
    sycl::host_accessor a(g, sycl::read_only);
    checkEqual("2-D host_task then kernel: [2][3]", 111, a[2][3]);
    checkEqual("2-D host_task then kernel: [0][1]", 101, a[0][1]);
  }
}

void hostTaskErrors() {
  std::mutex mutex;
  std::vector<std::string> messages;
  std::vector<sycl::errc> codes;
  int calls = 0;
  sycl::queue q([&](sycl::exception_list errors) {
    std::lock_guard<std::mutex> lock(mutex);
    ++calls;
    for (const std::exception_ptr &error : errors) {
      try {
        std::rethrow_exception(error);
      } catch (const sycl::exception &e) {
        codes.push_back(static_cast<sycl::errc>(e.code().value()));
        messages.push_back(e.what());
      } catch (const std::exception &e) {
        messages.push_back(std::string("std: ") + e.what());
      }
    }
  });
  const std::size_t n = 16;
  sycl::buffer<int> b{sycl::range<1>(n)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::write_only_host_task, sycl::no_init);
    h.host_task([=] {
      for (std::size_t i = 0; i < n; ++i) a[i] = 1;
      throw sycl::exception(sycl::make_error_code(sycl::errc::runtime), "host task failure one");
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_write_host_task);
    h.host_task([=] {
      a[0] = 2;
      throw std::runtime_error("host task failure two");
    });
  });
  // A kernel after the failing host tasks still runs, and sees their writes.
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] += 10; });
  });
  q.wait();
  {
    std::lock_guard<std::mutex> lock(mutex);
    checkEqual("async_handler not called by queue::wait()", 0, calls);
  }
  q.wait_and_throw();
  {
    std::lock_guard<std::mutex> lock(mutex);
    checkEqual("async_handler called once by wait_and_throw", 1, calls);
    if (checkEqual("asynchronous errors delivered", std::size_t(2), messages.size())) {
      bool one = false, two = false;
      for (const std::string &m : messages) {
        one |= m.find("host task failure one") != std::string::npos;
        two |= m == "std: host task failure two";
      }
      check("the sycl::exception thrown in a host task is delivered", one);
      check("the std::runtime_error thrown in a host task is delivered", two);
    }
    if (checkEqual("sycl::exceptions among the delivered errors", std::size_t(1), codes.size()))
      checkEqual("the host task's error code", sycl::errc::runtime, codes[0]);
  }
  std::vector<int> got = contents(b);
  checkArray("buffer after failing host tasks and a kernel", n, got.data(),
             [](std::size_t i) { return i == 0 ? 12 : 11; });
  q.wait_and_throw();
  {
    std::lock_guard<std::mutex> lock(mutex);
    checkEqual("errors are delivered once", 1, calls);
  }
}

// --- explicit copies, fill and update_host with accessors (§4.9.4.3) ----------------------------

void explicitCopies(sycl::queue &q) {
  const std::size_t n = 100;
  sycl::buffer<int> b = initialBuffer(n);
  std::vector<int> host(n, -1);
  q.submit([&](sycl::handler &h) {
     sycl::accessor a(b, h, sycl::read_only);
     h.copy(a, host.data());
   }).wait();
  checkArray("copy(accessor, pointer)", n, host.data(), initial);

  std::vector<int> source(10);
  std::iota(source.begin(), source.end(), 500);
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::range<1>(10), sycl::id<1>(40), sycl::write_only);
    h.copy(source.data(), a);
  });
  std::vector<int> got = contents(b);
  checkArray("copy(pointer, ranged accessor (40, +10))", n, got.data(),
             [](std::size_t i) { return i >= 40 && i < 50 ? 500 + static_cast<int>(i - 40) : initial(i); });

  sycl::buffer<int> c{sycl::range<1>(n)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor dst(c, h, sycl::write_only, sycl::no_init);
    h.fill(dst, 8);
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor src(b, h, sycl::range<1>(20), sycl::id<1>(35), sycl::read_only);
    sycl::accessor dst(c, h, sycl::range<1>(20), sycl::id<1>(0), sycl::write_only);
    h.copy(src, dst);
  });
  got = contents(c);
  checkArray("fill(accessor) then copy(ranged accessor, ranged accessor)", n, got.data(), [](std::size_t i) {
    if (i < 5) return initial(i + 35);
    if (i < 15) return 500 + static_cast<int>(i - 5);
    if (i < 20) return initial(i + 35);
    return 8;
  });

  // A 2-D box to dense host memory.
  sycl::buffer<int, 2> g{sycl::range<2>(6, 8)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(g, h, sycl::write_only, sycl::no_init);
    h.parallel_for(g.get_range(), [=](sycl::id<2> i) { a[i] = static_cast<int>(i[0] * 8 + i[1]); });
  });
  std::vector<int> box(6, -1);
  q.submit([&](sycl::handler &h) {
     sycl::accessor a(g, h, sycl::range<2>(2, 3), sycl::id<2>(3, 4), sycl::read_only);
     h.copy(a, box.data());
   }).wait();
  checkArray("copy(2-D ranged accessor (3,4)+(2,3), pointer)", 6, box.data(),
             [](std::size_t k) { return static_cast<int>((3 + k / 3) * 8 + 4 + k % 3); });

  // update_host: afterwards a host_accessor needs no transfer; on any device
  // the host accessor sees the kernel's data.
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(g, h, sycl::read_write);
    h.parallel_for(g.get_range(), [=](sycl::id<2> i) { a[i] = -a[i]; });
  });
  q.submit([&](sycl::handler &h) {
     sycl::accessor a(g, h, sycl::read_only);
     h.update_host(a);
   }).wait();
  {
    sycl::host_accessor r(g, sycl::read_only);
    checkEqual("update_host then host_accessor: (5, 7)", -(5 * 8 + 7), r[5][7]);
  }

  // The queue's shortcuts with placeholder accessors (§4.6.5.2).
  sycl::buffer<int> s{sycl::range<1>(n)};
  sycl::accessor whole(s, sycl::write_only);
  q.fill(whole, 3);
  sycl::accessor part(s, sycl::range<1>(10), sycl::id<1>(90), sycl::write_only);
  q.copy(source.data(), part);
  std::vector<int> back(n, -1);
  sycl::accessor readAll(s, sycl::read_only);
  q.copy(readAll, back.data()).wait();
  checkArray("queue::fill(placeholder), queue::copy(pointer, placeholder), queue::copy(placeholder, pointer)", n,
             back.data(), [](std::size_t i) { return i >= 90 ? 500 + static_cast<int>(i - 90) : 3; });
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(s, h, sycl::read_write);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] *= 2; });
  });
  sycl::accessor rw(s, sycl::read_write);
  q.update_host(rw).wait();
  std::vector<int> updated = contents(s);
  checkEqual("queue::update_host(placeholder) then host_accessor: element 0", 6, updated[0]);
}

}  // namespace

int main() {
  sycl::queue q;
  onepass_test::runPart("access modes and types", [&] { modesAndTypes(q); });
  onepass_test::runPart("ranged accessors", [&] { rangedAccessors(q); });
  onepass_test::runPart("conflicting host accessors in one thread", [&] { hostAccessorSelfConflict(); });
  onepass_test::runPart("invalid accessors", [&] { invalidAccessors(q); });
  onepass_test::runPart("no_init", [&] { noInit(q); });
  onepass_test::runPart("placeholders", [&] { placeholders(q); });
  onepass_test::runPart("empty accessors", [&] { emptyAccessors(q); });
  onepass_test::runPart("host_accessor", [&] { hostAccessors(q); });
  onepass_test::runPart("host_accessor ordering", [&] { hostAccessorOrdering(q); });
  onepass_test::runPart("host tasks", [&] { hostTasks(q); });
  onepass_test::runPart("host task errors", [&] { hostTaskErrors(); });
  onepass_test::runPart("explicit copies with accessors", [&] { explicitCopies(q); });
  return onepass_test::report();
}
