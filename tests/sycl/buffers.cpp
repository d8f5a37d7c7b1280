// Buffers (SYCL 2020 §4.7.2): every constructor (range, host pointer, const
// host pointer, shared_ptr, container, iterator range), the properties
// use_host_ptr and use_mutex, write-back on destruction and its control
// (set_final_data, set_write_back), reinterpret, sub-buffers, 1-D/2-D/3-D
// shapes and zero-sized buffers. Every value is checked against one computed
// on the host, after a kernel changed it where the check is about data.
#include "check.h"

#include <sycl/sycl.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
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

// The values a host memory starts with, and what the kernels make of them.
int initial(std::size_t i) { return static_cast<int>(i) * 3 + 1; }
int doubled(std::size_t i) { return initial(i) * 2 + 5; }

// Runs a[i] = a[i] * 2 + 5 over a 1-D int buffer (the `doubled` of `initial`).
template <typename Buffer> void doubleInKernel(sycl::queue &q, Buffer &b) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_write);
    h.parallel_for(b.get_range(), [=](sycl::id<1> i) { a[i] = a[i] * 2 + 5; });
  });
}

// Writes value(i) = i * 7 - 3 into a 1-D int buffer, without reading it.
int written(std::size_t i) { return static_cast<int>(i) * 7 - 3; }
template <typename Buffer> void writeInKernel(sycl::queue &q, Buffer &b) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
    h.parallel_for(b.get_range(), [=](sycl::id<1> i) { a[i] = static_cast<int>(i[0]) * 7 - 3; });
  });
}

// The contents of a 1-D buffer, read through a host_accessor.
template <typename T> std::vector<std::remove_const_t<T>> contents(sycl::buffer<T, 1> &b) {
  sycl::host_accessor a(b, sycl::read_only);
  std::vector<std::remove_const_t<T>> result;
  for (std::size_t i = 0; i < b.size(); ++i) result.push_back(a[i]);
  return result;
}

// --- range constructors and shapes ----------------------------------------------

void rangeConstructors(sycl::queue &q) {
  {
    sycl::buffer<int> b{sycl::range<1>(1000)};
    checkEqual("1-D get_range()[0]", std::size_t(1000), b.get_range()[0]);
    checkEqual("1-D size()", std::size_t(1000), b.size());
    checkEqual("1-D byte_size()", std::size_t(4000), b.byte_size());
    checkEqual("1-D get_count() (deprecated)", std::size_t(1000), b.get_count());
    checkEqual("1-D get_size() (deprecated)", std::size_t(4000), b.get_size());
    checkEqual("range buffer is_sub_buffer()", false, b.is_sub_buffer());
    checkEqual("range buffer has_property<use_host_ptr>", false,
               b.has_property<sycl::property::buffer::use_host_ptr>());
    writeInKernel(q, b);
    std::vector<int> got = contents(b);
    checkArray("1-D range buffer written by a kernel", got.size(), got.data(), written);
  }
  {
    std::allocator<int> allocator;
    sycl::buffer<int> b(sycl::range<1>(64), allocator);
    static_assert(std::is_same_v<decltype(b.get_allocator()), std::allocator<int>>);
    writeInKernel(q, b);
    std::vector<int> got = contents(b);
    checkArray("range + allocator buffer written by a kernel", got.size(), got.data(), written);
  }
  {
    const std::size_t R0 = 13, R1 = 17;
    sycl::buffer<float, 2> b{sycl::range<2>(R0, R1)};
    checkEqual("2-D get_range()", sycl::range<2>(R0, R1) == b.get_range(), true);
    checkEqual("2-D size()", R0 * R1, b.size());
    checkEqual("2-D byte_size()", R0 * R1 * sizeof(float), b.byte_size());
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
      h.parallel_for(b.get_range(), [=](sycl::item<2> it) {
        a[it.get_id()] = static_cast<float>(it.get_id(0) * 100 + it.get_id(1)) + 0.5f;
      });
    });
    sycl::host_accessor a(b, sycl::read_only);
    std::vector<float> bySubscript, byId;
    for (std::size_t i = 0; i < R0; ++i)
      for (std::size_t j = 0; j < R1; ++j) {
        bySubscript.push_back(a[i][j]);
        byId.push_back(a[sycl::id<2>(i, j)]);
      }
    auto expected = [&](std::size_t k) { return static_cast<float>((k / R1) * 100 + k % R1) + 0.5f; };
    checkArray("2-D buffer written by a kernel, read as a[i][j]", bySubscript.size(), bySubscript.data(), expected);
    checkArray("2-D buffer written by a kernel, read as a[id]", byId.size(), byId.data(), expected);
  }
  {
    const std::size_t R0 = 3, R1 = 5, R2 = 7;
    sycl::buffer<std::int64_t, 3> b{sycl::range<3>(R0, R1, R2)};
    checkEqual("3-D get_range()", sycl::range<3>(R0, R1, R2) == b.get_range(), true);
    checkEqual("3-D size()", R0 * R1 * R2, b.size());
    checkEqual("3-D byte_size()", R0 * R1 * R2 * sizeof(std::int64_t), b.byte_size());
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
      h.parallel_for(b.get_range(),
                     [=](sycl::id<3> i) { a[i] = static_cast<std::int64_t>(i[0] * 10000 + i[1] * 100 + i[2]) - 50; });
    });
    sycl::host_accessor a(b, sycl::read_only);
    std::vector<std::int64_t> got;
    for (std::size_t i = 0; i < R0; ++i)
      for (std::size_t j = 0; j < R1; ++j)
        for (std::size_t k = 0; k < R2; ++k) got.push_back(a[i][j][k]);
    checkArray("3-D buffer written by a kernel, read as a[i][j][k]", got.size(), got.data(), [&](std::size_t n) {
      std::size_t i = n / (R1 * R2), j = n / R2 % R1, k = n % R2;
      return static_cast<std::int64_t>(i * 10000 + j * 100 + k) - 50;
    });
  }
}

// --- host pointers -----------------------------------------------------------------

