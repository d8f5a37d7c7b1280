// Queues and events (SYCL 2020 §4.6.5, §4.6.6): in-order queues, explicit
// dependencies on out-of-order queues, wait lists, execution status,
// profiling, queue::wait, and many host threads submitting to one queue.
#include "check.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

using onepass_test::check;
using onepass_test::checkArray;
using onepass_test::checkEqual;
using onepass_test::checkThrows;

namespace {

using status = sycl::info::event_command_status;

status statusOf(const sycl::event &e) { return e.get_info<sycl::info::event::command_execution_status>(); }

// Order-sensitive step: applying steps k = 0..n-1 in another order gives another value.
std::uint64_t step(std::uint64_t v, std::uint64_t k) { return v * 3 + k + 1; }

void inOrderChain(sycl::queue &) {
  sycl::queue q{sycl::property::queue::in_order()};
  checkEqual("queue(in_order).is_in_order()", true, q.is_in_order());
  int *x = sycl::malloc_shared<int>(1, q);
  *x = 0;
  sycl::event last;
  for (int k = 0; k < 100; ++k) last = q.single_task([=] { *x += 1; });
  last.wait();
  checkEqual("in-order chain of 100 increments", 100, *x);

  // The same with an order-sensitive step, on device memory, mixing commands.
  std::uint64_t *v = sycl::malloc_device<std::uint64_t>(1, q);
  std::uint64_t result = 0, expected = 7;
  q.fill(v, std::uint64_t(7), 1);
  for (std::uint64_t k = 0; k < 40; ++k) {
    q.parallel_for(sycl::range<1>(1), [=](sycl::id<1>) { v[0] = v[0] * 3 + k + 1; });
    expected = step(expected, k);
  }
  q.memcpy(&result, v, sizeof result).wait();
  checkEqual("in-order chain of 40 order-sensitive steps", expected, result);
  sycl::free(x, q);
  sycl::free(v, q);
}

void dependsOnChains(sycl::queue &q) {
  checkEqual("default queue is out of order", false, q.is_in_order());
  std::uint64_t *v = sycl::malloc_device<std::uint64_t>(1, q);
  std::uint64_t expected = 1, result = 0;
  sycl::event previous = q.fill(v, std::uint64_t(1), 1);
  for (std::uint64_t k = 0; k < 50; ++k) {
    previous = q.submit([&](sycl::handler &h) {
      h.depends_on(previous);
      h.single_task([=] { v[0] = v[0] * 3 + k + 1; });
    });
    expected = step(expected, k);
  }
  q.memcpy(&result, v, sizeof result, {previous}).wait();
  checkEqual("depends_on chain of 50 order-sensitive steps", expected, result);

  // A diamond: fill, two halves updated independently, then a reduction of both.
  const std::size_t n = 20000;
  long *data = sycl::malloc_device<long>(n, q);
  long *sum = sycl::malloc_shared<long>(1, q);
  sycl::event filled = q.fill(data, 2L, n);
  sycl::event left = q.parallel_for(sycl::range<1>(n / 2), filled, [=](sycl::id<1> i) { data[i] *= 5; });
  sycl::event right = q.parallel_for(sycl::range<1>(n / 2), {filled},
                                     [=](sycl::id<1> i) { data[i + n / 2] += static_cast<long>(i[0]); });
  sycl::event reduced = q.single_task({left, right}, [=] {
    long total = 0;
    for (std::size_t i = 0; i < n; ++i) total += data[i];
    *sum = total;
  });
  reduced.wait();
  const long half = static_cast<long>(n / 2);
  checkEqual("diamond of dependencies", 10 * half + 2 * half + half * (half - 1) / 2, *sum);

  // Every queue shortcut taking dependencies.
  int *a = sycl::malloc_shared<int>(8, q);
  int *b = sycl::malloc_device<int>(8, q);
  sycl::event e1 = q.memset(a, 0, 8 * sizeof(int));
  sycl::event e2 = q.single_task(e1, [=] { a[0] = 10; });
  sycl::event e3 = q.fill(b, 3, 8, {e2});
  sycl::event e4 = q.parallel_for(sycl::range<1>(8), {e2, e3}, [=](sycl::id<1> i) { b[i] += a[0]; });
  sycl::event e5 = q.copy(static_cast<const int *>(b), a, 8, {e4});
  sycl::event e6 = q.memcpy(a + 1, a, sizeof(int), {e5});
  sycl::event::wait({e1, e2, e3, e4, e5, e6});
  checkArray("shortcuts with dependencies", 8, a, [](std::size_t) { return 13; });
  sycl::free(v, q);
  sycl::free(data, q);
  sycl::free(sum, q);
  sycl::free(a, q);
  sycl::free(b, q);
}

// SYCL 2020 §4.6.6: the wait list holds the direct dependencies; whether
// completed ones are still listed is implementation-defined. So: nothing but
// direct dependencies, and each dependency either listed or complete.
void checkWaitList(const std::string &what, const sycl::event &e, const std::vector<sycl::event> &dependencies) {
  std::vector<sycl::event> list = e.get_wait_list();
  for (std::size_t i = 0; i < list.size(); ++i) {
    bool direct = std::find(dependencies.begin(), dependencies.end(), list[i]) != dependencies.end();
    check(what + ": wait list entry " + std::to_string(i) + " is a direct dependency", direct);
    for (std::size_t j = 0; j < i; ++j) check(what + ": wait list has no duplicates", list[i] != list[j]);
  }
  for (std::size_t k = 0; k < dependencies.size(); ++k) {
    bool listed = std::find(list.begin(), list.end(), dependencies[k]) != list.end();
    check(what + ": dependency " + std::to_string(k) + " listed or complete",
          listed || statusOf(dependencies[k]) == status::complete);
  }
}

void waitLists(sycl::queue &q) {
  int *x = sycl::malloc_shared<int>(3, q);
  sycl::event e1 = q.single_task([=] {
    int sum = 0;
    for (int k = 0; k < 100000; ++k) sum += k % 7;
    x[0] = sum;
  });
  sycl::event e2 = q.submit([&](sycl::handler &h) {
    h.depends_on(e1);
    h.single_task([=] { x[1] = x[0] + 1; });
  });
  sycl::event e3 = q.submit([&](sycl::handler &h) {
    h.depends_on({e1, e2});
    h.single_task([=] { x[2] = x[1] + 1; });
  });
  checkWaitList("e2 (depends on e1)", e2, {e1});
  checkWaitList("e3 (depends on e1, e2)", e3, {e1, e2});
  checkEqual("wait list of a command without dependencies", std::size_t(0), e1.get_wait_list().size());
  e3.wait();
  checkWaitList("e3 after completion", e3, {e1, e2});
  checkEqual("default-constructed event: wait list", std::size_t(0), sycl::event().get_wait_list().size());
  std::vector<sycl::event> list = e2.get_wait_list();
  if (!list.empty()) checkEqual("e2's listed dependency is e1", true, list[0] == e1);
  checkEqual("x[2] after the chain", x[0] + 2, x[2]);
  sycl::free(x, q);
}

void executionStatus(sycl::queue &q) {
  int *x = sycl::malloc_device<int>(1000, q);
  int host[1000];
  std::vector<std::pair<std::string, sycl::event>> events;
  events.emplace_back("memset", q.memset(x, 0, sizeof host));
  events.back().second.wait();
  events.emplace_back("fill", q.fill(x, 4, 1000));
  events.back().second.wait();
  events.emplace_back("kernel", q.parallel_for(sycl::range<1>(1000), [=](sycl::id<1> i) { x[i] += 1; }));
  events.back().second.wait();
  events.emplace_back("memcpy", q.memcpy(host, x, sizeof host));
  events.back().second.wait_and_throw();
  for (auto &[name, e] : events)
    checkEqual(name + ": command_execution_status after wait", status::complete, statusOf(e));
  checkEqual("default-constructed event: command_execution_status", status::complete, statusOf(sycl::event()));
  checkArray("memset, fill, kernel, memcpy", 1000, host, [](std::size_t) { return 5; });
  // After waiting for a command, those it depended on are complete too, also
  // on other streams whose completion nobody has asked about (the CTS's
  // handler depends_on case).
  for (int round = 0; round < 20; ++round) {
    sycl::event a = q.parallel_for(sycl::range<1>(500), [=](sycl::id<1> i) { x[i] = 1; });
    sycl::event b = q.parallel_for(sycl::range<1>(500), [=](sycl::id<1> i) { x[500 + i] = 2; });
    sycl::event c = q.submit([&](sycl::handler &h) {
      h.depends_on({a, b});
      h.single_task([=] { x[0] += x[999]; });
    });
    c.wait();
    if (!check("dependencies complete once their dependent is (round " + std::to_string(round) + ")",
               statusOf(a) == status::complete && statusOf(b) == status::complete))
      break;
  }
  sycl::free(x, q);
}

void profiling(sycl::queue &plain) {
  sycl::queue q{sycl::property_list{sycl::property::queue::enable_profiling(), sycl::property::queue::in_order()}};
  const std::size_t n = 1 << 18;
  float *data = sycl::malloc_device<float>(n, q);
  std::vector<float> host(n);
  std::vector<std::pair<std::string, sycl::event>> events;
  events.emplace_back("fill", q.fill(data, 1.0f, n));
  events.emplace_back("kernel", q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
    float v = data[i];
    for (int k = 0; k < 20; ++k) v = v * 1.0001f + 0.5f;
    data[i] = v;
  }));
  events.emplace_back("memcpy", q.memcpy(host.data(), data, n * sizeof(float)));
  q.wait();
  std::uint64_t previousEnd = 0;
  for (auto &[name, e] : events) {
    auto submit = e.get_profiling_info<sycl::info::event_profiling::command_submit>();
    auto start = e.get_profiling_info<sycl::info::event_profiling::command_start>();
    auto end = e.get_profiling_info<sycl::info::event_profiling::command_end>();
    check(name + ": submit <= start (" + std::to_string(submit) + " <= " + std::to_string(start) + ")",
          submit <= start);
    check(name + ": start <= end (" + std::to_string(start) + " <= " + std::to_string(end) + ")", start <= end);
    // In order: a command starts after the previous one ended.
    check(name + ": starts after the previous command ended", previousEnd <= start);
    previousEnd = end;
  }

  sycl::event unprofiled = plain.single_task([] {});
  unprofiled.wait();
  checkThrows("command_submit without enable_profiling", sycl::errc::invalid,
              [&] { unprofiled.get_profiling_info<sycl::info::event_profiling::command_submit>(); });
  checkThrows("command_start without enable_profiling", sycl::errc::invalid,
              [&] { unprofiled.get_profiling_info<sycl::info::event_profiling::command_start>(); });
  checkThrows("command_end without enable_profiling", sycl::errc::invalid,
              [&] { unprofiled.get_profiling_info<sycl::info::event_profiling::command_end>(); });
  sycl::free(data, q);
}

