// The Level Zero backend plugin against the fake loader of this folder
// (FakeLevelZero.cpp), or against a loader without a driver. Modes:
//   fake        (ONEPASS_DEVICE_SELECTOR=level_zero:*, the fake loader first on
//               LD_LIBRARY_PATH, FAKE_ZE_LOG=<file>): the fake GPU is seen with
//               the fake's properties; USM of the three kinds, copies and
//               fills; a range kernel, nd_range kernels with local memory and
//               a single_task reach zeCommandListAppendLaunchKernel with the
//               group size and counts, USM pointers and range values the
//               backend must set (read back from the fake's log)
//   kernel-limits  (the fake as for `fake`, FAKE_ZE_KERNEL_SUBGROUPS=1,
//               FAKE_ZE_KERNEL_PRIVATE_BYTES=16): a kernel's work-group limit
//               and private memory come from zeKernelGetProperties, and a
//               range kernel's work-groups stay within that limit
//   build-fails  (the fake as for `fake`, FAKE_ZE_SPIRV_MINOR=2): the JIT's
//               SPIR-V 1.4 does not build; the submission fails with
//               errc::build naming zeModuleCreate, the build log and versions
//   no-device <text>  no Level Zero device is seen, and the GPU selector's
//               error names the reason, which contains <text>
// Kernels do not run on the fake: their results are not checked.
#include "check.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using onepass_test::check;
using onepass_test::checkEqual;

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

// One line of the fake's log.
struct Launch {
  std::string groupSize, groupCount;
  struct Argument {
    bool local = false;
    uint64_t size = 0;
    uint64_t value = 0;  // (arguments up to 8 bytes)
  };
  std::vector<Argument> arguments;
};

std::string logPath() {
  const char *path = std::getenv("FAKE_ZE_LOG");
  return path ? path : "";
}

std::vector<std::string> logLines() {
  std::vector<std::string> lines;
  std::ifstream file(logPath());
  for (std::string line; std::getline(file, line);) lines.push_back(line);
  return lines;
}

void clearLog() { std::ofstream(logPath(), std::ios::trunc); }

// The value of `key=` in a log line ("" if absent).
std::string field(const std::string &line, const std::string &key) {
  const size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) return "";
  const size_t start = at + key.size() + 2;
  return line.substr(start, line.find(' ', start) - start);
}

// The launches logged since the log was last cleared.
std::vector<Launch> launches() {
  std::vector<Launch> result;
  for (const std::string &line : logLines()) {
    if (line.rfind("launch ", 0) != 0) continue;
    std::printf("logged: %s\n", line.c_str());
    Launch launch;
    launch.groupSize = field(line, "group_size");
    launch.groupCount = field(line, "group_count");
    const int count = std::atoi(field(line, "args").c_str());
    for (int i = 0; i < count; ++i) {
      const std::string text = field(line, "arg" + std::to_string(i));
      Launch::Argument argument;
      if (text.rfind("local:", 0) == 0) {
        argument.local = true;
        argument.size = std::strtoull(text.c_str() + 6, nullptr, 10);
      } else {
        const size_t colon = text.find(':');
        argument.size = std::strtoull(text.c_str(), nullptr, 10);
        if (colon != std::string::npos && argument.size <= 8)
          argument.value = std::strtoull(text.c_str() + colon + 1, nullptr, 16);
      }
      launch.arguments.push_back(argument);
    }
    result.push_back(launch);
  }
  return result;
}

// The only launch since the log was cleared (an empty one, failing, if not one).
Launch onlyLaunch(const std::string &what) {
  std::vector<Launch> all = launches();
  if (!checkEqual(what + ": launches logged", std::size_t(1), all.size())) return Launch{};
  return all[0];
}

// Whether a by-value argument of 8 bytes holds `pointer`.
bool passesPointer(const Launch &launch, const void *pointer) {
  for (const Launch::Argument &argument : launch.arguments)
    if (!argument.local && argument.size == 8 && argument.value == reinterpret_cast<uintptr_t>(pointer)) return true;
  return false;
}