void hostPointers(sycl::queue &q) {
  const std::size_t n = 777;
  {
    std::vector<int> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = initial(i);
    {
      sycl::buffer<int> b(host.data(), sycl::range<1>(n));
      doubleInKernel(q, b);
    }
    checkArray("T* buffer: kernel result written back at destruction", n, host.data(), doubled);
  }
  {
    // 2-D host memory, row-major as the buffer's range.
    int grid[6][9];
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 9; ++j) grid[i][j] = i * 9 + j;
    {
      sycl::buffer<int, 2> b(&grid[0][0], sycl::range<2>(6, 9));
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(b, h, sycl::read_write);
        h.parallel_for(b.get_range(), [=](sycl::id<2> i) { a[i] = a[i] * 10 + static_cast<int>(i[0]); });
      });
    }
    checkArray("2-D T* buffer: written back", 54, &grid[0][0],
               [](std::size_t k) { return static_cast<int>(k) * 10 + static_cast<int>(k / 9); });
  }
  {
    std::vector<double> host(2 * 3 * 4);
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<double>(i) * 0.25;
    {
      sycl::buffer<double, 3> b(host.data(), sycl::range<3>(2, 3, 4));
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(b, h, sycl::read_write);
        h.parallel_for(b.get_range(),
                       [=](sycl::id<3> i) { a[i[0]][i[1]][i[2]] += 1000.0 * static_cast<double>(i[2]); });
      });
    }
    checkArray("3-D T* buffer: written back", host.size(), host.data(),
               [](std::size_t k) { return static_cast<double>(k) * 0.25 + 1000.0 * static_cast<double>(k % 4); });
  }
  {
    // A host task writes last: the destructor waits for it too.
    std::vector<int> host(n, 0);
    {
      sycl::buffer<int> b(host.data(), sycl::range<1>(n));
      writeInKernel(q, b);
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(b, h, sycl::read_write_host_task);
        h.host_task([=] {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          for (std::size_t i = 0; i < n; ++i) a[i] += 1;
        });
      });
    }
    checkArray("T* buffer written last by a host task: written back after it", n, host.data(),
               [](std::size_t i) { return written(i) + 1; });
  }
  {
    // Copies of a buffer share it: the write-back happens when the last one goes.
    std::vector<int> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = initial(i);
    std::optional<sycl::buffer<int>> copy;
    {
      sycl::buffer<int> b(host.data(), sycl::range<1>(n));
      copy = b;
      checkEqual("a copy of a buffer compares equal", true, *copy == b);
      sycl::buffer<int> other{sycl::range<1>(n)};
      checkEqual("another buffer compares unequal", true, other != b);
    }
    doubleInKernel(q, *copy);
    copy.reset();
    checkArray("T* buffer used through a copy after the original is gone: written back", n, host.data(), doubled);
  }
  {
    // The destructor waits for the kernels on the buffer (§4.7.2.3): a slow
    // kernel that writes the last element last.
    const std::size_t m = 64;
    std::vector<std::uint64_t> host(m, 0);
    {
      sycl::buffer<std::uint64_t> b(host.data(), sycl::range<1>(m));
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(b, h, sycl::write_only);
        h.single_task([=] {
          for (std::size_t i = 0; i < m; ++i) {
            std::uint64_t x = i + 1;
            for (int k = 0; k < 300000; ++k) {  // xorshift: no closed form to optimize to
              x ^= x << 13;
              x ^= x >> 7;
              x ^= x << 17;
            }
            a[i] = x | 1;  // never 0
          }
        });
      });
    }
    std::size_t zeros = 0;
    for (std::uint64_t v : host) zeros += v == 0;
    checkEqual("buffer destructor waited for a slow kernel: elements not yet written", std::size_t(0), zeros);
  }
}

// --- const host pointer: copied in, no write-back ---------------------------------

void constHostPointer(sycl::queue &q) {
  const std::size_t n = 300;
  std::vector<int> storage(n);
  for (std::size_t i = 0; i < n; ++i) storage[i] = initial(i);
  const std::vector<int> &source = storage;
  {
    sycl::buffer b(source.data(), sycl::range<1>(n));
    static_assert(std::is_same_v<decltype(b), sycl::buffer<int, 1>>, "CTAD of buffer(const T *, range)");
    std::vector<int> before = contents(b);
    checkArray("const T* buffer: initial contents", n, before.data(), initial);
    doubleInKernel(q, b);
    std::vector<int> after = contents(b);
    checkArray("const T* buffer: a kernel wrote it", n, after.data(), doubled);
  }
  checkArray("const T* buffer: no write-back to the source", n, storage.data(), initial);

  {
    // buffer<const T>: read-only everywhere.
    sycl::buffer<const int> b(source.data(), sycl::range<1>(n));
    sycl::buffer<int> out{sycl::range<1>(n)};
    q.submit([&](sycl::handler &h) {
      sycl::accessor in(b, h, sycl::read_only);
      static_assert(std::is_same_v<decltype(in)::value_type, const int>);
      sycl::accessor o(out, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { o[i] = in[i] + 1; });
    });
    std::vector<int> got = contents(out);
    checkArray("buffer<const int>: read by a kernel", n, got.data(), [](std::size_t i) { return initial(i) + 1; });
  }
  checkArray("buffer<const int>: source untouched", n, storage.data(), initial);

  {
    // §4.7.2.1: no write-back "unless the buffer has another valid non-null
    // final data address specified via set_final_data()".
    std::vector<int> destination(n, -1);
    {
      sycl::buffer<int> b(source.data(), sycl::range<1>(n));
      b.set_final_data(destination.data());
      doubleInKernel(q, b);
    }
    checkArray("const T* buffer with set_final_data(pointer): written there", n, destination.data(), doubled);
    checkArray("const T* buffer with set_final_data(pointer): source untouched", n, storage.data(), initial);
  }
}

// --- shared_ptr host data ----------------------------------------------------------------

