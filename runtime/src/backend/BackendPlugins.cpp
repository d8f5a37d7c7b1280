#include "BackendPlugins.h"

#include "../JitLibrary.h"
#include "../KernelCache.h"
#include "../KernelRegistry.h"
#include "KernelImage.h"
#include "../Log.h"
#include "../Environment.h"

#include <sycl/exception.hpp>

#include <dlfcn.h>

#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>
#include <chrono>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>

namespace onepass::rt {

namespace {

int compilePtx(const void *request, const void *target, void *ptxBuffer, char **error) {
  try {
    const JitLibrary &jit = jitLibrary();
    return jit.compilePtx(static_cast<const onepass_jit_request *>(request),
                          static_cast<const onepass_jit_ptx_target *>(target),
                          static_cast<onepass_jit_buffer *>(ptxBuffer), error);
  } catch (const sycl::exception &e) {
    if (error) *error = strdup(e.what());
    return 1;
  }
}

void freeMemory(void *pointer) { std::free(pointer); }

void logFromPlugin(int level, const char *message) {
  LogLevel l = level <= 0 ? LogLevel::Error : level == 1 ? LogLevel::Warning : level == 2 ? LogLevel::Info : LogLevel::Debug;
  if (logEnabled(l)) logMessage(l, message);
}

int cacheLoad(const char *key, void **data, uint64_t *size) {
  std::vector<uint8_t> bytes;
  if (!KernelCache::instance().load(key, bytes)) return 0;
  *data = std::malloc(bytes.size() ? bytes.size() : 1);
  if (!*data) return 0;
  std::memcpy(*data, bytes.data(), bytes.size());
  *size = bytes.size();
  return 1;
}

void cacheStore(const char *key, const void *data, uint64_t size) { KernelCache::instance().store(key, data, size); }

int cacheContains(const char *key) { return KernelCache::instance().contains(key) ? 1 : 0; }

// Everything of this installation that changes a device binary. The builtin
// libraries are hashed from the installed files, so reinstalling a changed
// OnePass invalidates the entries it would build differently.
const char *toolchainId() {
  static const std::string *id = new std::string([] {  // never destroyed: see PtxWarmUp
    // The JIT interface's version covers the kernels' calling convention.
    std::string text = "OnePass " ONEPASS_VERSION ", LLVM " ONEPASS_LLVM_VERSION ", JIT interface " +
                       std::to_string(ONEPASS_JIT_INTERFACE_VERSION);
    for (const char *name : {"onepass-builtins-cpu.bc", "onepass-builtins-ptx.bc"}) {
      std::ifstream in(runtimeLibraryDirectory() + "/onepass/bitcode/" + name, std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      char hash[20];
      std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(image::hashBytes(bytes.data(), bytes.size())));
      text += std::string(", ") + name + " " + hash;
    }
    return text;
  }());
  return id->c_str();
}

// The JIT's warm-up runs on a thread of its own that nobody waits for: a
// process may exit in the middle of it (the JIT library's static objects are
// never destroyed, see jit/src/NoExitDestructors.cpp). Once exit has begun,
// it touches nothing of the runtime's any more.
std::atomic<bool> &exiting() {
  static auto *flag = new std::atomic<bool>(false);  // never destroyed
  return *flag;
}

// Two steps on one thread. preload: as soon as the backend has found its
// driver, the thread loads the JIT library (some 5 ms of dlopen), in parallel
// with the driver's own start-up. start: once the backend knows its GPU, the
// thread warms the JIT up for it, if a registered kernel is missing from the
// persistent cache. A backend that gives up in between abandons it.
class PtxWarmUp {
public:
  static PtxWarmUp &instance() {
    static auto *warmUp = new PtxWarmUp;  // never destroyed: its thread may outlive exit
    return *warmUp;
  }

  void preload() {
    if (!env::jitWarmUp() || !hasRegisteredKernels()) return;
    launchThread();
  }

