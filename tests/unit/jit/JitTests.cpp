// Unit tests of stage 2 on the CPU: compile kernels from an image made by
// onepass++ (the build extracts its .onepass.images section), load them and
// run their launch functions on hand-built argument blobs.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "KernelImage.h"
#include "onepass/jit/jit_api.h"

#include <dlfcn.h>
#include <signal.h>

#include <thread>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

struct Jit {
  decltype(&onepass_jit_compile) compile = nullptr;
  decltype(&onepass_jit_load_cpu) load = nullptr;
  decltype(&onepass_jit_free) release = nullptr;
};

const Jit &jit() {
  static Jit api = [] {
    Jit j;
    void *handle = dlopen(ONEPASS_TEST_JIT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!handle) FAIL("cannot dlopen " << ONEPASS_TEST_JIT_LIBRARY << ": " << dlerror());
    j.compile = reinterpret_cast<decltype(j.compile)>(dlsym(handle, "onepass_jit_compile"));
    j.load = reinterpret_cast<decltype(j.load)>(dlsym(handle, "onepass_jit_load_cpu"));
    j.release = reinterpret_cast<decltype(j.release)>(dlsym(handle, "onepass_jit_free"));
    return j;
  }();
  return api;
}

const std::vector<uint8_t> &imageBytes() {
  static std::vector<uint8_t> bytes = [] {
    std::ifstream in(ONEPASS_TEST_IMAGE, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
  }();
  return bytes;
}

// The test image, parsed (a failure fails the test case).
onepass::image::ImageView parsedImage() {
  onepass::image::ImageView image;
  std::string error;
  const bool parsed = image.parse(imageBytes().data(), imageBytes().size(), true, error);
  INFO(error);
  REQUIRE(parsed);
  return image;
}

const onepass::image::KernelView &kernelNamed(const onepass::image::ImageView &image, const std::string &name) {
  for (const auto &k : image.kernels())
    if (k.displayName == name) return k;
  FAIL("no kernel named " << name);
  return image.kernels().front();
}

// Compiles and loads a kernel; returns nullptr and sets `error` on failure.
onepass_cpu_kernel_fn build(const std::vector<uint8_t> &image, const std::string &symbol, std::string &error,
                            const std::vector<onepass_jit_constant> &constants = {}) {
  onepass_jit_request request{
      image.data(), image.size(), symbol.c_str(), constants.data(), static_cast<uint32_t>(constants.size()), {},
      nullptr, 0};
  const onepass_jit_target host{ONEPASS_JIT_TARGET_HOST, 0, 0, nullptr, nullptr};
  onepass_jit_buffer object{};
  char *message = nullptr;
  if (jit().compile(&request, &host, &object, &message) != 0) {
    error = message ? message : "";
    jit().release(message);
    return nullptr;
  }
  onepass_cpu_kernel_fn fn = nullptr;
  int rc = jit().load(object.data, object.size, &fn, &message);
  jit().release(object.data);
  if (rc != 0) {
    error = message ? message : "";
    jit().release(message);
    return nullptr;
  }
  return fn;
}

template <typename T> void put(std::vector<uint8_t> &blob, const onepass::image::FieldView &field, T value) {
  REQUIRE(field.size == sizeof(T));
  std::memcpy(blob.data() + field.offset, &value, sizeof(T));
}

onepass_cpu_launch range1(uint64_t begin, uint64_t end, uint64_t range) {
  onepass_cpu_launch l{};
  l.begin[0] = begin;
  l.end[0] = end;
  l.range[0] = range;
  for (int d = 1; d < 3; ++d) l.end[d] = l.range[d] = 1;
  return l;
}

}  // namespace