void sharedPointers(sycl::queue &q) {
  const std::size_t n = 256;
  {
    std::shared_ptr<int> data(new int[n], std::default_delete<int[]>());
    for (std::size_t i = 0; i < n; ++i) data.get()[i] = initial(i);
    {
      sycl::buffer<int> b(data, sycl::range<1>(n));
      check("shared_ptr<T> buffer holds its own copy of the shared_ptr (use_count > 1)", data.use_count() > 1);
      doubleInKernel(q, b);
    }
    checkEqual("shared_ptr<T> buffer releases its copy at destruction (use_count)", 1L, data.use_count());
    checkArray("shared_ptr<T> buffer: written back", n, data.get(), doubled);
  }
  {
    // The application may drop its shared_ptr right after construction.
    std::shared_ptr<int> data(new int[n], std::default_delete<int[]>());
    for (std::size_t i = 0; i < n; ++i) data.get()[i] = initial(i);
    std::weak_ptr<int> watch = data;
    {
      sycl::buffer<int> b(data, sycl::range<1>(n));
      data.reset();
      check("shared_ptr<T> buffer keeps the data alive after the application released it", !watch.expired());
      doubleInKernel(q, b);
      std::vector<int> got = contents(b);
      checkArray("shared_ptr<T> buffer whose shared_ptr was released: contents", n, got.data(), doubled);
    }
    check("shared_ptr<T> buffer frees the data at destruction once it is the last owner", watch.expired());
  }
  {
    std::shared_ptr<int[]> data(new int[n]);
    for (std::size_t i = 0; i < n; ++i) data[i] = initial(i);
    {
      sycl::buffer<int> b(data, sycl::range<1>(n));
      check("shared_ptr<T[]> buffer holds its own copy of the shared_ptr (use_count > 1)", data.use_count() > 1);
      doubleInKernel(q, b);
    }
    checkEqual("shared_ptr<T[]> buffer releases its copy at destruction (use_count)", 1L, data.use_count());
    checkArray("shared_ptr<T[]> buffer: written back", n, data.get(), doubled);
  }
  {
    // An empty shared_ptr: uninitialized memory (§4.7.2.1).
    sycl::buffer<int> b{std::shared_ptr<int>(), sycl::range<1>(n)};
    writeInKernel(q, b);
    std::vector<int> got = contents(b);
    checkArray("buffer from an empty shared_ptr: written by a kernel", n, got.data(), written);
  }
  {
    // 2-D shared_ptr buffer.
    std::shared_ptr<float> data(new float[4 * 5], std::default_delete<float[]>());
    for (int i = 0; i < 20; ++i) data.get()[i] = static_cast<float>(i);
    {
      sycl::buffer<float, 2> b(data, sycl::range<2>(4, 5));
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(b, h, sycl::read_write);
        h.parallel_for(b.get_range(), [=](sycl::id<2> i) { a[i] += 0.5f * static_cast<float>(i[1]); });
      });
    }
    checkArray("2-D shared_ptr<T> buffer: written back", 20, data.get(),
               [](std::size_t k) { return static_cast<float>(k) + 0.5f * static_cast<float>(k % 5); });
  }
}

// --- containers -------------------------------------------------------------------------------

void containers(sycl::queue &q) {
  const std::size_t n = 500;
  {
    std::vector<int> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = initial(i);
    {
      sycl::buffer b(v);
      static_assert(std::is_same_v<decltype(b), sycl::buffer<int, 1>>, "CTAD of buffer(Container &)");
      checkEqual("buffer(std::vector) size()", n, b.size());
      doubleInKernel(q, b);
    }
    checkArray("buffer(std::vector): written back to the vector", n, v.data(), doubled);
  }
  {
    std::array<double, 40> v;
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i) / 8;
    {
      sycl::buffer b(v, {sycl::property::buffer::use_host_ptr()});
      static_assert(std::is_same_v<decltype(b), sycl::buffer<double, 1>>, "CTAD of buffer(std::array &)");
      checkEqual("buffer(std::array, use_host_ptr) has_property<use_host_ptr>", true,
                 b.has_property<sycl::property::buffer::use_host_ptr>());
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(b, h, sycl::read_write);
        h.parallel_for(sycl::range<1>(v.size()), [=](sycl::id<1> i) { a[i] = a[i] * 4 + 1; });
      });
    }
    checkArray("buffer(std::array): written back to the array", v.size(), v.data(),
               [](std::size_t i) { return static_cast<double>(i) / 2 + 1; });
  }
  {
    // A const container: buffer<const T>, read-only, nothing written back.
    const std::vector<int> cv = [&] {
      std::vector<int> t(n);
      for (std::size_t i = 0; i < n; ++i) t[i] = initial(i);
      return t;
    }();
    sycl::buffer<const int> b(cv);
    sycl::buffer<int> out{sycl::range<1>(n)};
    q.submit([&](sycl::handler &h) {
      sycl::accessor in(b, h, sycl::read_only);
      sycl::accessor o(out, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { o[i] = -in[i]; });
    });
    std::vector<int> got = contents(out);
    checkArray("buffer<const int>(const std::vector): read by a kernel", n, got.data(),
               [](std::size_t i) { return -initial(i); });
  }
}

// --- iterator ranges: copied in, no write-back ---------------------------------------------

void iteratorRanges(sycl::queue &q) {
  const std::size_t n = 120;
  {
    std::list<int> source;
    for (std::size_t i = 0; i < n; ++i) source.push_back(initial(i));
    {
      sycl::buffer b(source.begin(), source.end());
      static_assert(std::is_same_v<decltype(b), sycl::buffer<int, 1>>, "CTAD of buffer(InputIterator, InputIterator)");
      checkEqual("buffer(list iterators) size()", n, b.size());
      std::vector<int> before = contents(b);
      checkArray("buffer(list iterators): initial contents", n, before.data(), initial);
      doubleInKernel(q, b);
      std::vector<int> after = contents(b);
      checkArray("buffer(list iterators): a kernel wrote it", n, after.data(), doubled);
    }
    std::vector<int> now(source.begin(), source.end());
    checkArray("buffer(list iterators): no write-back to the source", n, now.data(), initial);
  }
  {
    std::vector<int> source(n);
    for (std::size_t i = 0; i < n; ++i) source[i] = initial(i);
    {
      sycl::buffer<int> b(source.begin(), source.end());
      doubleInKernel(q, b);
      // Nowhere to write back: set_write_back has no effect (§4.7.2.1).
      b.set_write_back(true);
    }
    checkArray("buffer(vector iterators) + set_write_back(true): no write-back to the source", n, source.data(),
               initial);
  }
  {
    int source[n];
    for (std::size_t i = 0; i < n; ++i) source[i] = initial(i);
    {
      sycl::buffer b(source + 0, source + n);
      static_assert(std::is_same_v<decltype(b), sycl::buffer<int, 1>>, "CTAD of buffer(T *, T *)");
      checkEqual("buffer(pointer pair) size()", n, b.size());
      doubleInKernel(q, b);
      std::vector<int> after = contents(b);
      checkArray("buffer(pointer pair): a kernel wrote it", n, after.data(), doubled);
    }
    checkArray("buffer(pointer pair): no write-back to the source", n, source, initial);
  }
  {
    // An iterator range with a final destination (§4.7.2.1: "if the buffer has
    // a valid non-const iterator specified via set_final_data()").
    std::vector<int> source(n), destination(n, -1);
    for (std::size_t i = 0; i < n; ++i) source[i] = initial(i);
    {
      sycl::buffer<int> b(source.cbegin(), source.cend());
      b.set_final_data(destination.begin());
      doubleInKernel(q, b);
    }
    checkArray("buffer(iterators) + set_final_data(iterator): written there", n, destination.data(), doubled);
    checkArray("buffer(iterators) + set_final_data(iterator): source untouched", n, source.data(), initial);
  }
}

