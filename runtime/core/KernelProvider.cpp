#include "KernelProvider.h"

#include "Environment.h"
#include "Error.h"
#include "JitLibrary.h"
#include "KernelCache.h"
#include "Log.h"
#include "BuildOnceMap.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <system_error>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <thread>
#include <tuple>
#include <vector>

namespace onepass::rt {

namespace {

using Clock = std::chrono::steady_clock;
long long microsSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
}

// The values the JIT compiles into one binary of a kernel, besides the
// kernel and the target.
struct Variant {
  std::array<uint64_t, 3> localRange{0, 0, 0};  // 0s: not compiled in
  std::vector<onepass_jit_constant> constants;  // the launch constants' values
  std::string constantsText;                    // the same as a key ("" without any), and the libraries'
  // A kernel that calls functions its image does not define: the images
  // that export SYCL_EXTERNAL functions, which the JIT links from (their
  // ids are part of constantsText, so a changed library means a new binary).
  std::vector<onepass_jit_library> libraries;
};

void addLibraries(Variant &variant, const RegisteredKernel &kernel) {
  if (!(kernel.info.features & image::kFeatureExternalCalls)) return;
  for (const ExportingImage &exporting : exportingImages()) {
    variant.libraries.push_back({exporting.data, exporting.size});
    variant.constantsText += "library " + image::hexId(exporting.id) + ";";
  }
}

// The value of launch constant `field` in this launch's kernel object.
uint64_t constantValue(const RegisteredKernel &kernel, const onepass_backend_launch &launch, uint32_t field) {
  uint64_t value = 0;
  std::memcpy(&value, static_cast<const char *>(launch.object) + kernel.fieldOffsets[field],
              std::min<uint32_t>(kernel.fieldSizes[field], sizeof value));
  return value;
}

Variant variantOf(const DeviceTarget &target, const RegisteredKernel &kernel, const onepass_backend_launch &launch,
                  const uint64_t *globalOffset) {
  Variant variant;
  if (target.perWorkGroupRange && launch.local_range[0] != 0)
    for (unsigned d = 0; d < launch.dimensions && d < 3; ++d) variant.localRange[d] = launch.local_range[d];
  for (uint32_t field : kernel.constantFields) {
    onepass_jit_constant constant{field, kernel.fieldSizes[field], constantValue(kernel, launch, field)};
    variant.constants.push_back(constant);
    variant.constantsText += std::to_string(constant.field) + "=" + std::to_string(constant.value) + ";";
  }
  for (uint32_t d = 0; globalOffset && d < 3; ++d)
    if (globalOffset[d] != 0) {
      variant.constants.push_back({ONEPASS_JIT_GLOBAL_OFFSET_FIELD + d, 8, globalOffset[d]});
      variant.constantsText += "offset" + std::to_string(d) + "=" + std::to_string(globalOffset[d]) + ";";
    }
  addLibraries(variant, kernel);
  return variant;
}

// The key's parts after the target: the kernel and what the JIT compiles in.
std::string keyTail(const RegisteredKernel &kernel, const Variant &variant) {
  std::string key = "|image " + image::hexId(kernel.imageId) + "|" + kernel.symbol;
  if (variant.localRange[0] != 0)
    key += "|work-group " + std::to_string(variant.localRange[0]) + "," + std::to_string(variant.localRange[1]) + "," +
           std::to_string(variant.localRange[2]);
  if (!variant.constantsText.empty()) key += "|constants " + variant.constantsText;
  // (The JIT reads them once per process too. Never destroyed: the warm-up
  // thread may build keys while the process exits.)
  static const std::string *llvmArgs = new std::string(env::jitLlvmArgs());
  if (!llvmArgs->empty()) key += "|llvm-args " + *llvmArgs;
  return key;
}

// Everything that changes the binary: the persistent cache's key.
std::string cacheKey(const DeviceTarget &target, const RegisteredKernel &kernel, const Variant &variant) {
  return toolchainId() + "|target " + std::to_string(target.kind) + " " + std::to_string(target.arch) + " " +
         std::to_string(target.isaVersion) + "|" + target.identity + keyTail(kernel, variant);
}

// A GPU target's JIT output (PTX, SPIR-V, an AMD code object) depends on the
// target and its device library, never on the device or its driver, which
// only finalize or load it: `onepass-cache warm --target` builds it without a
// device, under this key, and a device of the target that misses its own
// entry finalizes that output instead of running the JIT (then stores its
// own). The CPU's output is for the CPU that compiles it: no such entry.
bool portableTarget(const DeviceTarget &target) { return target.kind != ONEPASS_JIT_TARGET_HOST; }

// The device library (libdevice.10.bc; for AMD GPUs the directory of
// ocml.bc, known by ocml.bc) by its contents: the machine that warms the
// cache and the GPU node may have the toolkit in different places. Read with
// one read() and hashed a word at a time (about 0.1 ms for libdevice's
// 460 KiB), once per process, and only when a device misses its own entry.
std::string libraryIdentity(const std::string &path) {
  if (path.empty()) return "none";
  static auto *mutex = new std::mutex;  // never destroyed: kernels may be built during exit
  static auto *known = new std::map<std::string, std::string>;
  std::lock_guard<std::mutex> lock(*mutex);
  auto [entry, isNew] = known->try_emplace(path);
  if (!isNew) return entry->second;
  struct stat info {};
  std::string file = path;
  if (stat(file.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) file += "/ocml.bc";
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  std::vector<uint64_t> words;
  ssize_t size = -1;
  if (fd >= 0 && fstat(fd, &info) == 0 && info.st_size >= 0) {
    words.resize(static_cast<size_t>(info.st_size) / 8 + 1, 0);
    size = read(fd, words.data(), static_cast<size_t>(info.st_size));
  }
  if (fd >= 0) close(fd);
  if (size < 0 || size != info.st_size) return entry->second = "unreadable " + file;
  uint64_t hash = 0xcbf29ce484222325ull ^ static_cast<uint64_t>(size);
  for (uint64_t word : words) hash = (hash ^ word) * 0x100000001b3ull;
  return entry->second = file.substr(file.rfind('/') + 1) + " " + std::to_string(size) + " bytes, hash " +
                         image::hexId(hash);
}

std::string portableKey(const DeviceTarget &target, const RegisteredKernel &kernel, const Variant &variant) {
  return toolchainId() + "|target " + std::to_string(target.kind) + " " + std::to_string(target.arch) +
         " portable|" + target.name + ", any device|library " + libraryIdentity(target.deviceLibrary) +
         keyTail(kernel, variant);
}

// Takes a message the backend malloc'ed.
std::string takeMessage(char *message, const char *fallback) {
  std::string text = message ? message : fallback;
  std::free(message);
  return text;
}

// Whether the image holding `kernel` matches its content hash, checked once
// per image and process. The JIT checks every image it compiles; a binary
// from the persistent cache is used only for an intact image, so a damaged
// kernel table never meets a cached binary.
bool imageIntact(const RegisteredKernel &kernel, std::string &error) {
  static auto *mutex = new std::mutex;  // never destroyed: kernels may be built during exit
  static auto *checked = new std::map<std::pair<const uint8_t *, uint64_t>, std::string>;
  std::lock_guard<std::mutex> lock(*mutex);
  auto [entry, isNew] = checked->try_emplace({kernel.image, kernel.imageId});
  if (isNew) {
    image::ImageView view;
    if (!view.parse(kernel.image, kernel.imageSize, /*verifyHash=*/true, entry->second) && entry->second.empty())
      entry->second = "the kernel image is corrupt";
  }
  error = entry->second;
  return error.empty();
}

// The one call into the JIT: `kernel` for `target` with the variant's values
// compiled in. True with `output` (free it with jit->free); else `error`.
bool runJit(const RegisteredKernel &kernel, const DeviceTarget &target, const Variant &variant, const JitLibrary *&jit,
            onepass_jit_buffer &output, std::string &error) {
  jit = loadJitLibrary(error);
  if (!jit) return false;
  const onepass_jit_request request{kernel.image,
                                    kernel.imageSize,
                                    kernel.symbol.c_str(),
                                    variant.constants.data(),
                                    static_cast<uint32_t>(variant.constants.size()),
                                    {variant.localRange[0], variant.localRange[1], variant.localRange[2]},
                                    variant.libraries.data(),
                                    static_cast<uint32_t>(variant.libraries.size())};
  char *message = nullptr;
  const onepass_jit_target jitTarget = target.jitTarget();
  if (jit->compile(&request, &jitTarget, &output, &message) == 0) return true;
  error = message ? message : "unknown JIT error";
  jit->free(message);
  return false;
}

struct Built {
  std::atomic<void *> handle{nullptr};  // the backend's, once loaded
  // The kernel's generic binary stands in (`handle`) while the binary for
  // this variant's launch values is compiled in the background. The driver
  // is called only on launch threads: the background thread leaves its
  // output in `pending` and sets `ready`, and the next launch loads it.
  std::atomic<bool> provisional{false}, ready{false};
  std::mutex pendingMutex;
  std::vector<char> pending;     // the output (empty: the compile failed)
  bool pendingFinalize = false;  // JIT output the backend finalizes (else a device binary)
  std::string pendingError;
  std::chrono::steady_clock::time_point servedSince;
  std::string error;
};

// When a kernel binary was last loaded (steady clock, nanoseconds).
std::atomic<int64_t> lastLoad{0};
int64_t nowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

// Loads a device binary into `built`; false with built.error set.
bool loadBinary(const Device &device, const RegisteredKernel &kernel, const void *binary, uint64_t size, Built &built,
                Clock::time_point start) {
  char *message = nullptr;
  void *handle = nullptr;
  lastLoad = nowNanos();
  if (device.backend->load_kernel(device.index, binary, size, &handle, &message) == 0) {
    built.handle = handle;
    // (For profilers: on the CPU the handle is the address of the object's
    // __onepass_cpu_launch, which ONEPASS_DUMP_DIR keeps.)
    ONEPASS_LOG(Debug, "kernel " << kernel.symbol << " for " << device.target.name << ": loaded at "
                                 << microsSince(start) << " us, handle " << handle);
    return true;
  }
  built.handle = nullptr;
  built.error = takeMessage(message, "the backend could not load the kernel");
  return false;
}

// The JIT's output (or a portable entry's) made the device's binary:
// finalized and stored under the device's key `key`, or loaded as it is
// (and stored if `storeOutput`).
bool finishOutput(const Device &device, const RegisteredKernel &kernel, const std::string &key, const void *output,
                  uint64_t size, bool storeOutput, Built &built, Clock::time_point start) {
  const onepass_backend &backend = *device.backend;
  if (backend.finalize_binary) {
    void *binary = nullptr;
    uint64_t binarySize = 0;
    char *message = nullptr;
    if (backend.finalize_binary(device.index, output, size, &binary, &binarySize, &message) == 0) {
      KernelCache::instance().store(key, binary, binarySize);
      const bool loaded = loadBinary(device, kernel, binary, binarySize, built, start);
      std::free(binary);
      return loaded;
    }
    ONEPASS_LOG(Warning, takeMessage(message, "finalizing failed") << "; loading the JIT's output directly");
    return loadBinary(device, kernel, output, size, built, start);
  }
  if (storeOutput) KernelCache::instance().store(key, output, size);
  return loadBinary(device, kernel, output, size, built, start);
}

// A variant with launch values compiled in (a CPU nd_range kernel's
// work-group range, local accessors' sizes, specialization constants) whose
// kernel's generic binary, which reads them at run time, could serve its
// launches: not one with a global offset, which only a specialized binary has.
bool genericCanServe(const Variant &variant) {
  bool values = variant.localRange[0] != 0, offset = false;
  for (const onepass_jit_constant &constant : variant.constants)
    (constant.field >= ONEPASS_JIT_GLOBAL_OFFSET_FIELD ? offset : values) = true;
  return values && !offset;
}

// The background compiles of specialized binaries (see build()). They use
// the JIT (whose static objects exit never destroys) and the cache's files,
// never a driver, so exit can wait for those under way (their output then
// reaches the cache for the next run); not for one waiting for another
// process's build lock, which gives up once exit has begun.
struct Background {
  std::mutex mutex;
  std::condition_variable idle;
  unsigned compiling = 0;
  unsigned running = 0;  // in the JIT
  bool exiting = false;

  static Background &instance() {
    static auto *background = new Background;  // never destroyed: its threads may outlive exit
    return *background;
  }
  // Whether this thread's compile is counted (exit waits for it).
  static bool &counted() {
    thread_local bool counted = false;
    return counted;
  }
  // Counts this thread's compile, unless exit has begun.
  bool start() {
    std::lock_guard<std::mutex> lock(mutex);
    if (exiting) return false;
    ++compiling;
    counted() = true;
    return true;
  }
  void finished() {
    if (!counted()) return;
    counted() = false;
    std::lock_guard<std::mutex> lock(mutex);
    --compiling;
    idle.notify_all();
  }
  // At most half the CPU's threads (at least one) compile in the background
  // at once: a program may leave many kernels to it, and each compile takes
  // a thread and LLVM's memory.
  void acquireJit() {
    static const unsigned limit = std::max(1u, std::thread::hardware_concurrency() / 2);
    std::unique_lock<std::mutex> lock(mutex);
    idle.wait(lock, [&] { return running < limit; });
    ++running;
  }
  void releaseJit() {
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    idle.notify_all();
  }
  void waitAtExit() {
    std::unique_lock<std::mutex> lock(mutex);
    exiting = true;
    if (compiling > 0)
      ONEPASS_LOG(Info, "waiting at exit for " << compiling
                                               << " kernel compile(s) in the background, for the persistent cache");
    idle.wait(lock, [&] { return compiling == 0; });
  }
};

void specializeInBackground(const Device &device, const RegisteredKernel &kernel, const Variant &variant, Built &built);

// Builds one binary and loads it; returns the backend's handle or sets
// `error`. `cachedOnly`: from the cache or not at all, and without waiting
// for another process's build lock.
void build(const Device &device, const RegisteredKernel &kernel, const Variant &variant, Built &built,
           bool cachedOnly = false) {
  const onepass_backend &backend = *device.backend;
  const DeviceTarget &target = device.target;
  const std::string key = cacheKey(target, kernel, variant);
  const auto start = Clock::now();

  // The device's own entry from the cache; true once `built` is settled
  // (loaded, or the image is damaged). An entry that does not load is
  // compiled again.
  std::vector<uint8_t> cached;
  auto fromCache = [&](const char *how) {
    if (!KernelCache::instance().load(key, cached)) return false;
    if (!imageIntact(kernel, built.error)) return true;
    if (loadBinary(device, kernel, cached.data(), cached.size(), built, start)) {
      ONEPASS_LOG(Info, "kernel " << kernel.symbol << " for " << target.name << ": binary from the cache" << how
                                  << " in " << microsSince(start) << " us");
      return true;
    }
    ONEPASS_LOG(Warning, "a cached binary of kernel " << kernel.symbol << " does not load (" << built.error
                                                      << "); compiling the kernel again");
    built.error.clear();
    return false;
  };
  // The JIT's output for the target from the cache (`onepass-cache warm
  // --target`, or a background compile): finalized by the device and stored
  // as its own entry. True once `built` is settled.
  auto fromPortable = [&] {
    if (!portableTarget(target) || !KernelCache::instance().load(portableKey(target, kernel, variant), cached))
      return false;
    if (!imageIntact(kernel, built.error)) return true;
    if (finishOutput(device, kernel, key, cached.data(), cached.size(), /*storeOutput=*/false, built, start)) {
      ONEPASS_LOG(Info, "kernel " << kernel.symbol << " for " << target.name << ": the JIT's output from the cache, "
                                  << (backend.finalize_binary ? "finalized and loaded in " : "loaded in ")
                                  << microsSince(start) << " us");
      return true;
    }
    ONEPASS_LOG(Warning, "the cached JIT output of kernel " << kernel.symbol << " for " << target.name
                                                            << " does not load (" << built.error
                                                            << "); compiling the kernel again");
    built.error.clear();
    return false;
  };
  if (fromCache("") || fromPortable()) return;
  if (cachedOnly) {
    built.error = "not in the cache";
    return;
  }
  // Launch values compiled in, and the kernel's generic binary cached
  // (`onepass-cache warm` builds those): it serves the launches now, and the
  // binary for these values is compiled off the launch path and replaces it.
  if (genericCanServe(variant)) {
    Variant genericVariant;
    addLibraries(genericVariant, kernel);
    Built generic;
    build(device, kernel, genericVariant, generic, /*cachedOnly=*/true);
    if (generic.handle) {
      built.handle = generic.handle.load();
      built.provisional = true;
      built.servedSince = Clock::now();
      ONEPASS_LOG(Info, "kernel " << kernel.symbol << " for " << target.name
                                  << ": its generic binary from the cache serves the launches while the binary "
                                     "for this launch's values is compiled in the background");
      specializeInBackground(device, kernel, variant, built);
      return;
    }
  }
  // Nothing cached: this process builds the entry, unless another one is
  // building it now (processes started at once), which this one waits for
  // and then loads.
  const KernelCache::BuildLock buildLock = KernelCache::instance().lockForBuild(key);
  if (buildLock.waited() && (fromCache(" (another process built it)") || fromPortable())) return;

  const auto jitStart = Clock::now();
  const JitLibrary *jit = nullptr;
  onepass_jit_buffer output{};
  if (!runJit(kernel, target, variant, jit, output, built.error)) return;
  const auto jitted = Clock::now();
  finishOutput(device, kernel, key, output.data, output.size, /*storeOutput=*/true, built, start);
  jit->free(output.data);
  // A big application's first launches: once the JIT's work passes a second
  // in all, one line says so (and how to pay it ahead of time).
  static std::atomic<uint64_t> totalMicros{0}, kernelsCompiled{0};
  const uint64_t spent = static_cast<uint64_t>(microsSince(start));
  const uint64_t before = totalMicros.fetch_add(spent), count = kernelsCompiled.fetch_add(1) + 1;
  if (before < 1000000 && before + spent >= 1000000)
    ONEPASS_LOG(Info, "JIT: " << count << " kernel(s) compiled in " << (before + spent) / 1000
                              << " ms so far in this process (`onepass-cache warm <binary>` compiles them ahead of "
                                 "time, into the persistent cache)");
  ONEPASS_LOG(Info, "kernel " << kernel.symbol << " for " << target.name << ": JIT "
                              << std::chrono::duration_cast<std::chrono::microseconds>(jitted - jitStart).count()
                              << " us, " << (backend.finalize_binary ? "finalize and load " : "load ")
                              << microsSince(jitted) << " us");
}

// The background compile of `variant` (no driver calls): its device binary
// from the cache if another process made it meanwhile, else the JIT's output,
// stored where a device of the target finds it (its own key when the output
// is the device's binary, else the target's portable key). Sets `finalize`
// when the output still needs the backend's finalize step.
bool compileInBackground(const Device &device, const RegisteredKernel &kernel, const Variant &variant,
                         std::vector<char> &output, bool &finalize, std::string &error) {
  const DeviceTarget &target = device.target;
  const bool finalizes = device.backend->finalize_binary != nullptr;
  const std::string key = cacheKey(target, kernel, variant);
  const std::string storedKey = finalizes && portableTarget(target) ? portableKey(target, kernel, variant) : key;
  // (Waiting for another process's lock, it is not counted.)
  const KernelCache::BuildLock buildLock = KernelCache::instance().lockForBuild(
      key, +[] { Background::instance().finished(); });
  if (!Background::counted() && !Background::instance().start()) {
    error = "the process is exiting";
    return false;
  }
  std::vector<uint8_t> cached;
  if (KernelCache::instance().load(key, cached) ||
      (finalizes && portableTarget(target) && KernelCache::instance().load(storedKey, cached))) {
    finalize = finalizes && !KernelCache::instance().contains(key);
    output.assign(cached.begin(), cached.end());
    return true;
  }
  // The program's start-up first: its kernel loads (dlopen on the CPU) would
  // wait behind the JIT library's load (some 15 ms under the dynamic
  // loader's lock). So the compile begins once no kernel has been loaded
  // for 5 ms (or after 200 ms, or at once when exit has begun).
  for (int waited = 0; waited < 200 && nowNanos() - lastLoad < 5000000; ++waited) {
    {
      std::lock_guard<std::mutex> lock(Background::instance().mutex);
      if (Background::instance().exiting) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const auto start = Clock::now();
  const JitLibrary *jit = nullptr;
  onepass_jit_buffer result{};
  Background::instance().acquireJit();
  const bool compiled = runJit(kernel, target, variant, jit, result, error);
  Background::instance().releaseJit();
  if (!compiled) return false;
  KernelCache::instance().store(storedKey, result.data, result.size);
  output.assign(static_cast<const char *>(result.data), static_cast<const char *>(result.data) + result.size);
  jit->free(result.data);
  finalize = finalizes;
  ONEPASS_LOG(Info, "kernel " << kernel.symbol << " for " << target.name << ": JIT " << microsSince(start)
                              << " us (in the background)");
  return true;
}

// Compiles `variant`'s binary on a thread of its own, for the next launch to
// load in place of the generic binary in `built` (launches read the handle
// atomically, and remember it only once it is final). Devices and registered
// kernels live as long as the process; `built` is never removed from its map.
void specializeInBackground(const Device &device, const RegisteredKernel &kernel, const Variant &variant,
                            Built &built) {
  static std::once_flag atExit;
  std::call_once(atExit, [] { std::atexit([] { Background::instance().waitAtExit(); }); });
  Background &background = Background::instance();
  if (!background.start()) {  // (exit has begun)
    built.provisional = false;
    return;
  }
  try {
    std::thread([&device, &kernel, variant, &built] {
      Background::counted() = true;  // (start() counted it on the launching thread)
      // Below the program's threads (and the CPU device's, which run its
      // kernels): on Linux a thread's nice value is its own.
      setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
      std::vector<char> output;
      bool finalize = false;
      std::string error;
      if (!compileInBackground(device, kernel, variant, output, finalize, error)) output.clear();
      {
        std::lock_guard<std::mutex> lock(built.pendingMutex);
        built.pending = std::move(output);
        built.pendingFinalize = finalize;
        built.pendingError = error;
      }
      built.ready = true;
      Background::instance().finished();
    }).detach();
    Background::counted() = false;  // (the count is the new thread's)
  } catch (const std::system_error &e) {
    ONEPASS_LOG(Debug,
                "kernel " << kernel.symbol << ": no background compile (" << e.what() << "); its generic binary stays");
    built.provisional = false;
    background.finished();
  }
}

// On a launch thread: loads the background compile's output in place of the
// generic binary (once; other launches meanwhile keep the generic one).
void adoptSpecialized(const Device &device, const RegisteredKernel &kernel, const Variant &variant, Built &built) {
  std::unique_lock<std::mutex> lock(built.pendingMutex, std::try_to_lock);
  if (!lock.owns_lock() || !built.provisional) return;
  const auto start = Clock::now();
  Built specialized;
  bool loaded = false;
  if (!built.pending.empty()) {
    loaded = built.pendingFinalize
                 ? finishOutput(device, kernel, cacheKey(device.target, kernel, variant), built.pending.data(),
                                built.pending.size(), /*storeOutput=*/false, specialized, start)
                 : loadBinary(device, kernel, built.pending.data(), built.pending.size(), specialized, start);
    built.pendingError = specialized.error;
  }
  if (loaded) {
    built.handle = specialized.handle.load();
    ONEPASS_LOG(Info, "kernel " << kernel.symbol << " for " << device.target.name
                                << ": the binary for its launch values replaced the generic one after "
                                << microsSince(built.servedSince) << " us (loaded in " << microsSince(start) << " us)");
  } else {
    ONEPASS_LOG(Warning, "kernel " << kernel.symbol << " for " << device.target.name
                                   << ": its generic binary stays (the binary for its launch values failed: "
                                   << built.pendingError << ")");
  }
  built.pending = std::vector<char>();
  built.provisional = false;
}

// A loaded kernel's identity in memory: the kernel, the device, and what the
// JIT compiled in.
using MemoryKey = std::tuple<const void *, const Device *, std::array<uint64_t, 3>, std::string>;

BuildOnceMap<MemoryKey, Built> &loaded() {
  static auto *map = new BuildOnceMap<MemoryKey, Built>;  // never destroyed: kernels may launch during exit
  return *map;
}

// "gfx90a" for 0x90a (jit_api.h: an AMD GPU's gfx number, its digits as hex).
std::string gfxName(uint32_t arch) {
  char name[16];
  std::snprintf(name, sizeof name, "gfx%x", arch);
  return name;
}
}  // namespace

bool describeTarget(const onepass_backend &backend, uint32_t index, DeviceTarget &target, std::string &error) {
  onepass_backend_target described{};
  char *message = nullptr;
  if (backend.device_target(index, &described, &message) != 0) {
    error = takeMessage(message, "the backend did not describe the device's target");
    return false;
  }
  if (described.jit_target != ONEPASS_JIT_TARGET_HOST && described.jit_target != ONEPASS_JIT_TARGET_PTX &&
      described.jit_target != ONEPASS_JIT_TARGET_SPIRV && described.jit_target != ONEPASS_JIT_TARGET_AMDGCN) {
    error = "the backend asks for an unknown JIT target (" + std::to_string(described.jit_target) + ")";
    return false;
  }
  target.deviceLibrary = described.device_library ? described.device_library : "";
  target.deviceLibraryMissing = described.device_library_missing ? described.device_library_missing : "";
  target.identity = described.identity ? described.identity : "";
  target.perWorkGroupRange = described.per_work_group_range != 0;
  target.kind = described.jit_target;
  target.arch = described.arch;
  target.isaVersion = described.isa_version;
  target.name = targetName(described.jit_target, described.arch);
  return true;
}

std::string targetName(uint32_t kind, uint32_t arch) {
  return kind == ONEPASS_JIT_TARGET_PTX      ? "sm_" + std::to_string(arch)
         : kind == ONEPASS_JIT_TARGET_SPIRV  ? std::string("SPIR-V")
         : kind == ONEPASS_JIT_TARGET_AMDGCN ? gfxName(arch)
                                             : std::string("the host CPU");
}

void *provideKernel(const Device &device, const RegisteredKernel &kernel, const void *hostEntry,
                    const onepass_backend_launch &launch, bool generic, const uint64_t *globalOffset) {
  // The last kernel each thread asked for, with the values of its launch
  // constants (up to kLastConstants of them): a loop launching one kernel
  // with the same values asks the map once, without building its key.
  constexpr std::size_t kLastConstants = 8;
  struct Last {
    const Device *device = nullptr;
    const RegisteredKernel *kernel = nullptr;
    const void *hostEntry = nullptr;
    std::array<uint64_t, 3> localRange{};
    bool generic = false;
    std::array<uint64_t, kLastConstants> constants{};
    void *handle = nullptr;
  };
  thread_local Last last;
  const std::array<uint64_t, 3> localRange{launch.local_range[0], launch.local_range[1], launch.local_range[2]};
  const bool offset = globalOffset && (globalOffset[0] | globalOffset[1] | globalOffset[2]) != 0;
  const std::size_t constantCount = generic ? 0 : kernel.constantFields.size();
  std::array<uint64_t, kLastConstants> constants{};
  const bool remembered = constantCount <= kLastConstants && !offset;
  for (std::size_t i = 0; remembered && i < constantCount; ++i)
    constants[i] = constantValue(kernel, launch, kernel.constantFields[i]);
  if (remembered && last.handle && last.device == &device && last.kernel == &kernel && last.hostEntry == hostEntry &&
      last.localRange == localRange && last.generic == generic && last.constants == constants)
    return last.handle;

  // A (deprecated) global offset is compiled in, also for a bundle's kernel.
  Variant variant;
  if (generic && !offset) addLibraries(variant, kernel);
  else variant = variantOf(device.target, kernel, launch, globalOffset);
  Built &built = loaded().get({hostEntry, &device, variant.localRange, variant.constantsText},
                              [&](Built &slot) { build(device, kernel, variant, slot); });
  if (built.provisional && built.ready) adoptSpecialized(device, kernel, variant, built);
  // (provisional first: once it reads false, the handle is the final one.)
  const bool final = !built.provisional.load();
  void *handle = built.handle.load();
  if (!handle)
    raise(Errc::build,
          "cannot build kernel " + describeKernel(kernel) + " for device '" + device.name + "': " + built.error);
  last = {&device, &kernel, hostEntry, localRange, generic, constants, remembered && final ? handle : nullptr};
  return handle;
}

std::string buildForTarget(const RegisteredKernel &kernel, const DeviceTarget &target,
                           const std::function<std::string(std::vector<unsigned char> &)> &transform, bool &found) {
  found = false;
  if (!portableTarget(target)) return "the CPU device's kernels are compiled for the CPU that runs them";
  if (!KernelCache::instance().enabled()) return "there is no persistent cache (ONEPASS_CACHE_DIR, HOME)";
  Variant variant;
  addLibraries(variant, kernel);
  const std::string key = portableKey(target, kernel, variant);
  std::string error;
  if (!imageIntact(kernel, error)) return error;
  if (KernelCache::instance().contains(key)) {
    found = true;
    return "";
  }
  const JitLibrary *jit = nullptr;
  onepass_jit_buffer output{};
  if (!runJit(kernel, target, variant, jit, output, error)) return error;
  std::vector<unsigned char> bytes(static_cast<const unsigned char *>(output.data),
                                   static_cast<const unsigned char *>(output.data) + output.size);
  jit->free(output.data);
  if (transform)
    if (std::string problem = transform(bytes); !problem.empty()) return problem;
  KernelCache::instance().store(key, bytes.data(), bytes.size());
  if (!KernelCache::instance().contains(key)) return "the cache did not take the entry (is its directory writable?)";
  return "";
}

// --- the JIT's warm-up ---------------------------------------------------------

const std::string &toolchainId() {
  static const std::string *id = new std::string([] {  // never destroyed: see JitWarmUp
    // The JIT interface's version covers the kernels' calling convention. The
    // builtin libraries are hashed from the installed files and the JIT
    // library is known by its build ID, so reinstalling a changed OnePass
    // (or building a changed JIT, same version) invalidates the entries it
    // would build differently, and identical installs share their entries.
    std::string text = "OnePass " ONEPASS_VERSION ", LLVM " ONEPASS_LLVM_VERSION ", JIT interface " +
                       std::to_string(ONEPASS_JIT_INTERFACE_VERSION) + ", JIT library " + jitLibraryIdentity();
    for (const char *name : {"onepass-builtins-cpu.bc", "onepass-builtins-ptx.bc"}) {
      std::ifstream in(runtimeLibraryDirectory() + "/onepass/bitcode/" + name, std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      text += std::string(", ") + name + " " + image::hexId(image::hashBytes(bytes.data(), bytes.size()));
    }
    return text;
  }());
  return *id;
}

namespace {

// The JIT's warm-up runs on a thread of its own that nobody waits for: a
// process may exit in the middle of it (the JIT library's static objects are
// never destroyed, see jit/src/NoExitDestructors.cpp). Once exit has begun,
// it touches nothing of the runtime's any more.
std::atomic<bool> &exiting() {
  static auto *flag = new std::atomic<bool>(false);  // never destroyed
  return *flag;
}

// Whether the program ran here before: `target` has a cache entry for one of
// its registered kernels that it compiles without launch values
// (`launchFree`: those whose key is known before a launch). (Not "for every
// kernel": a run seldom launches all of a program's kernels, BabelStream
// never its nstream, and each later run would load and warm up the JIT for
// kernels it will not launch either. One that it does launch loads the JIT
// library then.)
bool ranHereBefore(const DeviceTarget &target, bool launchFree) {
  bool found = false;
  forEachKernel([&](const RegisteredKernel &k) {
    if (found) return;
    if (launchFree &&
        ((target.perWorkGroupRange && k.info.kind == image::KernelKind::NdRange) || !k.constantFields.empty()))
      return;
    Variant variant;
    addLibraries(variant, k);
    found = KernelCache::instance().contains(cacheKey(target, k, variant)) ||
            (portableTarget(target) && KernelCache::instance().contains(portableKey(target, k, variant)));
  });
  return found;
}

// Two steps on one thread. preload: before the backends start their drivers,
// the thread loads the JIT library (some 15 ms of dlopen) in parallel, unless
// the host CPU's cache entries show that this program ran here before (a
// process whose CPU kernels come from the cache never loads the JIT library,
// whose dlopen would also hold up the drivers' own). start: once the devices
// are known, it loads the JIT library if it has not and warms it up for a
// GPU's target unless the program ran on that target before.
class JitWarmUp {
public:
  static JitWarmUp &instance() {
    static auto *warmUp = new JitWarmUp;  // never destroyed: its thread may outlive exit
    return *warmUp;
  }

  void preload(const DeviceTarget *host) {
    if (!env::jitWarmUp() || !hasRegisteredKernels()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (host) host_ = *host;
      hasHost_ = host != nullptr;
    }
    launchThread();
  }

  // `target` null: nothing to warm up, the thread may go.
  void start(const DeviceTarget *target) {
    if (target && !env::jitWarmUp()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (decided_) return;
      decided_ = true;
      if (target) target_ = *target;
      hasTarget_ = target != nullptr;
    }
    changed_.notify_all();
    if (target) launchThread();
  }

private:
  static bool hasRegisteredKernels() {
    bool any = false;
    forEachKernel([&](const RegisteredKernel &) { any = true; });
    return any;
  }

  void launchThread() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (launched_) return;
    launched_ = true;
    static std::once_flag atExit;
    std::call_once(atExit, [] { std::atexit([] { exiting() = true; }); });
    try {
      std::thread([this] { run(); }).detach();
    } catch (const std::system_error &e) {
      ONEPASS_LOG(Debug, "no JIT warm-up: no thread: " << e.what());
    }
  }

  // The JIT library, loaded on first need.
  const JitLibrary *jit(uint64_t &loadMicros) {
    const auto loadStart = Clock::now();
    std::string error;
    const JitLibrary *jit = loadJitLibrary(error);
    if (!jit && !exiting()) ONEPASS_LOG(Debug, "no JIT warm-up: " << error);
    loadMicros = microsSince(loadStart);
    return jit;
  }

  void run() {
    toolchainId();  // the cache key's first part: a file read and hash the first launch need not pay
    // (host_ is set before the thread starts and never changes.)
    const bool ranHere = hasHost_ && ranHereBefore(host_, /*launchFree=*/true);
    uint64_t loadMicros = 0;
    const JitLibrary *library = nullptr;
    if (!ranHere && !(library = jit(loadMicros))) return;
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return decided_; });
    if (!hasTarget_) return;
    lock.unlock();
    if (ranHereBefore(target_, /*launchFree=*/false)) {
      if (!exiting()) ONEPASS_LOG(Debug, "no JIT warm-up: the program's kernels are in the cache (it ran here before)");
      return;
    }
    if (!library && !(library = jit(loadMicros))) return;
    const auto warmUpStart = Clock::now();
    const onepass_jit_target jitTarget = target_.jitTarget();
    library->warmUp(&jitTarget);
    if (exiting()) return;
    ONEPASS_LOG(Info, "JIT warmed up for " << target_.name << " in " << microsSince(warmUpStart)
                                           << " us (its library loaded in " << loadMicros << " us)");
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  bool launched_ = false, decided_ = false, hasTarget_ = false, hasHost_ = false;
  DeviceTarget target_, host_;
};

}  // namespace

void preloadJit(const DeviceTarget *host) { JitWarmUp::instance().preload(host); }

KernelLimits kernelLimits(const Device &device, const RegisteredKernel &kernel, const void *hostEntry) {
  onepass_backend_launch none{};
  void *handle = provideKernel(device, kernel, hostEntry, none, /*generic=*/true);
  KernelLimits limits;
  std::string error;
  if (!loadedKernelLimits(device, handle, limits, error))
    raise(Errc::runtime,
          "cannot query kernel " + describeKernel(kernel) + " on device '" + device.name + "': " + error);
  return limits;
}

bool loadedKernelLimits(const Device &device, void *handle, KernelLimits &limits, std::string &error) {
  limits = KernelLimits{};
  if (!device.backend->kernel_limits) return true;
  onepass_kernel_limits backendLimits{};
  char *failure = nullptr;
  if (device.backend->kernel_limits(device.index, handle, &backendLimits, &failure) != 0) {
    error = failure ? failure : "unknown error";
    std::free(failure);
    return false;
  }
  limits.maxWorkGroupSize = backendLimits.max_work_group_size;
  limits.privateBytes = backendLimits.private_bytes;
  return true;
}

void warmUpJit(const std::vector<const Device *> &devices) {
  for (const Device *device : devices)
    if (device->target.kind == ONEPASS_JIT_TARGET_PTX) return JitWarmUp::instance().start(&device->target);
  JitWarmUp::instance().start(nullptr);
}

}  // namespace onepass::rt
