// The Level Zero backend plugin through its C table, as the runtime calls it,
// against the fake loader (FakeLevelZero.cpp) with FAKE_ZE_DEVICES=2: what
// the SYCL program level_zero_backend.cpp cannot reach: several devices and
// their cache identities, alignments, fills with patterns Level Zero does not
// take, and the errors of module building, kernel creation, arguments and
// group sizes, each naming the Level Zero call and its result.
// Usage: level_zero_plugin <path of libonepass-backend-level_zero.so>
#include "onepass/jit/jit_api.h"
#include "plugin_check.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

using plugin_check::check;
using plugin_check::failures;
using plugin_check::take;

// The loaded kernel, kept as the runtime keeps it (for the process's life).
void *kernel = nullptr;

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

uint64_t steadyNanoseconds() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

// Checks that a call failed with a message containing each of `parts`.
void checkError(const std::string &what, int status, char *&error, const std::vector<std::string> &parts) {
  const std::string message = take(error);
  if (!check(what + " fails", status != 0)) return;
  std::printf("%s: %s\n", what.c_str(), message.c_str());
  for (const std::string &part : parts)
    check(what + ": the message names '" + part + "': " + message, contains(message, part));
}

// A SPIR-V module (SPIR-V 1.0 §2.3) with one OpenCL kernel `name` whose
// parameters are an i64, an i32, an i64 (a range kernel's range) and a
// `local` pointer: what the JIT makes of a 1-D range kernel with local memory.
std::vector<uint32_t> kernelModule(const std::string &name) {
  std::vector<uint32_t> words = {0x07230203u, 0x00010000u, 0, 20, 0};
  auto op = [&](uint32_t opcode, std::vector<uint32_t> operands) {
    words.push_back(uint32_t(operands.size() + 1) << 16 | opcode);
    words.insert(words.end(), operands.begin(), operands.end());
  };
  op(17, {4});                           // OpCapability Addresses
  op(17, {6});                           // OpCapability Kernel
  op(17, {11});                          // OpCapability Int64
  op(14, {2, 2});                        // OpMemoryModel Physical64 OpenCL
  std::vector<uint32_t> entry = {6, 6};  // Kernel, %6
  std::vector<uint32_t> text((name.size() + 4) / 4, 0);
  std::memcpy(text.data(), name.c_str(), name.size());
  entry.insert(entry.end(), text.begin(), text.end());
  op(15, entry);               // OpEntryPoint
  op(19, {1});                 // %1 = OpTypeVoid
  op(21, {2, 64, 0});          // %2 = OpTypeInt 64
  op(21, {3, 32, 0});          // %3 = OpTypeInt 32
  op(32, {4, 4, 3});           // %4 = OpTypePointer Workgroup %3
  op(33, {5, 1, 2, 3, 2, 4});  // %5 = OpTypeFunction %1 %2 %3 %2 %4
  op(54, {1, 6, 0, 5});        // %6 = OpFunction %1 None %5
  op(55, {2, 7});              // OpFunctionParameter
  op(55, {3, 8});
  op(55, {2, 9});
  op(55, {4, 10});
  op(248, {11});  // OpLabel
  op(253, {});    // OpReturn
  op(56, {});     // OpFunctionEnd
  return words;
}

std::string lastLogLine() {
  const char *path = std::getenv("FAKE_ZE_LOG");
  std::ifstream file(path ? path : "");
  std::string line, last;
  while (std::getline(file, line)) last = line;
  return last;
}