// --- use_host_ptr and use_mutex -------------------------------------------------------------------

void useHostPtr(sycl::queue &q) {
  const std::size_t n = 200;
  std::vector<int> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = initial(i);
  {
    sycl::buffer<int> b(host.data(), sycl::range<1>(n), {sycl::property::buffer::use_host_ptr()});
    checkEqual("use_host_ptr: has_property", true, b.has_property<sycl::property::buffer::use_host_ptr>());
    checkEqual("use_host_ptr: has_property<use_mutex>", false, b.has_property<sycl::property::buffer::use_mutex>());
    doubleInKernel(q, b);
    sycl::host_accessor a(b);
    // §4.7.2.2: a host_accessor's references are the host memory itself.
    checkEqual("use_host_ptr: &host_accessor[0] is the host pointer", static_cast<const int *>(host.data()),
               static_cast<const int *>(&a[0]));
    checkEqual("use_host_ptr: &host_accessor[n - 1]", static_cast<const int *>(host.data() + n - 1),
               static_cast<const int *>(&a[n - 1]));
    checkEqual("use_host_ptr: host_accessor sees the kernel's result", doubled(n - 1), a[n - 1]);
  }
  checkArray("use_host_ptr: written back", n, host.data(), doubled);

  int grid[4][6] = {};
  {
    sycl::buffer<int, 2> b(&grid[0][0], sycl::range<2>(4, 6), {sycl::property::buffer::use_host_ptr()});
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::write_only);
      h.parallel_for(b.get_range(), [=](sycl::id<2> i) { a[i] = static_cast<int>(i[0] * 6 + i[1]) + 1; });
    });
    sycl::host_accessor a(b, sycl::read_only);
    checkEqual("2-D use_host_ptr: &host_accessor[id(2, 3)] is &grid[2][3]", static_cast<const int *>(&grid[2][3]),
               static_cast<const int *>(&a[sycl::id<2>(2, 3)]));
  }
  checkArray("2-D use_host_ptr: written back", 24, &grid[0][0], [](std::size_t k) { return static_cast<int>(k) + 1; });
}

// context_bound is kept and returned. Contexts of the same device share
// their memory in OnePass: a queue of another context on the bound context's
// device may use the buffer (the CTS's buffer constructors do); a device the
// bound context does not have is an errc::invalid error that leaves the data
// intact.
void contextBound(sycl::queue &q) {
  sycl::buffer<int> b{sycl::range<1>(8), {sycl::property::buffer::context_bound(q.get_context())}};
  checkEqual("context_bound: has_property", true, b.has_property<sycl::property::buffer::context_bound>());
  checkEqual("context_bound: get_context() is the queue's context", true,
             b.get_property<sycl::property::buffer::context_bound>().get_context() == q.get_context());
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(8), [=](sycl::id<1> i) { a[i] = static_cast<int>(i[0]) * 3; });
  });
  {
    sycl::host_accessor a(b, sycl::read_only);
    checkEqual("context_bound: a kernel writes the buffer", 21, a[7]);
  }
  sycl::queue sameDevice{sycl::context(q.get_device()), q.get_device()};
  sameDevice.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_write);
    h.single_task([=] { a[1] += 1000; });
  });
  {
    sycl::host_accessor a(b, sycl::read_only);
    checkEqual("context_bound: a queue of another context on the same device", 1003, a[1]);
  }
  std::vector<sycl::device> others;
  for (const sycl::device &d : sycl::device::get_devices())
    if (d != q.get_device()) others.push_back(d);
  if (others.empty()) {
    std::printf("context_bound: one device only: the other-device check is skipped\n");
  } else {
    sycl::queue otherDevice{others.front()};
    checkThrows("context_bound: a queue of a device the bound context lacks", sycl::errc::invalid, [&] {
      otherDevice.submit([&](sycl::handler &h) {
        sycl::accessor a(b, h, sycl::write_only);
        h.single_task([=] { a[0] = -1; });
      });
    });
  }
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(b, h, sycl::read_write);
    h.single_task([=] { a[0] += 100; });
  });
  sycl::host_accessor a(b, sycl::read_only);
  checkEqual("context_bound: the refused command changed nothing", 100, a[0]);
  checkEqual("context_bound: the rest intact", 21, a[7]);
}