void queueWait(sycl::queue &q) {
  const int commands = 40;
  long *out = sycl::malloc_shared<long>(commands, q);
  int *copyTarget = sycl::malloc_device<int>(1000, q);
  std::vector<sycl::event> events;
  for (int c = 0; c < commands; ++c)
    events.push_back(q.single_task([=] {
      long sum = 0;
      for (long k = 0; k < 20000; ++k) sum += (k ^ c) & 3;
      out[c] = sum;
    }));
  events.push_back(q.fill(copyTarget, 9, 1000));
  q.wait();
  for (std::size_t k = 0; k < events.size(); ++k)
    checkEqual("command " + std::to_string(k) + " complete after queue::wait", status::complete, statusOf(events[k]));
  checkArray("results after queue::wait", commands, out, [](std::size_t c) {
    long sum = 0;
    for (long k = 0; k < 20000; ++k) sum += (k ^ static_cast<long>(c)) & 3;
    return sum;
  });
  sycl::free(out, q);
  sycl::free(copyTarget, q);
}

// 8 host threads submit 200 command groups each to one queue.
void concurrentSubmission(sycl::queue &q) {
  constexpr int threads = 8, perThread = 200;
  int *slots = sycl::malloc_shared<int>(threads * perThread, q);
  int *ranges = sycl::malloc_shared<int>(threads * perThread * 4, q);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      for (int k = 0; k < perThread; ++k) {
        const int index = t * perThread + k;
        if (k % 2 == 0) q.single_task([=] { slots[index] = t * 1000 + k; });
        else q.submit([&](sycl::handler &h) { h.single_task([=] { slots[index] = t * 1000 + k; }); });
        q.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) {
          const int lane = static_cast<int>(i[0]);
          ranges[index * 4 + lane] = index + lane;
        });
      }
    });
  for (std::thread &w : workers) w.join();
  q.wait();
  checkArray("single_tasks from 8 threads", threads * perThread, slots,
             [](std::size_t i) { return static_cast<int>(i / perThread) * 1000 + static_cast<int>(i % perThread); });
  checkArray("parallel_fors from 8 threads", threads * perThread * 4, ranges,
             [](std::size_t i) { return static_cast<int>(i / 4 + i % 4); });

  // The same on an in-order queue: each thread's counter, and one shared by all.
  sycl::queue ordered{sycl::property::queue::in_order()};
  int *counters = sycl::malloc_shared<int>(threads + 1, ordered);
  std::fill(counters, counters + threads + 1, 0);
  workers.clear();
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      for (int k = 0; k < perThread; ++k)
        ordered.single_task([=] {
          counters[t] += 1;
          counters[threads] += 1;
        });
    });
  for (std::thread &w : workers) w.join();
  ordered.wait();
  checkArray("in-order counters from 8 threads", threads, counters, [](std::size_t) { return perThread; });
  checkEqual("in-order shared counter from 8 threads", threads * perThread, counters[threads]);
  sycl::free(slots, q);
  sycl::free(ranges, q);
  sycl::free(counters, ordered);
}

}  // namespace

