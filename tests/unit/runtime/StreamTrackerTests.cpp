// Unit tests of asynchronous nodes (StreamTracker with the Executor) against a
// fake backend whose streams are host threads running closures in order, and
// whose markers are flags set when a stream reaches them. What the CUDA
// backend does with streams and events, without a GPU.
#include <catch2/catch.hpp>

#include "Executor.h"
#include "Runtime.h"
#include "StreamTracker.h"

#include <sycl/sycl.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace {

struct FakeMarker {
  std::atomic<bool> done{false};
  std::atomic<bool> failed{false};
  uint64_t time = 0;
};

// A stream: one thread running its closures in order. After a failing
// closure, the stream is broken: its markers report failure (CUDA's sticky errors).
class FakeStream {
public:
  FakeStream() : thread_([this] { loop(); }) {}
  ~FakeStream() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void push(std::function<bool()> work) {  // work returns false to fail
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(std::move(work));
    }
    wake_.notify_all();
  }
  std::atomic<bool> broken{false};

private:
  void loop() {
    for (;;) {
      std::function<bool()> work;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;
        work = std::move(queue_.front());
        queue_.pop_front();
      }
      if (!work()) broken = true;
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<bool()>> queue_;
  bool stop_ = false;
  std::thread thread_;
};

struct FakeDevice {
  std::vector<std::unique_ptr<FakeStream>> streams;
  std::atomic<int> markersRecorded{0};
  std::atomic<int> streamWaits{0};
  std::atomic<int> streamSyncs{0};
  std::atomic<uint64_t> clock{1000};
  std::mutex graveyardMutex;
  std::vector<std::unique_ptr<FakeMarker>> graveyard;
};

FakeDevice *fake = nullptr;

char *message(const char *text) {
  char *copy = static_cast<char *>(std::malloc(std::strlen(text) + 1));
  std::strcpy(copy, text);
  return copy;
}

void *recordMarker(uint32_t, uint32_t stream, uint32_t, char **) {
  auto *marker = new FakeMarker;
  fake->markersRecorded++;
  FakeStream &s = *fake->streams[stream];
  s.push([marker, &s] {
    marker->time = fake->clock.fetch_add(10);
    marker->failed = s.broken.load();
    marker->done = true;
    return true;
  });
  return marker;
}

int streamWaitMarker(uint32_t, uint32_t stream, void *marker, char **) {
  fake->streamWaits++;
  auto *m = static_cast<FakeMarker *>(marker);
  fake->streams[stream]->push([m] {
    while (!m->done.load()) std::this_thread::yield();
    return true;
  });
  return 0;
}

int queryMarker(uint32_t, void *marker, char **error) {
  auto *m = static_cast<FakeMarker *>(marker);
  if (!m->done.load()) return 0;
  if (m->failed.load()) {
    *error = message("FAKE_ERROR_ILLEGAL_ADDRESS");
    return -1;
  }
  return 1;
}

int waitMarker(uint32_t, void *marker, char **error) {
  auto *m = static_cast<FakeMarker *>(marker);
  while (!m->done.load()) std::this_thread::yield();
  if (m->failed.load()) {
    *error = message("FAKE_ERROR_ILLEGAL_ADDRESS");
    return 1;
  }
  return 0;
}

int markerTime(uint32_t, void *marker, uint64_t *nanoseconds, char **) {
  *nanoseconds = static_cast<FakeMarker *>(marker)->time;
  return 0;
}

// Released markers stay allocated until the device goes: a stream may still
// be waiting on one (CUDA's cuStreamWaitEvent takes the event's state at the
// call, which a plain pointer cannot).
void releaseMarker(uint32_t, void *marker) {
  std::lock_guard<std::mutex> lock(fake->graveyardMutex);
  fake->graveyard.emplace_back(static_cast<FakeMarker *>(marker));
}

int waitStream(uint32_t, uint32_t stream, char **error) {
  fake->streamSyncs++;
  FakeMarker done;
  FakeStream &s = *fake->streams[stream];
  s.push([&done, &s] {
    done.failed = s.broken.load();
    done.done = true;
    return true;
  });
  while (!done.done.load()) std::this_thread::yield();
  if (!done.failed.load()) return 0;
  *error = message("FAKE_ERROR_ILLEGAL_ADDRESS");
  return 1;
}

