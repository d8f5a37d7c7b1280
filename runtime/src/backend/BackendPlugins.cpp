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
  static const std::string *id = new std::string([] {  // never destroyed: see startPtxWarmUp
    std::string text = "OnePass " ONEPASS_VERSION ", LLVM " ONEPASS_LLVM_VERSION;
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

void startPtxWarmUp(const void *targetPointer, int (*cached)(uint64_t, const char *)) {
  static std::once_flag once;
  if (!env::jitWarmUp() || !targetPointer) return;
  const auto &given = *static_cast<const onepass_jit_ptx_target *>(targetPointer);
  std::call_once(once, [&] {
    std::atexit([] { exiting() = true; });
    auto work = [cached, target = given, libdevicePath = std::string(given.libdevice_path ? given.libdevice_path : "")]() mutable {
      auto start = std::chrono::steady_clock::now();
      toolchainId();  // the cache key's first part: a file read and hash the first launch need not pay
      if (cached) {
        bool missing = false;
        forEachKernel([&](const RegisteredKernel &k) { missing = missing || !cached(k.imageId, k.symbol.c_str()); });
        if (!missing) {
          if (!exiting()) ONEPASS_LOG(Debug, "no JIT warm-up: every kernel is in the cache");
          return;
        }
      }
      decltype(&onepass_jit_warm_up_ptx) warmUp = nullptr;
      try {
        warmUp = jitLibrary().warmUpPtx;
      } catch (const sycl::exception &e) {
        if (!exiting()) ONEPASS_LOG(Debug, "no JIT warm-up: " << e.what());
        return;
      }
      target.libdevice_path = libdevicePath.c_str();
      target.libdevice_missing = nullptr;
      warmUp(&target);
      if (exiting()) return;
      const auto micros =
          std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
      ONEPASS_LOG(Info, "JIT warmed up for sm_" << target.sm_version << " in " << micros << " us");
    };
    try {
      std::thread(std::move(work)).detach();
    } catch (const std::system_error &e) {
      ONEPASS_LOG(Debug, "no JIT warm-up thread: " << e.what());
    }
  });
}

const onepass_runtime_services kServices = {ONEPASS_BACKEND_INTERFACE_VERSION, compilePtx, startPtxWarmUp,
                                            freeMemory, logFromPlugin, cacheLoad, cacheStore, cacheContains,
                                            toolchainId};

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
