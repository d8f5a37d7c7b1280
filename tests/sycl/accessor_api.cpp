// The container side of buffer accessors (SYCL 2020 §4.7.6.9, §4.7.6.10,
// §4.7.6.12): iterators of device, host task and host accessors in 1, 2 and
// 3 dimensions, whole and ranged, forward and reverse, in kernels and on the
// host; 0-dimensional accessors; std::hash and equality of the classes with
// common reference semantics (§4.5.2); the deprecated target::global_buffer,
// target::host_buffer and buffer::get_access forms (§4.7.6.9.4, §4.7.2.2).
#include "check.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <numeric>
#include <type_traits>
#include <unordered_set>
#include <vector>

using onepass_test::check;
using onepass_test::checkArray;
using onepass_test::checkEqual;
using onepass_test::contents;

namespace {

using sycl::access_mode;
using sycl::target;

// A 1-D int buffer holding `fill(i)`.
template <typename Fill> sycl::buffer<int> filledBuffer(std::size_t n, Fill fill) {
  std::vector<int> data(n);
  for (std::size_t i = 0; i < n; ++i) data[i] = fill(i);
  return sycl::buffer<int>(data.begin(), data.end());
}

// The elements of a 2-D or 3-D buffer in row-major order, read by index.
std::vector<int> contents2(sycl::buffer<int, 2> &b) {
  sycl::host_accessor a(b, sycl::read_only);
  std::vector<int> result;
  for (std::size_t i = 0; i < b.get_range()[0]; ++i)
    for (std::size_t j = 0; j < b.get_range()[1]; ++j) result.push_back(a[i][j]);
  return result;
}
std::vector<int> contents3(sycl::buffer<int, 3> &b) {
  sycl::host_accessor a(b, sycl::read_only);
  std::vector<int> result;
  for (std::size_t i = 0; i < b.get_range()[0]; ++i)
    for (std::size_t j = 0; j < b.get_range()[1]; ++j)
      for (std::size_t k = 0; k < b.get_range()[2]; ++k) result.push_back(a[i][j][k]);
  return result;
}

// --- iterator types ----------------------------------------------------------------------

template <typename Accessor> constexpr bool hasRandomAccessIterators() {
  using It = typename Accessor::iterator;
  using CIt = typename Accessor::const_iterator;
  using Traits = std::iterator_traits<It>;
  return std::is_same_v<typename Traits::iterator_category, std::random_access_iterator_tag> &&
         std::is_same_v<typename std::iterator_traits<CIt>::iterator_category, std::random_access_iterator_tag> &&
         std::is_same_v<typename Accessor::reverse_iterator, std::reverse_iterator<It>> &&
         std::is_same_v<typename Accessor::const_reverse_iterator, std::reverse_iterator<CIt>> &&
         std::is_same_v<typename Accessor::difference_type, typename Traits::difference_type> &&
         std::is_same_v<typename Accessor::size_type, std::size_t> &&
         std::is_same_v<decltype(*std::declval<It>()), typename Accessor::reference> &&
         std::is_same_v<decltype(*std::declval<CIt>()), const typename Accessor::value_type &> &&
         std::is_convertible_v<It, CIt> && std::is_trivially_copyable_v<It> && std::is_trivially_copyable_v<CIt>;
}

using Device1 = sycl::accessor<int, 1, access_mode::read_write>;
using Device2 = sycl::accessor<int, 2, access_mode::read_write>;
using Device3 = sycl::accessor<int, 3, access_mode::write>;
using DeviceRead2 = sycl::accessor<int, 2, access_mode::read>;
using HostTask3 = sycl::accessor<int, 3, access_mode::read_write, target::host_task>;
using Device0 = sycl::accessor<int, 0, access_mode::read_write>;
static_assert(hasRandomAccessIterators<Device1>());
static_assert(hasRandomAccessIterators<Device2>());
static_assert(hasRandomAccessIterators<Device3>());
static_assert(hasRandomAccessIterators<DeviceRead2>());
static_assert(hasRandomAccessIterators<sycl::accessor<const int, 2, access_mode::read>>());
static_assert(hasRandomAccessIterators<HostTask3>());
static_assert(hasRandomAccessIterators<Device0>());
static_assert(hasRandomAccessIterators<sycl::host_accessor<int, 1>>());
static_assert(hasRandomAccessIterators<sycl::host_accessor<int, 2, access_mode::read>>());
static_assert(hasRandomAccessIterators<sycl::host_accessor<int, 3>>());
static_assert(hasRandomAccessIterators<sycl::host_accessor<int, 0>>());
// A read-only accessor's iterator does not write.
static_assert(std::is_same_v<decltype(*std::declval<DeviceRead2::iterator>()), const int &>);
static_assert(
    std::is_same_v<decltype(*std::declval<sycl::host_accessor<int, 2, access_mode::read>::iterator>()), const int &>);

// --- iterators in kernels ----------------------------------------------------------------------

void deviceIterators1D(sycl::queue &q) {
  const std::size_t n = 50;
  sycl::buffer<int> b = filledBuffer(n, [](std::size_t i) { return -static_cast<int>(i); });
  // Forward over the whole buffer, then backward over a ranged part.
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::write_only);
    h.single_task([=] {
      int k = 0;
      for (int &x : a) x = 100 + k++;
    });
  });
  std::vector<int> got = contents(b);
  checkArray("1-D accessor: for (x : a) in a kernel", n, got.data(),
             [](std::size_t i) { return 100 + static_cast<int>(i); });

  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::range<1>(10), sycl::id<1>(20), sycl::read_write);
    h.single_task([=] {
      int k = 0;
      for (auto it = a.rbegin(); it != a.rend(); ++it) *it = 1000 + k++;
    });
  });
  got = contents(b);
  checkArray("1-D ranged accessor (20, +10): rbegin()..rend() in a kernel", n, got.data(), [](std::size_t i) {
    return i >= 20 && i < 30 ? 1000 + static_cast<int>(29 - i) : 100 + static_cast<int>(i);
  });

  // Read-only iteration, const iterators and iterator arithmetic.
  sycl::buffer<int> facts{sycl::range<1>(8)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor r(b, h, sycl::range<1>(10), sycl::id<1>(20), sycl::read_only);
    sycl::accessor f(facts, h, sycl::write_only, sycl::no_init);
    h.single_task([=] {
      int sum = 0;
      for (auto it = r.cbegin(); it != r.cend(); ++it) sum += *it;
      f[0] = sum;
      f[1] = static_cast<int>(r.end() - r.begin());
      f[2] = *r.crbegin();
      f[3] = r.begin()[3];
      f[4] = &*r.begin() == &r[0] ? 1 : 0;
      f[5] = *(r.end() - 1);
      f[6] = static_cast<int>(std::distance(r.rbegin(), r.rend()));
      f[7] = r.begin() < r.end() ? 1 : 0;
    });
  });
  std::vector<int> f = contents(facts);
  int expectedSum = 0;
  for (int k = 0; k < 10; ++k) expectedSum += 1000 + k;
  checkEqual("1-D ranged read accessor: sum over cbegin()..cend()", expectedSum, f[0]);
  checkEqual("1-D ranged accessor: end() - begin()", 10, f[1]);
  checkEqual("1-D ranged accessor: *crbegin() is the last element of the range", 1000, f[2]);
  checkEqual("1-D ranged accessor: begin()[3]", 1000 + 6, f[3]);
  checkEqual("1-D ranged accessor: *begin() is a[0]", 1, f[4]);
  checkEqual("1-D ranged accessor: *(end() - 1)", 1000, f[5]);
  checkEqual("1-D ranged accessor: distance(rbegin(), rend())", 10, f[6]);
  checkEqual("1-D ranged accessor: begin() < end()", 1, f[7]);

  // One work-item per element, through begin() + i.
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::range<1>(40), sycl::id<1>(5), sycl::read_write);
    h.parallel_for(sycl::range<1>(40), [=](sycl::id<1> i) {
      auto it = a.begin() + static_cast<std::ptrdiff_t>(i[0]);
      *it = static_cast<int>(i[0]) * 2;
    });
  });
  got = contents(b);
  checkArray("1-D ranged accessor (5, +40): *(begin() + i) in parallel_for", n, got.data(), [](std::size_t i) {
    if (i >= 5 && i < 45) return static_cast<int>(i - 5) * 2;
    return 100 + static_cast<int>(i);
  });
}