void checkDevice(const sycl::device &gpu) {
  checkEqual("device name", std::string("OnePass fake Level Zero GPU 0"), gpu.get_info<sycl::info::device::name>());
  check("the device is a GPU", gpu.is_gpu());
  checkEqual("device backend", sycl::backend::level_zero, gpu.get_backend());
  checkEqual("platform backend", sycl::backend::level_zero, gpu.get_platform().get_backend());
  checkEqual("vendor id", 0x8086u, gpu.get_info<sycl::info::device::vendor_id>());
  checkEqual("compute units (slices x sub-slices x EUs)", 64u, gpu.get_info<sycl::info::device::max_compute_units>());
  checkEqual("clock", 1600u, gpu.get_info<sycl::info::device::max_clock_frequency>());
  checkEqual("global memory", uint64_t(4) << 30, gpu.get_info<sycl::info::device::global_mem_size>());
  checkEqual("local memory", uint64_t(65536), gpu.get_info<sycl::info::device::local_mem_size>());
  checkEqual("max allocation", uint64_t(1) << 30, gpu.get_info<sycl::info::device::max_mem_alloc_size>());
  checkEqual("max work-group size", std::size_t(1024), gpu.get_info<sycl::info::device::max_work_group_size>());
  const sycl::id<3> sizes = gpu.get_info<sycl::info::device::max_work_item_sizes<3>>();
  // SYCL's last dimension is Level Zero's x.
  checkEqual("max work-item size (x)", std::size_t(1024), sizes[2]);
  checkEqual("max work-item size (z)", std::size_t(64), sizes[0]);
  check("fp64 (the module properties' FP64 flag)", gpu.has(sycl::aspect::fp64));
  check("atomic64 (the module properties' INT64_ATOMICS flag)", gpu.has(sycl::aspect::atomic64));
  check("usm_device_allocations", gpu.has(sycl::aspect::usm_device_allocations));
}

void checkMemory(sycl::queue &q) {
  constexpr std::size_t n = 1000;
  int *device = sycl::malloc_device<int>(n, q);
  int *host = sycl::malloc_host<int>(n, q);
  int *shared = sycl::malloc_shared<int>(n, q);
  if (!check("three USM allocations", device && host && shared)) return;
  checkEqual("device pointer type", sycl::usm::alloc::device, sycl::get_pointer_type(device, q.get_context()));
  checkEqual("host pointer type", sycl::usm::alloc::host, sycl::get_pointer_type(host, q.get_context()));
  checkEqual("shared pointer type", sycl::usm::alloc::shared, sycl::get_pointer_type(shared, q.get_context()));
  auto *aligned = static_cast<char *>(sycl::aligned_alloc_device(4096, 100, q));
  check("aligned_alloc_device(4096) is aligned", aligned && reinterpret_cast<uintptr_t>(aligned) % 4096 == 0);
  sycl::free(aligned, q);

  std::vector<int> source(n), result(n, -1);
  for (std::size_t i = 0; i < n; ++i) source[i] = int(i * 7 + 3);
  q.memcpy(device, source.data(), n * sizeof(int)).wait();
  q.memcpy(shared, device, n * sizeof(int)).wait();
  q.memcpy(host, shared, n * sizeof(int)).wait();
  q.memcpy(result.data(), host, n * sizeof(int)).wait();
  onepass_test::checkArray("round trip host -> device -> shared -> host USM -> host", n, result.data(),
                           [&](std::size_t i) { return source[i]; });

  clearLog();
  q.fill(device, 0x12345678, n).wait();
  q.memcpy(result.data(), device, n * sizeof(int)).wait();
  onepass_test::checkArray("fill(int) of device USM", n, result.data(), [](std::size_t) { return 0x12345678; });
  q.memset(shared, 0xab, n * sizeof(int)).wait();
  std::vector<unsigned char> bytes(n * sizeof(int));
  q.memcpy(bytes.data(), shared, bytes.size()).wait();
  onepass_test::checkArray("memset(0xab) of shared USM", bytes.size(), bytes.data(),
                           [](std::size_t) { return (unsigned char)0xab; });
  struct Triple {
    int a, b, c;
  };
  auto *triples = sycl::malloc_device<Triple>(10, q);
  q.fill(triples, Triple{1, -2, 3}, 10).wait();
  std::vector<Triple> readTriples(10);
  q.memcpy(readTriples.data(), triples, sizeof(Triple) * 10).wait();
  for (int i = 0; i < 10; ++i)
    check("fill(12-byte pattern) element " + std::to_string(i),
          readTriples[i].a == 1 && readTriples[i].b == -2 && readTriples[i].c == 3);
  sycl::free(triples, q);
  // The backend's fills as Level Zero saw them: 4- and 1-byte patterns
  // through zeCommandListAppendMemoryFill, the 12-byte one as a copied block.
  const std::vector<std::string> lines = logLines();
  auto logged = [&](const std::string &text) {
    for (const std::string &line : lines)
      if (line == text) return true;
    return false;
  };
  check("fill(int) is a 4-byte zeCommandListAppendMemoryFill", logged("fill pattern_bytes=4 bytes=4000"));
  check("memset is a 1-byte zeCommandListAppendMemoryFill", logged("fill pattern_bytes=1 bytes=4000"));
  check("a 12-byte pattern is no zeCommandListAppendMemoryFill", !logged("fill pattern_bytes=12 bytes=120"));
  check("a 12-byte pattern is copied as a filled block", logged("copy bytes=120"));

  sycl::free(device, q);
  sycl::free(host, q);
  sycl::free(shared, q);
}