// lld (which links CPU kernels into shared objects) installs LLVM's signal
// handlers and an alternate signal stack on the thread of its first link:
// the JIT puts the program's own back (AddressSanitizer died at the end of
// such a thread, unmapping LLVM's malloc'ed stack). The first test case: LLVM
// installs them at the process's first link only.
TEST_CASE("compiling a CPU kernel leaves the program's signal handling as it was", "[jit]") {
  const onepass::image::ImageView image = parsedImage();
  const auto &kernel = kernelNamed(image, "scale_offset");
  bool same = false;
  std::string error;
  std::thread([&] {
    struct sigaction before[32] = {}, after[32] = {};
    for (int signal = 1; signal < 32; ++signal) sigaction(signal, nullptr, &before[signal]);
    stack_t stackBefore{}, stackAfter{};
    sigaltstack(nullptr, &stackBefore);
    const bool built = build(imageBytes(), std::string(kernel.symbol), error) != nullptr;
    for (int signal = 1; signal < 32; ++signal) sigaction(signal, nullptr, &after[signal]);
    sigaltstack(nullptr, &stackAfter);
    same = built && stackAfter.ss_sp == stackBefore.ss_sp &&
           (stackAfter.ss_flags & SS_DISABLE) == (stackBefore.ss_flags & SS_DISABLE);
    for (int signal = 1; signal < 32; ++signal)
      same = same && after[signal].sa_sigaction == before[signal].sa_sigaction;
  }).join();
  INFO(error);
  CHECK(same);
}

TEST_CASE("a 1-D kernel computes over exactly its chunk of work-items", "[jit]") {
  const onepass::image::ImageView image = parsedImage();
  std::string error;
  const auto &kernel = kernelNamed(image, "scale_offset");
  REQUIRE(kernel.fields.size() == 4);
  onepass_cpu_kernel_fn fn = build(imageBytes(), std::string(kernel.symbol), error);
  INFO(error);
  REQUIRE(fn != nullptr);

  const size_t n = 1003;  // not a multiple of any vector width
  std::vector<float> in(n), out(n, -1.0f);
  for (size_t i = 0; i < n; ++i) in[i] = float(i);
  std::vector<uint8_t> blob(kernel.objectSize);
  put(blob, kernel.fields[0], out.data());
  put(blob, kernel.fields[1], static_cast<const float *>(in.data()));
  put(blob, kernel.fields[2], 2.5f);
  put(blob, kernel.fields[3], 7);

  onepass_cpu_launch part = range1(100, 900, n);
  fn(blob.data(), &part);
  for (size_t i = 0; i < n; ++i) {
    float expected = (i >= 100 && i < 900) ? float(i) * 2.5f + 7.0f : -1.0f;
    REQUIRE(out[i] == expected);
  }
}

TEST_CASE("a CPU kernel compiled with a launch constant uses it, not the object's value", "[jit]") {
  const onepass::image::ImageView image = parsedImage();
  std::string error;
  const auto &kernel = kernelNamed(image, "scale_offset");  // fields: out, in, factor, offset
  onepass_cpu_kernel_fn fn = build(imageBytes(), std::string(kernel.symbol), error, {{3, 4, 100}});
  INFO(error);
  REQUIRE(fn != nullptr);
  const size_t n = 16;
  std::vector<float> in(n, 1.0f), out(n, -1.0f);
  std::vector<uint8_t> blob(kernel.objectSize);
  put(blob, kernel.fields[0], out.data());
  put(blob, kernel.fields[1], static_cast<const float *>(in.data()));
  put(blob, kernel.fields[2], 2.0f);
  put(blob, kernel.fields[3], 7);  // ignored: compiled in as 100
  onepass_cpu_launch whole = range1(0, n, n);
  fn(blob.data(), &whole);
  for (size_t i = 0; i < n; ++i) REQUIRE(out[i] == 102.0f);
  // A constant for a field that is not an integer of that size: an error.
  CHECK(build(imageBytes(), std::string(kernel.symbol), error, {{2, 8, 1}}) == nullptr);
  CHECK_THAT(error, Catch::Contains("launch constant for field 2"));
}

