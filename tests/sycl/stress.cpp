// Many small command groups on buffers from several host threads at once:
// 4 threads submit 1500 command groups each (6000 in all) to two queues, on
// shared buffers split into pages (the page_size property) and on buffers of
// their own. Read-modify-write kernels that would lose updates if two of them
// on the same page overlapped (through ranged accessors and through
// sub-buffers), order-sensitive chains of kernels and host tasks, readers in
// between, host_accessors that must see every earlier command of their
// thread, and buffers created and destroyed on the way. The final values are
// computed on the host.
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using onepass_test::check;
using onepass_test::checkArray;
using onepass_test::checkEqual;

namespace {

constexpr int kThreads = 4;
constexpr int kPerThread = 1500;
constexpr std::size_t kShared = 4;  // shared buffers
constexpr std::size_t kPages = 4;   // pages per shared buffer
constexpr std::size_t kPageElements = 32;  // 128 bytes: sub-buffers start at mem_base_addr_align
constexpr std::size_t kSharedElements = kPages * kPageElements;

using page_size1 = sycl::ext::onepass::property::buffer::page_size<1>;

// What iteration k of thread t does.
enum class Op { update, chain, read };
Op opOf(int k) { return k % 5 < 3 ? Op::update : k % 5 == 3 ? Op::chain : Op::read; }
std::size_t bufferOf(int t, int k) { return static_cast<std::size_t>(t + k) % kShared; }
std::size_t pageOf(int t, int k) { return static_cast<std::size_t>(k / 5 + t) % kPages; }
std::uint32_t incrementOf(int t) { return static_cast<std::uint32_t>(t) + 1; }
std::uint64_t chainStep(std::uint64_t v, int k) { return v * 3 + static_cast<std::uint64_t>(k) + 1; }

// Errors found on the worker threads, checked on the main thread.
struct ThreadReport {
  std::vector<std::string> failures;
  void fail(const std::string &what) {
    if (failures.size() < 20) failures.push_back(what);
  }
};

void worker(int t, sycl::queue &shared, std::vector<sycl::buffer<std::uint32_t>> &counters,
            sycl::buffer<std::uint64_t> &chain, ThreadReport &report) {
  sycl::queue own(shared.get_device());
  sycl::buffer<std::uint32_t> snapshots{sycl::range<1>(kSharedElements)};
  // This thread's contributions so far, per shared buffer and page.
  std::uint32_t mine[kShared][kPages] = {};
  for (int k = 0; k < kPerThread; ++k) {
    sycl::queue &q = k % 2 == 0 ? shared : own;
    try {
      switch (opOf(k)) {
      case Op::update: {
        std::size_t c = bufferOf(t, k), p = pageOf(t, k);
        std::uint32_t inc = incrementOf(t);
        // Every other time through a sub-buffer of the page, made here.
        bool viaSubBuffer = (k / 5) % 2 == 1;
        sycl::buffer<std::uint32_t> page(counters[c], sycl::id<1>(p * kPageElements), sycl::range<1>(kPageElements));
        q.submit([&](sycl::handler &h) {
          auto a = viaSubBuffer ? sycl::accessor<std::uint32_t, 1, sycl::access_mode::read_write>(page, h)
                                : sycl::accessor<std::uint32_t, 1, sycl::access_mode::read_write>(
                                      counters[c], h, sycl::range<1>(kPageElements), sycl::id<1>(p * kPageElements));
          h.single_task([=] {
            // Read everything, wait a little, write everything: two of these
            // overlapping on one page would lose an update.
            std::uint32_t values[kPageElements];
            for (std::size_t e = 0; e < kPageElements; ++e) values[e] = a[e];
            std::uint64_t x = inc | 1;
            for (int s = 0; s < 5000; ++s) {
              x ^= x << 13;
              x ^= x >> 7;
              x ^= x << 17;
            }
            std::uint32_t zero = static_cast<std::uint32_t>(x == 0);  // always 0
            for (std::size_t e = 0; e < kPageElements; ++e) a[e] = values[e] + inc + zero;
          });
        });
        mine[c][p] += inc;
        break;
      }
      case Op::chain:
        if (k % 20 == 3) {  // every fourth step in a host task
          q.submit([&](sycl::handler &h) {
            sycl::accessor a(chain, h, sycl::read_write_host_task);
            h.host_task([=] { a[0] = a[0] * 3 + static_cast<std::uint64_t>(k) + 1; });
          });
        } else {
          q.submit([&](sycl::handler &h) {
            sycl::accessor a(chain, h, sycl::read_write);
            h.single_task([=] { a[0] = a[0] * 3 + static_cast<std::uint64_t>(k) + 1; });
          });
        }
        break;
      case Op::read: {
        std::size_t c = bufferOf(t, k), p = pageOf(t, k);
        if (k % 50 == 4) {
          // A host_accessor waits for every earlier conflicting command,
          // among them all of this thread's updates of the page.
          sycl::host_accessor a(counters[c], sycl::range<1>(kPageElements), sycl::id<1>(p * kPageElements),
                                sycl::read_only);
          for (std::size_t e = 0; e < kPageElements; ++e)
            if (a[e] < mine[c][p]) {
              report.fail("thread " + std::to_string(t) + " iteration " + std::to_string(k) +
                          ": host_accessor of buffer " + std::to_string(c) + " page " + std::to_string(p) +
                          " element " + std::to_string(e) + " reads " + std::to_string(a[e]) +
                          ", less than this thread's own updates (" + std::to_string(mine[c][p]) + ")");
              break;
            }
        } else {
          q.submit([&](sycl::handler &h) {
            sycl::accessor a(counters[c], h, sycl::read_only);
            sycl::accessor s(snapshots, h, sycl::write_only, sycl::no_init);
            h.parallel_for(sycl::range<1>(kSharedElements), [=](sycl::id<1> i) { s[i] = a[i]; });
          });
        }
        break;
      }
      }
      if (k % 100 == 99) {
        // A short-lived buffer over host memory: written back when destroyed.
        std::vector<int> host(100, t);
        {
          sycl::buffer<int> temporary(host.data(), sycl::range<1>(host.size()));
          q.submit([&](sycl::handler &h) {
            sycl::accessor a(temporary, h, sycl::read_write);
            h.parallel_for(sycl::range<1>(100),
                           [=](sycl::id<1> i) { a[i] = a[i] * 1000 + static_cast<int>(i[0]) + k; });
          });
        }
        for (int i = 0; i < 100; ++i)
          if (host[i] != t * 1000 + i + k) {
            report.fail("thread " + std::to_string(t) + " iteration " + std::to_string(k) +
                        ": temporary buffer element " + std::to_string(i) + " written back as " +
                        std::to_string(host[i]) + ", expected " + std::to_string(t * 1000 + i + k));
            break;
          }
      }
    } catch (const std::exception &e) {
      report.fail("thread " + std::to_string(t) + " iteration " + std::to_string(k) + ": exception: " + e.what());
    }
  }
  // Everything this thread's snapshots saw is at most the final count; they
  // are read here so that the readers' results are used.
  sycl::host_accessor s(snapshots, sycl::read_only);
  (void)s[0];
  own.wait();
}

}  // namespace