void useMutex(sycl::queue &q) {
  const std::size_t n = 300;
  {
    std::mutex mutex;
    std::vector<int> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = initial(i);
    {
      sycl::buffer<int> b(host.data(), sycl::range<1>(n), {sycl::property::buffer::use_mutex(mutex)});
      checkEqual("use_mutex: has_property", true, b.has_property<sycl::property::buffer::use_mutex>());
      checkEqual("use_mutex: get_property().get_mutex_ptr()", &mutex,
                 b.get_property<sycl::property::buffer::use_mutex>().get_mutex_ptr());
      doubleInKernel(q, b);
      q.wait();
      // §4.7.2.2: "The mutex m is locked by the runtime whenever the data is
      // in use and unlocked otherwise. The contents of hostData are guaranteed
      // to reflect the contents of the buffer when the std::mutex is unlocked
      // by the runtime." The kernel is done: the data is not in use.
      if (check("use_mutex: the mutex can be locked while the buffer is idle", mutex.try_lock())) {
        checkArray("use_mutex: host data reflects the buffer while the mutex is unlocked (buffer alive)", n,
                   host.data(), doubled);
        mutex.unlock();
      }
    }
    bool lockable = mutex.try_lock();
    checkEqual("use_mutex: the mutex can be locked after destruction", true, lockable);
    if (lockable) mutex.unlock();
    checkArray("use_mutex: written back at destruction", n, host.data(), doubled);
  }
  {
    // The destructor writes back under the mutex: while the application holds
    // it, the destruction cannot complete.
    std::mutex mutex;
    std::vector<int> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = initial(i);
    auto b = std::make_unique<sycl::buffer<int>>(host.data(), sycl::range<1>(n),
                                                 sycl::property_list{sycl::property::buffer::use_mutex(mutex)});
    writeInKernel(q, *b);
    q.wait();
    mutex.lock();
    std::atomic<bool> destroyed{false};
    std::thread destroyer([&] {
      b.reset();
      destroyed = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    checkEqual("use_mutex: the destructor waits while the application holds the mutex", false, destroyed.load());
    mutex.unlock();
    destroyer.join();
    checkEqual("use_mutex: the destructor completes once the mutex is released", true, destroyed.load());
    checkArray("use_mutex (mutex held during destruction): written back", n, host.data(), written);
  }
  {
    std::mutex mutex;
    std::shared_ptr<int> data(new int[n], std::default_delete<int[]>());
    for (std::size_t i = 0; i < n; ++i) data.get()[i] = initial(i);
    {
      sycl::buffer<int> b(data, sycl::range<1>(n), {sycl::property::buffer::use_mutex(mutex)});
      doubleInKernel(q, b);
    }
    bool lockable = mutex.try_lock();
    checkEqual("shared_ptr + use_mutex: the mutex can be locked after destruction", true, lockable);
    if (lockable) mutex.unlock();
    checkArray("shared_ptr + use_mutex: written back", n, data.get(), doubled);
  }
}

// --- set_final_data and set_write_back ------------------------------------------------------------

void finalData(sycl::queue &q) {
  const std::size_t n = 150;
  {
    std::vector<int> destination(n, -1);
    {
      sycl::buffer<int> b{sycl::range<1>(n)};
      b.set_final_data(destination.data());
      writeInKernel(q, b);
    }
    checkArray("range buffer + set_final_data(pointer): written there", n, destination.data(), written);
  }
  {
    std::vector<int> destination(n, -1);
    {
      sycl::buffer<int> b{sycl::range<1>(n)};
      b.set_final_data(destination.data());
      b.set_final_data(nullptr);
      writeInKernel(q, b);
    }
    checkArray("set_final_data(pointer) then set_final_data(nullptr): nothing written", n, destination.data(),
               [](std::size_t) { return -1; });
  }
  {
    std::vector<int> destination(n, -1);
    {
      sycl::buffer<int> b{sycl::range<1>(n)};
      b.set_final_data(destination.data());
      b.set_final_data();  // the default argument: nullptr
      writeInKernel(q, b);
    }
    checkArray("set_final_data() (no argument): nothing written", n, destination.data(),
               [](std::size_t) { return -1; });
  }
  {
    // A host-pointer buffer redirected to other memory.
    std::vector<int> host(n), destination(n, -1);
    for (std::size_t i = 0; i < n; ++i) host[i] = initial(i);
    {
      sycl::buffer<int> b(host.data(), sycl::range<1>(n));
      b.set_final_data(destination.data());
      doubleInKernel(q, b);
    }
    checkArray("T* buffer + set_final_data(other pointer): written there", n, destination.data(), doubled);
  }
  {
    // A host-pointer buffer whose write-back is cancelled, checked where the
    // kernel cannot have written directly: the source is a const pointer.
    std::vector<int> source(n);
    for (std::size_t i = 0; i < n; ++i) source[i] = initial(i);
    std::vector<int> destination(n, -1);
    {
      sycl::buffer<int> b(static_cast<const int *>(source.data()), sycl::range<1>(n));
      b.set_final_data(destination.data());
      b.set_write_back(false);
      doubleInKernel(q, b);
    }
    checkArray("set_final_data(pointer) + set_write_back(false): nothing written", n, destination.data(),
               [](std::size_t) { return -1; });
  }
  {
    std::vector<int> destination(n, -1);
    {
      sycl::buffer<int> b{sycl::range<1>(n)};
      b.set_final_data(destination.data());
      b.set_write_back(false);
      b.set_write_back();  // the default argument: true
      writeInKernel(q, b);
    }
    checkArray("set_write_back(false) then set_write_back(): written", n, destination.data(), written);
  }
  {
    auto target = std::shared_ptr<int>(new int[n], std::default_delete<int[]>());
    std::fill(target.get(), target.get() + n, -1);
    {
      sycl::buffer<int> b{sycl::range<1>(n)};
      b.set_final_data(std::weak_ptr<int>(target));
      writeInKernel(q, b);
    }
    checkArray("set_final_data(std::weak_ptr<int>): written there", n, target.get(), written);
  }
  checkNoThrow("set_final_data(an expired std::weak_ptr<int>): no write-back, no error", [&] {
    auto target = std::make_shared<int>(0);
    std::weak_ptr<int> expired = target;
    target.reset();
    sycl::buffer<int> b{sycl::range<1>(n)};
    b.set_final_data(expired);
    writeInKernel(q, b);
  });
  {
    // Any output iterator is a destination (§4.7.2.1).
    std::vector<int> destination;
    {
      sycl::buffer<int> b{sycl::range<1>(n)};
      b.set_final_data(std::back_inserter(destination));
      writeInKernel(q, b);
    }
    if (checkEqual("set_final_data(std::back_inserter): number of elements appended", n, destination.size()))
      checkArray("set_final_data(std::back_inserter): values", n, destination.data(), written);
  }
  {
    // §4.7.2.1: "copied to at destruction time, if the buffer was involved
    // with a write accessor": only read accessors here.
    std::vector<int> source(n), destination(n, -1);
    for (std::size_t i = 0; i < n; ++i) source[i] = initial(i);
    {
      sycl::buffer<int> b(static_cast<const int *>(source.data()), sycl::range<1>(n));
      b.set_final_data(destination.data());
      sycl::buffer<int> sum{sycl::range<1>(1)};
      q.submit([&](sycl::handler &h) {
        sycl::accessor in(b, h, sycl::read_only);
        sycl::accessor s(sum, h, sycl::write_only, sycl::no_init);
        h.single_task([=] {
          int total = 0;
          for (std::size_t i = 0; i < n; ++i) total += in[i];
          s[0] = total;
        });
      });
      sycl::host_accessor a(b, sycl::read_only);
      checkEqual("read-only use of a buffer with a final destination: read back", initial(5), a[5]);
    }
    checkArray("set_final_data on a buffer never accessed for writing: nothing copied", n, destination.data(),
               [](std::size_t) { return -1; });
  }
  {
    // A sub-buffer's final data is the sub-buffer's elements only.
    const std::size_t parentSize = 64, subSize = 16;
    std::vector<int> destination(parentSize, -1);
    {
      sycl::buffer<int> parent{sycl::range<1>(parentSize)};
      sycl::buffer<int> sub(parent, sycl::id<1>(0), sycl::range<1>(subSize));
      sub.set_final_data(destination.data());
      writeInKernel(q, parent);
    }
    checkArray("sub-buffer (at offset 0) + set_final_data(pointer): its elements", subSize, destination.data(),
               written);
    checkArray("sub-buffer (at offset 0) + set_final_data(pointer): nothing past its elements", parentSize - subSize,
               destination.data() + subSize, [](std::size_t) { return -1; });
  }
  {
    const std::size_t parentSize = 64, subSize = 16, offset = 24;
    std::vector<int> destination(parentSize, -1);
    {
      sycl::buffer<int> parent{sycl::range<1>(parentSize)};
      sycl::buffer<int> sub(parent, sycl::id<1>(offset), sycl::range<1>(subSize));
      sub.set_final_data(destination.data());
      writeInKernel(q, parent);
    }
    checkArray("sub-buffer (at offset 24) + set_final_data(pointer): its elements", subSize, destination.data(),
               [](std::size_t i) { return written(i + offset); });
    checkArray("sub-buffer (at offset 24) + set_final_data(pointer): nothing past its elements", parentSize - subSize,
               destination.data() + subSize, [](std::size_t) { return -1; });
  }
}

// --- reinterpret --------------------------------------------------------------------------------

void reinterpretViews(sycl::queue &q) {
  const std::size_t n = 16;
  {
    std::vector<std::uint32_t> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = 0x01020304u * static_cast<std::uint32_t>(i + 1);
    std::vector<std::uint32_t> expected = host;
    {
      sycl::buffer<std::uint32_t> b(host.data(), sycl::range<1>(n));
      auto bytes = b.reinterpret<unsigned char>(sycl::range<1>(4 * n));
      static_assert(std::is_same_v<decltype(bytes), sycl::buffer<unsigned char, 1>>);
      checkEqual("reinterpret<uchar>(range): get_range()", std::size_t(4 * n), bytes.get_range()[0]);
      checkEqual("reinterpret<uchar>(range): byte_size()", b.byte_size(), bytes.byte_size());
      {
        sycl::host_accessor a(bytes, sycl::read_only);
        std::vector<unsigned char> got(a.get_pointer(), a.get_pointer() + 4 * n);
        checkEqual("reinterpret<uchar>(range): bytes are those of the ints", 0,
                   std::memcmp(got.data(), expected.data(), 4 * n));
      }
      // A kernel writes through the byte view; the int view must see it.
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(bytes, h, sycl::read_write);
        h.parallel_for(sycl::range<1>(n),
                       [=](sycl::id<1> i) { a[4 * i[0] + 1] = static_cast<unsigned char>(0xA0 + i[0]); });
      });
      for (std::size_t i = 0; i < n; ++i) reinterpret_cast<unsigned char *>(expected.data())[4 * i + 1] = 0xA0 + i;
      std::vector<std::uint32_t> got = contents(b);
      checkArray("a kernel wrote through reinterpret<uchar>: seen through the original", n, got.data(),
                 [&](std::size_t i) { return expected[i]; });

      auto sameSize = b.reinterpret<float>();
      static_assert(std::is_same_v<decltype(sameSize), sycl::buffer<float, 1>>);
      checkEqual("reinterpret<float>(): get_range()", n, sameSize.get_range()[0]);
      auto asChars = b.reinterpret<char>();
      checkEqual("reinterpret<char>() of a 1-D buffer: get_range()", 4 * n, asChars.get_range()[0]);
    }
    checkArray("a host-pointer buffer changed through a reinterpreted view: written back", n, host.data(),
               [&](std::size_t i) { return expected[i]; });
  }
  {
    // 2-D -> 1-D and 2-D -> 2-D of another shape.
    sycl::buffer<int, 2> grid{sycl::range<2>(4, 8)};
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(grid, h, sycl::write_only, sycl::no_init);
      h.parallel_for(grid.get_range(), [=](sycl::id<2> i) { a[i] = static_cast<int>(i[0] * 8 + i[1]) * 5; });
    });
    auto flat = grid.reinterpret<int, 1>(sycl::range<1>(32));
    static_assert(std::is_same_v<decltype(flat), sycl::buffer<int, 1>>);
    std::vector<int> got = contents(flat);
    checkArray("reinterpret<int, 1> of a 4x8 buffer: row-major order", 32, got.data(),
               [](std::size_t k) { return static_cast<int>(k) * 5; });
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(flat, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(32), [=](sycl::id<1> i) { a[i] += 1; });
    });
    auto reshaped = grid.reinterpret<int, 2>(sycl::range<2>(8, 4));
    {
      sycl::host_accessor a(reshaped, sycl::read_only);
      std::vector<int> values;
      for (std::size_t i = 0; i < 8; ++i)
        for (std::size_t j = 0; j < 4; ++j) values.push_back(a[i][j]);
      checkArray("reinterpret<int, 2>(8x4) of 4x8, after a kernel on the 1-D view", 32, values.data(),
                 [](std::size_t k) { return static_cast<int>(k) * 5 + 1; });
    }
    {
      sycl::host_accessor a(grid, sycl::read_only);
      checkEqual("4x8 buffer after a kernel on its 1-D view: [3][7]", 31 * 5 + 1, a[3][7]);
    }
  }
  {
    // The view of a sub-buffer covers the sub-buffer only (§4.7.2.1). (At
    // element 32: 128 bytes, info::device::mem_base_addr_align, §4.7.2.3.)
    const std::size_t count = 48;
    std::vector<std::uint32_t> host(count);
    for (std::size_t i = 0; i < count; ++i) host[i] = static_cast<std::uint32_t>(i) * 0x00010001u;
    {
      sycl::buffer<std::uint32_t> b(host.data(), sycl::range<1>(count));
      sycl::buffer<std::uint32_t> sub(b, sycl::id<1>(32), sycl::range<1>(8));
      auto bytes = sub.reinterpret<unsigned char>(sycl::range<1>(32));
      checkEqual("reinterpret of a sub-buffer: is_sub_buffer()", true, bytes.is_sub_buffer());
      {
        sycl::host_accessor a(bytes, sycl::read_only);
        std::uint32_t first, last;
        std::memcpy(&first, &a[0], 4);
        std::memcpy(&last, &a[28], 4);
        checkEqual("reinterpret of a sub-buffer at 32: its first element", 32u * 0x00010001u, first);
        checkEqual("reinterpret of a sub-buffer at 32: its last element", 39u * 0x00010001u, last);
      }
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(bytes, h, sycl::write_only);
        h.parallel_for(sycl::range<1>(32), [=](sycl::id<1> i) { a[i] = 0xEE; });
      });
    }
    checkArray(
        "a kernel wrote all bytes of a reinterpreted sub-buffer [32, 40): the parent", count, host.data(),
        [](std::size_t i) { return i >= 32 && i < 40 ? 0xEEEEEEEEu : static_cast<std::uint32_t>(i) * 0x00010001u; });
  }
  {
    sycl::buffer<int> b{sycl::range<1>(n)};
    checkThrows("reinterpret<int>(range 17) of 16 ints", sycl::errc::invalid,
                [&] { (void)b.reinterpret<int>(sycl::range<1>(17)); });
    checkThrows("reinterpret<char>(range 63) of 64 bytes", sycl::errc::invalid,
                [&] { (void)b.reinterpret<char>(sycl::range<1>(63)); });
    checkThrows("reinterpret<double, 2>(range 3x3) of 64 bytes", sycl::errc::invalid,
                [&] { (void)b.reinterpret<double, 2>(sycl::range<2>(3, 3)); });
    sycl::buffer<char> odd{sycl::range<1>(10)};
    checkThrows("reinterpret<int>() of 10 bytes", sycl::errc::invalid, [&] { (void)odd.reinterpret<int>(); });
    sycl::buffer<int, 2> grid{sycl::range<2>(4, 8)};
    checkThrows("reinterpret<int, 2>(3x8) of 4x8 ints", sycl::errc::invalid,
                [&] { (void)grid.reinterpret<int, 2>(sycl::range<2>(3, 8)); });
  }
}