TEST_CASE("a 2-D kernel sees row-major ids and its global range", "[jit]") {
  const onepass::image::ImageView image = parsedImage();
  std::string error;
  const auto &kernel = kernelNamed(image, "grid_ids");
  REQUIRE(kernel.dimensions == 2);
  onepass_cpu_kernel_fn fn = build(imageBytes(), std::string(kernel.symbol), error);
  INFO(error);
  REQUIRE(fn != nullptr);

  const uint64_t rows = 7, cols = 13;
  std::vector<long> grid(rows * cols, -1);
  std::vector<uint8_t> blob(kernel.objectSize);
  put(blob, kernel.fields[0], grid.data());
  onepass_cpu_launch launch{};
  launch.begin[0] = 2;
  launch.end[0] = 5;  // rows 2..4 only
  launch.end[1] = launch.range[1] = cols;
  launch.range[0] = rows;
  launch.end[2] = launch.range[2] = 1;
  fn(blob.data(), &launch);
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t c = 0; c < cols; ++c) {
      long expected = (r >= 2 && r < 5) ? long(r * 1000 + c) : -1;
      REQUIRE(grid[r * cols + c] == expected);
    }
}

TEST_CASE("a single_task runs once", "[jit]") {
  const onepass::image::ImageView image = parsedImage();
  std::string error;
  const auto &kernel = kernelNamed(image, "set_flag");
  onepass_cpu_kernel_fn fn = build(imageBytes(), std::string(kernel.symbol), error);
  INFO(error);
  REQUIRE(fn != nullptr);
  int flag = 0;
  std::vector<uint8_t> blob(kernel.objectSize);
  put(blob, kernel.fields[0], &flag);
  onepass_cpu_launch launch = range1(0, 1, 1);
  fn(blob.data(), &launch);
  REQUIRE(flag == 42);
}

TEST_CASE("the JIT reports bad requests with a message, never a crash", "[jit][errors]") {
  std::string error;
  REQUIRE(build(imageBytes(), "no_such_kernel", error) == nullptr);
  REQUIRE_THAT(error, Catch::Contains("no kernel named 'no_such_kernel'"));

  const onepass::image::ImageView image = parsedImage();
  std::string symbol(image.kernels().front().symbol);

  std::vector<uint8_t> flipped = imageBytes();
  flipped[image.bitcodeSize() / 2 + 200] ^= 0x5a;  // inside the tables or the bitcode
  REQUIRE(build(flipped, symbol, error) == nullptr);
  REQUIRE_THAT(error, Catch::Contains("hash"));

  std::vector<uint8_t> truncated(imageBytes().begin(), imageBytes().begin() + imageBytes().size() / 2);
  REQUIRE(build(truncated, symbol, error) == nullptr);
  REQUIRE_THAT(error, Catch::Contains("size"));

  std::vector<uint8_t> garbage(4096, 0x41);
  REQUIRE(build(garbage, symbol, error) == nullptr);
  REQUIRE_THAT(error, Catch::Contains("magic"));
}

// --- NVPTX --------------------------------------------------------------------