void checkRangeKernel(sycl::queue &q) {
  int *out = sycl::malloc_device<int>(5 * 100, q);
  // (Not a constant: a lambda captures it.)
  const int offset = int(q.get_device().get_info<sycl::info::device::max_compute_units>()) * 1000 + 7;
  clearLog();
  q.parallel_for(sycl::range<2>(5, 100), [=](sycl::item<2> it) {
     out[it.get_linear_id()] = int(it[0] * it[1]) + offset;
   }).wait();
  const Launch launch = onlyLaunch("parallel_for(range<2>(5, 100))");
  // x (SYCL's last dimension) in groups of 64, overhanging the range.
  checkEqual("range kernel: group size", std::string("64,1,1"), launch.groupSize);
  checkEqual("range kernel: group count", std::string("2,5,1"), launch.groupCount);
  check("range kernel: an argument holds the USM pointer", passesPointer(launch, out));
  // The fields, then the range in SYCL order, then (if the module has one)
  // the local memory pointer.
  std::vector<Launch::Argument> byValue;
  for (const Launch::Argument &argument : launch.arguments)
    if (!argument.local) byValue.push_back(argument);
  const std::size_t count = byValue.size();
  if (check("range kernel: at least 4 by-value arguments (pointer, int, 2 range values)", count >= 4)) {
    bool offsetPassed = false;
    for (std::size_t i = 0; i + 2 < count; ++i)
      offsetPassed |= byValue[i].size == 4 && byValue[i].value == uint64_t(offset);
    check("range kernel: an argument holds the captured int " + std::to_string(offset), offsetPassed);
    checkEqual("range kernel: range value 0 (size)", uint64_t(8), byValue[count - 2].size);
    checkEqual("range kernel: range value 0", uint64_t(5), byValue[count - 2].value);
    checkEqual("range kernel: range value 1 (size)", uint64_t(8), byValue[count - 1].size);
    checkEqual("range kernel: range value 1", uint64_t(100), byValue[count - 1].value);
  }
  if (!launch.arguments.empty() && launch.arguments.back().local)
    check("range kernel: only the last argument is local", !launch.arguments[launch.arguments.size() - 2].local);
  sycl::free(out, q);
}

