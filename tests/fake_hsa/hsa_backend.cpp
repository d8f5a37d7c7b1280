// The HSA backend (runtime/backends/hsa) against the fake HSA runtime
// (FakeHsa.cpp), which runs no kernel code but records every dispatch in
// FAKE_HSA_LOG: the program checks what the backend asked the "GPU" to do.
//   hsa_backend fake       the fake's one agent (FAKE_HSA_GFX, default gfx90a):
//                          the device, USM of the three kinds, copies and
//                          fills, a range kernel, an nd_range kernel with a
//                          local accessor and a single_task, and the dispatch
//                          packets and kernarg segments they made
//   hsa_backend streams    kernels on the runtime's streams: held by the fake,
//                          ordered across streams, profiled; frees wait
//   hsa_backend fault      the first dispatch faults (FAKE_HSA_FAULT_DISPATCH=1):
//                          an asynchronous errc::kernel naming HSA's status
//   hsa_backend no-agents  the fake with FAKE_HSA_AGENTS=0: no device, and
//                          the error says why
//   hsa_backend real       the system's HSA runtime without a GPU: no
//                          device, with a reason (exit 77, SKIPPED, where no
//                          runtime is installed or a real GPU is present)
#include "check.h"

#include <sycl/sycl.hpp>

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using onepass_test::check;
using onepass_test::checkEqual;

namespace {

// One line of FAKE_HSA_LOG: "dispatch workgroup=X,Y,Z grid=X,Y,Z group=N
// private=N kernarg=<hex bytes>".
struct Dispatch {
  uint64_t workgroup[3] = {0, 0, 0};
  uint64_t grid[3] = {0, 0, 0};
  uint64_t groupBytes = 0;
  std::vector<unsigned char> kernarg;

  uint64_t read(size_t offset, size_t size) const {
    uint64_t value = 0;
    if (offset + size <= kernarg.size()) std::memcpy(&value, kernarg.data() + offset, size);
    return value;
  }
};

std::vector<Dispatch> readLog(const char *path) {
  std::vector<Dispatch> result;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    Dispatch d;
    char hex[8192] = "";
    unsigned long long w[3], g[3], group, priv;
    if (std::sscanf(line.c_str(),
                    "dispatch workgroup=%llu,%llu,%llu grid=%llu,%llu,%llu group=%llu private=%llu kernarg=%8191s",
                    &w[0], &w[1], &w[2], &g[0], &g[1], &g[2], &group, &priv, hex) != 9) {
      check("log line '" + line + "' has the expected form", false);
      continue;
    }
    for (int i = 0; i < 3; ++i) {
      d.workgroup[i] = w[i];
      d.grid[i] = g[i];
    }
    d.groupBytes = group;
    for (size_t i = 0; hex[i] && hex[i + 1]; i += 2) {
      unsigned byte = 0;
      std::sscanf(hex + i, "%2x", &byte);
      d.kernarg.push_back(static_cast<unsigned char>(byte));
    }
    result.push_back(std::move(d));
  }
  return result;
}

// The first HSA device; with none, fails with the reason the runtime gives.
sycl::device hipDevice() {
  for (const sycl::device &d : sycl::device::get_devices())
    if (d.get_backend() == sycl::backend::hip) return d;
  std::string why = "no exception";
  try {
    sycl::device any(sycl::gpu_selector_v);
  } catch (const sycl::exception &e) {
    why = e.what();
  }
  throw std::runtime_error("no HSA device: " + why);
}

// Copies `bytes` in and out of a USM allocation of each kind, fills it and
// checks every byte that comes back.
void checkUsm(sycl::queue &q, sycl::usm::alloc kind) {
  const std::string what = std::string("USM ") + onepass_test::enumName(kind);
  constexpr size_t count = 1000;
  int *p = sycl::malloc<int>(count, q, kind);
  if (!check(what + " allocation succeeded", p != nullptr)) return;
  checkEqual(what + " get_pointer_type", kind, sycl::get_pointer_type(p, q.get_context()));
  std::vector<int> in(count), out(count, -1);
  for (size_t i = 0; i < count; ++i) in[i] = static_cast<int>(i * 7 + 3);
  q.memcpy(p, in.data(), count * sizeof(int)).wait();
  q.memcpy(out.data(), p, count * sizeof(int)).wait();
  check(what + " memcpy round trip", in == out);
  q.memset(p, 0xAB, count * sizeof(int)).wait();
  q.memcpy(out.data(), p, count * sizeof(int)).wait();
  size_t wrong = 0;
  for (int v : out) wrong += static_cast<uint32_t>(v) != 0xABABABABu;
  checkEqual(what + " memset: words not 0xABABABAB", size_t(0), wrong);
  q.fill(p, 0x12345678, count / 2).wait();
  q.memcpy(out.data(), p, count * sizeof(int)).wait();
  wrong = 0;
  for (size_t i = 0; i < count; ++i)
    wrong += static_cast<uint32_t>(out[i]) != (i < count / 2 ? 0x12345678u : 0xABABABABu);
  checkEqual(what + " fill: words wrong", size_t(0), wrong);
  // A 3-byte pattern (no HSA fill takes it).
  struct Rgb {
    unsigned char r, g, b;
  };
  auto *bytes = reinterpret_cast<Rgb *>(p);
  q.fill(bytes, Rgb{1, 2, 3}, 11).wait();
  unsigned char back[40];
  q.memcpy(back, p, sizeof back).wait();
  wrong = 0;
  for (size_t i = 0; i < 33; ++i) wrong += back[i] != i % 3 + 1;
  checkEqual(what + " 3-byte fill: bytes wrong", size_t(0), wrong);
  // Byte 33 is byte 1 of word 8, which the 0x12345678 fill wrote.
  checkEqual(what + " byte after the 3-byte fill", 0x56, int(back[33]));
  sycl::free(p, q);
}