void deviceIterators2D(sycl::queue &q) {
  const std::size_t R0 = 6, R1 = 7;
  sycl::buffer<int, 2> b{sycl::range<2>(R0, R1)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
    h.single_task([=] {
      int k = 0;
      for (int &x : a) x = k++;
    });
  });
  std::vector<int> got = contents2(b);
  checkArray("2-D accessor: for (x : a) in a kernel visits rows in order", R0 * R1, got.data(),
             [](std::size_t k) { return static_cast<int>(k); });

  // A ranged box: rows 1-3, columns 2-5. Forward writes only inside it.
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::range<2>(3, 4), sycl::id<2>(1, 2), sycl::read_write);
    h.single_task([=] {
      int k = 0;
      for (auto it = a.begin(); it != a.end(); ++it) *it = -1000 - k++;
    });
  });
  got = contents2(b);
  auto inBox = [](std::size_t i, std::size_t j) { return i >= 1 && i < 4 && j >= 2 && j < 6; };
  checkArray("2-D ranged accessor (1,2)+(3,4): begin()..end() writes the box in row-major order", R0 * R1, got.data(),
             [&](std::size_t k) {
               std::size_t i = k / R1, j = k % R1;
               if (inBox(i, j)) return -1000 - static_cast<int>((i - 1) * 4 + (j - 2));
               return static_cast<int>(k);
             });

  // Reverse, and random access, on the same box.
  sycl::buffer<int> facts{sycl::range<1>(10)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::range<2>(3, 4), sycl::id<2>(1, 2), sycl::read_write);
    sycl::accessor f(facts, h, sycl::write_only, sycl::no_init);
    h.single_task([=] {
      f[0] = static_cast<int>(a.end() - a.begin());
      f[1] = a.begin()[5];  // (1, 1) of the box: element (2, 3)
      f[2] = &a.begin()[5] == &a[1][1] ? 1 : 0;
      auto it = a.begin();
      it += 7;
      f[3] = &*it == &a[1][3] ? 1 : 0;
      it -= 3;
      f[4] = &*it == &a[1][0] ? 1 : 0;
      f[5] = &*(a.end() - 1) == &a[2][3] ? 1 : 0;
      f[6] = &*a.rbegin() == &a[2][3] ? 1 : 0;
      f[7] = static_cast<int>(std::distance(a.crbegin(), a.crend()));
      auto c = a.cbegin();
      f[8] = (c + 4 == a.begin() + 4) && (c < a.cend()) && !(a.cend() <= c) && (a.end() > c) ? 1 : 0;
      f[9] = *(2 + a.cbegin());
      int k = 0;
      for (auto r = a.rbegin(); r != a.rend(); ++r) *r = 500 + k++;
    });
  });
  std::vector<int> f = contents(facts);
  checkEqual("2-D ranged accessor: end() - begin() is the box's size", 12, f[0]);
  checkEqual("2-D ranged accessor: begin()[5] reads box element (1, 1)", -1005, f[1]);
  checkEqual("2-D ranged accessor: &begin()[5] == &a[1][1]", 1, f[2]);
  checkEqual("2-D ranged accessor: begin() += 7 is a[1][3]", 1, f[3]);
  checkEqual("2-D ranged accessor: then -= 3 is a[1][0]", 1, f[4]);
  checkEqual("2-D ranged accessor: end() - 1 is a[2][3]", 1, f[5]);
  checkEqual("2-D ranged accessor: rbegin() is a[2][3]", 1, f[6]);
  checkEqual("2-D ranged accessor: distance(crbegin(), crend())", 12, f[7]);
  checkEqual("2-D ranged accessor: comparisons of iterators and const_iterators", 1, f[8]);
  checkEqual("2-D ranged accessor: *(2 + cbegin())", -1002, f[9]);
  got = contents2(b);
  checkArray("2-D ranged accessor: rbegin()..rend() writes the box backwards", R0 * R1, got.data(), [&](std::size_t k) {
    std::size_t i = k / R1, j = k % R1;
    if (inBox(i, j)) return 500 + static_cast<int>(11 - ((i - 1) * 4 + (j - 2)));
    return static_cast<int>(k);
  });

  // One work-item per element, through begin()[linear id].
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::range<2>(2, 5), sycl::id<2>(4, 1), sycl::write_only);
    h.parallel_for(a.get_range(), [=](sycl::item<2> item) {
      a.begin()[static_cast<std::ptrdiff_t>(item.get_linear_id())] = 7000 + static_cast<int>(item[0] * 10 + item[1]);
    });
  });
  got = contents2(b);
  checkArray("2-D ranged accessor (4,1)+(2,5): begin()[linear id] in parallel_for", R0 * R1, got.data(),
             [&](std::size_t k) {
               std::size_t i = k / R1, j = k % R1;
               if (i >= 4 && j >= 1 && j < 6) return 7000 + static_cast<int>((i - 4) * 10 + (j - 1));
               if (inBox(i, j)) return 500 + static_cast<int>(11 - ((i - 1) * 4 + (j - 2)));
               return static_cast<int>(k);
             });
}

