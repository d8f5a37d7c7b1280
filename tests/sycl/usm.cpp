// Unified shared memory (SYCL 2020 §4.8): the three allocation kinds through
// the queue and the context overloads, explicit copies in every direction,
// memset / fill / copy, pointer queries and sycl::free.
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using onepass_test::check;
using onepass_test::checkArray;
using onepass_test::checkEqual;
using onepass_test::checkNoThrow;
using onepass_test::checkThrows;

namespace {

struct alignas(64) wide_aligned {
  char bytes[3];
};

// A fill pattern of 12 bytes (no padding inside).
struct pattern12 {
  int a;
  float b;
  short c;
  short d;
  friend bool operator==(const pattern12 &x, const pattern12 &y) {
    return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
  }
};

bool alignedTo(const void *pointer, std::size_t alignment) {
  return reinterpret_cast<std::uintptr_t>(pointer) % alignment == 0;
}

// Writes i * factor + kindTag into every element of `p` on the device, then
// checks it through a copy to plain host memory.
void checkUsableInKernel(sycl::queue &q, const std::string &what, int *p, std::size_t n, int kindTag) {
  if (!check(what + ": allocation succeeded", p != nullptr)) return;
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { p[i] = static_cast<int>(i[0]) * 3 + kindTag; }).wait();
  std::vector<int> back(n);
  q.memcpy(back.data(), p, n * sizeof(int)).wait();
  checkArray(what + " written by a kernel", n, back.data(),
             [&](std::size_t i) { return static_cast<int>(i) * 3 + kindTag; });
}

void queueOverloads(sycl::queue &q) {
  const std::size_t n = 1000;
  int *device = sycl::malloc_device<int>(n, q);
  int *shared = sycl::malloc_shared<int>(n, q);
  int *host = sycl::malloc_host<int>(n, q);
  int *deviceUntyped = static_cast<int *>(sycl::malloc_device(n * sizeof(int), q));
  int *sharedUntyped = static_cast<int *>(sycl::malloc_shared(n * sizeof(int), q));
  int *hostUntyped = static_cast<int *>(sycl::malloc_host(n * sizeof(int), q));
  int *byKind = static_cast<int *>(sycl::malloc(n * sizeof(int), q, sycl::usm::alloc::shared));
  int *byKindTyped = sycl::malloc<int>(n, q, sycl::usm::alloc::device);

  checkUsableInKernel(q, "malloc_device<int>(q)", device, n, 1);
  checkUsableInKernel(q, "malloc_shared<int>(q)", shared, n, 2);
  checkUsableInKernel(q, "malloc_host<int>(q)", host, n, 3);
  checkUsableInKernel(q, "malloc_device(bytes, q)", deviceUntyped, n, 4);
  checkUsableInKernel(q, "malloc_shared(bytes, q)", sharedUntyped, n, 5);
  checkUsableInKernel(q, "malloc_host(bytes, q)", hostUntyped, n, 6);
  checkUsableInKernel(q, "malloc(bytes, q, shared)", byKind, n, 7);
  checkUsableInKernel(q, "malloc<int>(n, q, device)", byKindTyped, n, 8);

  // Host and shared memory are directly accessible on the host.
  if (shared) checkEqual("malloc_shared<int>: read on the host", 999 * 3 + 2, shared[999]);
  if (host) checkEqual("malloc_host<int>: read on the host", 999 * 3 + 3, host[999]);

  sycl::context ctx = q.get_context();
  checkEqual("get_pointer_type(malloc_device)", sycl::usm::alloc::device, sycl::get_pointer_type(device, ctx));
  checkEqual("get_pointer_type(malloc_shared)", sycl::usm::alloc::shared, sycl::get_pointer_type(shared, ctx));
  checkEqual("get_pointer_type(malloc_host)", sycl::usm::alloc::host, sycl::get_pointer_type(host, ctx));
  checkEqual("get_pointer_type(malloc(shared))", sycl::usm::alloc::shared, sycl::get_pointer_type(byKind, ctx));
  checkEqual("get_pointer_type(malloc<int>(device))", sycl::usm::alloc::device,
             sycl::get_pointer_type(byKindTyped, ctx));

  for (int *p : {device, shared, host, deviceUntyped, sharedUntyped, hostUntyped, byKind, byKindTyped})
    sycl::free(p, q);
}