int runFake() {
  const char *logPath = std::getenv("FAKE_HSA_LOG");
  if (!check("FAKE_HSA_LOG is set", logPath && *logPath)) return onepass_test::report();
  sycl::device device = hipDevice();
  checkEqual("backend", sycl::backend::hip, device.get_backend());
  check("device is a GPU", device.is_gpu());
  const char *chosen = std::getenv("FAKE_HSA_GFX");
  const std::string gfx = chosen && *chosen ? chosen : "gfx90a";
  const std::string name = device.get_info<sycl::info::device::name>();
  check("device name '" + name + "' names " + gfx, name.find(gfx) != std::string::npos);
  // The JIT's sub-groups are wavefronts: 64 lanes before gfx10, 32 from it.
  const size_t wave = gfx.size() >= 7 && gfx[3] == '1' ? 32 : 64;
  checkEqual("sub-group size of " + gfx, wave, device.get_info<sycl::info::device::sub_group_sizes>().front());
  check("fp64 on " + gfx, device.has(sycl::aspect::fp64));
  checkEqual("local memory (the fake's 64 KiB of LDS)", uint64_t(64 * 1024),
             uint64_t(device.get_info<sycl::info::device::local_mem_size>()));
  sycl::queue q(device);
  checkUsm(q, sycl::usm::alloc::device);
  checkUsm(q, sycl::usm::alloc::host);
  checkUsm(q, sycl::usm::alloc::shared);

  // A range kernel: its fields, then the range (one u64 per dimension).
  constexpr size_t rows = 3, columns = 1000;
  int *data = sycl::malloc_device<int>(rows * columns, q);
  int scale = 0x5eed;
  q.parallel_for(sycl::range<2>(rows, columns), [data, scale](sycl::item<2> it) {
     data[it.get_linear_id()] = scale * static_cast<int>(it.get_id(1));
   }).wait();

  // An nd_range kernel with a local accessor of 64 ints.
  float *out = sycl::malloc_shared<float>(8 * 64, q);
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<float, 1> scratch(sycl::range<1>(64), h);
     h.parallel_for(sycl::nd_range<2>({8, 64}, {2, 32}), [=](sycl::nd_item<2> it) {
       scratch[it.get_local_linear_id()] = static_cast<float>(it.get_global_linear_id());
       sycl::group_barrier(it.get_group());
       out[it.get_global_linear_id()] = scratch[63 - it.get_local_linear_id()];
     });
   }).wait();

  // A single_task: its fields only, one work-item.
  q.single_task([data, scale] { data[0] = scale; }).wait();

  const std::vector<Dispatch> log = readLog(logPath);
  if (checkEqual("dispatches in " + std::string(logPath), size_t(3), log.size())) {
    const Dispatch &range = log[0];
    // SYCL's last dimension is the grid's x.
    check("range kernel: grid x covers the range's last dimension, in whole work-groups",
          range.grid[0] >= columns && range.grid[0] % range.workgroup[0] == 0 &&
              range.grid[0] - columns < range.workgroup[0]);
    checkEqual("range kernel: grid y", uint64_t(rows), range.grid[1]);
    checkEqual("range kernel: grid z", uint64_t(1), range.grid[2]);
    check("range kernel: work-group of at most 1024 work-items",
          range.workgroup[0] * range.workgroup[1] * range.workgroup[2] <= 1024 && range.workgroup[0] > 0);
    // The kernarg segment: the pointer at 0, the int at 8, the range's two
    // u64 at 16 and 24 (each at its own alignment).
    check("range kernel: kernarg segment of at least 32 bytes", range.kernarg.size() >= 32);
    checkEqual("range kernel: kernarg[0..8) is the USM pointer", reinterpret_cast<uint64_t>(data), range.read(0, 8));
    checkEqual("range kernel: kernarg[8..12) is the captured int", uint64_t(scale), range.read(8, 4));
    checkEqual("range kernel: kernarg[16..24) is range[0]", uint64_t(rows), range.read(16, 8));
    checkEqual("range kernel: kernarg[24..32) is range[1]", uint64_t(columns), range.read(24, 8));

    const Dispatch &nd = log[1];
    checkEqual("nd_range kernel: work-group x (SYCL's dimension 1)", uint64_t(32), nd.workgroup[0]);
    checkEqual("nd_range kernel: work-group y (SYCL's dimension 0)", uint64_t(2), nd.workgroup[1]);
    checkEqual("nd_range kernel: work-group z", uint64_t(1), nd.workgroup[2]);
    checkEqual("nd_range kernel: grid x", uint64_t(64), nd.grid[0]);
    checkEqual("nd_range kernel: grid y", uint64_t(8), nd.grid[1]);
    checkEqual("nd_range kernel: grid z", uint64_t(1), nd.grid[2]);
    check("nd_range kernel: group segment of " + std::to_string(nd.groupBytes) +
              " bytes holds the local accessor's 256",
          nd.groupBytes >= 64 * sizeof(float));
    // The USM pointer is one of the fields, at an 8-byte-aligned offset.
    bool found = false;
    for (size_t offset = 0; offset + 8 <= nd.kernarg.size(); offset += 8)
      found = found || nd.read(offset, 8) == reinterpret_cast<uint64_t>(out);
    check("nd_range kernel: kernarg holds the USM pointer", found);

    const Dispatch &single = log[2];
    for (int axis = 0; axis < 3; ++axis) {
      checkEqual("single_task: work-group axis " + std::to_string(axis), uint64_t(1), single.workgroup[axis]);
      checkEqual("single_task: grid axis " + std::to_string(axis), uint64_t(1), single.grid[axis]);
    }
    checkEqual("single_task: kernarg segment (a pointer and an int, no range)", size_t(12), single.kernarg.size());
    checkEqual("single_task: kernarg[0..8) is the USM pointer", reinterpret_cast<uint64_t>(data), single.read(0, 8));
    checkEqual("single_task: kernarg[8..12) is the captured int", uint64_t(scale), single.read(8, 4));
  }
  sycl::free(data, q);
  sycl::free(out, q);
  return onepass_test::report();
}