  void start(const onepass_jit_ptx_target &target, int (*cached)(uint64_t, const char *)) {
    if (!env::jitWarmUp()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (handed_) return;
      handed_ = true;
      target_ = target;
      libdevicePath_ = target.libdevice_path ? target.libdevice_path : "";
      target_.libdevice_path = libdevicePath_.c_str();
      target_.libdevice_missing = nullptr;
      cached_ = cached;
    }
    changed_.notify_all();
    launchThread();
  }

  void abandon() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      abandoned_ = true;
    }
    changed_.notify_all();
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
      ONEPASS_LOG(Debug, "no JIT warm-up thread: " << e.what());
    }
  }

  void run() {
    using Clock = std::chrono::steady_clock;
    auto micros = [](Clock::time_point since) {
      return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - since).count();
    };
    const auto loadStart = Clock::now();
    toolchainId();  // the cache key's first part: a file read and hash the first launch need not pay
    decltype(&onepass_jit_warm_up_ptx) warmUp = nullptr;
    try {
      warmUp = jitLibrary().warmUpPtx;
    } catch (const sycl::exception &e) {
      if (!exiting()) ONEPASS_LOG(Debug, "no JIT warm-up: " << e.what());
      return;
    }
    const auto loadMicros = micros(loadStart);
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return handed_ || abandoned_; });
    if (!handed_) return;
    lock.unlock();
    const auto warmUpStart = Clock::now();
    if (cached_) {
      bool missing = false;
      forEachKernel([&](const RegisteredKernel &k) { missing = missing || !cached_(k.imageId, k.symbol.c_str()); });
      if (!missing) {
        if (!exiting()) ONEPASS_LOG(Debug, "no JIT warm-up: every kernel is in the cache");
        return;
      }
    }
    warmUp(&target_);
    if (exiting()) return;
    ONEPASS_LOG(Info, "JIT warmed up for sm_" << target_.sm_version << " in " << micros(warmUpStart)
                                              << " us (its library loaded in " << loadMicros << " us)");
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  bool launched_ = false, handed_ = false, abandoned_ = false;
  onepass_jit_ptx_target target_{};
  std::string libdevicePath_;
  int (*cached_)(uint64_t, const char *) = nullptr;
};

void preloadJit() { PtxWarmUp::instance().preload(); }

void startPtxWarmUp(const void *target, int (*cached)(uint64_t, const char *)) {
  if (target) PtxWarmUp::instance().start(*static_cast<const onepass_jit_ptx_target *>(target), cached);
}

const onepass_runtime_services kServices = {ONEPASS_BACKEND_INTERFACE_VERSION, compilePtx, preloadJit,
                                            startPtxWarmUp, freeMemory, logFromPlugin, cacheLoad, cacheStore,
                                            cacheContains, toolchainId};

}  // namespace

const onepass_backend *loadBackendPlugin(const char *name, std::string &why) {
  std::string path = runtimeLibraryDirectory() + "/onepass/libonepass-backend-" + name + ".so";
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    why = "the backend plugin cannot be loaded (" + std::string(reason ? reason : path) + ")";
    return nullptr;
  }
  auto entry = reinterpret_cast<onepass_backend_entry_fn>(dlsym(handle, ONEPASS_BACKEND_ENTRY_SYMBOL));
  if (!entry) {
    why = path + " is not a OnePass backend plugin";
    return nullptr;
  }
  char *reason = nullptr;
  const onepass_backend *table = entry(&kServices, &reason);
  if (!table) {
    PtxWarmUp::instance().abandon();  // if the plugin asked for a preload, nothing follows it
    why = reason ? reason : "no reason given";
    std::free(reason);
    ONEPASS_LOG(Info, "backend " << name << " is absent: " << why);
    return nullptr;
  }
  if (table->interface_version != ONEPASS_BACKEND_INTERFACE_VERSION) {
    why = path + " implements backend interface version " + std::to_string(table->interface_version) +
          ", this runtime needs " + std::to_string(ONEPASS_BACKEND_INTERFACE_VERSION);
    return nullptr;
  }
  ONEPASS_LOG(Info, "backend " << name << " loaded with " << table->device_count() << " device(s)");
  return table;
}

}  // namespace onepass::rt