// Waiting returns only once the device has finished: long kernels that end by
// setting a flag in host memory are seen finished right after the wait
// (asynchronous GPU streams must not complete events early).
void waitsWait(sycl::queue &q) {
  int *flags = sycl::malloc_host<int>(4, q);
  float *sink = sycl::malloc_device<float>(1, q);
  auto slow = [=](int which) {
    return [=] {
      float x = 0.0f;
      for (int i = 0; i < 4000000; ++i) x = x * 0.9999f + 1.0f;
      sink[0] = x;
      flags[which] = 1;
    };
  };
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 4; ++i) flags[i] = 0;
    q.single_task(slow(0)).wait();
    check("event::wait: the kernel had finished", flags[0] == 1);
    sycl::event a = q.single_task(slow(1));
    sycl::event b = q.single_task(slow(2));
    q.wait();
    check("queue::wait: both kernels had finished", flags[1] == 1 && flags[2] == 1);
    sycl::queue inOrder{q.get_context(), q.get_device(), sycl::property::queue::in_order()};
    inOrder.single_task(slow(3));
    sycl::event last = inOrder.single_task([=] { flags[0] = flags[3] + 1; });
    last.wait();
    check("in-order chain: the last kernel saw the first one's write", flags[0] == 2);
    checkEqual("in-order chain: complete after the wait", sycl::info::event_command_status::complete,
               last.get_info<sycl::info::event::command_execution_status>());
    (void)a;
    (void)b;
  }
  sycl::free(flags, q);
  sycl::free(sink, q);
}