void deviceIterators3D(sycl::queue &q) {
  const std::size_t R0 = 4, R1 = 5, R2 = 6;
  std::vector<int> host(R0 * R1 * R2);
  std::iota(host.begin(), host.end(), 0);
  sycl::buffer<int, 3> b(host.data(), sycl::range<3>(R0, R1, R2));
  auto inBox = [](std::size_t i, std::size_t j, std::size_t k) {
    return i >= 1 && i < 3 && j >= 2 && j < 5 && k >= 1 && k < 5;
  };
  // Box (1,2,1)+(2,3,4): 24 elements. Backwards with rbegin().
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::range<3>(2, 3, 4), sycl::id<3>(1, 2, 1), sycl::write_only);
    h.single_task([=] {
      int k = 0;
      for (auto it = a.rbegin(); it != a.rend(); ++it) *it = -1 - k++;
    });
  });
  std::vector<int> got = contents3(b);
  checkArray("3-D ranged accessor (1,2,1)+(2,3,4): rbegin()..rend() writes the box backwards", got.size(), got.data(),
             [&](std::size_t linear) {
               std::size_t i = linear / (R1 * R2), j = linear / R2 % R1, k = linear % R2;
               if (!inBox(i, j, k)) return static_cast<int>(linear);
               std::size_t position = ((i - 1) * 3 + (j - 2)) * 4 + (k - 1);
               return -1 - static_cast<int>(23 - position);
             });

  // Forward over the whole 3-D buffer: the sum, and the element at end() - 1.
  sycl::buffer<int> facts{sycl::range<1>(3)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_only);
    sycl::accessor f(facts, h, sycl::write_only, sycl::no_init);
    h.single_task([=] {
      int sum = 0;
      for (int x : a) sum += x;
      f[0] = sum;
      f[1] = *(a.end() - 1);
      f[2] = static_cast<int>(a.cend() - a.cbegin());
    });
  });
  std::vector<int> f = contents(facts);
  checkEqual("3-D accessor: sum over begin()..end()", std::accumulate(got.begin(), got.end(), 0), f[0]);
  checkEqual("3-D accessor: *(end() - 1) is the last element", got.back(), f[1]);
  checkEqual("3-D accessor: cend() - cbegin()", static_cast<int>(R0 * R1 * R2), f[2]);
}

// target::host_task accessors iterate on the host, inside the host task.
void hostTaskIterators(sycl::queue &q) {
  sycl::buffer<int, 3> b{sycl::range<3>(2, 3, 4)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::write_only_host_task, sycl::no_init);
    h.host_task([=] {
      int k = 0;
      for (int &x : a) x = k++;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::range<3>(1, 2, 2), sycl::id<3>(1, 1, 1), sycl::read_write_host_task);
    h.host_task([=] { std::reverse(a.begin(), a.end()); });
  });
  std::vector<int> got = contents3(b);
  // Box (1,1,1)+(1,2,2) holds elements 17, 18, 21, 22; reversed: 22, 21, 18, 17.
  checkArray("host_task accessors: fill by iterator, std::reverse of a 3-D box", got.size(), got.data(),
             [](std::size_t k) {
               if (k == 17) return 22;
               if (k == 18) return 21;
               if (k == 21) return 18;
               if (k == 22) return 17;
               return static_cast<int>(k);
             });
}

// --- pointers of ranged accessors ----------------------------------------------------------------

