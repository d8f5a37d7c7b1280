// Unit tests of the runtime's internals: the CPU thread pool, the kernel
// registry, the executor's ordering and the USM allocation table.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "Executor.h"
#include "KernelImage.h"
#include "KernelRegistry.h"
#include "Errors.h"
#include "Runtime.h"
#include "ThreadPool.h"

#include <sycl/sycl.hpp>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

extern "C" void __onepass_register_image(const void *, uint64_t, const void *const *, uint64_t);
extern "C" void __onepass_unregister_image(const void *);

using onepass::rt::ThreadPool;

TEST_CASE("thread pool runs every chunk exactly once", "[threadpool]") {
  ThreadPool pool(4);
  REQUIRE(pool.threads() == 4);
  for (size_t chunks : {size_t(1), size_t(2), size_t(3), size_t(17), size_t(1000)}) {
    std::vector<std::atomic<int>> hits(chunks);
    pool.run(chunks, [&](size_t chunk) { hits[chunk].fetch_add(1); });
    for (size_t i = 0; i < chunks; ++i) REQUIRE(hits[i].load() == 1);
  }
}

TEST_CASE("thread pool survives many back-to-back jobs", "[threadpool]") {
  ThreadPool pool(3);
  std::atomic<uint64_t> sum{0};
  uint64_t expected = 0;
  for (size_t job = 0; job < 2000; ++job) {
    size_t chunks = 1 + job % 9;
    pool.run(chunks, [&](size_t chunk) { sum.fetch_add(chunk + 1); });
    expected += chunks * (chunks + 1) / 2;
  }
  REQUIRE(sum.load() == expected);
}

TEST_CASE("thread pool serializes jobs from several threads", "[threadpool]") {
  ThreadPool pool(2);
  std::atomic<uint64_t> sum{0};
  std::vector<std::thread> submitters;
  for (int t = 0; t < 4; ++t)
    submitters.emplace_back([&] {
      for (int i = 0; i < 200; ++i) pool.run(5, [&](size_t chunk) { sum.fetch_add(chunk); });
    });
  for (auto &t : submitters) t.join();
  REQUIRE(sum.load() == 4u * 200u * 10u);
}

TEST_CASE("a pool of one thread runs the job on the caller", "[threadpool]") {
  ThreadPool pool(1);
  std::thread::id caller = std::this_thread::get_id();
  bool allOnCaller = true;
  pool.run(10, [&](size_t) { allOnCaller &= std::this_thread::get_id() == caller; });
  REQUIRE(allOnCaller);
}

namespace {
void entryA() {}
void entryB() {}

std::vector<uint8_t> makeImage(int kernels) {
  std::vector<onepass::image::KernelDesc> descs;
  for (int i = 0; i < kernels; ++i) {
    onepass::image::KernelDesc k;
    k.symbol = "kernel" + std::to_string(i);
    k.displayName = "display" + std::to_string(i);
    k.kind = onepass::image::KernelKind::ParallelFor;
    k.dimensions = 1;
    k.objectSize = 8;
    k.objectAlign = 8;
    k.fields.push_back({0, 8, onepass::image::FieldKind::Pointer});
    descs.push_back(k);
  }
  const char bitcode[] = "BC";
  return onepass::image::writeImage(descs, bitcode, sizeof(bitcode), false, sizeof(bitcode));
}

sycl::errc errcOf(const sycl::exception &e) { return static_cast<sycl::errc>(e.code().value()); }
}  // namespace