// --- sub-buffers --------------------------------------------------------------------------------

void subBuffers(sycl::queue &q) {
  {
    const std::size_t n = 100;
    std::vector<int> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = initial(i);
    {
      sycl::buffer<int> parent(host.data(), sycl::range<1>(n));
      // (Sub-buffers a kernel accesses start at multiples of 32 ints: 128
      // bytes, info::device::mem_base_addr_align, §4.7.2.3.)
      sycl::buffer<int> sub(parent, sycl::id<1>(32), sycl::range<1>(30));
      checkEqual("sub-buffer is_sub_buffer()", true, sub.is_sub_buffer());
      checkEqual("sub-buffer get_range()", std::size_t(30), sub.get_range()[0]);
      checkEqual("sub-buffer byte_size()", std::size_t(120), sub.byte_size());
      checkEqual("parent of a sub-buffer: is_sub_buffer()", false, parent.is_sub_buffer());
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(sub, h, sycl::write_only);
        h.parallel_for(sub.get_range(), [=](sycl::id<1> i) { a[i] = 1000 + static_cast<int>(i[0]); });
      });
      std::vector<int> seen = contents(parent);
      checkArray("kernel wrote sub-buffer [32, 62): seen in the parent", n, seen.data(),
                 [](std::size_t i) { return i >= 32 && i < 62 ? 1000 + static_cast<int>(i - 32) : initial(i); });
      std::vector<int> throughSub = contents(sub);
      checkArray("host_accessor of a sub-buffer indexes from its start", 30, throughSub.data(),
                 [](std::size_t i) { return 1000 + static_cast<int>(i); });
      // A ranged accessor on a sub-buffer: offsets add up.
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(sub, h, sycl::range<1>(5), sycl::id<1>(3), sycl::read_write);
        h.parallel_for(sycl::range<1>(5), [=](sycl::id<1> i) { a[i] = -a[i]; });
      });
    }
    checkArray("sub-buffer writes written back through the parent's host pointer", n, host.data(), [](std::size_t i) {
      if (i >= 35 && i < 40) return -(1000 + static_cast<int>(i - 32));
      return i >= 32 && i < 62 ? 1000 + static_cast<int>(i - 32) : initial(i);
    });
  }
  {
    // Two kernels on disjoint sub-buffers of one buffer.
    const std::size_t n = 4096;
    sycl::buffer<int> parent{sycl::range<1>(n)};
    writeInKernel(q, parent);
    sycl::buffer<int> low(parent, sycl::id<1>(0), sycl::range<1>(n / 2));
    sycl::buffer<int> high(parent, sycl::id<1>(n / 2), sycl::range<1>(n / 2));
    for (auto *half : {&low, &high}) {
      int tag = half == &low ? 1 : 2;
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(*half, h, sycl::read_write);
        h.parallel_for(sycl::range<1>(n / 2), [=](sycl::id<1> i) { a[i] = a[i] * 10 + tag; });
      });
    }
    std::vector<int> got = contents(parent);
    checkArray("kernels on two disjoint sub-buffers: the parent", n, got.data(),
               [&](std::size_t i) { return written(i) * 10 + (i < n / 2 ? 1 : 2); });
  }
  {
    // The parent object may go first: the storage lives while a sub-buffer does.
    const std::size_t n = 50;
    std::vector<int> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = initial(i);
    std::optional<sycl::buffer<int>> sub;
    {
      sycl::buffer<int> parent(host.data(), sycl::range<1>(n));
      sub.emplace(parent, sycl::id<1>(32), sycl::range<1>(10));
    }
    doubleInKernel(q, *sub);
    sub.reset();
    checkArray("sub-buffer used after its parent object is gone: written back", n, host.data(),
               [](std::size_t i) { return i >= 32 && i < 42 ? initial(i) * 2 + 5 : initial(i); });
  }
  {
    // 2-D: whole rows, and a part of one row, are contiguous (rows of 32
    // ints, so that each starts at a multiple of mem_base_addr_align).
    const std::size_t R0 = 8, R1 = 32;
    std::vector<int> host(R0 * R1, 0);
    {
      sycl::buffer<int, 2> parent(host.data(), sycl::range<2>(R0, R1));
      sycl::buffer<int, 2> rows(parent, sycl::id<2>(2, 0), sycl::range<2>(3, R1));
      sycl::buffer<int, 2> part(parent, sycl::id<2>(6, 0), sycl::range<2>(1, 4));
      checkEqual("2-D sub-buffer of rows: get_range()", true, rows.get_range() == sycl::range<2>(3, R1));
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(rows, h, sycl::write_only);
        h.parallel_for(rows.get_range(),
                       [=](sycl::id<2> i) { a[i[0]][i[1]] = 100 + static_cast<int>(i[0] * 10 + i[1]); });
      });
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(part, h, sycl::write_only);
        h.parallel_for(part.get_range(), [=](sycl::id<2> i) { a[i] = 500 + static_cast<int>(i[1]); });
      });
    }
    checkArray("2-D sub-buffers (rows 2-4; row 6 columns 0-3): written back", R0 * R1, host.data(), [&](std::size_t k) {
      std::size_t i = k / R1, j = k % R1;
      if (i >= 2 && i < 5) return 100 + static_cast<int>((i - 2) * 10 + j);
      if (i == 6 && j < 4) return 500 + static_cast<int>(j);
      return 0;
    });
  }
  {
    // 3-D: a part of one plane made of whole rows (of 32 ints).
    const std::size_t R0 = 4, R1 = 5, R2 = 32;
    std::vector<int> host(R0 * R1 * R2, 0);
    {
      sycl::buffer<int, 3> parent(host.data(), sycl::range<3>(R0, R1, R2));
      sycl::buffer<int, 3> sub(parent, sycl::id<3>(1, 2, 0), sycl::range<3>(1, 3, R2));
      q.submit([&](sycl::handler &h) {
        sycl::accessor a(sub, h, sycl::write_only);
        h.parallel_for(sub.get_range(),
                       [=](sycl::id<3> i) { a[i[0]][i[1]][i[2]] = 7 + static_cast<int>(i[1] * 10 + i[2]); });
      });
    }
    checkArray("3-D sub-buffer (plane 1, rows 2-4): written back", host.size(), host.data(), [&](std::size_t k) {
      std::size_t i = k / (R1 * R2), j = k / R2 % R1, l = k % R2;
      return i == 1 && j >= 2 && j < 5 ? 7 + static_cast<int>((j - 2) * 10 + l) : 0;
    });
  }
  {
    sycl::buffer<int> b1{sycl::range<1>(100)};
    sycl::buffer<int, 2> b2{sycl::range<2>(8, 10)};
    sycl::buffer<int, 3> b3{sycl::range<3>(4, 5, 6)};
    checkThrows("1-D sub-buffer past the end (90 + 20 > 100)", sycl::errc::invalid,
                [&] { sycl::buffer<int> s(b1, sycl::id<1>(90), sycl::range<1>(20)); });
    checkThrows("1-D sub-buffer starting past the end", sycl::errc::invalid,
                [&] { sycl::buffer<int> s(b1, sycl::id<1>(101), sycl::range<1>(1)); });
    checkThrows("2-D sub-buffer past the end in dimension 0", sycl::errc::invalid,
                [&] { sycl::buffer<int, 2> s(b2, sycl::id<2>(6, 0), sycl::range<2>(3, 10)); });
    checkThrows("2-D sub-buffer not contiguous (2x5 of 8x10)", sycl::errc::invalid,
                [&] { sycl::buffer<int, 2> s(b2, sycl::id<2>(0, 0), sycl::range<2>(2, 5)); });
    checkThrows("2-D sub-buffer not contiguous (2x9 at column 1)", sycl::errc::invalid,
                [&] { sycl::buffer<int, 2> s(b2, sycl::id<2>(0, 1), sycl::range<2>(2, 9)); });
    checkThrows("3-D sub-buffer not contiguous (1x2x3 of 4x5x6)", sycl::errc::invalid,
                [&] { sycl::buffer<int, 3> s(b3, sycl::id<3>(1, 0, 0), sycl::range<3>(1, 2, 3)); });
    checkThrows("3-D sub-buffer not contiguous (2x1x6 of 4x5x6)", sycl::errc::invalid,
                [&] { sycl::buffer<int, 3> s(b3, sycl::id<3>(0, 0, 0), sycl::range<3>(2, 1, 6)); });
    checkNoThrow("3-D sub-buffer of whole planes (2x5x6 of 4x5x6)",
                 [&] { sycl::buffer<int, 3> s(b3, sycl::id<3>(2, 0, 0), sycl::range<3>(2, 5, 6)); });
    // §4.7.2.1: "Must throw an exception with the errc::invalid error code if b is a sub-buffer."
    sycl::buffer<int> sub(b1, sycl::id<1>(10), sycl::range<1>(50));
    checkThrows("sub-buffer of a sub-buffer", sycl::errc::invalid,
                [&] { sycl::buffer<int> s(sub, sycl::id<1>(5), sycl::range<1>(10)); });
  }
}