void checkNdRangeKernels(sycl::queue &q) {
  float *in = sycl::malloc_device<float>(256, q);
  float *out = sycl::malloc_shared<float>(256, q);
  clearLog();
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<float, 1> tile(64, h);
     h.parallel_for(sycl::nd_range<1>(256, 64), [=](sycl::nd_item<1> it) {
       const std::size_t l = it.get_local_id(0);
       tile[l] = in[it.get_global_id(0)];
       sycl::group_barrier(it.get_group());
       out[it.get_global_id(0)] = tile[63 - l];
     });
   }).wait();
  Launch launch = onlyLaunch("nd_range<1>(256, 64) with a local_accessor");
  checkEqual("nd_range<1>: group size", std::string("64,1,1"), launch.groupSize);
  checkEqual("nd_range<1>: group count", std::string("4,1,1"), launch.groupCount);
  check("nd_range<1>: an argument holds the input pointer", passesPointer(launch, in));
  check("nd_range<1>: an argument holds the output pointer", passesPointer(launch, out));
  if (check("nd_range<1>: has arguments", !launch.arguments.empty())) {
    const Launch::Argument &last = launch.arguments.back();
    check("nd_range<1>: the last argument is the local memory", last.local);
    check("nd_range<1>: the local memory holds the tile (" + std::to_string(last.size) + " bytes)",
          last.size >= 64 * sizeof(float) && last.size <= 65536);
    int locals = 0;
    for (const Launch::Argument &argument : launch.arguments) locals += argument.local;
    checkEqual("nd_range<1>: local memory arguments", 1, locals);
  }

  // Two dimensions: SYCL's last is x.
  clearLog();
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<int, 2> tile(sycl::range<2>(2, 16), h);
     h.parallel_for(sycl::nd_range<2>({8, 32}, {2, 16}), [=](sycl::nd_item<2> it) {
       tile[it.get_local_id(0)][it.get_local_id(1)] = int(it.get_global_linear_id());
       sycl::group_barrier(it.get_group());
       out[it.get_global_linear_id() % 256] = float(tile[1 - it.get_local_id(0)][it.get_local_id(1)]);
     });
   }).wait();
  launch = onlyLaunch("nd_range<2>({8, 32}, {2, 16})");
  checkEqual("nd_range<2>: group size", std::string("16,2,1"), launch.groupSize);
  checkEqual("nd_range<2>: group count", std::string("2,4,1"), launch.groupCount);
  check("nd_range<2>: an argument holds the output pointer", passesPointer(launch, out));
  check("nd_range<2>: the last argument is local memory of 2x16 ints",
        !launch.arguments.empty() && launch.arguments.back().local &&
            launch.arguments.back().size >= 2 * 16 * sizeof(int));

  clearLog();
  q.single_task([=] { out[0] = 42.0f; }).wait();
  launch = onlyLaunch("single_task");
  checkEqual("single_task: group size", std::string("1,1,1"), launch.groupSize);
  checkEqual("single_task: group count", std::string("1,1,1"), launch.groupCount);
  check("single_task: an argument holds the output pointer", passesPointer(launch, out));
  sycl::free(in, q);
  sycl::free(out, q);
}

// Commands run on the backend's streams: their events carry device times
// (marker timestamps), ordered as an in-order queue ran them.
void checkProfiling(const sycl::device &gpu) {
  sycl::queue q{gpu, {sycl::property::queue::enable_profiling(), sycl::property::queue::in_order()}};
  constexpr std::size_t n = 256;
  int *data = sycl::malloc_device<int>(n, q);
  std::vector<int> host(n, 0);
  std::vector<sycl::event> events;
  events.push_back(q.fill(data, 5, n));
  events.push_back(q.memcpy(host.data(), data, n * sizeof(int)));
  events.push_back(q.single_task([=] { data[0] = 1; }));
  q.wait();
  checkEqual("the fill reached the host through the stream", 5, host[n - 1]);
  uint64_t previousEnd = 0;
  int unordered = 0;
  for (const sycl::event &e : events) {
    const auto submit = e.get_profiling_info<sycl::info::event_profiling::command_submit>();
    const auto start = e.get_profiling_info<sycl::info::event_profiling::command_start>();
    const auto end = e.get_profiling_info<sycl::info::event_profiling::command_end>();
    unordered += !(submit <= start && start <= end && previousEnd <= start);
    previousEnd = end;
  }
  checkEqual("profiled commands out of order", 0, unordered);
  sycl::free(data, q);
}

void runOnFake() {
  if (!check("FAKE_ZE_LOG is set", !logPath().empty())) return;
  std::vector<sycl::device> levelZero;
  for (const sycl::device &d : sycl::device::get_devices())
    if (d.get_backend() == sycl::backend::level_zero) levelZero.push_back(d);
  if (!checkEqual("Level Zero devices", std::size_t(1), levelZero.size())) {
    std::printf("not seen: %s\n", sycl::detail::describe_absent_backends().c_str());
    return;
  }
  sycl::device gpu{sycl::gpu_selector_v};
  checkDevice(gpu);
  sycl::queue q{gpu};
  onepass_test::runPart("USM and copies", [&] { checkMemory(q); });
  onepass_test::runPart("range kernel", [&] { checkRangeKernel(q); });
  onepass_test::runPart("nd_range kernels", [&] { checkNdRangeKernels(q); });
  onepass_test::runPart("profiled commands on the streams", [&] { checkProfiling(gpu); });
}