// A kernel that faults on the device: an asynchronous errc::kernel whose
// message carries HSA's status; the queue takes no more kernels after it.
int runFault() {
  int errors = 0;
  std::string messages;
  sycl::queue q{hipDevice(), [&](sycl::exception_list list) {
                  for (const std::exception_ptr &error : list) {
                    try {
                      std::rethrow_exception(error);
                    } catch (const sycl::exception &e) {
                      ++errors;
                      messages += std::string(e.what()) + "\n";
                      checkEqual("asynchronous error code", sycl::errc::kernel,
                                 static_cast<sycl::errc>(e.code().value()));
                    }
                  }
                }};
  int *data = sycl::malloc_device<int>(1, q);
  q.single_task([data] { *data = 1; });
  q.wait_and_throw();
  checkEqual("asynchronous errors delivered", 1, errors);
  check("the error names HSA's status: " + messages,
        messages.find("HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION") != std::string::npos);
  q.single_task([data] { *data = 2; });
  q.wait_and_throw();
  checkEqual("a kernel after the fault fails too", 2, errors);
  sycl::free(data, q);
  return onepass_test::report();
}

// No HSA device, and the error of asking for a GPU names the HSA backend and
// `reason`.
int runAbsent(const std::string &reason) {
  for (const sycl::device &d : sycl::device::get_devices())
    check("no HSA device ('" + d.get_info<sycl::info::device::name>() + "')", d.get_backend() != sycl::backend::hip);
  std::string message;
  try {
    sycl::device device(sycl::gpu_selector_v);
    check("asking for a GPU fails (got '" + device.get_info<sycl::info::device::name>() + "')", false);
  } catch (const sycl::exception &e) {
    message = e.what();
  }
  std::printf("the error: %s\n", message.c_str());
  const size_t hsa = message.find("HSA: ");
  if (check("the error says why HSA has no device", hsa != std::string::npos) && !reason.empty())
    check("the HSA reason contains '" + reason + "'", message.find(reason, hsa) != std::string::npos);
  return onepass_test::report();
}

int runReal() {
  void *runtime = dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!runtime) {
    std::printf("SKIPPED: no HSA runtime installed (%s)\n", dlerror());
    return 77;
  }
  for (const sycl::device &d : sycl::device::get_devices())
    if (d.get_backend() == sycl::backend::hip) {
      std::printf("SKIPPED: a real AMD GPU is present (%s); this test checks the absence of one\n",
                  d.get_info<sycl::info::device::name>().c_str());
      return 77;
    }
  return runAbsent("");
}