int main() {
  sycl::queue q;
  onepass_test::runPart("waits wait for the device", [&] { waitsWait(q); });
  onepass_test::runPart("in-order chain", [&] { inOrderChain(q); });
  onepass_test::runPart("depends_on chains", [&] { dependsOnChains(q); });
  onepass_test::runPart("wait lists", [&] { waitLists(q); });
  onepass_test::runPart("execution status", [&] { executionStatus(q); });
  onepass_test::runPart("profiling", [&] { profiling(q); });
  onepass_test::runPart("queue::wait", [&] { queueWait(q); });
  onepass_test::runPart("concurrent submission", [&] { concurrentSubmission(q); });
  {
    // §4.6.6: an event's backend is its queue's; a default-constructed event
    // acts as one of the default queue.
    sycl::queue q;
    sycl::event e = q.single_task([] {});
    e.wait();
    onepass_test::check("event::get_backend of a command", e.get_backend() == q.get_backend());
    onepass_test::check("event::get_backend of a default event", sycl::event().get_backend() == q.get_backend());
  }
  {
    // §4.6.6: wait_and_throw also hands over the errors of the commands the
    // event waited for, to their own queues' handlers.
    std::vector<std::string> first, second;
    auto collect = [](std::vector<std::string> &into) {
      return [&into](sycl::exception_list list) {
        for (auto &e : list) try {
            std::rethrow_exception(e);
          } catch (const std::exception &x) {
            into.push_back(x.what());
          }
      };
    };
    sycl::queue q1(collect(first)), q2(collect(second));
    sycl::event e1 = q1.submit([&](sycl::handler &h) { h.host_task([] { throw std::runtime_error("first"); }); });
    sycl::event e2 = q2.submit([&](sycl::handler &h) {
      h.depends_on(e1);
      h.host_task([] { throw std::runtime_error("second"); });
    });
    e2.wait_and_throw();
    onepass_test::check("the event's own queue got its error", second.size() == 1 && second[0] == "second");
    onepass_test::check("the dependency's queue got its error", first.size() == 1 && first[0] == "first");
  }
  return onepass_test::report();
}