namespace {
// NVIDIA's libdevice from the CUDA toolkit, or "" if this machine has none.
std::string installedLibdevice() {
  const char *path = ONEPASS_TEST_LIBDEVICE;
  return std::ifstream(path).good() ? path : "";
}

std::string buildPtxFrom(const std::vector<uint8_t> &image, const std::string &symbol, unsigned sm, std::string &error,
                         unsigned ptxVersion, const std::string &libdevice,
                         const std::vector<onepass_jit_constant> &constants = {}) {
  REQUIRE(jit().compile != nullptr);
  onepass_jit_request request{
      image.data(), image.size(), symbol.c_str(), constants.data(), static_cast<uint32_t>(constants.size()), {},
      nullptr, 0};
  const onepass_jit_target target{ONEPASS_JIT_TARGET_PTX, sm, ptxVersion, libdevice.c_str(),
                                  "looked in the test's places"};
  onepass_jit_buffer ptx{};
  char *message = nullptr;
  if (jit().compile(&request, &target, &ptx, &message) != 0) {
    error = message ? message : "";
    jit().release(message);
    return "";
  }
  error.clear();
  std::string text(static_cast<const char *>(ptx.data));
  REQUIRE(ptx.size == text.size() + 1);  // NUL-terminated, as cuModuleLoadData wants
  jit().release(ptx.data);
  return text;
}

std::string buildPtx(const std::string &symbol, unsigned sm, std::string &error, unsigned ptxVersion = 0) {
  return buildPtxFrom(imageBytes(), symbol, sm, error, ptxVersion, installedLibdevice());
}

// Assembles PTX with the CUDA toolkit's ptxas if there is one; returns false if not.
bool assembleWithPtxas(const std::string &ptx, unsigned sm, std::string &output) {
  const char *ptxas = ONEPASS_TEST_PTXAS;
  if (!*ptxas) return false;
  std::string path = "jit-test-" + std::to_string(sm) + ".ptx";
  std::ofstream(path) << ptx;
  std::string command =
      std::string(ptxas) + " -arch=sm_" + std::to_string(sm) + " " + path + " -o " + path + ".cubin 2>&1";
  FILE *pipe = popen(command.c_str(), "r");
  char buffer[256];
  while (pipe && fgets(buffer, sizeof buffer, pipe)) output += buffer;
  int status = pipe ? pclose(pipe) : -1;
  output += "(exit status " + std::to_string(status) + ")";
  return status == 0;
}
}  // namespace

TEST_CASE("kernels lower to PTX with global loads and a bounds check", "[jit][ptx]") {
  const onepass::image::ImageView image = parsedImage();
  std::string error;
  const auto &kernel = kernelNamed(image, "scale_offset");
  std::string ptx = buildPtx(std::string(kernel.symbol), 90, error);
  INFO(error);
  REQUIRE(!ptx.empty());
  CHECK_THAT(ptx, Catch::Contains(".target sm_90"));
  CHECK_THAT(ptx, Catch::Contains(".entry __onepass_ptx_kernel"));
  // Address spaces inferred: the kernel's pointers are global memory.
  CHECK_THAT(ptx, Catch::Contains("ld.global"));
  CHECK_THAT(ptx, Catch::Contains("st.global"));
  CHECK_THAT(ptx, !Catch::Contains("ld.generic") && !Catch::Contains("st.generic"));
  // Work-item ids come from the thread and block indices, with a range check.
  CHECK_THAT(ptx, Catch::Contains("%tid.x") && Catch::Contains("%ctaid.x") && Catch::Contains("%ntid.x"));
  CHECK_THAT(ptx, Catch::Contains("setp."));
  // Nothing of the host target leaks into device code.
  CHECK_THAT(ptx, !Catch::Contains("x86"));
}

TEST_CASE("a tile's halo loads issue with the work-item's own load, unless a store may change them", "[jit][ptx]") {
  const onepass::image::ImageView image = parsedImage();
  std::string error;
  // Global loads before the first branch, and after it.
  auto loads = [&](const char *name) {
    std::string ptx = buildPtx(std::string(kernelNamed(image, name).symbol), 90, error);
    INFO(name << ": " << error);
    REQUIRE(!ptx.empty());
    const std::size_t branch = ptx.find("bra");
    REQUIRE(branch != std::string::npos);
    std::pair<int, int> counts{0, 0};
    for (std::size_t at = ptx.find("ld.global"); at != std::string::npos; at = ptx.find("ld.global", at + 1))
      ++(at < branch ? counts.first : counts.second);
    return counts;
  };
  // The own element, then both neighbours (the real address where the
  // work-item is an edge, else the own element's again), before any branch.
  CHECK(loads("halo_loads") == std::pair<int, int>{3, 0});
  // `out` may be `in`: the neighbour's load stays in its branch (after it
  // too: `out[g] +=` reading `out` after the barrier).
  CHECK(loads("halo_clobbered") == std::pair<int, int>{1, 2});
  // Two buffers, each neighbour after its own buffer's load.
  CHECK(loads("two_halos") == std::pair<int, int>{4, 0});
}