TEST_CASE("the registry maps entry addresses to their kernels", "[registry]") {
  std::vector<uint8_t> image = makeImage(2);
  const void *entries[] = {reinterpret_cast<const void *>(&entryA), reinterpret_cast<const void *>(&entryB)};
  __onepass_register_image(image.data(), image.size(), entries, 2);
  auto a = onepass::rt::lookupKernel(entries[0]);
  auto b = onepass::rt::lookupKernel(entries[1]);
  REQUIRE(a->info.symbol == "kernel0");
  REQUIRE(b->info.symbol == "kernel1");
  REQUIRE(a->symbol == "kernel0");
  REQUIRE(a->fieldOffsets.size() == a->info.fields.size());
  REQUIRE(a->image == image.data());
  __onepass_unregister_image(image.data());
  REQUIRE_THROWS_AS(onepass::rt::lookupKernel(entries[0]), onepass::rt::Error);
}

TEST_CASE("an unknown kernel is a clear error", "[registry]") {
  int notAnEntry = 0;
  try {
    onepass::rt::lookupKernel(&notAnEntry);
    FAIL("lookup of an unregistered kernel did not throw");
  } catch (const onepass::rt::Error &e) {
    REQUIRE(e.code() == onepass::rt::Errc::kernel_not_supported);
    REQUIRE(std::string(e.what()).find("onepass++ -fsycl-sscp") != std::string::npos);
  }
}

TEST_CASE("core errors reach the API as sycl::exception with the matching errc", "[errors]") {
  using onepass::rt::Errc;
  const std::pair<Errc, sycl::errc> pairs[] = {{Errc::runtime, sycl::errc::runtime},
                                               {Errc::kernel, sycl::errc::kernel},
                                               {Errc::nd_range, sycl::errc::nd_range},
                                               {Errc::kernel_argument, sycl::errc::kernel_argument},
                                               {Errc::build, sycl::errc::build},
                                               {Errc::invalid, sycl::errc::invalid},
                                               {Errc::memory_allocation, sycl::errc::memory_allocation},
                                               {Errc::profiling, sycl::errc::profiling},
                                               {Errc::feature_not_supported, sycl::errc::feature_not_supported},
                                               {Errc::kernel_not_supported, sycl::errc::kernel_not_supported}};
  for (const auto &[core, sycl] : pairs) {
    try {
      onepass::rt::syclCall([&]() -> int { onepass::rt::raise(core, "what failed"); });
      FAIL("syclCall did not rethrow");
    } catch (const sycl::exception &e) {
      REQUIRE(errcOf(e) == sycl);
      REQUIRE(std::string(e.what()) == "what failed");
    }
    // Asynchronously: at delivery.
    std::exception_ptr converted = onepass::rt::toSycl(std::make_exception_ptr(onepass::rt::Error(core, "later")));
    try {
      std::rethrow_exception(converted);
    } catch (const sycl::exception &e) {
      REQUIRE(errcOf(e) == sycl);
    }
  }
  // Anything else (a host task's own exception) is delivered as it is.
  std::exception_ptr other = onepass::rt::toSycl(std::make_exception_ptr(std::runtime_error("mine")));
  REQUIRE_THROWS_AS(std::rethrow_exception(other), std::runtime_error);
}

TEST_CASE("a corrupt image is reported at lookup, naming the problem", "[registry]") {
  std::vector<uint8_t> image = makeImage(1);
  image[0] ^= 0xff;  // the magic
  const void *entries[] = {reinterpret_cast<const void *>(&entryA)};
  __onepass_register_image(image.data(), image.size(), entries, 1);
  try {
    onepass::rt::lookupKernel(entries[0]);
    FAIL("lookup of a kernel from a corrupt image did not throw");
  } catch (const onepass::rt::Error &e) {
    REQUIRE(e.code() == onepass::rt::Errc::kernel_not_supported);
    std::string what = e.what();
    REQUIRE(what.find("corrupt") != std::string::npos);
    REQUIRE(what.find("magic") != std::string::npos);
  }
  __onepass_unregister_image(image.data());
}