onepass_backend fakeBackend() {
  onepass_backend b{};
  b.interface_version = ONEPASS_BACKEND_INTERFACE_VERSION;
  b.name = "fake";
  b.concurrent_operations = 1;
  b.streams = 2;
  b.record_marker = recordMarker;
  b.stream_wait_marker = streamWaitMarker;
  b.query_marker = queryMarker;
  b.wait_marker = waitMarker;
  b.marker_time = markerTime;
  b.release_marker = releaseMarker;
  b.wait_stream = waitStream;
  return b;
}

// A fake device with two streams, its tracker and an executor of one lane.
struct Fixture {
  FakeDevice device;
  onepass_backend backend = fakeBackend();
  std::unique_ptr<onepass::rt::StreamTracker> tracker;
  std::unique_ptr<onepass::rt::Executor> executor;
  std::mutex logMutex;
  std::vector<std::string> log;  // what the streams ran, in order

  Fixture() {
    device.streams.push_back(std::make_unique<FakeStream>());
    device.streams.push_back(std::make_unique<FakeStream>());
    fake = &device;
    tracker = std::make_unique<onepass::rt::StreamTracker>(backend, 0, 2);
    executor = std::make_unique<onepass::rt::Executor>(1, tracker.get());
  }
  ~Fixture() {
    executor.reset();
    tracker.reset();
    device.streams.clear();  // runs what they still hold, before the markers go
    fake = nullptr;
  }

  std::shared_ptr<sycl::detail::event_impl> node(std::vector<std::shared_ptr<sycl::detail::event_impl>> after = {}) {
    auto event = std::make_shared<sycl::detail::event_impl>();
    event->tracker = tracker.get();
    event->dependencies.assign(after.begin(), after.end());
    event->errors = std::make_shared<onepass::rt::AsyncErrorSink>();
    return event;
  }
  // An asynchronous node that logs `name` on its stream, after `delay`.
  void submit(const std::shared_ptr<sycl::detail::event_impl> &event, std::string name,
              std::chrono::milliseconds delay = std::chrono::milliseconds(0), bool fails = false) {
    auto enqueue = [this, name, delay, fails](int stream) {
      device.streams[stream]->push([this, name, delay, fails] {
        std::this_thread::sleep_for(delay);
        std::lock_guard<std::mutex> lock(logMutex);
        log.push_back(name);
        return !fails;
      });
    };
    executor->submitAsync(event, onepass::rt::makeAsyncWork(enqueue, [name] { return "kernel '" + name + "'"; }));
  }
  std::vector<std::string> logged() {
    std::lock_guard<std::mutex> lock(logMutex);
    return log;
  }
};

}  // namespace

TEST_CASE("a chain of asynchronous nodes runs in order on one stream, with few markers", "[streams]") {
  Fixture f;
  std::vector<std::shared_ptr<sycl::detail::event_impl>> chain;
  std::vector<std::string> expected;
  for (int i = 0; i < 100; ++i) {
    auto event = f.node(chain.empty() ? std::vector<std::shared_ptr<sycl::detail::event_impl>>{}
                                      : std::vector<std::shared_ptr<sycl::detail::event_impl>>{chain.back()});
    f.submit(event, "k" + std::to_string(i));
    chain.push_back(event);
    expected.push_back("k" + std::to_string(i));
  }
  chain.back()->wait();
  REQUIRE(f.logged() == expected);
  // Each node follows its predecessor on its stream, or (if that one had
  // completed already) anywhere: never by a wait across streams.
  REQUIRE(f.device.streamWaits.load() == 0);
  // Markers every kMarkerInterval nodes and one for the wait, not one per node.
  REQUIRE(f.device.markersRecorded.load() <= 100 / static_cast<int>(onepass::rt::StreamTracker::kMarkerInterval) + 1);
  // The last one's completion completes all before it.
  for (const auto &event : chain) REQUIRE(event->complete.load());
}