TEST_CASE("group_local_memory becomes static shared memory in PTX, its size recorded in the image", "[jit][ptx]") {
  const onepass::image::ImageView image = parsedImage();
  std::string error;
  const auto &kernel = kernelNamed(image, "group_local");
  CHECK(kernel.groupLocalBytes == 256 + 16);
  CHECK((kernel.features & onepass::image::kFeatureLocalMemory) != 0);
  std::string ptx = buildPtx(std::string(kernel.symbol), 90, error);
  INFO(error);
  REQUIRE(!ptx.empty());
  CHECK_THAT(ptx, Catch::Contains(".shared .align 16 .b8 __onepass_ptx_group_local[272]"));
  CHECK_THAT(ptx, Catch::Contains("st.shared") && Catch::Contains("ld.shared"));
}

TEST_CASE("a PTX entry takes the kernel's fields, then only a range kernel's range", "[jit][ptx]") {
  const onepass::image::ImageView image = parsedImage();
  std::string error;
  auto parameters = [&](const char *name) {
    std::string ptx = buildPtx(std::string(kernelNamed(image, name).symbol), 90, error);
    INFO(name << ": " << error);
    REQUIRE(!ptx.empty());
    std::size_t count = 0;
    for (std::size_t at = ptx.find("__onepass_ptx_kernel_param_"); at != std::string::npos;
         at = ptx.find("__onepass_ptx_kernel_param_", at + 1))
      ++count;
    // Each parameter is declared once and loaded once (ld.param).
    return count / 2;
  };
  CHECK(parameters("scale_offset") == 4 + 1);  // out, in, factor, offset; a 1-D range
  CHECK(parameters("grid_ids") == 1 + 2);      // grid; a 2-D range
  CHECK(parameters("set_flag") == 1);          // flag; a single_task has no range
  CHECK(parameters("group_ids") == 1);         // grid; an nd_range kernel's range is the grid's
}

TEST_CASE("a launch constant's value is compiled into the PTX, its parameter no longer read", "[jit][ptx]") {
  const onepass::image::ImageView image = parsedImage();
  std::string error;
  const std::string symbol(kernelNamed(image, "scale_offset").symbol);  // fields: out, in, factor, offset
  auto loads = [](const std::string &ptx, const std::string &parameter) {
    std::size_t count = 0;
    for (std::size_t at = ptx.find(parameter + "]"); at != std::string::npos; at = ptx.find(parameter + "]", at + 1))
      ++count;
    return count;
  };
  const std::string plain = buildPtxFrom(imageBytes(), symbol, 90, error, 0, installedLibdevice());
  INFO(error);
  REQUIRE(!plain.empty());
  CHECK(loads(plain, "__onepass_ptx_kernel_param_3") == 1);
  const std::string constant = buildPtxFrom(imageBytes(), symbol, 90, error, 0, installedLibdevice(), {{3, 4, 12345}});
  INFO(error);
  REQUIRE(!constant.empty());
  CHECK(loads(constant, "__onepass_ptx_kernel_param_3") == 0);
  CHECK_THAT(constant, Catch::Contains("__onepass_ptx_kernel_param_3"));  // still declared: the launch passes it
  CHECK_THAT(constant, Catch::Contains("0f4640E400"));                    // float(offset), folded: 12345.0f
  // Not an integer field of that size: an error, not a miscompile.
  CHECK(buildPtxFrom(imageBytes(), symbol, 90, error, 0, installedLibdevice(), {{2, 4, 1}}).empty());
  CHECK_THAT(error, Catch::Contains("launch constant for field 2"));
}