void alignedAllocations(sycl::queue &q) {
  const std::size_t alignments[] = {8, 64, 256, 4096};
  for (std::size_t alignment : alignments) {
    const std::string a = std::to_string(alignment);
    void *d = sycl::aligned_alloc_device(alignment, 100, q);
    void *s = sycl::aligned_alloc_shared(alignment, 100, q);
    void *h = sycl::aligned_alloc_host(alignment, 100, q);
    void *k = sycl::aligned_alloc(alignment, 100, q, sycl::usm::alloc::device);
    void *c = sycl::aligned_alloc(alignment, 100, q.get_device(), q.get_context(), sycl::usm::alloc::shared);
    check("aligned_alloc_device(" + a + ") aligned", d && alignedTo(d, alignment));
    check("aligned_alloc_shared(" + a + ") aligned", s && alignedTo(s, alignment));
    check("aligned_alloc_host(" + a + ") aligned", h && alignedTo(h, alignment));
    check("aligned_alloc(" + a + ", q, device) aligned", k && alignedTo(k, alignment));
    check("aligned_alloc(" + a + ", dev, ctx, shared) aligned", c && alignedTo(c, alignment));
    for (void *p : {d, s, h, k, c}) sycl::free(p, q);
  }
  // Typed allocations are aligned for their type.
  wide_aligned *w = sycl::malloc_device<wide_aligned>(3, q);
  check("malloc_device<alignas(64) T> aligned to 64", w && alignedTo(w, 64));
  sycl::free(w, q);
}

void contextOverloads(sycl::queue &q) {
  const std::size_t n = 513;
  sycl::device dev = q.get_device();
  sycl::context ctx = q.get_context();
  int *device = static_cast<int *>(sycl::malloc_device(n * sizeof(int), dev, ctx));
  int *shared = static_cast<int *>(sycl::malloc_shared(n * sizeof(int), dev, ctx));
  int *host = static_cast<int *>(sycl::malloc_host(n * sizeof(int), ctx));
  int *byKind = static_cast<int *>(sycl::malloc(n * sizeof(int), dev, ctx, sycl::usm::alloc::host));
  int *deviceTyped = sycl::malloc_device<int>(n, dev, ctx);
  int *sharedTyped = sycl::malloc_shared<int>(n, dev, ctx);
  int *hostTyped = sycl::malloc_host<int>(n, ctx);

  checkUsableInKernel(q, "malloc_device(bytes, dev, ctx)", device, n, 11);
  checkUsableInKernel(q, "malloc_shared(bytes, dev, ctx)", shared, n, 12);
  checkUsableInKernel(q, "malloc_host(bytes, ctx)", host, n, 13);
  checkUsableInKernel(q, "malloc(bytes, dev, ctx, host)", byKind, n, 14);
  checkUsableInKernel(q, "malloc_device<int>(n, dev, ctx)", deviceTyped, n, 15);
  checkUsableInKernel(q, "malloc_shared<int>(n, dev, ctx)", sharedTyped, n, 16);
  checkUsableInKernel(q, "malloc_host<int>(n, ctx)", hostTyped, n, 17);

  checkEqual("get_pointer_type(malloc_device(dev, ctx))", sycl::usm::alloc::device,
             sycl::get_pointer_type(device, ctx));
  checkEqual("get_pointer_type(malloc_shared(dev, ctx))", sycl::usm::alloc::shared,
             sycl::get_pointer_type(shared, ctx));
  checkEqual("get_pointer_type(malloc_host(ctx))", sycl::usm::alloc::host, sycl::get_pointer_type(host, ctx));
  checkEqual("get_pointer_type(malloc(dev, ctx, host))", sycl::usm::alloc::host, sycl::get_pointer_type(byKind, ctx));

  for (int *p : {device, shared, host, byKind, deviceTyped, sharedTyped, hostTyped}) sycl::free(p, ctx);

  // A context of its own, and a queue on it.
  sycl::context own(dev);
  sycl::queue ownQueue(own, dev);
  checkEqual("queue(ctx, dev).get_context() == ctx", true, ownQueue.get_context() == own);
  int *ownShared = sycl::malloc_shared<int>(n, dev, own);
  checkUsableInKernel(ownQueue, "malloc_shared<int>(n, dev, own context)", ownShared, n, 18);
  checkEqual("get_pointer_type in its own context", sycl::usm::alloc::shared, sycl::get_pointer_type(ownShared, own));
  sycl::free(ownShared, own);
}