// The streams (HsaStreams.cpp): with the fake's packet processor held (a
// busy GPU), submitted kernels stay incomplete; a kernel that depends on one
// on another stream waits behind a barrier packet for its marker, so every
// dependent kernel's dispatch comes after its dependency's, whichever queue
// the processor looks at first; and frees wait for the streams.
int runStreams() {
  sycl::queue q(hipDevice(), sycl::property::queue::enable_profiling{});
  // (The backend has loaded the runtime by now.)
  void *runtime = dlopen("libhsa-runtime64.so.1", RTLD_NOW | RTLD_NOLOAD);
  using HoldFunction = void (*)(int);
  auto hold = reinterpret_cast<HoldFunction>(runtime ? dlsym(runtime, "fake_hsa_hold") : nullptr);
  if (!check("the fake HSA runtime's fake_hsa_hold is there", hold != nullptr)) return onepass_test::report();
  const char *logPath = std::getenv("FAKE_HSA_LOG");
  if (!check("FAKE_HSA_LOG is set", logPath != nullptr)) return onepass_test::report();
  int *data = sycl::malloc_device<int>(1 << 16, q);
  const size_t before = readLog(logPath).size();

  hold(1);
  // Rounds of two independent kernels (4096 and 2048 work-items: the log
  // tells them apart) and a third of 64 that depends on both: the runtime
  // puts the first two on different streams, and the third on one of them
  // behind a barrier packet that waits for the other's marker.
  constexpr int rounds = 8;
  std::vector<sycl::event> all, seconds;
  for (int i = 0; i < rounds; ++i) {
    sycl::event a = q.parallel_for(sycl::range<1>(4096), [=](sycl::id<1> x) { data[x] = 1; });
    sycl::event b = q.parallel_for(sycl::range<1>(2048), [=](sycl::id<1> x) { data[4096 + x] = 2; });
    sycl::event c = q.submit([&](sycl::handler &h) {
      h.depends_on({a, b});
      h.parallel_for(sycl::range<1>(64), [=](sycl::id<1> x) { data[x] += data[4096 + x]; });
    });
    all.insert(all.end(), {a, b, c});
    seconds.push_back(c);
  }
  auto status = [](const sycl::event &e) { return e.get_info<sycl::info::event::command_execution_status>(); };
  int incomplete = 0;
  for (const sycl::event &e : all) incomplete += status(e) != sycl::info::event_command_status::complete;
  checkEqual("kernels incomplete while the GPU is held", 3 * rounds, incomplete);
  checkEqual("no dispatch while held", before, readLog(logPath).size());
  hold(0);
  q.wait_and_throw();
  const std::vector<Dispatch> log = readLog(logPath);
  checkEqual("dispatches after the hold", before + 3 * rounds, log.size());
  // Every 64-item dispatch follows both kernels it depends on: at any point,
  // no more of them than of either other kind.
  int first = 0, second = 0, third = 0, early = 0;
  for (size_t i = before; i < log.size(); ++i) {
    if (log[i].grid[0] == 4096) ++first;
    else if (log[i].grid[0] == 2048) ++second;
    else if (log[i].grid[0] == 64 && (++third > first || third > second)) ++early;
  }
  checkEqual("dependent kernels dispatched before a dependency", 0, early);
  for (const sycl::event &e : seconds) {
    const auto submitted = e.get_profiling_info<sycl::info::event_profiling::command_submit>();
    const auto start = e.get_profiling_info<sycl::info::event_profiling::command_start>();
    const auto end = e.get_profiling_info<sycl::info::event_profiling::command_end>();
    check("profiling: submit <= start <= end", submitted <= start && start <= end);
  }
  // A free waits for the streams: held again, a kernel is in flight.
  hold(1);
  q.parallel_for(sycl::range<1>(128), [=](sycl::id<1> x) { data[x] = 3; });
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    hold(0);
  });
  sycl::free(data, q);
  checkEqual("the kernel before the free was dispatched", before + 3 * rounds + 1, readLog(logPath).size());
  release.join();
  return onepass_test::report();
}

}  // namespace

int main(int argc, char **argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "fake") return runFake();
    if (mode == "fault") return runFault();
    if (mode == "streams") return runStreams();
  } catch (const std::exception &e) {
    std::printf("FAILED: %s\n", e.what());
    return 1;
  }
  if (mode == "no-agents") return runAbsent("no GPU agent");
  if (mode == "real") return runReal();
  std::fprintf(stderr, "usage: %s fake|fault|streams|no-agents|real\n", argv[0]);
  return 2;
}