TEST_CASE("the PTX ISA follows the driver's, within what LLVM and the architecture allow", "[jit][ptx]") {
  const onepass::image::ImageView image = parsedImage();
  std::string error;
  const std::string symbol(kernelNamed(image, "scale_offset").symbol);
  // Without a driver limit: the lowest ISA that sm_90 needs (7.8).
  CHECK_THAT(buildPtx(symbol, 90, error, 0), Catch::Contains(".version 7.8"));
  // A driver too old for the architecture: an error, not an LLVM abort.
  CHECK(buildPtx(symbol, 90, error, 70).empty());
  CHECK_THAT(error, Catch::Contains("sm_90 needs PTX ISA 7.8") && Catch::Contains("accepts PTX ISA 7.0"));
  // A CUDA 12.4 driver: PTX 8.4; CUDA 13.0: 9.0 (LLVM 22 knows up to 9.0).
  CHECK_THAT(buildPtx(symbol, 90, error, 84), Catch::Contains(".version 8.4"));
  CHECK_THAT(buildPtx(symbol, 90, error, 90), Catch::Contains(".version 9.0"));
  // A newer driver than LLVM knows: the newest LLVM has.
  std::string newest = buildPtx(symbol, 90, error, 99);
  CHECK_THAT(newest, Catch::Contains(".version 9.0"));
  // An architecture LLVM does not know (a future GPU): the newest below it.
  std::string future = buildPtx(symbol, 999, error, 90);
  INFO(error);
  CHECK_THAT(future, Catch::Contains(".target sm_"));
  CHECK_THAT(future, !Catch::Contains(".target sm_999"));
  // Below every architecture: an error naming it.
  CHECK(buildPtx(symbol, 5, error, 90).empty());
  CHECK_THAT(error, Catch::Contains("sm_5"));
}

TEST_CASE("every kernel's PTX assembles with ptxas", "[jit][ptx]") {
  const onepass::image::ImageView image = parsedImage();
  std::string error;
  for (unsigned sm : {75u, 90u})  // CUDA 13's ptxas knows sm_75 and newer
    for (const auto &kernel : image.kernels()) {
      if (kernel.displayName == "undefined_call") continue;  // fails on purpose, below
      if (kernel.displayName == "math_calls" && installedLibdevice().empty()) {
        WARN("no libdevice (no CUDA toolkit): math_calls not compiled to PTX");
        continue;
      }
      std::string ptx = buildPtx(std::string(kernel.symbol), sm, error);
      INFO(kernel.displayName << " sm_" << sm << ": " << error);
      REQUIRE(!ptx.empty());
      if (!*ONEPASS_TEST_PTXAS) {
        WARN("ptxas not found: PTX of " << kernel.displayName << " not assembled (no CUDA toolkit)");
        continue;
      }
      std::string output;
      bool assembled = assembleWithPtxas(ptx, sm, output);
      INFO("ptxas: " << output);
      CHECK(assembled);
    }
}

// --- math -----------------------------------------------------------------------