// Copies through every pair of memory kinds, plain host memory included.
void memcpyAllDirections(sycl::queue &q) {
  const std::size_t n = 4099;
  const char *names[] = {"plain host", "USM host", "USM device", "USM shared"};
  std::vector<int> plainA(n), plainB(n);
  int *memory[2][4] = {
      {plainA.data(), sycl::malloc_host<int>(n, q), sycl::malloc_device<int>(n, q), sycl::malloc_shared<int>(n, q)},
      {plainB.data(), sycl::malloc_host<int>(n, q), sycl::malloc_device<int>(n, q), sycl::malloc_shared<int>(n, q)}};
  std::vector<int> source(n), result(n);
  int round = 0;
  for (int from = 0; from < 4; ++from)
    for (int to = 0; to < 4; ++to) {
      ++round;
      for (std::size_t i = 0; i < n; ++i) source[i] = static_cast<int>(i) * 7 - round * 100000;
      int *src = memory[0][from];
      int *dst = memory[1][to];
      // Load the source through a plain host copy (the source may be device memory).
      q.memcpy(src, source.data(), n * sizeof(int)).wait();
      q.memset(dst, 0, n * sizeof(int)).wait();
      q.memcpy(dst, src, n * sizeof(int)).wait();
      q.memcpy(result.data(), dst, n * sizeof(int)).wait();
      checkArray(std::string("memcpy ") + names[from] + " -> " + names[to], n, result.data(),
                 [&](std::size_t i) { return source[i]; });
    }
  // The handler's memcpy, with an offset into both buffers.
  int *device = memory[0][2];
  int *shared = memory[1][3];
  for (std::size_t i = 0; i < n; ++i) shared[i] = -1;
  q.memcpy(device, source.data(), n * sizeof(int)).wait();
  q.submit([&](sycl::handler &h) { h.memcpy(shared + 3, device + 5, 100 * sizeof(int)); }).wait();
  checkArray("handler::memcpy with offsets", 106, shared,
             [&](std::size_t i) { return i < 3 || i >= 103 ? -1 : source[i + 2]; });
  // Zero bytes copy nothing.
  q.memcpy(shared, device, 0).wait();
  checkEqual("memcpy of 0 bytes leaves the destination", -1, shared[0]);
  for (int k = 1; k < 4; ++k) {
    sycl::free(memory[0][k], q);
    sycl::free(memory[1][k], q);
  }
}

void memsetAndFill(sycl::queue &q) {
  const std::size_t n = 1031;
  unsigned char *device = sycl::malloc_device<unsigned char>(n, q);
  std::vector<unsigned char> bytes(n);
  q.memset(device, 0x11, n).wait();
  q.memset(device + 10, 0xab, 500).wait();
  q.submit([&](sycl::handler &h) { h.memset(device + 600, 0x1234, 7); }).wait();  // the value's low byte
  q.memcpy(bytes.data(), device, n).wait();
  checkArray("memset", n, bytes.data(), [](std::size_t i) -> unsigned char {
    if (i >= 10 && i < 510) return 0xab;
    if (i >= 600 && i < 607) return 0x34;
    return 0x11;
  });
  sycl::free(device, q);

  int *ints = sycl::malloc_device<int>(n, q);
  std::vector<int> intsBack(n);
  q.fill(ints, -123456, n).wait();
  q.fill(ints + 100, 77, 31).wait();
  q.fill(ints + 200, 5, 0).wait();  // no element
  q.memcpy(intsBack.data(), ints, n * sizeof(int)).wait();
  checkArray("fill<int>", n, intsBack.data(), [](std::size_t i) { return i >= 100 && i < 131 ? 77 : -123456; });
  sycl::free(ints, q);

  double *doubles = sycl::malloc_shared<double>(n, q);
  q.fill(doubles, 2.5e-300, n).wait();
  q.submit([&](sycl::handler &h) { h.fill(doubles + 1, -0.125, n - 2); }).wait();
  checkArray("fill<double>", n, doubles, [&](std::size_t i) { return i == 0 || i == n - 1 ? 2.5e-300 : -0.125; });
  sycl::free(doubles, q);

  pattern12 *structs = sycl::malloc_device<pattern12>(n, q);
  std::vector<pattern12> structsBack(n);
  const pattern12 first{-1, 0.5f, 7, -8}, second{123456789, -3.75f, -32768, 32767};
  q.fill(structs, first, n).wait();
  q.submit([&](sycl::handler &h) { h.fill(structs + 17, second, 400); }).wait();
  q.memcpy(structsBack.data(), structs, n * sizeof(pattern12)).wait();
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (!(structsBack[i] == (i >= 17 && i < 417 ? second : first))) ++mismatches;
  checkEqual("fill<12-byte struct>: elements that differ", std::size_t(0), mismatches);
  sycl::free(structs, q);
}