int main() {
  sycl::queue shared;
  std::vector<sycl::buffer<std::uint32_t>> counters;
  for (std::size_t c = 0; c < kShared; ++c) {
    counters.emplace_back(sycl::range<1>(kSharedElements),
                          sycl::property_list{page_size1(sycl::range<1>(kPageElements))});
    sycl::host_accessor a(counters.back(), sycl::write_only, sycl::no_init);
    for (std::size_t e = 0; e < kSharedElements; ++e) a[e] = 0;
  }
  std::vector<std::uint64_t> chainValues(kThreads, 1);
  std::vector<sycl::buffer<std::uint64_t>> chains;
  for (int t = 0; t < kThreads; ++t) chains.emplace_back(&chainValues[t], sycl::range<1>(1));

  std::vector<ThreadReport> reports(kThreads);
  {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back(worker, t, std::ref(shared), std::ref(counters), std::ref(chains[t]), std::ref(reports[t]));
    for (std::thread &thread : threads) thread.join();
  }
  for (int t = 0; t < kThreads; ++t) {
    for (const std::string &failure : reports[t].failures) check(failure, false);
  }

  // The expected counts.
  std::uint32_t expected[kShared][kPages] = {};
  for (int t = 0; t < kThreads; ++t)
    for (int k = 0; k < kPerThread; ++k)
      if (opOf(k) == Op::update) expected[bufferOf(t, k)][pageOf(t, k)] += incrementOf(t);
  for (std::size_t c = 0; c < kShared; ++c) {
    sycl::host_accessor a(counters[c], sycl::read_only);
    std::vector<std::uint32_t> got(a.begin(), a.end());
    checkArray("shared buffer " + std::to_string(c) + " after 4 threads' updates", kSharedElements, got.data(),
               [&](std::size_t e) { return expected[c][e / kPageElements]; });
  }
  chains.clear();  // writes the chains back
  for (int t = 0; t < kThreads; ++t) {
    std::uint64_t want = 1;
    for (int k = 0; k < kPerThread; ++k)
      if (opOf(k) == Op::chain) want = chainStep(want, k);
    checkEqual("thread " + std::to_string(t) + "'s chain (written back)", want, chainValues[t]);
  }
  return onepass_test::report();
}