// A ranged accessor's elements start at its offset, its get_pointer() and
// get_multi_ptr() at the (sub-)buffer's first element (§4.7.6.9.1), in 1, 2 and
// 3 dimensions, of a buffer and of a sub-buffer, in kernels and on the host.
// (OnePass folds the offset into the accessor's data pointer when it makes
// the accessor: these are what keeps that right.) get_pointer() of device
// accessors is deprecated (§4.7.6.9.1), and still tested.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
void rangedPointers(sycl::queue &q) {
  sycl::buffer<int> whole = filledBuffer(256, [](std::size_t i) { return static_cast<int>(i); });
  // (A sub-buffer a device uses starts at a multiple of mem_base_addr_align.)
  sycl::buffer<int> sub(whole, sycl::id<1>(32), sycl::range<1>(64));
  sycl::buffer<int> f{sycl::range<1>(12)};
  sycl::buffer<int, 2> b2{sycl::range<2>(6, 7)};
  {
    sycl::host_accessor h(b2, sycl::write_only, sycl::no_init);
    for (std::size_t i = 0; i < 6; ++i)
      for (std::size_t j = 0; j < 7; ++j) h[i][j] = static_cast<int>(i * 7 + j);
  }
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(sub, h, sycl::range<1>(10), sycl::id<1>(5), sycl::read_only);
    sycl::accessor c(b2, h, sycl::range<2>(2, 3), sycl::id<2>(3, 2), sycl::read_only);
    sycl::accessor r(f, h, sycl::write_only, sycl::no_init);
    h.single_task([=] {
      r[0] = a[0];
      r[1] = a.get_pointer()[0];
      r[2] = a.get_multi_ptr<sycl::access::decorated::no>()[3];
      r[3] = static_cast<int>(&a[0] - a.get_pointer().get());
      r[4] = static_cast<int>(a.get_offset()[0]);
      r[5] = a[sycl::id<1>(9)];
      r[6] = c[1][2];
      r[7] = c[sycl::id<2>(0, 0)];
      r[8] = c.get_pointer()[0];
      r[9] = static_cast<int>(&c[0][0] - c.get_pointer().get());
      r[10] = *(c.begin() + 4);  // (1, 1) of the box: element (4, 3)
      r[11] = a.end()[-1];
    });
  });
  std::vector<int> got = contents(f);
  checkEqual("ranged accessor (10, +5) of a sub-buffer (+32): a[0]", 37, got[0]);
  checkEqual("ranged accessor of a sub-buffer: get_pointer()[0] is the sub-buffer's first element", 32, got[1]);
  checkEqual("ranged accessor of a sub-buffer: get_multi_ptr()[3]", 35, got[2]);
  checkEqual("ranged accessor of a sub-buffer: &a[0] - get_pointer()", 5, got[3]);
  checkEqual("ranged accessor of a sub-buffer: get_offset()", 5, got[4]);
  checkEqual("ranged accessor of a sub-buffer: a[id(9)]", 46, got[5]);
  checkEqual("2-D ranged accessor (2,3)+(3,2): c[1][2] is element (4, 4)", 32, got[6]);
  checkEqual("2-D ranged accessor: c[id(0, 0)] is element (3, 2)", 23, got[7]);
  checkEqual("2-D ranged accessor: get_pointer()[0] is element (0, 0)", 0, got[8]);
  checkEqual("2-D ranged accessor: &c[0][0] - get_pointer()", 23, got[9]);
  checkEqual("2-D ranged accessor: *(begin() + 4) is element (4, 3)", 31, got[10]);
  checkEqual("ranged accessor of a sub-buffer: end()[-1]", 46, got[11]);

  // Writes through a ranged accessor land at its offset, nowhere else.
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(sub, h, sycl::range<1>(4), sycl::id<1>(28), sycl::write_only);
    h.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { a[i] = -static_cast<int>(i[0]) - 1; });
  });
  std::vector<int> all = contents(whole);
  checkArray("writes through a ranged accessor (4, +28) of a sub-buffer (+32)", all.size(), all.data(),
             [](std::size_t i) { return i >= 60 && i < 64 ? -static_cast<int>(i - 60) - 1 : static_cast<int>(i); });

  sycl::buffer<int, 3> b3{sycl::range<3>(2, 3, 4)};
  {
    sycl::host_accessor h(b3, sycl::write_only, sycl::no_init);
    int k = 0;
    for (int &x : h) x = k++;
  }
  sycl::host_accessor h(b3, sycl::range<3>(1, 2, 2), sycl::id<3>(1, 1, 1), sycl::read_only);
  checkEqual("3-D ranged host_accessor (1,2,2)+(1,1,1): h[0][1][1] is element (1, 2, 2)", 22, h[0][1][1]);
  checkEqual("3-D ranged host_accessor: get_pointer()[0] is element (0, 0, 0)", 0, h.get_pointer()[0]);
  checkEqual("3-D ranged host_accessor: &h[0][0][0] - get_pointer()", 17,
             static_cast<int>(&h[0][0][0] - h.get_pointer()));
}
#pragma GCC diagnostic pop

// --- host_accessor iterators ----------------------------------------------------------------------

void hostAccessorIterators() {
  const std::size_t R0 = 5, R1 = 6;
  sycl::buffer<int, 2> b{sycl::range<2>(R0, R1)};
  {
    sycl::host_accessor a(b, sycl::write_only, sycl::no_init);
    std::iota(a.begin(), a.end(), 0);
  }
  {
    // A 2-D box (1,1)+(3,4): std algorithms see only the box, in order.
    sycl::host_accessor a(b, sycl::range<2>(3, 4), sycl::id<2>(1, 1));
    checkEqual("2-D ranged host_accessor: end() - begin()", std::ptrdiff_t(12), a.end() - a.begin());
    checkEqual("2-D ranged host_accessor: *begin() is element (1, 1)", static_cast<int>(R1 + 1), *a.begin());
    checkEqual("2-D ranged host_accessor: *rbegin() is element (3, 4)", static_cast<int>(3 * R1 + 4), *a.rbegin());
    std::vector<int> seen(a.cbegin(), a.cend());
    checkArray("2-D ranged host_accessor: cbegin()..cend()", 12, seen.data(),
               [&](std::size_t k) { return static_cast<int>((1 + k / 4) * R1 + 1 + k % 4); });
    std::vector<int> backwards(a.crbegin(), a.crend());
    checkArray("2-D ranged host_accessor: crbegin()..crend()", 12, backwards.data(),
               [&](std::size_t k) { return static_cast<int>((1 + (11 - k) / 4) * R1 + 1 + (11 - k) % 4); });
    std::sort(a.begin(), a.end(), std::greater<int>());
    sycl::host_accessor<int, 2>::const_iterator c = a.begin();  // iterator -> const_iterator
    checkEqual("2-D host_accessor: a const_iterator from an iterator", *a.cbegin(), *c);
  }
  std::vector<int> got = contents2(b);
  checkArray("2-D ranged host_accessor: std::sort(begin(), end(), greater) sorts only the box", R0 * R1, got.data(),
             [&](std::size_t k) {
               std::size_t i = k / R1, j = k % R1;
               if (i < 1 || i > 3 || j < 1 || j > 4) return static_cast<int>(k);
               std::size_t position = (i - 1) * 4 + (j - 1);  // descending: the box's values from the largest
               return static_cast<int>((1 + (11 - position) / 4) * R1 + 1 + (11 - position) % 4);
             });

  // 3-D, whole and reversed.
  sycl::buffer<int, 3> g{sycl::range<3>(2, 2, 3)};
  {
    sycl::host_accessor a(g);
    int k = 0;
    for (auto it = a.rbegin(); it != a.rend(); ++it) *it = k++;
    checkEqual("3-D host_accessor: a[0][0][0] written last by rbegin()..rend()", 11, a[0][0][0]);
    checkEqual("3-D host_accessor: a[1][1][2] written first", 0, a[1][1][2]);
    checkEqual("3-D host_accessor: a[1][0][1] (position 7)", 4, a[1][0][1]);
    checkEqual("3-D host_accessor: std::accumulate", 66, std::accumulate(a.begin(), a.end(), 0));
    checkEqual("3-D host_accessor: max_element is a[0][0][0]", true,
               &*std::max_element(a.begin(), a.end()) == &a[0][0][0]);
  }

  // A read-only 1-D host_accessor gives const iterators.
  sycl::buffer<int> one = filledBuffer(8, [](std::size_t i) { return static_cast<int>(i * i); });
  {
    sycl::host_accessor r(one, sycl::range<1>(4), sycl::id<1>(3), sycl::read_only);
    static_assert(std::is_same_v<decltype(*r.begin()), const int &>);
    std::vector<int> reversed(r.rbegin(), r.rend());
    checkArray("1-D ranged read-only host_accessor: rbegin()..rend()", 4, reversed.data(),
               [](std::size_t k) { return static_cast<int>((6 - k) * (6 - k)); });
  }
  // An empty host_accessor: begin() == end().
  sycl::host_accessor<int, 2> none;
  checkEqual("default-constructed 2-D host_accessor: begin() == end()", true, none.begin() == none.end());
  sycl::buffer<int, 2> zero{sycl::range<2>(3, 0)};
  {
    sycl::host_accessor a(zero);
    checkEqual("host_accessor of a 3x0 buffer: begin() == end()", true, a.begin() == a.end());
    checkEqual("host_accessor of a 3x0 buffer: rbegin() == rend()", true, a.rbegin() == a.rend());
  }
}

