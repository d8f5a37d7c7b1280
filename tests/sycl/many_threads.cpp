// Many host threads at once (issue 21): each of T threads (default 16) makes
// N submissions (default 400; `sycl-many_threads 16 10000` for the full run)
// to its own in-order and out-of-order queues and to two queues all threads
// share (one in-order, one out-of-order), mixing USM kernels, buffer kernels,
// host tasks, copies and atomics, with the dependencies each needs. At the
// end every result is checked against what the host counts: no lost update
// (per-thread counters, buffers ordered across queues, an atomic counter all
// threads add to), no lost order (host-task chains, snapshots taken after the
// kernels they depend on), no deadlock (a watchdog ends the program after
// 240 s), and no leak: the heap in use (glibc's mallinfo2) when every
// thread has drained its queues after the first quarter, and again at the
// end, differ by a bounded amount that does not grow with N. (Resident
// memory tracks the backlog instead: submissions outrun the device, and the
// commands waiting in queues are memory until they run.)
#include "check.h"

#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <malloc.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using onepass_test::check;
using onepass_test::checkEqual;

namespace {

constexpr std::size_t kLength = 64;  // elements per thread's array and buffer

// The heap in use, in MiB.
double heapMiB() {
  const struct mallinfo2 info = mallinfo2();
  return static_cast<double>(info.uordblks + info.hblkhd) / (1024.0 * 1024.0);
}

// Resident memory in MiB (/proc/self/statm).
double residentMiB() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

struct Shared {
  sycl::queue inOrder, outOfOrder;
  unsigned long long *atomicCounter;
};

// One thread's work and what it saw.
struct Worker {
  int usmUpdates = 0, bufferUpdates = 0, hostSteps = 0, atomicKernels = 0;
  std::uint64_t hostChain = 1;  // written by its host tasks, in order
  std::vector<int> expectedSnapshots;
  int *counters = nullptr;   // kLength, one += 1 per USM update
  int *snapshots = nullptr;  // counters[0] after the updates submitted before it
  std::string problem;       // the first wrong thing seen on the way