TEST_CASE("an image whose kernel count disagrees with its entry table is rejected", "[registry]") {
  std::vector<uint8_t> image = makeImage(1);
  const void *entries[] = {reinterpret_cast<const void *>(&entryA), reinterpret_cast<const void *>(&entryB)};
  __onepass_register_image(image.data(), image.size(), entries, 2);
  REQUIRE_THROWS_WITH(onepass::rt::lookupKernel(entries[1]), Catch::Contains("lists 1 kernels"));
  __onepass_unregister_image(image.data());
}

TEST_CASE("the executor runs operations after their dependencies", "[executor]") {
  unsigned lanes = GENERATE(1u, 3u);
  onepass::rt::Executor executor(lanes);
  std::vector<int> order;
  std::mutex mutex;
  auto first = std::make_shared<sycl::detail::event_impl>();
  auto second = std::make_shared<sycl::detail::event_impl>();
  second->dependencies.push_back(first);
  executor.submit(first, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::lock_guard<std::mutex> lock(mutex);
    order.push_back(1);
  });
  executor.submit(second, [&] {
    std::lock_guard<std::mutex> lock(mutex);
    order.push_back(2);
  });
  second->wait();
  REQUIRE(order == std::vector<int>{1, 2});
  REQUIRE(first->status == onepass::rt::NodeStatus::Complete);
  // A completed event drops the wait lists of its dependencies (no unbounded chains).
  REQUIRE(first->dependencies.empty());
}

TEST_CASE("independent operations run concurrently on an executor of two lanes", "[executor]") {
  onepass::rt::Executor executor(2);
  // Each operation waits (up to 10 s) for the other to have started: only
  // concurrent execution lets both see the other.
  std::atomic<int> started{0};
  std::atomic<int> sawOther{0};
  auto body = [&] {
    started.fetch_add(1);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (started.load() < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    if (started.load() == 2) sawOther.fetch_add(1);
  };
  auto a = std::make_shared<sycl::detail::event_impl>();
  auto b = std::make_shared<sycl::detail::event_impl>();
  executor.submit(a, body);
  executor.submit(b, body);
  a->wait();
  b->wait();
  REQUIRE(sawOther.load() == 2);
}

TEST_CASE("a node waits for a dependency that another executor runs", "[executor]") {
  onepass::rt::Executor producer(1), consumer(2);
  std::atomic<bool> produced{false};
  bool consumedAfter = false;
  auto first = std::make_shared<sycl::detail::event_impl>();
  auto second = std::make_shared<sycl::detail::event_impl>();
  second->dependencies.push_back(first);
  consumer.submit(second, [&] { consumedAfter = produced.load(); });  // submitted first, must run second
  producer.submit(first, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    produced.store(true);
  });
  second->wait();
  REQUIRE(consumedAfter);
}

TEST_CASE("an exception in an operation becomes an asynchronous error", "[executor]") {
  onepass::rt::Executor executor(1);
  auto event = std::make_shared<sycl::detail::event_impl>();
  event->errors = std::make_shared<onepass::rt::AsyncErrorSink>();
  int delivered = 0;
  static_cast<onepass::rt::AsyncErrorSink &>(*event->errors).handler = [&](sycl::exception_list list) {
    delivered += static_cast<int>(list.size());
  };
  executor.submit(event, [] { throw sycl::exception(sycl::make_error_code(sycl::errc::kernel), "boom"); });
  sycl::detail::event_wait_and_throw(event);
  REQUIRE(delivered == 1);
}

TEST_CASE("USM pointers are tracked, interior pointers included", "[usm]") {
  sycl::queue q{sycl::cpu_selector_v};
  char *p = sycl::malloc_shared<char>(1000, q);
  REQUIRE(p != nullptr);
  REQUIRE(reinterpret_cast<uintptr_t>(p) % 64 == 0);
  REQUIRE(sycl::get_pointer_type(p, q.get_context()) == sycl::usm::alloc::shared);
  REQUIRE(sycl::get_pointer_type(p + 999, q.get_context()) == sycl::usm::alloc::shared);
  int local = 0;
  REQUIRE(sycl::get_pointer_type(&local, q.get_context()) == sycl::usm::alloc::unknown);
  sycl::free(p, q);
  REQUIRE(sycl::get_pointer_type(p, q.get_context()) == sycl::usm::alloc::unknown);
  REQUIRE_THROWS_AS(sycl::free(&local, q), sycl::exception);
  REQUIRE(sycl::malloc_device(0, q) == nullptr);
  REQUIRE(sycl::aligned_alloc_device(3, 64, q) == nullptr);            // not a power of two
  REQUIRE(sycl::malloc_device<double>(size_t(-1) / 4, q) == nullptr);  // overflow, not a wrap
}