// §4.7.6.10.3: a read_write host_accessor converts to the read-only ones.
void hostAccessorConversions() {
  // (Buffers first: a buffer's destruction waits for the host_accessors that hold it.)
  sycl::buffer<int> b = filledBuffer(6, [](std::size_t i) { return static_cast<int>(i) + 40; });
  sycl::buffer<int> other = filledBuffer(2, [](std::size_t) { return 7; });
  sycl::host_accessor<int, 1, access_mode::read_write> rw(b);
  sycl::host_accessor<const int, 1, access_mode::read> r1 = rw;
  sycl::host_accessor<int, 1, access_mode::read> r2 = rw;
  sycl::host_accessor<const int, 1, access_mode::read> r3 = r2;
  sycl::host_accessor<int, 1, access_mode::read> r4 = r3;  // the read-only forms convert both ways
  static_assert(!std::is_convertible_v<sycl::host_accessor<int, 1, access_mode::read>,
                                       sycl::host_accessor<int, 1, access_mode::read_write>>);
  static_assert(!std::is_convertible_v<sycl::host_accessor<int, 1, access_mode::write>,
                                       sycl::host_accessor<int, 1, access_mode::read>>);
  rw[2] = 99;
  checkEqual("host_accessor<const int, read> converted from read_write sees its writes", 99, r1[2]);
  checkEqual("host_accessor<int, read> converted from read_write", 45, r2[5]);
  checkEqual("host_accessor<const int, read> converted from <int, read>", 40, r3[0]);
  checkEqual("host_accessor<int, read> converted from <const int, read>", 41, r4[1]);
  // swap (§4.7.6.10.1).
  sycl::host_accessor<int, 1, access_mode::read_write> o(other);
  rw.swap(o);
  checkEqual("host_accessor::swap: sizes exchanged", std::size_t(2), rw.size());
  checkEqual("host_accessor::swap: elements exchanged", 7, rw[1]);
  checkEqual("host_accessor::swap: the other one", 99, o[2]);
}

// --- 0-dimensional accessors -----------------------------------------------------------------------