  void run(Shared &shared, int n, std::atomic<int> &quarterDone, const std::atomic<bool> &measured) {
    sycl::queue mineInOrder(shared.inOrder.get_context(), shared.inOrder.get_device(),
                            sycl::property::queue::in_order());
    sycl::queue mineOutOfOrder(shared.inOrder.get_context(), shared.inOrder.get_device());
    counters = sycl::malloc_shared<int>(kLength, mineInOrder);
    snapshots = sycl::malloc_shared<int>(n / 5 + 1, mineInOrder);
    std::fill(counters, counters + kLength, 0);
    sycl::buffer<int> values{sycl::range<1>(kLength)};
    {
      sycl::host_accessor init(values);
      std::fill(init.begin(), init.end(), 0);
    }
    sycl::event lastUpdate, lastHost, lastSnapshot;
    int *c = counters, *s = snapshots;
    unsigned long long *total = shared.atomicCounter;
    for (int k = 0; k < n; ++k) {
      switch (k % 5) {
      case 0:  // a USM kernel on the thread's in-order queue, after the last snapshot (another queue)
        lastUpdate =
            mineInOrder.parallel_for(sycl::range<1>(kLength), lastSnapshot, [=](sycl::item<1> i) { c[i] += 1; });
        ++usmUpdates;
        break;
      case 1:  // a buffer kernel on the shared out-of-order queue (ordered by the buffer)
        shared.outOfOrder.submit([&](sycl::handler &h) {
          sycl::accessor a(values, h, sycl::read_write);
          h.parallel_for(kLength, [=](sycl::item<1> i) { a[i] += 2; });
        });
        ++bufferUpdates;
        break;
      case 2:  // a host task on the thread's out-of-order queue, after the previous one
        lastHost = mineOutOfOrder.submit([&](sycl::handler &h) {
          h.depends_on(lastHost);
          h.host_task([this] { hostChain = hostChain * 3 % 1000003 + 1; });
        });
        ++hostSteps;
        break;
      case 3: {  // a snapshot on the shared in-order queue, after the thread's last USM update
        const int slot = k / 5;
        lastSnapshot = shared.inOrder.submit([&](sycl::handler &h) {
          h.depends_on(lastUpdate);
          h.single_task([=] { s[slot] = c[0]; });
        });
        expectedSnapshots.push_back(usmUpdates);
        break;
      }
      default:  // an atomic kernel every thread's go to the same counter
        shared.inOrder.parallel_for(kLength, [=](sycl::item<1>) {
          sycl::atomic_ref<unsigned long long, sycl::memory_order::relaxed, sycl::memory_scope::device> ref(*total);
          ref.fetch_add(1ull);
        });
        ++atomicKernels;
      }
      if (k % 100 == 99 && problem.empty()) {  // the buffer as this thread's commands left it
        sycl::host_accessor read(values, sycl::read_only);
        if (read[kLength - 1] != 2 * bufferUpdates)
          problem = "host_accessor after " + std::to_string(bufferUpdates) + " buffer updates saw " +
                    std::to_string(read[kLength - 1]);
      }
      if (k == n / 4) {  // drained, while the main thread measures the heap
        mineInOrder.wait();
        mineOutOfOrder.wait();
        shared.inOrder.wait();
        shared.outOfOrder.wait();
        quarterDone.fetch_add(1);
        while (!measured.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    mineInOrder.wait();
    mineOutOfOrder.wait();
    shared.inOrder.wait();
    shared.outOfOrder.wait();
    sycl::host_accessor read(values, sycl::read_only);
    for (std::size_t i = 0; i < kLength && problem.empty(); ++i) {
      if (read[i] != 2 * bufferUpdates) problem = "buffer element " + std::to_string(i) + " lost updates";
      if (c[i] != usmUpdates) problem = "USM counter " + std::to_string(i) + " lost updates";
    }
    for (std::size_t j = 0; j < expectedSnapshots.size() && problem.empty(); ++j)
      if (s[j] != expectedSnapshots[j])
        problem = "snapshot " + std::to_string(j) + " saw " + std::to_string(s[j]) + ", expected " +
                  std::to_string(expectedSnapshots[j]);
  }
};

}  // namespace

int main(int argc, char **argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 16;
  const int perThread = argc > 2 ? std::atoi(argv[2]) : 400;
  std::thread([] {  // no deadlock: a bounded run
    std::this_thread::sleep_for(std::chrono::seconds(240));
    std::fprintf(stderr, "FAILED: many_threads did not finish within 240 s (deadlock?)\n");
    std::_Exit(3);
  })
      .detach();

  Shared shared{sycl::queue(sycl::property::queue::in_order()), sycl::queue(), nullptr};
  shared.outOfOrder = sycl::queue(shared.inOrder.get_context(), shared.inOrder.get_device());
  shared.atomicCounter = sycl::malloc_shared<unsigned long long>(1, shared.inOrder);
  *shared.atomicCounter = 0;
  std::printf("many_threads: %d threads x %d submissions on '%s'\n", threads, perThread,
              shared.inOrder.get_device().get_info<sycl::info::device::name>().c_str());

  const auto start = std::chrono::steady_clock::now();
  std::vector<Worker> workers(threads);
  std::vector<std::thread> running;
  std::atomic<int> quarterDone{0};
  std::atomic<bool> measured{false};
  for (int t = 0; t < threads; ++t)
    running.emplace_back([&, t] { workers[t].run(shared, perThread, quarterDone, measured); });
  while (quarterDone.load() < threads) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const double heapAtQuarter = heapMiB();
  measured.store(true);
  for (std::thread &thread : running) thread.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double heapAtEnd = heapMiB(), resident = residentMiB();

  unsigned long long atomicKernels = 0;
  for (int t = 0; t < threads; ++t) {
    Worker &w = workers[t];
    check("thread " + std::to_string(t) + ": " + (w.problem.empty() ? "all results right" : w.problem),
          w.problem.empty());
    std::uint64_t chain = 1;
    for (int i = 0; i < w.hostSteps; ++i) chain = chain * 3 % 1000003 + 1;
    checkEqual("thread " + std::to_string(t) + "'s host tasks ran once each, in order", chain, w.hostChain);
    atomicKernels += static_cast<unsigned long long>(w.atomicKernels);
    sycl::free(w.counters, shared.inOrder);
    sycl::free(w.snapshots, shared.inOrder);
  }
  checkEqual("the counter all threads' atomic kernels add to", atomicKernels * kLength, *shared.atomicCounter);
  std::printf("many_threads: %d submissions in %.2f s (%.0f per second); heap in use %.2f MiB after the first "
              "quarter, %.2f MiB at the end (drained); resident %.1f MiB at the end\n",
              threads * perThread, seconds, threads * perThread / seconds, heapAtQuarter, heapAtEnd, resident);
  // No leak: the last three quarters leave at most 1 MiB more in use (a leak
  // of 8 bytes a submission shows at the full run's 160000).
  check("heap in use grows by at most 1 MiB over the last three quarters", heapAtEnd - heapAtQuarter <= 1.0);
  sycl::free(shared.atomicCounter, shared.inOrder);
  return onepass_test::report();
}