// --- zero-sized buffers ---------------------------------------------------------------------------

// §4.7: "Zero-sized buffers and accessors are permitted, but attempting to
// access data within them produces undefined behavior".
void zeroSized(sycl::queue &q) {
  checkNoThrow("buffer<int>(range<1>(0)) can be constructed", [&] {
    sycl::buffer<int> b{sycl::range<1>(0)};
    checkEqual("zero-sized buffer size()", std::size_t(0), b.size());
    checkEqual("zero-sized buffer byte_size()", std::size_t(0), b.byte_size());
    // A command group with an accessor to it, and an empty kernel range.
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(b, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(0), [=](sycl::id<1> i) { a[i] = 1; });
    });
    q.wait();
  });
  checkNoThrow("buffer<int, 2>(range<2>(4, 0)) can be constructed", [&] {
    sycl::buffer<int, 2> b{sycl::range<2>(4, 0)};
    checkEqual("zero-sized 2-D buffer size()", std::size_t(0), b.size());
  });
  checkNoThrow("buffer<int, 3>(range<3>(0, 2, 2)) can be constructed", [&] {
    sycl::buffer<int, 3> b{sycl::range<3>(0, 2, 2)};
    checkEqual("zero-sized 3-D buffer size()", std::size_t(0), b.size());
  });
  checkNoThrow("buffer from an empty std::vector can be constructed", [&] {
    std::vector<int> empty;
    sycl::buffer b(empty);
    checkEqual("buffer from an empty std::vector: size()", std::size_t(0), b.size());
  });
  checkNoThrow("buffer<int>(nullptr, range<1>(0)) can be constructed (§4.7.1: hostData may be null when N is 0)",
               [&] { sycl::buffer<int> b(static_cast<int *>(nullptr), sycl::range<1>(0)); });
}

}  // namespace

int main() {
  sycl::queue q;
  onepass_test::runPart("range constructors and shapes", [&] { rangeConstructors(q); });
  onepass_test::runPart("host pointers", [&] { hostPointers(q); });
  onepass_test::runPart("const host pointer", [&] { constHostPointer(q); });
  onepass_test::runPart("shared_ptr host data", [&] { sharedPointers(q); });
  onepass_test::runPart("containers", [&] { containers(q); });
  onepass_test::runPart("iterator ranges", [&] { iteratorRanges(q); });
  onepass_test::runPart("use_host_ptr", [&] { useHostPtr(q); });
  onepass_test::runPart("use_mutex", [&] { useMutex(q); });
  onepass_test::runPart("context_bound", [&] { contextBound(q); });
  onepass_test::runPart("set_final_data and set_write_back", [&] { finalData(q); });
  onepass_test::runPart("reinterpret", [&] { reinterpretViews(q); });
  onepass_test::runPart("sub-buffers", [&] { subBuffers(q); });
  onepass_test::runPart("zero-sized buffers", [&] { zeroSized(q); });
  return onepass_test::report();
}