void zeroDimensional(sycl::queue &q) {
  const std::size_t n = 40;
  sycl::buffer<int> b = filledBuffer(n, [](std::size_t i) { return static_cast<int>(i) + 1; });
  sycl::buffer<int> facts{sycl::range<1>(8)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor<int, 0, access_mode::read_write> a(b, h);
    sycl::accessor f(facts, h, sycl::write_only, sycl::no_init);
    static_assert(std::is_same_v<decltype(a)::reference, int &>);
    checkEqual("0-D accessor size()", std::size_t(1), a.size());
    checkEqual("0-D accessor byte_size()", sizeof(int), a.byte_size());
    checkEqual("0-D accessor empty()", false, a.empty());
    checkEqual("0-D accessor is_placeholder()", false, a.is_placeholder());
    h.single_task([=] {
      int before = a;  // operator reference()
      f[0] = before;
      a = a + 41;  // operator=(value_type&&)
      f[1] = a;
      const int fifty = 50;
      a = fifty;  // operator=(const value_type&)
      int &element = a;
      element += 1;
      f[2] = *a.get_pointer();
      f[3] = *a.get_multi_ptr();
      f[4] = static_cast<int>(a.end() - a.begin());
      f[5] = *a.begin();
      f[6] = &*a.rbegin() == a.get_pointer() ? 1 : 0;
      f[7] = static_cast<int>(a.size());
    });
  });
  std::vector<int> f = contents(facts);
  checkEqual("0-D accessor in a kernel: converts to the first element", 1, f[0]);
  checkEqual("0-D accessor in a kernel: a = a + 41", 42, f[1]);
  checkEqual("0-D accessor in a kernel: get_pointer() after a = 50 and += 1 through the reference", 51, f[2]);
  checkEqual("0-D accessor in a kernel: get_multi_ptr()", 51, f[3]);
  checkEqual("0-D accessor in a kernel: end() - begin()", 1, f[4]);
  checkEqual("0-D accessor in a kernel: *begin()", 51, f[5]);
  checkEqual("0-D accessor in a kernel: rbegin() is the element", 1, f[6]);
  checkEqual("0-D accessor in a kernel: size()", 1, f[7]);
  std::vector<int> got = contents(b);
  checkArray("0-D accessor: only the first element changed", n, got.data(),
             [](std::size_t i) { return i == 0 ? 51 : static_cast<int>(i) + 1; });

  // Read-only and write-only 0-D accessors; the first element of a sub-buffer
  // (at element 32: 128 bytes, info::device::mem_base_addr_align).
  sycl::buffer<int> sub(b, sycl::id<1>(32), sycl::range<1>(3));
  sycl::buffer<int> out{sycl::range<1>(1)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor<int, 0, access_mode::read> r(sub, h);
    sycl::accessor<int, 0, access_mode::write> w(out, h, sycl::property_list{sycl::no_init});
    static_assert(std::is_same_v<decltype(r)::value_type, const int>);
    static_assert(std::is_same_v<decltype(r)::reference, const int &>);
    h.single_task([=] { w = r * 3; });
  });
  checkEqual("0-D read accessor of a sub-buffer at 32 -> 0-D write accessor", 99, contents(out)[0]);
  q.submit([&](sycl::handler &h) {
    sycl::accessor<int, 0, access_mode::read_write> a(sub, h);
    h.parallel_for(sycl::range<1>(1), [=](sycl::id<1>) { a = -a; });
  });
  got = contents(b);
  checkArray("0-D accessor of a sub-buffer writes the parent's element 32 only", n, got.data(), [](std::size_t i) {
    if (i == 0) return 51;
    if (i == 32) return -33;
    return static_cast<int>(i) + 1;
  });

  // Placeholder and host task forms; read-only conversion; copy and fill.
  sycl::accessor<int, 0, access_mode::read_write> placeholder(b);
  checkEqual("0-D placeholder is_placeholder()", true, placeholder.is_placeholder());
  q.submit([&](sycl::handler &h) {
    h.require(placeholder);
    h.single_task([=] { placeholder = placeholder * 2; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor<int, 0, access_mode::read_write, target::host_task> a(b, h);
    h.host_task([=] { a = a + 1000; });
  });
  int copied = 0;
  q.submit([&](sycl::handler &h) {
     sycl::accessor<int, 0, access_mode::read_write> rw(b, h);
     sycl::accessor<int, 0, access_mode::read> r = rw;
     h.copy(r, &copied);
   }).wait();
  checkEqual("0-D placeholder (x2), then a host_task 0-D accessor (+1000), then copy(0-D read accessor, pointer)",
             51 * 2 + 1000, copied);
  q.submit([&](sycl::handler &h) {
    sycl::accessor<int, 0, access_mode::write> w(out, h);
    h.fill(w, 77);
  });
  checkEqual("fill(0-D accessor, 77)", 77, contents(out)[0]);

  // Default-constructed 0-D accessors are empty.
  sycl::accessor<int, 0> empty;
  checkEqual("default-constructed 0-D accessor empty()", true, empty.empty());
  checkEqual("default-constructed 0-D accessor size()", std::size_t(0), empty.size());

  // host_accessor<T, 0>.
  {
    sycl::host_accessor<int, 0> a(b);
    checkEqual("0-D host_accessor reads the first element", 51 * 2 + 1000, static_cast<int>(a));
    a = 8;
    int &element = a;
    element *= 2;
    checkEqual("0-D host_accessor size()", std::size_t(1), a.size());
    checkEqual("0-D host_accessor: *get_pointer() after a = 8 and *= 2", 16, *a.get_pointer());
    checkEqual("0-D host_accessor: end() - begin()", std::ptrdiff_t(1), a.end() - a.begin());
  }
  {
    sycl::host_accessor<int, 0, access_mode::read> r(sub);
    static_assert(std::is_same_v<decltype(r)::reference, const int &>);
    checkEqual("0-D read host_accessor of a sub-buffer", -33, static_cast<int>(r));
  }
  got = contents(b);
  checkEqual("after 0-D host_accessor writes: element 0", 16, got[0]);
  checkEqual("after 0-D host_accessor writes: element 1 unchanged", 2, got[1]);
}

// A 0-D accessor of a buffer of no elements is empty (nothing to point at),
// like a default-constructed one, rather than an out-of-range error.
void zeroDimensionalOfEmptyBuffer(sycl::queue &q) {
  sycl::buffer<int> none{sycl::range<1>(0)};
  {
    sycl::host_accessor<int, 0> h(none);
    checkEqual("0-D host_accessor of an empty buffer: empty()", true, h.empty());
    checkEqual("0-D host_accessor of an empty buffer: size()", std::size_t(0), h.size());
    checkEqual("0-D host_accessor of an empty buffer: byte_size()", std::size_t(0), h.byte_size());
  }
  sycl::buffer<bool> result{sycl::range<1>(1)};
  q.submit([&](sycl::handler &cgh) {
     sycl::accessor<int, 0> a(none, cgh);
     checkEqual("0-D accessor of an empty buffer: empty()", true, a.empty());
     checkEqual("0-D accessor of an empty buffer: size()", std::size_t(0), a.size());
     sycl::accessor r(result, cgh, sycl::write_only, sycl::no_init);
     cgh.single_task([=] { r[0] = a.empty() && a.size() == 0; });
   }).wait();
  checkEqual("0-D accessor of an empty buffer, in a kernel: empty()", true, sycl::host_accessor(result)[0]);
  sycl::buffer<int> one{sycl::range<1>(1)};
  checkEqual("0-D host_accessor of a 1-element buffer: size()", std::size_t(1),
             sycl::host_accessor<int, 0>(one).size());
}

// --- equality and std::hash (§4.5.2) ---------------------------------------------------------------

template <typename T> void checkCopiesHashAlike(const std::string &what, const T &a, const T &copy) {
  checkEqual(what + ": a copy compares equal", true, a == copy);
  checkEqual(what + ": a copy compares not unequal", false, a != copy);
  checkEqual(what + ": a copy has the same hash", std::hash<T>()(a), std::hash<T>()(copy));
}

void hashes(sycl::queue &q) {
  // Runtime objects.
  sycl::queue q2 = q;
  checkCopiesHashAlike("queue", q, q2);
  checkCopiesHashAlike("device", q.get_device(), q.get_device());
  checkCopiesHashAlike("context", q.get_context(), q.get_context());
  checkCopiesHashAlike("platform", q.get_device().get_platform(), q.get_device().get_platform());
  sycl::event e = q.single_task([] {});
  sycl::event e2 = e;
  checkCopiesHashAlike("event", e, e2);
  std::unordered_set<sycl::queue> queues{q, q2, sycl::queue()};
  checkEqual("unordered_set<queue>: a queue and its copy, and another queue", std::size_t(2), queues.size());
  std::unordered_set<sycl::event> events{e, e2, sycl::event()};
  checkEqual("unordered_set<event>: an event and its copy, and a default one", std::size_t(2), events.size());
  std::unordered_set<sycl::device> devices{q.get_device(), q.get_device()};
  checkEqual("unordered_set<device>: one device", std::size_t(1), devices.size());
  std::unordered_set<sycl::context> contexts{q.get_context(), q.get_context()};
  checkEqual("unordered_set<context>: one context", std::size_t(1), contexts.size());
  std::unordered_set<sycl::platform> platforms{q.get_device().get_platform()};
  checkEqual("unordered_set<platform>: one platform", std::size_t(1), platforms.size());

  // Buffers: a copy is the same buffer; a sub-buffer and another buffer are not.
  sycl::buffer<int> b{sycl::range<1>(16)};
  sycl::buffer<int> copy = b;
  sycl::buffer<int> sub(b, sycl::id<1>(8), sycl::range<1>(8));
  sycl::buffer<int> other{sycl::range<1>(16)};
  checkCopiesHashAlike("buffer", b, copy);
  checkEqual("a buffer and its sub-buffer differ", true, b != sub);
  checkEqual("two buffers differ", true, b != other);
  std::unordered_set<sycl::buffer<int>> buffers{b, copy, sub, other};
  checkEqual("unordered_set<buffer>: a buffer, its copy, a sub-buffer and another buffer", std::size_t(3),
             buffers.size());

  // Accessors: a copy is the same accessor, another construction is not.
  sycl::buffer<int> facts{sycl::range<1>(2)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_write);
    sycl::accessor again(b, h, sycl::read_write);
    sycl::accessor f(facts, h, sycl::write_only, sycl::no_init);
    auto acopy = a;
    checkCopiesHashAlike("accessor", a, acopy);
    checkEqual("two accessors of one buffer constructed apart differ", true, a != again);
    std::unordered_set<decltype(a)> accessors{a, acopy, again};
    checkEqual("unordered_set<accessor>: an accessor, its copy and another", std::size_t(2), accessors.size());
    // Equality in a kernel (§4.7.6.9.1).
    h.single_task([=] {
      f[0] = a == acopy ? 1 : 0;
      f[1] = a != again ? 1 : 0;
    });
  });
  std::vector<int> f = contents(facts);
  checkEqual("accessor == its copy, in a kernel", 1, f[0]);
  checkEqual("accessor != another accessor, in a kernel", 1, f[1]);
  sycl::accessor placeholder(b, sycl::read_only);
  checkCopiesHashAlike("placeholder accessor", placeholder, sycl::accessor(placeholder));
  sycl::accessor<int, 1, access_mode::read_write> none1, none2;
  checkCopiesHashAlike("default-constructed accessors", none1, none2);

  {
    sycl::host_accessor a(b, sycl::read_only);
    sycl::host_accessor again(b, sycl::read_only);
    auto acopy = a;
    checkCopiesHashAlike("host_accessor", a, acopy);
    checkEqual("two host_accessors constructed apart differ", true, a != again);
    std::unordered_set<sycl::host_accessor<int, 1, access_mode::read>> set{a, acopy, again};
    checkEqual("unordered_set<host_accessor>: one, its copy and another", std::size_t(2), set.size());
  }

  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> l(sycl::range<1>(32), h);
    sycl::local_accessor<int, 1> l2(sycl::range<1>(32), h);
    auto lcopy = l;
    checkCopiesHashAlike("local_accessor", l, lcopy);
    checkEqual("two local_accessors constructed apart differ", true, l != l2);
    h.single_task([] {});
  });
  q.wait();
}