void copies(sycl::queue &q) {
  const std::size_t n = 2049;
  std::vector<double> source(n), result(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) source[i] = 1.0 / static_cast<double>(i + 1);
  double *device = sycl::malloc_device<double>(n, q);
  double *shared = sycl::malloc_shared<double>(n, q);
  sycl::event toDevice = q.copy(source.data(), device, n);
  sycl::event toShared = q.copy<double>(device, shared, n, {toDevice});
  q.submit([&](sycl::handler &h) {
     h.depends_on(toShared);
     h.copy(static_cast<const double *>(shared), result.data(), n);
   }).wait();
  checkArray("copy<double> host -> device -> shared -> host", n, result.data(),
             [&](std::size_t i) { return source[i]; });
  sycl::free(device, q);
  sycl::free(shared, q);
}

void pointerQueries(sycl::queue &q) {
  sycl::context ctx = q.get_context();
  sycl::device dev = q.get_device();
  int *device = sycl::malloc_device<int>(100, q);
  int *shared = sycl::malloc_shared<int>(100, q);
  int *host = sycl::malloc_host<int>(100, q);
  int onStack = 0;
  std::vector<int> onHeap(100);

  checkEqual("get_pointer_type(device + 57)", sycl::usm::alloc::device, sycl::get_pointer_type(device + 57, ctx));
  checkEqual("get_pointer_type(shared + 99)", sycl::usm::alloc::shared, sycl::get_pointer_type(shared + 99, ctx));
  checkEqual("get_pointer_type(host + 1)", sycl::usm::alloc::host, sycl::get_pointer_type(host + 1, ctx));
  checkEqual("get_pointer_type(a stack variable)", sycl::usm::alloc::unknown, sycl::get_pointer_type(&onStack, ctx));
  checkEqual("get_pointer_type(std::vector data)", sycl::usm::alloc::unknown,
             sycl::get_pointer_type(onHeap.data(), ctx));
  checkEqual("get_pointer_type(nullptr)", sycl::usm::alloc::unknown, sycl::get_pointer_type(nullptr, ctx));

  checkEqual("get_pointer_device(device)", true, sycl::get_pointer_device(device, ctx) == dev);
  checkEqual("get_pointer_device(shared + 10)", true, sycl::get_pointer_device(shared + 10, ctx) == dev);
  checkEqual("get_pointer_device(host)", true, sycl::get_pointer_device(host, ctx) == dev);
  checkThrows("get_pointer_device(a stack variable)", sycl::errc::invalid,
              [&] { sycl::get_pointer_device(&onStack, ctx); });

  sycl::free(device, q);
  checkEqual("get_pointer_type after free", sycl::usm::alloc::unknown, sycl::get_pointer_type(device, ctx));
  sycl::free(shared, ctx);
  sycl::free(host, q);
}

void freeAndFailures(sycl::queue &q) {
  checkNoThrow("free(nullptr, queue)", [&] { sycl::free(nullptr, q); });
  checkNoThrow("free(nullptr, context)", [&] { sycl::free(nullptr, q.get_context()); });
  int onStack = 0;
  checkThrows("free of a stack variable", sycl::errc::invalid, [&] { sycl::free(&onStack, q); });
  void *fromMalloc = std::malloc(64);
  checkThrows("free of std::malloc memory", sycl::errc::invalid, [&] { sycl::free(fromMalloc, q.get_context()); });
  std::free(fromMalloc);

  // SYCL 2020 §4.8.3: an allocation that cannot be satisfied returns nullptr.
  int *tooMany = sycl::malloc_device<int>(SIZE_MAX / 2, q);
  checkEqual("malloc_device<int>(SIZE_MAX / 2) returns nullptr", static_cast<int *>(nullptr), tooMany);
  void *tooLarge = sycl::malloc_shared(std::size_t(1) << 62, q);
  checkEqual("malloc_shared(2^62 bytes) returns nullptr", static_cast<void *>(nullptr), tooLarge);
  if (tooMany) sycl::free(tooMany, q);
  if (tooLarge) sycl::free(tooLarge, q);
}

}  // namespace

int main() {
  sycl::queue q;
  onepass_test::runPart("queue overloads", [&] { queueOverloads(q); });
  onepass_test::runPart("aligned allocations", [&] { alignedAllocations(q); });
  onepass_test::runPart("context overloads", [&] { contextOverloads(q); });
  onepass_test::runPart("memcpy in all directions", [&] { memcpyAllDirections(q); });
  onepass_test::runPart("memset and fill", [&] { memsetAndFill(q); });
  onepass_test::runPart("copy", [&] { copies(q); });
  onepass_test::runPart("pointer queries", [&] { pointerQueries(q); });
  onepass_test::runPart("free and allocation failures", [&] { freeAndFailures(q); });
  return onepass_test::report();
}