class LimitedKernel;

// The fake's kernels take 32 work-items per group at most (one sub-group of 32).
void runKernelLimits() {
  sycl::queue q{sycl::gpu_selector_v};
  if (!checkEqual("backend", sycl::backend::level_zero, q.get_backend())) return;
  int *out = sycl::malloc_device<int>(100, q);
  auto bundle = sycl::get_kernel_bundle<LimitedKernel, sycl::bundle_state::executable>(q.get_context());
  sycl::kernel k = bundle.get_kernel<LimitedKernel>();
  checkEqual("work_group_size from zeKernelGetProperties (maxSubgroupSize x maxNumSubgroups)", std::size_t(32),
             k.get_info<sycl::info::kernel_device_specific::work_group_size>(q.get_device()));
  checkEqual("private_mem_size from zeKernelGetProperties", std::size_t(16),
             k.get_info<sycl::info::kernel_device_specific::private_mem_size>(q.get_device()));
  clearLog();
  q.submit([&](sycl::handler &h) {
     h.use_kernel_bundle(bundle);
     h.parallel_for<LimitedKernel>(sycl::range<1>(100), [=](sycl::id<1> i) { out[i] = int(i[0]); });
   }).wait();
  const Launch launch = onlyLaunch("parallel_for(range<1>(100)) of a kernel limited to 32 work-items");
  checkEqual("range kernel: group size within the kernel's limit", std::string("32,1,1"), launch.groupSize);
  checkEqual("range kernel: group count", std::string("4,1,1"), launch.groupCount);
  sycl::free(out, q);
}

void runBuildFails() {
  sycl::queue q{sycl::gpu_selector_v};
  if (!checkEqual("backend", sycl::backend::level_zero, q.get_backend())) return;
  int *out = sycl::malloc_device<int>(16, q);
  try {
    q.parallel_for(sycl::range<1>(16), [=](sycl::id<1> i) { out[i] = 1; }).wait();
    onepass_test::fail("a kernel the device cannot build", "errc::build", "no exception");
  } catch (const sycl::exception &e) {
    const std::string what = e.what();
    std::printf("the submission says: %s\n", what.c_str());
    checkEqual("error code", sycl::errc::build, static_cast<sycl::errc>(e.code().value()));
    check("the message names zeModuleCreate and its result",
          contains(what, "zeModuleCreate failed: ZE_RESULT_ERROR_MODULE_BUILD_FAILURE"));
    check("the message has the build log", contains(what, "fake Level Zero: unsupported SPIR-V version"));
    check("the message names the versions", contains(what, "the device takes SPIR-V up to 1.2"));
  }
  sycl::free(out, q);
}

// A device without double precision, half arithmetic and 64-bit atomics
// (FAKE_ZE_NO_FP64, FAKE_ZE_NO_FP16, FAKE_ZE_NO_INT64_ATOMICS): a kernel
// computing with double or half or an atomic_ref<long> is
// errc::kernel_not_supported naming the kernel, the feature and the device
// (§5.7), and runs nothing; a float kernel, and one that only copies halves
// (half as a storage format needs no aspect), are launched.
template <typename Submit>
void expectNotSupported(sycl::queue &q, const std::string &kernel, const std::string &feature, Submit &&submit) {
  try {
    submit();
    onepass_test::fail(kernel + " on a device without " + feature, "errc::kernel_not_supported", "no exception");
  } catch (const sycl::exception &e) {
    const std::string what = e.what();
    std::printf("the submission says: %s\n", what.c_str());
    checkEqual("error code", sycl::errc::kernel_not_supported, static_cast<sycl::errc>(e.code().value()));
    check("the message names the kernel", contains(what, kernel));
    check("the message names the feature", contains(what, feature));
    check("the message names the device", contains(what, q.get_device().get_info<sycl::info::device::name>()));
  }
}

