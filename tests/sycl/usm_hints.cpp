// USM hints (SYCL 2020 §4.6.5.3, §4.9.4.3): queue::prefetch / mem_advise
// with no, one or a vector of events, and handler::prefetch / mem_advise,
// are commands of the task graph: their events complete, they wait for their
// dependencies, and commands that depend on them wait for them. They leave
// the data as it was.
#include "check.h"

#include <sycl/sycl.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using onepass_test::check;
using onepass_test::checkArray;
using onepass_test::checkEqual;

namespace {

constexpr std::size_t kCount = 4096;

// A host task that finishes late and then sets `flag`: a hint that depends on
// it must not complete before.
sycl::event slowFlag(sycl::queue &q, std::atomic<int> &flag) {
  return q.submit([&](sycl::handler &h) {
    h.host_task([&flag] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      flag.store(1);
    });
  });
}

bool complete(const sycl::event &e) {
  return e.get_info<sycl::info::event::command_execution_status>() == sycl::info::event_command_status::complete;
}

void queueForms(sycl::queue &q, int *shared, int *device) {
  sycl::event a = q.prefetch(shared, kCount * sizeof(int));
  sycl::event b = q.mem_advise(device, kCount * sizeof(int), 0);
  a.wait();
  b.wait();
  check("prefetch(ptr, bytes) completes", complete(a));
  check("mem_advise(ptr, bytes, 0) completes", complete(b));

  // One dependency, then a vector of them: each waits for the slow task.
  for (int form = 0; form < 4; ++form) {
    std::atomic<int> flag{0};
    sycl::event slow = slowFlag(q, flag);
    sycl::event hint;
    switch (form) {
    case 0: hint = q.prefetch(shared, 64, slow); break;
    case 1: hint = q.prefetch(shared, 64, std::vector<sycl::event>{a, slow}); break;
    case 2: hint = q.mem_advise(shared, 64, 0, slow); break;
    default: hint = q.mem_advise(device, 64, 0, std::vector<sycl::event>{slow, b}); break;
    }
    hint.wait();
    checkEqual("hint form " + std::to_string(form) + " waited for its dependency", 1, flag.load());
    checkEqual("hint form " + std::to_string(form) + " lists its dependency", true, hint.get_wait_list().size() >= 1);
  }
}

void handlerForms(sycl::queue &q, int *shared) {
  std::atomic<int> flag{0};
  sycl::event slow = slowFlag(q, flag);
  sycl::event prefetch = q.submit([&](sycl::handler &h) {
    h.depends_on(slow);
    h.prefetch(shared, kCount * sizeof(int));
  });
  sycl::event advise = q.submit([&](sycl::handler &h) {
    h.depends_on(prefetch);
    h.mem_advise(shared, kCount * sizeof(int), 0);
  });
  // A kernel after the hints sees the data they left alone.
  sycl::event kernel = q.submit([&](sycl::handler &h) {
    h.depends_on(advise);
    h.parallel_for(sycl::range<1>(kCount), [=](sycl::id<1> i) { shared[i] += 1; });
  });
  advise.wait();
  checkEqual("handler::prefetch then mem_advise waited for the host task", 1, flag.load());
  kernel.wait();
  checkArray("data after handler hints and a kernel", kCount, shared,
             [](std::size_t i) { return static_cast<int>(i) * 2 + 1; });
  // Only one command per command group: a hint is one.
  onepass_test::checkThrows("a kernel and a prefetch in one command group", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.prefetch(shared, 4);
      h.single_task([] {});
    });
  });
}

// In an in-order queue a hint is ordered like any command.
void inOrder(sycl::queue &base, int *shared) {
  sycl::queue q(base.get_context(), base.get_device(), sycl::property::queue::in_order{});
  q.parallel_for(sycl::range<1>(kCount), [=](sycl::id<1> i) { shared[i] = 3; });
  q.prefetch(shared, kCount * sizeof(int));
  q.mem_advise(shared, kCount * sizeof(int), 0);
  q.parallel_for(sycl::range<1>(kCount), [=](sycl::id<1> i) { shared[i] *= 2; });
  q.wait();
  checkArray("in-order queue: kernel, hints, kernel", kCount, shared, [](std::size_t) { return 6; });
}

}  // namespace

int main() {
  sycl::queue q;
  int *shared = sycl::malloc_shared<int>(kCount, q);
  int *device = sycl::malloc_device<int>(kCount, q);
  q.parallel_for(sycl::range<1>(kCount), [=](sycl::id<1> i) { shared[i] = static_cast<int>(i[0]) * 2; }).wait();
  onepass_test::runPart("queue::prefetch / mem_advise", [&] { queueForms(q, shared, device); });
  onepass_test::runPart("handler::prefetch / mem_advise", [&] { handlerForms(q, shared); });
  onepass_test::runPart("in-order queue", [&] { inOrder(q, shared); });
  sycl::free(shared, q);
  sycl::free(device, q);
  return onepass_test::report();
}