// How many lines of the fake's log start with `prefix`.
int logLinesStarting(const std::string &prefix) {
  const char *path = std::getenv("FAKE_ZE_LOG");
  std::ifstream file(path ? path : "");
  std::string line;
  int count = 0;
  while (std::getline(file, line)) count += line.rfind(prefix, 0) == 0;
  return count;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <libonepass-backend-level_zero.so>\n", argv[0]);
    return 2;
  }
  const onepass_backend *b = plugin_check::loadBackend(argv[1]);
  if (!b) return 1;
  char *error = nullptr;
  check("name", std::string(b->name) == "level_zero");
  if (!check("two devices (FAKE_ZE_DEVICES=2)", b->device_count() == 2)) return 1;

  onepass_backend_device_info info[2];
  onepass_backend_target target[2];
  for (uint32_t d = 0; d < 2; ++d) {
    check("device_info", b->device_info(d, &info[d], &error) == 0);
    check("device_target", b->device_target(d, &target[d], &error) == 0);
    check("device " + std::to_string(d) + " name",
          std::string(info[d].name) == "OnePass fake Level Zero GPU " + std::to_string(d));
    check("a GPU", info[d].device_type == ONEPASS_DEVICE_GPU);
    check("SPIR-V target", target[d].jit_target == ONEPASS_JIT_TARGET_SPIRV);
    const std::string identity = target[d].identity;
    std::printf("device %u identity: %s\n", d, identity.c_str());
    check("the identity names the driver version", contains(identity, "driver 12345"));
    check("the identity names the device", contains(identity, info[d].name));
  }
  check("the two devices' identities differ", std::string(target[0].identity) != target[1].identity);
  checkError("device_info of device 2", b->device_info(2, &info[0], &error), error, {"no Level Zero device 2"});

  // USM: alignment honoured, a non-power-of-two refused.
  for (uint32_t kind : {ONEPASS_USM_HOST, ONEPASS_USM_DEVICE, ONEPASS_USM_SHARED}) {
    void *p = b->allocate(1, 1000, 4096, kind);
    check("allocation of kind " + std::to_string(kind) + " aligned to 4096",
          p && reinterpret_cast<uintptr_t>(p) % 4096 == 0);
    b->deallocate(1, p, kind);
  }
  check("alignment 3 is refused", b->allocate(0, 64, 3, ONEPASS_USM_DEVICE) == nullptr);
  check("more than the fake's 1 GiB is refused", b->allocate(0, uint64_t(2) << 30, 0, ONEPASS_USM_DEVICE) == nullptr);

  // Fills with patterns zeCommandListAppendMemoryFill does not take (3 bytes,
  // 256 bytes) are copied blocks.
  auto *memory = static_cast<unsigned char *>(b->allocate(0, 4096, 0, ONEPASS_USM_DEVICE));
  const unsigned char three[3] = {1, 2, 3};
  check("fill with a 3-byte pattern", b->fill(0, memory, three, 3, 100, &error) == 0);
  bool ok = true;
  for (int i = 0; i < 300; ++i) ok &= memory[i] == three[i % 3];
  check("the 3-byte pattern is in memory", ok);
  check("... as a copy", lastLogLine() == "copy bytes=300");
  std::vector<unsigned char> big(256);
  for (int i = 0; i < 256; ++i) big[i] = static_cast<unsigned char>(255 - i);
  check("fill with a 256-byte pattern", b->fill(0, memory, big.data(), 256, 16, &error) == 0);
  ok = true;
  for (int i = 0; i < 4096; ++i) ok &= memory[i] == big[i % 256];
  check("the 256-byte pattern is in memory", ok);
  check("... as a copy", lastLogLine() == "copy bytes=4096");
  const uint64_t eight = 0x0102030405060708ull;
  check("fill with an 8-byte pattern", b->fill(0, memory, &eight, 8, 512, &error) == 0);
  check("... through zeCommandListAppendMemoryFill", lastLogLine() == "fill pattern_bytes=8 bytes=4096");
  uint64_t readBack[512];
  check("copy", b->copy(0, readBack, memory, sizeof readBack, &error) == 0);
  ok = true;
  for (uint64_t value : readBack) ok &= value == eight;
  check("the 8-byte pattern is in memory", ok);

  // Kernels: building, creating, arguments and group sizes.
  const char garbage[] = "this is not SPIR-V at all";  // (24 bytes of it: whole words)
  checkError("load_kernel of a non-SPIR-V binary", b->load_kernel(0, garbage, 24, &kernel, &error), error,
             {"zeModuleCreate", "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE", "bad magic"});
  std::vector<uint32_t> newer = kernelModule("__onepass_spirv_kernel");
  newer[1] = 0x00010600;  // SPIR-V 1.6; the fake takes up to 1.4
  checkError("load_kernel of SPIR-V 1.6", b->load_kernel(0, newer.data(), newer.size() * 4, &kernel, &error), error,
             {"zeModuleCreate", "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE", "unsupported SPIR-V version",
              "(the kernel is SPIR-V 1.6, the device takes SPIR-V up to 1.4)"});
  std::vector<uint32_t> other = kernelModule("some_other_kernel");
  checkError("load_kernel of a module without the entry",
             b->load_kernel(0, other.data(), other.size() * 4, &kernel, &error), error,
             {"zeKernelCreate", "__onepass_spirv_kernel", "ZE_RESULT_ERROR_INVALID_KERNEL_NAME"});
  std::vector<uint32_t> module = kernelModule("__onepass_spirv_kernel");
  if (!check("load_kernel: " + take(error), b->load_kernel(0, module.data(), module.size() * 4, &kernel, &error) == 0))
    return 1;
  onepass_kernel_limits limits{};
  check("kernel_limits", b->kernel_limits(0, kernel, &limits, &error) == 0);
  check("kernel limit: 32 sub-groups of 32", limits.max_work_group_size == 1024);

  struct Fields {
    uint64_t pointer;
    int32_t value;
  } fields{reinterpret_cast<uintptr_t>(memory), -5};
  const uint32_t offsets[2] = {0, 8}, sizes[2] = {8, 4};
  onepass_backend_launch launch{};
  launch.kernel = kernel;
  launch.object = &fields;
  launch.object_size = sizeof fields;
  launch.field_offsets = offsets;
  launch.field_sizes = sizes;
  launch.field_count = 2;
  launch.dimensions = 1;
  launch.global_range[0] = 1000;
  check("launch of a range kernel: " + take(error), b->launch(0, &launch, &error) == 0);
  const std::string line = lastLogLine();
  std::printf("logged: %s\n", line.c_str());
  char expected[256];
  std::snprintf(expected, sizeof expected,
                "launch kernel=__onepass_spirv_kernel group_size=64,1,1 group_count=16,1,1 args=4 arg0=8:0x%016llx "
                "arg1=4:0xfffffffb arg2=8:0x00000000000003e8 arg3=local:1",
                static_cast<unsigned long long>(fields.pointer));
  check(std::string("the launch as Level Zero saw it: ") + expected, line == expected);

  const uint32_t wrongSizes[2] = {8, 8};
  launch.field_sizes = wrongSizes;
  checkError("a field of the wrong size", b->launch(0, &launch, &error), error,
             {"zeKernelSetArgumentValue(1)", "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE"});
  launch.field_sizes = sizes;
  launch.local_range[0] = 2000;  // an nd_range launch: no range argument, and too large a group
  launch.global_range[0] = 4000;
  checkError("an nd_range launch of a range kernel", b->launch(0, &launch, &error), error,
             {"zeKernelSetArgumentValue(2)"});
  launch.field_count = 3;  // (the range as a third field, so the arguments match)
  const uint64_t withRange[3] = {fields.pointer, uint64_t(uint32_t(fields.value)), 4000};
  const uint32_t rangeOffsets[3] = {0, 8, 16}, rangeSizes[3] = {8, 4, 8};
  launch.object = withRange;
  launch.field_offsets = rangeOffsets;
  launch.field_sizes = rangeSizes;
  checkError("a work-group of 2000", b->launch(0, &launch, &error), error,
             {"zeKernelSetGroupSize(2000, 1, 1)", "ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION"});
  launch.local_range[0] = 500;
  launch.local_memory_bytes = 4096;
  check("an nd_range launch with 4096 bytes of local memory: " + take(error), b->launch(0, &launch, &error) == 0);
  check("... 8 groups of 500 and the local memory's size: " + lastLogLine(),
        contains(lastLogLine(), "group_size=500,1,1 group_count=8,1,1 args=4") &&
            contains(lastLogLine(), "arg3=local:4096"));
  launch.local_memory_bytes = 1 << 20;
  checkError("1 MiB of local memory", b->launch(0, &launch, &error), error,
             {"zeCommandListAppendLaunchKernel", "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"});

  // Streams: asynchronous command lists, markers as events, device times.
  check("4 streams", b->streams == 4);
  launch.local_memory_bytes = 4096;
  check("launch_async on stream 1: " + take(error), b->launch_async(0, 1, &launch, &error) == 0);
  check("... the launch as Level Zero saw it", contains(lastLogLine(), "group_size=500,1,1 group_count=8,1,1"));
  const uint64_t before = steadyNanoseconds();
  const uint64_t seven = 7;
  check("fill_async with an 8-byte pattern", b->fill_async(0, 1, memory, &seven, 8, 512, &error) == 0);
  check("fill_async with a 3-byte pattern (a copied block)",
        b->fill_async(0, 2, memory + 4096 - 300, three, 3, 100, &error) == 0);
  uint64_t back[512];
  check("copy_async on stream 2", b->copy_async(0, 2, back, memory, sizeof back, &error) == 0);
  void *marker = b->record_marker(0, 2, 1, &error);
  if (!check("record_marker: " + take(error), marker != nullptr)) return 1;
  check("query_marker: complete", b->query_marker(0, marker, &error) == 1);
  check("wait_marker", b->wait_marker(0, marker, &error) == 0);
  ok = true;
  for (int i = 0; i < 512 - 38; ++i) ok &= back[i] == 7;
  const auto *tail = reinterpret_cast<const unsigned char *>(back) + 4096 - 300;
  for (int i = 0; i < 300; ++i) ok &= tail[i] == three[i % 3];
  check("the streams' fills and copy happened in their order", ok);
  uint64_t at = 0;
  check("marker_time: " + take(error), b->marker_time(0, marker, &at, &error) == 0);
  const uint64_t after = steadyNanoseconds();
  // (The epoch maps device times late by its wait's latency at most.)
  check("the marker's time lies between the calls around it (" + std::to_string(before) + " <= " + std::to_string(at) +
            " <= " + std::to_string(after) + ")",
        before <= at && at <= after + 1000000);
  check("stream_wait_marker", b->stream_wait_marker(0, 3, marker, &error) == 0);
  b->release_marker(0, marker);
  // Released markers are reused: more markers than one event pool holds,
  // each waited for by another stream (the fake fails a wait for an event
  // that was reset or never signaled).
  ok = true;
  for (int round = 0; round < 3; ++round) {
    std::vector<void *> markers;
    for (int i = 0; i < 100; ++i) {
      markers.push_back(b->record_marker(0, uint32_t(i % 4), 0, &error));
      ok &= markers.back() != nullptr && b->stream_wait_marker(0, uint32_t((i + 1) % 4), markers.back(), &error) == 0;
    }
    for (void *m : markers) ok &= b->wait_marker(0, m, &error) == 0;
    for (void *m : markers) b->release_marker(0, m);
  }
  check("300 markers, recorded, waited for across streams and released: " + take(error), ok);
  // A released marker's event is reset for reuse at once if no other stream
  // waits for it; if one does, only once that wait is known to have run (a
  // later marker of that stream completed): Level Zero's waits read the
  // event when they execute, so a reset one would hold them up.
  marker = b->record_marker(0, 0, 0, &error);
  int resets = logLinesStarting("event reset");
  b->release_marker(0, marker);
  check("a marker nobody waits for is reset once released", logLinesStarting("event reset") == resets + 1);
  marker = b->record_marker(0, 0, 0, &error);
  check("a wait on stream 1", b->stream_wait_marker(0, 1, marker, &error) == 0);
  resets = logLinesStarting("event reset");
  b->release_marker(0, marker);
  check("a marker stream 1 waits for is not reset while that wait may be pending",
        logLinesStarting("event reset") == resets);
  void *later = b->record_marker(0, 1, 0, &error);
  check("a later marker of stream 1 completes", later && b->wait_marker(0, later, &error) == 0);
  b->release_marker(0, later);
  ok = true;  // the quarantined event becomes free again once the free ones are taken
  std::vector<void *> many;
  for (int i = 0; i < 200; ++i) many.push_back(b->record_marker(0, 2, 0, &error));
  for (void *m : many) ok &= m && b->wait_marker(0, m, &error) == 0;
  for (void *m : many) b->release_marker(0, m);
  check("200 more markers after the quarantine", ok);
  checkError("a stream past the last", b->copy_async(0, 4, back, memory, 8, &error), error,
             {"no Level Zero device 0 stream 4"});
  // A lost device: markers say so.
  marker = b->record_marker(0, 0, 0, &error);
  setenv("FAKE_ZE_DEVICE_LOST", "1", 1);
  check("query_marker of a lost device: -1", b->query_marker(0, marker, &error) == -1);
  check("... saying why: " + std::string(error ? error : ""), contains(take(error), "ZE_RESULT_ERROR_DEVICE_LOST"));
  checkError("wait_marker of a lost device", b->wait_marker(0, marker, &error), error,
             {"OnePass fake Level Zero GPU 0", "ZE_RESULT_ERROR_DEVICE_LOST"});
  unsetenv("FAKE_ZE_DEVICE_LOST");
  b->release_marker(0, marker);

  b->deallocate(0, memory, ONEPASS_USM_DEVICE);
  if (failures) {
    std::printf("FAILED: %d check(s) failed\n", failures);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