// --- deprecated forms (§4.7.6.9.4, §4.7.2.2) -------------------------------------------------------

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// §4.5.4.3: accessors' property interface (no_init is their one property).
void properties(sycl::queue &q) {
  using sycl::property::no_init;
  sycl::buffer<int, 1> b{sycl::range<1>(8)};
  q.submit([&](sycl::handler &h) {
     sycl::accessor with(b, h, sycl::write_only, sycl::no_init);
     sycl::accessor without(b, h, sycl::read_write);
     sycl::local_accessor<int, 1> local(sycl::range<1>(4), h);
     onepass_test::check("accessor(no_init).has_property<no_init>", with.has_property<no_init>());
     onepass_test::check("accessor().has_property<no_init> is false", !without.has_property<no_init>());
     onepass_test::check("has_property<use_host_ptr> is false",
                         !with.has_property<sycl::property::buffer::use_host_ptr>());
     with.get_property<no_init>();
     onepass_test::checkThrows("get_property of an absent property", sycl::errc::invalid,
                               [&] { without.get_property<no_init>(); });
     onepass_test::check("local_accessor has no properties", !local.has_property<no_init>());
     onepass_test::checkThrows("local_accessor::get_property", sycl::errc::invalid,
                               [&] { local.get_property<no_init>(); });
     h.single_task([=] { with[0] = 1; });
   }).wait();
  {
    sycl::host_accessor h(b, sycl::no_init);
    onepass_test::check("host_accessor(no_init).has_property<no_init>", h.has_property<no_init>());
  }
  sycl::host_accessor h(b, sycl::read_only);
  onepass_test::check("host_accessor(read_only) has no no_init", !h.has_property<no_init>());
  onepass_test::checkThrows("host_accessor::get_property of an absent property", sycl::errc::invalid,
                            [&] { h.get_property<no_init>(); });
}

