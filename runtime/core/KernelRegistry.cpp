#include "KernelRegistry.h"

#include "onepass_abi.hpp"

#include "Error.h"
#include "Log.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>

namespace onepass::rt {

namespace {

struct Entry {
  std::shared_ptr<const RegisteredKernel> kernel;  // null if the image could not be used
  std::string error;
  const void *image = nullptr;  // the registered image, also when it is corrupt
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<const void *, Entry> byHostEntry;
  std::vector<ExportingImage> exporting;
  // exporting.size(), read without the lock: most programs have none, and
  // every launch of a kernel that calls a declared function asks.
  std::atomic<size_t> exportingCount{0};
  std::atomic<uint64_t> generation{1};  // changes with every (un)registration
};

// The last kernel each thread looked up: a loop launching one kernel skips
// the registry's lock and map.
struct LastLookup {
  const void *hostEntry = nullptr;
  uint64_t generation = 0;
  std::shared_ptr<const RegisteredKernel> kernel;
};
thread_local LastLookup lastLookup;

// Function-local static: registration runs from static constructors of other
// objects, possibly before this library's own static initializers.
Registry &registry() {
  static Registry *instance = new Registry;  // never destroyed: destructors of other objects unregister late
  return *instance;
}

std::string binaryContaining(const void *address) {
  Dl_info info{};
  if (dladdr(address, &info) && info.dli_fname && *info.dli_fname) return info.dli_fname;
  return "the program";
}

}  // namespace

std::shared_ptr<const RegisteredKernel> lookupKernel(const void *hostEntry) {
  Registry &r = registry();
  LastLookup &last = lastLookup;
  if (last.hostEntry == hostEntry && last.generation == r.generation.load(std::memory_order_acquire))
    return last.kernel;
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.byHostEntry.find(hostEntry);
  if (it == r.byHostEntry.end())
    raise(Errc::kernel_not_supported,
          "OnePass found no device code for this kernel: the translation unit that launches it was not "
          "compiled with 'onepass++ -fsycl-sscp'");
  if (!it->second.error.empty()) raise(Errc::kernel_not_supported, it->second.error);
  last = {hostEntry, r.generation.load(std::memory_order_relaxed), it->second.kernel};
  return it->second.kernel;
}

std::vector<ExportingImage> exportingImages() {
  Registry &r = registry();
  if (r.exportingCount.load(std::memory_order_acquire) == 0) return {};
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.exporting;
}

void forEachKernel(const std::function<void(const RegisteredKernel &)> &visit) {
  std::vector<std::shared_ptr<const RegisteredKernel>> kernels;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const auto &[hostEntry, entry] : r.byHostEntry)
      if (entry.kernel) kernels.push_back(entry.kernel);
  }
  for (const auto &kernel : kernels) visit(*kernel);
}

}  // namespace onepass::rt

using namespace onepass;

// The registration calls stage 1 emits, under their symbols from onepass_abi.hpp.
extern "C" void __onepass_register_image(const void *, uint64_t, const void *const *,
                                         uint64_t) __asm__(ONEPASS_ABI_REGISTER_IMAGE);
extern "C" void __onepass_unregister_image(const void *) __asm__(ONEPASS_ABI_UNREGISTER_IMAGE);

extern "C" __attribute__((visibility("default"))) void __onepass_register_image(const void *imageData,
                                                                                uint64_t imageSize,
                                                                                const void *const *hostEntries,
                                                                                uint64_t entryCount) {
  rt::Registry &r = rt::registry();
  image::ImageView view;
  std::string error;
  bool ok = view.parse(imageData, imageSize, /*verifyHash=*/false, error);
  if (ok && view.kernels().size() != entryCount) {
    ok = false;
    error = "its kernel table lists " + std::to_string(view.kernels().size()) + " kernels but the binary registers " +
            std::to_string(entryCount);
  }
  if (!ok) {
    error = "the kernel image embedded in " + rt::binaryContaining(imageData) + " is corrupt: " + error;
    ONEPASS_LOG(Warning, error);
  }
  std::lock_guard<std::mutex> lock(r.mutex);
  if (ok && view.exportsFunctions()) {
    r.exporting.push_back({imageData, view.totalSize(), view.imageId()});
    r.exportingCount.store(r.exporting.size(), std::memory_order_release);
  }
  for (uint64_t i = 0; i < entryCount; ++i) {
    rt::Entry entry;
    entry.image = imageData;
    if (ok) {
      auto kernel = std::make_shared<rt::RegisteredKernel>();
      kernel->image = static_cast<const uint8_t *>(imageData);
      kernel->imageSize = view.totalSize();
      kernel->imageId = view.imageId();
      kernel->hostEntry = hostEntries[i];
      kernel->info = view.kernels()[i];
      kernel->symbol = std::string(kernel->info.symbol);
      kernel->name = std::string(kernel->info.displayName);
      for (const image::FieldView &field : kernel->info.fields) {
        if (field.flags & image::kFieldLaunchConstant)
          kernel->constantFields.push_back(static_cast<uint32_t>(kernel->fieldOffsets.size()));
        if (field.flags & image::kFieldLocalAccessor) kernel->capturesLocalAccessor = true;
        kernel->fieldOffsets.push_back(field.offset);
        kernel->fieldSizes.push_back(field.size);
      }
      entry.kernel = std::move(kernel);
    } else {
      entry.error = error;
    }
    // The same kernel (e.g. a named function object in a header) may come
    // from several translation units: identical by the ODR, keep the first.
    r.byHostEntry.emplace(hostEntries[i], std::move(entry));
  }
  r.generation.fetch_add(1, std::memory_order_release);
  ONEPASS_LOG(Debug,
              "registered kernel image of " << entryCount << " kernel(s) from " << rt::binaryContaining(imageData));
}

extern "C" __attribute__((visibility("default"))) void __onepass_unregister_image(const void *imageData) {
  rt::Registry &r = rt::registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto it = r.byHostEntry.begin(); it != r.byHostEntry.end();) {
    if (it->second.image == imageData) it = r.byHostEntry.erase(it);
    else ++it;
  }
  r.exporting.erase(std::remove_if(r.exporting.begin(), r.exporting.end(),
                                   [&](const rt::ExportingImage &e) { return e.data == imageData; }),
                    r.exporting.end());
  r.exportingCount.store(r.exporting.size(), std::memory_order_release);
  r.generation.fetch_add(1, std::memory_order_release);
}

namespace onepass::rt {

std::string describeKernel(const RegisteredKernel &kernel) {
  std::string text = "'" + std::string(kernel.info.displayName) + "'";
  if (!kernel.info.sourceFile.empty())
    text += " (" + std::string(kernel.info.sourceFile) + ":" + std::to_string(kernel.info.line) + ")";
  return text;
}

}  // namespace onepass::rt