// --- the persistent kernel cache ---------------------------------------------

#include "KernelCache.h"

#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace {
std::string freshDirectory() {
  char pattern[] = "/tmp/onepass-cache-test-XXXXXX";
  REQUIRE(mkdtemp(pattern) != nullptr);
  return pattern;
}
}  // namespace

TEST_CASE("the kernel cache returns what was stored, by key", "[cache]") {
  onepass::rt::KernelCache cache(freshDirectory());
  std::vector<uint8_t> binary(5000);
  for (size_t i = 0; i < binary.size(); ++i) binary[i] = uint8_t(i * 7);
  std::vector<uint8_t> loaded;
  REQUIRE_FALSE(cache.load("key-a", loaded));
  cache.store("key-a", binary.data(), binary.size());
  REQUIRE(cache.load("key-a", loaded));
  REQUIRE(loaded == binary);
  REQUIRE_FALSE(cache.load("key-b", loaded));
  cache.store("key-a", "new", 3);  // replacing an entry
  REQUIRE(cache.load("key-a", loaded));
  REQUIRE(std::string(loaded.begin(), loaded.end()) == "new");
}

TEST_CASE("corrupt or truncated cache entries are misses and are removed", "[cache]") {
  onepass::rt::KernelCache cache(freshDirectory());
  std::vector<uint8_t> binary(1000, 0xab), loaded;
  const std::string path = cache.pathFor("key");

  cache.store("key", binary.data(), binary.size());
  {  // flip a byte of the payload
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(-10, std::ios::end);
    file.put(char(0x11));
  }
  REQUIRE_FALSE(cache.load("key", loaded));
  REQUIRE(access(path.c_str(), F_OK) != 0);  // removed, so the next build replaces it

  cache.store("key", binary.data(), binary.size());
  REQUIRE(truncate(path.c_str(), 500) == 0);
  REQUIRE_FALSE(cache.load("key", loaded));

  std::ofstream(path, std::ios::binary) << "garbage that is not an entry";
  REQUIRE_FALSE(cache.load("key", loaded));

  cache.store("key", binary.data(), binary.size());  // and it heals
  REQUIRE(cache.load("key", loaded));
  REQUIRE(loaded == binary);
}

TEST_CASE("an entry under another key's file name is a miss", "[cache]") {
  onepass::rt::KernelCache cache(freshDirectory());
  std::vector<uint8_t> binary(64, 1), loaded;
  cache.store("first", binary.data(), binary.size());
  // Simulate a hash collision: put first's entry where second's would be.
  REQUIRE(std::rename(cache.pathFor("first").c_str(), cache.pathFor("second").c_str()) == 0);
  REQUIRE_FALSE(cache.load("second", loaded));
}

TEST_CASE("a disabled or unwritable cache only misses", "[cache]") {
  onepass::rt::KernelCache disabled("");
  std::vector<uint8_t> loaded;
  disabled.store("key", "x", 1);
  REQUIRE_FALSE(disabled.enabled());
  REQUIRE_FALSE(disabled.load("key", loaded));

  onepass::rt::KernelCache unwritable("/proc/onepass-no-such-directory");
  unwritable.store("key", "x", 1);  // must not throw or crash
  REQUIRE_FALSE(unwritable.load("key", loaded));
}