namespace {
const std::vector<uint8_t> &fastImageBytes() {
  static std::vector<uint8_t> bytes = [] {
    std::ifstream in(ONEPASS_TEST_FAST_IMAGE, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
  }();
  return bytes;
}

std::string symbolOf(const std::vector<uint8_t> &bytes, const std::string &name) {
  onepass::image::ImageView image;
  std::string error;
  REQUIRE(image.parse(bytes.data(), bytes.size(), true, error));
  return std::string(kernelNamed(image, name).symbol);
}
}  // namespace

TEST_CASE("math functions in a CPU kernel compute what they compute on the host", "[jit][math]") {
  const onepass::image::ImageView image = parsedImage();
  std::string error;
  const auto &kernel = kernelNamed(image, "math_calls");
  onepass_cpu_kernel_fn fn = build(imageBytes(), std::string(kernel.symbol), error);
  INFO(error);
  REQUIRE(fn != nullptr);
  const size_t n = 64;
  std::vector<float> in(n), out(n, 0.0f);
  std::vector<double> wide(n, 0.0);
  for (size_t i = 0; i < n; ++i) in[i] = 0.11f * float(i) + 0.05f;
  std::vector<uint8_t> blob(kernel.objectSize);
  put(blob, kernel.fields[0], out.data());
  put(blob, kernel.fields[1], static_cast<const float *>(in.data()));
  put(blob, kernel.fields[2], wide.data());
  onepass_cpu_launch all = range1(0, n, n);
  fn(blob.data(), &all);
  for (size_t i = 0; i < n; ++i) {
    float x = in[i];
    float expected =
        std::sin(x) + std::pow(x, 2.5f) + std::pow(10.0f, x * 0.1f) + std::sin(3.14159265f * x) + std::exp(-x);
    INFO("x = " << x);
    CHECK(out[i] == Approx(expected).epsilon(1e-5).margin(1e-5));
    CHECK(wide[i] == Approx(std::cos(double(x)) + std::log1p(double(x))).epsilon(1e-12));
  }
}

TEST_CASE("math calls in PTX kernels come from libdevice, or fail clearly without it", "[jit][ptx][math]") {
  std::string error;
  const std::string mathSymbol = symbolOf(imageBytes(), "math_calls");
  // No libdevice: an error that names it, the call and where the caller looked.
  CHECK(buildPtxFrom(imageBytes(), mathSymbol, 90, error, 90, "").empty());
  CHECK_THAT(error, Catch::Contains("math_calls") && Catch::Contains("libdevice") &&
                        Catch::Contains("looked in the test's places"));
  // A libdevice path that is not there: an error naming the file.
  CHECK(buildPtxFrom(imageBytes(), mathSymbol, 90, error, 90, "/nonexistent/libdevice.10.bc").empty());
  CHECK_THAT(error, Catch::Contains("/nonexistent/libdevice.10.bc"));
  // A kernel without math needs no libdevice.
  CHECK(!buildPtxFrom(imageBytes(), symbolOf(imageBytes(), "scale_offset"), 90, error, 90, "").empty());
  // A call to a function nothing defines: named, before any PTX tool sees it.
  CHECK(buildPtx(symbolOf(imageBytes(), "undefined_call"), 90, error).empty());
  CHECK_THAT(error, Catch::Contains("definedElsewhere(float)") && Catch::Contains("no translation unit or library"));

  if (installedLibdevice().empty()) {
    WARN("no libdevice at " << ONEPASS_TEST_LIBDEVICE << " (no CUDA toolkit): libdevice linking not checked");
    return;
  }
  std::string ptx = buildPtx(mathSymbol, 90, error);
  INFO(error);
  REQUIRE(!ptx.empty());
  CHECK_THAT(ptx, !Catch::Contains(".extern"));  // everything resolved
  // Precise by default: no approximate sine, no flushed arithmetic (libdevice's
  // own code uses approximate instructions inside its algorithms).
  CHECK_THAT(ptx, !Catch::Contains("sin.approx") && !Catch::Contains("mul.ftz.f32") &&
                      !Catch::Contains("mul.rn.ftz.f32") && !Catch::Contains("fma.rn.ftz.f32"));
  // sycl::native: the GPU's approximate instructions.
  std::string native = buildPtx(symbolOf(imageBytes(), "native_math"), 90, error);
  INFO(error);
  CHECK_THAT(native, Catch::Contains("sin.approx") && Catch::Contains("ex2.approx"));
}

TEST_CASE("-ffast-math and -fdenormal-fp-math reach the PTX", "[jit][ptx][math]") {
  std::string error;
  std::string ptx =
      buildPtxFrom(fastImageBytes(), symbolOf(fastImageBytes(), "fast_math"), 90, error, 90, installedLibdevice());
  INFO(error);
  REQUIRE(!ptx.empty());
  CHECK_THAT(ptx, Catch::Contains("sin.approx.ftz.f32"));  // approximate sine, flushed
  CHECK_THAT(ptx, Catch::Contains("div.approx.ftz.f32") || Catch::Contains("div.full.ftz.f32") ||
                      Catch::Contains("rcp.approx.ftz.f32"));
  CHECK_THAT(ptx,
             Catch::Contains("fma.rn.ftz.f32") || Catch::Contains("mul.ftz.f32") || Catch::Contains("mul.rn.ftz.f32"));
}