TEST_CASE("independent asynchronous nodes run concurrently on different streams", "[streams]") {
  Fixture f;
  std::atomic<int> started{0}, sawOther{0};
  auto body = [&] {
    started.fetch_add(1);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (started.load() < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    if (started.load() == 2) sawOther.fetch_add(1);
    return true;
  };
  std::atomic<int> streamA{-1}, streamB{-1};
  auto a = f.node(), b = f.node();
  for (auto [event, stream] : {std::pair{a, &streamA}, std::pair{b, &streamB}}) {
    auto enqueue = [&f, body, stream = stream](int s) {
      stream->store(s);
      f.device.streams[s]->push(body);
    };
    f.executor->submitAsync(event, onepass::rt::makeAsyncWork(enqueue, [] { return std::string("kernel"); }));
  }
  a->wait();
  b->wait();
  REQUIRE(streamA.load() != streamB.load());
  REQUIRE(sawOther.load() == 2);
}

TEST_CASE("independent work after a wait stays on the stream that finished", "[streams]") {
  // Nothing would overlap it there: moving to the next stream after every
  // wait only cost latency (BabelStream's accessor dot, issue 20).
  Fixture f;
  std::vector<uint32_t> streams;
  for (int i = 0; i < 4; ++i) {
    auto event = f.node();
    f.submit(event, "k" + std::to_string(i));
    event->wait();
    streams.push_back(event->stream);
  }
  REQUIRE(streams == std::vector<uint32_t>(4, streams.front()));
  // While that stream is busy, the next independent node goes to another one.
  auto busy = f.node(), other = f.node();
  f.submit(busy, "busy", std::chrono::milliseconds(30));
  f.submit(other, "other");
  busy->wait();
  other->wait();
  REQUIRE(busy->stream == streams.front());
  REQUIRE(other->stream != busy->stream);
}

TEST_CASE("a node after nodes on two streams waits for both on the device", "[streams]") {
  Fixture f;
  auto a = f.node(), b = f.node();
  f.submit(a, "a", std::chrono::milliseconds(30));
  f.submit(b, "b", std::chrono::milliseconds(10));
  auto c = f.node({a, b});
  f.submit(c, "c");
  c->wait();
  std::vector<std::string> log = f.logged();
  REQUIRE(log.size() == 3);
  REQUIRE(log.back() == "c");
  REQUIRE(f.device.streamWaits.load() == 1);  // one stream waited for the other's marker
  REQUIRE(a->complete.load());
  REQUIRE(b->complete.load());
}

TEST_CASE("a host-side node after an asynchronous one waits for its completion", "[streams]") {
  Fixture f;
  auto kernel = f.node();
  f.submit(kernel, "kernel", std::chrono::milliseconds(20));
  // Not waited for by anyone but the host node: its completion must still be noticed.
  onepass::rt::Executor host(1);
  auto after = std::make_shared<sycl::detail::event_impl>();
  after->dependencies.push_back(kernel);
  std::vector<std::string> seen;
  host.submit(after, [&] { seen = f.logged(); });
  after->wait();
  REQUIRE(seen == std::vector<std::string>{"kernel"});
}

TEST_CASE("a status query notices an asynchronous node's completion", "[streams]") {
  Fixture f;
  auto kernel = f.node();
  f.submit(kernel, "kernel");
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (sycl::detail::event_status(*kernel) != sycl::info::event_command_status::complete &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  REQUIRE(sycl::detail::event_status(*kernel) == sycl::info::event_command_status::complete);
}

TEST_CASE("a failure on the device becomes an asynchronous error naming the operation, and nothing hangs",
          "[streams]") {
  Fixture f;
  auto bad = f.node();
  f.submit(bad, "faulty", std::chrono::milliseconds(0), true);
  auto later = f.node({bad});
  f.submit(later, "later");
  std::vector<std::string> errors;
  for (auto *sink : {static_cast<onepass::rt::AsyncErrorSink *>(bad->errors.get()),
                     static_cast<onepass::rt::AsyncErrorSink *>(later->errors.get())})
    sink->handler = [&](sycl::exception_list list) {
      for (auto &e : list) {
        try {
          std::rethrow_exception(e);
        } catch (const sycl::exception &x) {
          REQUIRE(x.code() == sycl::errc::kernel);
          errors.push_back(x.what());
        }
      }
    };
  sycl::detail::event_wait_and_throw(later);
  sycl::detail::event_wait_and_throw(bad);
  REQUIRE(errors.size() == 2);
  bool namesFaulty = false;
  for (const auto &e : errors) namesFaulty |= e.find("'faulty'") != std::string::npos;
  REQUIRE(namesFaulty);
  REQUIRE(errors[0].find("FAKE_ERROR_ILLEGAL_ADDRESS") != std::string::npos);
}

TEST_CASE("profiled asynchronous nodes take their times from markers around them", "[streams]") {
  Fixture f;
  auto event = f.node();
  event->profiling = true;
  f.submit(event, "timed");
  event->wait();
  REQUIRE(event->deviceTimes);
  REQUIRE(event->startTime >= 1000);
  REQUIRE(event->endTime > event->startTime);
}

TEST_CASE("an enqueue failure completes the node with an error at once", "[streams]") {
  Fixture f;
  auto event = f.node();
  int delivered = 0;
  static_cast<onepass::rt::AsyncErrorSink &>(*event->errors).handler = [&](sycl::exception_list list) {
    delivered += static_cast<int>(list.size());
  };
  f.executor->submitAsync(
      event, onepass::rt::makeAsyncWork(
                 [](int) { throw sycl::exception(sycl::make_error_code(sycl::errc::kernel), "too many blocks"); },
                 [] { return std::string("kernel"); }));
  auto after = f.node({event});
  f.submit(after, "after");
  sycl::detail::event_wait_and_throw(event);
  after->wait();
  REQUIRE(delivered == 1);
  REQUIRE(f.logged() == std::vector<std::string>{"after"});
}

TEST_CASE("many threads submitting and waiting never deadlock with the poller", "[streams]") {
  Fixture f;
  std::vector<std::thread> threads;
  std::atomic<int> completed{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&f, &completed, t] {
      std::shared_ptr<sycl::detail::event_impl> previous;
      std::vector<std::shared_ptr<sycl::detail::event_impl>> all;
      for (int i = 0; i < 300; ++i) {
        auto event = f.node(previous && i % 3 ? std::vector<std::shared_ptr<sycl::detail::event_impl>>{previous}
                                              : std::vector<std::shared_ptr<sycl::detail::event_impl>>{});
        f.submit(event, "t" + std::to_string(t));
        // Waits, status queries and idle gaps, so the poller keeps going to sleep.
        if (i % 7 == 0) event->wait();
        if (i % 5 == 0) sycl::detail::event_status(*event);
        if (i % 50 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
        previous = event;
        all.push_back(event);
      }
      // The last node is not enough: nodes without a dependency may run on
      // the other stream, after it.
      for (const auto &event : all) event->wait();
      completed.fetch_add(1);
    });
  for (auto &thread : threads) thread.join();
  REQUIRE(completed.load() == 4);
  REQUIRE(f.logged().size() == 1200);
}

TEST_CASE("a wait for the newest node of a stream waits for the stream, without a marker", "[streams]") {
  Fixture f;
  auto first = f.node();
  f.submit(first, "first", std::chrono::milliseconds(20));
  auto second = f.node({first});
  f.submit(second, "second");
  second->wait();
  REQUIRE(first->complete.load());
  REQUIRE(second->complete.load());
  REQUIRE(f.device.streamSyncs.load() == 1);
  REQUIRE(f.device.markersRecorded.load() == 0);
  REQUIRE(f.logged() == std::vector<std::string>{"first", "second"});
  // Not the newest any more: a marker behind it.
  auto third = f.node({second});
  f.submit(third, "third", std::chrono::milliseconds(20));
  auto fourth = f.node({third});
  f.submit(fourth, "fourth");
  third->wait();
  REQUIRE(f.device.markersRecorded.load() == 1);
  fourth->wait();
}