void runWithoutOptionalAspects() {
  sycl::queue q{sycl::gpu_selector_v};
  if (!checkEqual("backend", sycl::backend::level_zero, q.get_backend())) return;
  check("no aspect::fp64", !q.get_device().has(sycl::aspect::fp64));
  check("no aspect::atomic64", !q.get_device().has(sycl::aspect::atomic64));
  check("no aspect::fp16", !q.get_device().has(sycl::aspect::fp16));
  double *values = sycl::malloc_shared<double>(16, q);
  long *counter = sycl::malloc_shared<long>(1, q);
  float *floats = sycl::malloc_shared<float>(16, q);
  std::fill(values, values + 16, 1.0);
  *counter = 5;
  expectNotSupported(q, "DoublesOnLevelZero", "double precision", [&] {
    q.parallel_for<class DoublesOnLevelZero>(sycl::range<1>(16), [=](sycl::id<1> i) {
       values[i] = values[i] * 0.5;
     }).wait();
  });
  expectNotSupported(q, "LongAtomicsOnLevelZero", "atomic operations on 64-bit values", [&] {
    q.parallel_for<class LongAtomicsOnLevelZero>(sycl::range<1>(16), [=](sycl::id<1>) {
       sycl::atomic_ref<long, sycl::memory_order::relaxed, sycl::memory_scope::device> c(*counter);
       c.fetch_add(1);
     }).wait();
  });
  sycl::half *halves = sycl::malloc_shared<sycl::half>(32, q);
  std::fill(halves, halves + 32, sycl::half(1.5f));
  expectNotSupported(q, "HalvesOnLevelZero", "half precision arithmetic", [&] {
    q.parallel_for<class HalvesOnLevelZero>(sycl::range<1>(16), [=](sycl::id<1> i) {
       halves[i] = halves[i] * halves[i + 16];
     }).wait();
  });
  onepass_test::checkNoThrow("a kernel copying halves is built and launched", [&] {
    q.parallel_for(sycl::range<1>(16), [=](sycl::id<1> i) { halves[i + 16] = halves[i]; }).wait();
  });
  checkEqual("the rejected kernels ran nothing", 1.0, values[3]);
  checkEqual("the rejected kernels ran nothing (counter)", 5L, *counter);
  // (The fake driver checks and logs launches but runs no SPIR-V.)
  onepass_test::checkNoThrow("a float kernel is built and launched", [&] {
    q.parallel_for(sycl::range<1>(16), [=](sycl::id<1> i) { floats[i] = float(i[0]) * 0.5f; }).wait();
  });
  sycl::free(values, q);
  sycl::free(counter, q);
  sycl::free(floats, q);
  sycl::free(halves, q);
}

// Returns 77 (skipped) if a real Level Zero device is there after all.
int runWithoutDevice(const std::string &reason) {
  for (const sycl::device &d : sycl::device::get_devices())
    if (d.get_backend() == sycl::backend::level_zero) {
      std::printf("SKIPPED: a Level Zero device is present (%s)\n", d.get_info<sycl::info::device::name>().c_str());
      return 77;
    }
  try {
    sycl::device gpu{sycl::gpu_selector_v};
    onepass_test::fail("the GPU selector", "no device", gpu.get_info<sycl::info::device::name>());
  } catch (const sycl::exception &e) {
    const std::string what = e.what();
    std::printf("the GPU selector says: %s\n", what.c_str());
    checkEqual("error code", sycl::errc::runtime, static_cast<sycl::errc>(e.code().value()));
    check("the message says why Level Zero is absent ('Level Zero: ...')", contains(what, "Level Zero: "));
    check("the message contains '" + reason + "'", contains(what, reason));
  }
  return onepass_test::report();
}

}  // namespace

int main(int argc, char **argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "fake") runOnFake();
  else if (mode == "kernel-limits") runKernelLimits();
  else if (mode == "build-fails") runBuildFails();
  else if (mode == "missing-aspects") runWithoutOptionalAspects();
  else if (mode == "no-device" && argc > 2) return runWithoutDevice(argv[2]);
  else {
    std::fprintf(stderr, "usage: %s fake | kernel-limits | build-fails | missing-aspects | no-device <reason text>\n",
                 argv[0]);
    return 2;
  }
  return onepass_test::report();
}