void deprecatedForms(sycl::queue &q) {
  static_assert(target::global_buffer == target::device);
  static_assert(sycl::access::target::global_buffer == target::device);
  static_assert(std::is_same_v<sycl::accessor<int, 1, access_mode::read_write, target::global_buffer>,
                               sycl::accessor<int, 1, access_mode::read_write, target::device>>);
  const std::size_t n = 32;
  sycl::buffer<int> b = filledBuffer(n, [](std::size_t i) { return static_cast<int>(i); });
  q.submit([&](sycl::handler &h) {
    auto a = b.get_access<access_mode::read_write, target::global_buffer>(h);
    static_assert(std::is_same_v<decltype(a), sycl::accessor<int, 1, access_mode::read_write, target::device>>);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = a[i] * 10; });
  });
  // target::device: get_pointer() is a global_ptr (Table 39, deprecated) that
  // compares with raw pointers both ways.
  static_assert(std::is_same_v<decltype(std::declval<sycl::accessor<int, 1>>().get_pointer()), sycl::global_ptr<int>>);
  static_assert(std::is_same_v<decltype(std::declval<sycl::accessor<const int, 1, access_mode::read>>().get_pointer()),
                               sycl::global_ptr<const int>>);
  // target::constant_buffer (read-only): get_pointer() is a constant_ptr<DataT>
  // to the buffer's start (§4.7.6.9.x, deprecated).
  sycl::buffer<int> firsts{sycl::range<1>(2)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor<int, 1, access_mode::read, target::constant_buffer> c(b, h, sycl::range<1>(4), sycl::id<1>(3));
    static_assert(std::is_same_v<decltype(c.get_pointer()), sycl::constant_ptr<int>>);
    sycl::accessor out(firsts, h, sycl::write_only, sycl::no_init);
    h.single_task([=] {
      out[0] = c.get_pointer()[0];  // the buffer's start, not the range's
      out[1] = c[0];
    });
  });
  {
    sycl::host_accessor f(firsts);
    checkEqual("constant_buffer accessor: get_pointer()[0] is the buffer's first element", 0, f[0]);
    checkEqual("constant_buffer accessor: [0] is the ranged accessor's first element", 30, f[1]);
  }

  // buffer::get_access<mode>() without a handler: a target::host_buffer
  // accessor, which waits for the kernel above.
  {
    auto r = b.get_access<access_mode::read>();
    static_assert(std::is_same_v<decltype(r), sycl::accessor<int, 1, access_mode::read, target::host_buffer>>);
    static_assert(std::is_same_v<decltype(r)::value_type, const int>);
    checkEqual("get_access<read>(): is_placeholder()", false, r.is_placeholder());
    checkEqual("get_access<read>(): get_count()", n, r.get_count());
    checkEqual("get_access<read>(): get_size()", n * sizeof(int), r.get_size());
    checkEqual("get_access<read>() after a kernel: element 7", 70, r[7]);
    checkEqual("get_access<read>(): get_pointer()[31]", 310, r.get_pointer()[31]);
    checkEqual("get_access<read>(): get_range()", true, r.get_range() == sycl::range<1>(n));
  }
  {
    auto w = b.get_access<access_mode::write>(sycl::range<1>(4), sycl::id<1>(10));
    static_assert(std::is_same_v<decltype(w), sycl::accessor<int, 1, access_mode::write, target::host_buffer>>);
    checkEqual("get_access<write>(range, offset): get_offset()", std::size_t(10), w.get_offset()[0]);
    for (std::size_t i = 0; i < 4; ++i) w[i] = -1;
  }
  {
    auto d = b.get_access<access_mode::discard_write>(sycl::range<1>(1), sycl::id<1>(1));
    d[sycl::id<1>(0)] = -2;
  }
  {
    auto head = b.get_access<access_mode::read_write>(sycl::range<1>(3));
    checkEqual("get_access<read_write>(range): get_offset() defaults to 0", std::size_t(0), head.get_offset()[0]);
    head[2] += 5;
  }
  std::vector<int> got = contents(b);
  checkArray("host_buffer accessors: get_access<write>(4 at 10), <discard_write>(1 at 1), <read_write>(3)", n,
             got.data(), [](std::size_t i) {
               if (i == 1) return -2;
               if (i == 2) return 25;
               if (i >= 10 && i < 14) return -1;
               return static_cast<int>(i) * 10;
             });

  // The constructors of the host_buffer specialization, in 2-D and 0-D.
  sycl::buffer<int, 2> g{sycl::range<2>(3, 4)};
  {
    sycl::accessor<int, 2, access_mode::discard_write, target::host_buffer> w(g);
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 4; ++j) w[i][j] = static_cast<int>(i * 4 + j);
  }
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(g, h, sycl::read_write);
    h.parallel_for(g.get_range(), [=](sycl::id<2> i) { a[i] += 100; });
  });
  {
    sycl::accessor<int, 2, access_mode::read, target::host_buffer> r(g, sycl::range<2>(2, 2), sycl::id<2>(1, 2));
    checkEqual("2-D host_buffer accessor after a kernel: [1][1] is element (2, 3)", 111, r[1][1]);
    checkEqual("2-D host_buffer accessor: [id(0, 0)] is element (1, 2)", 106, r[sycl::id<2>(0, 0)]);
    auto copy = r;
    checkEqual("host_buffer accessor: a copy compares equal", true, copy == r);
    checkEqual("host_buffer accessor: a copy has the same hash", std::hash<decltype(r)>()(r),
               std::hash<decltype(r)>()(copy));
  }
  {
    sycl::accessor<int, 0, access_mode::read_write, target::host_buffer> first(b);
    checkEqual("0-D host_buffer accessor reads element 0", 0, static_cast<int>(first));
    first = 123;
  }
  checkEqual("0-D host_buffer accessor writes element 0", 123, contents(b)[0]);
}

#pragma GCC diagnostic pop

}  // namespace

int main() {
  sycl::queue q;
  onepass_test::runPart("1-D iterators in kernels", [&] { deviceIterators1D(q); });
  onepass_test::runPart("2-D iterators in kernels", [&] { deviceIterators2D(q); });
  onepass_test::runPart("3-D iterators in kernels", [&] { deviceIterators3D(q); });
  onepass_test::runPart("host_task accessor iterators", [&] { hostTaskIterators(q); });
  onepass_test::runPart("pointers of ranged accessors", [&] { rangedPointers(q); });
  onepass_test::runPart("host_accessor iterators", [&] { hostAccessorIterators(); });
  onepass_test::runPart("host_accessor conversions and swap", [&] { hostAccessorConversions(); });
  onepass_test::runPart("0-dimensional accessors", [&] { zeroDimensional(q); });
  onepass_test::runPart("0-dimensional accessors of an empty buffer", [&] { zeroDimensionalOfEmptyBuffer(q); });
  onepass_test::runPart("equality and std::hash", [&] { hashes(q); });
  onepass_test::runPart("property interface", [&] { properties(q); });
  onepass_test::runPart("deprecated forms", [&] { deprecatedForms(q); });
  return onepass_test::report();
}
