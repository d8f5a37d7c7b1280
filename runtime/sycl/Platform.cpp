// Platforms, devices and contexts (SYCL 2020 §4.6.2-§4.6.4), discovered once
// from the backends. The CPU backend is always there.
#include "Environment.h"
#include "Errors.h"
#include "Log.h"
#include "Runtime.h"
#include "BackendPlugins.h"
#include "DeviceSelector.h"
#include "CpuBackend.h"

#include <algorithm>
#include <memory>

using namespace onepass;

namespace sycl::detail {

namespace {

device_properties toProperties(const onepass_backend_device_info &info, backend kind) {
  device_properties p;
  p.type = info.device_type == ONEPASS_DEVICE_GPU ? info::device_type::gpu : info::device_type::cpu;
  p.backend_kind = kind;
  p.name = info.name;
  p.vendor = info.vendor;
  p.driver_version = info.driver_version;
  p.version = info.version;
  p.vendor_id = info.vendor_id;
  p.max_compute_units = info.compute_units;
  p.max_clock_frequency_mhz = info.clock_mhz;
  p.max_work_group_size = info.max_work_group_size;
  for (int axis = 0; axis < 3; ++axis)
    p.max_work_item_sizes[axis] =
        info.max_work_item_sizes[axis] ? info.max_work_item_sizes[axis] : info.max_work_group_size;
  p.global_mem_size = info.global_mem_bytes;
  p.max_mem_alloc_size = info.max_alloc_bytes;
  p.local_mem_size = info.local_mem_bytes;
  p.kernel_features = info.kernel_features;
  p.cache_line_size = info.cache_line_bytes;
  p.global_mem_cache_size = info.global_cache_bytes;
  p.sub_group_sizes = {info.sub_group_size ? info.sub_group_size : 1u};
  p.aspects = {p.type == info::device_type::gpu ? aspect::gpu : aspect::cpu,
               aspect::usm_device_allocations,
               aspect::usm_host_allocations,
               aspect::usm_shared_allocations,
               aspect::queue_profiling,
               // The JIT compiles and links kernels at run time: kernel
               // bundles in input and object state (§4.11.7).
               aspect::online_compiler,
               aspect::online_linker,
               // Images in device memory, sampled in software (image.hpp).
               aspect::image};
  if (info.has_fp64) p.aspects.push_back(aspect::fp64);
  if (info.kernel_features & ONEPASS_KERNEL_FEATURE_ATOMIC64) p.aspects.push_back(aspect::atomic64);
  // Half arithmetic (§4.14.1), as the backend reports it: the CPU and NVIDIA
  // GPUs always (LLVM computes it natively where the target can, NVIDIA sm_53+
  // and AVX-512 FP16, and in float with conversions elsewhere), AMD GPUs
  // always, OpenCL devices with cl_khr_fp16, Level Zero devices with
  // ZE_DEVICE_MODULE_FLAG_FP16.
  if (info.kernel_features & ONEPASS_KERNEL_FEATURE_FP16) p.aspects.push_back(aspect::fp16);
  if (kind == backend::ext_onepass_cpu) {  // (the program's own memory)
    p.aspects.push_back(aspect::usm_atomic_host_allocations);
    p.aspects.push_back(aspect::usm_atomic_shared_allocations);
    p.aspects.push_back(aspect::usm_system_allocations);
  }
  return p;
}

// The word ONEPASS_DEVICE_SELECTOR names a backend's devices with.
std::string selectorWord(backend kind) {
  switch (kind) {
  case backend::ext_onepass_cpu: return "cpu";
  case backend::cuda: return "cuda";
  case backend::opencl: return "opencl";
  case backend::level_zero: return "level_zero";
  case backend::hip: return "hip";
  }
  return "cpu";
}

std::shared_ptr<platform_impl> makePlatform(const onepass_backend &backendTable, backend kind) {
  auto platform = std::make_shared<platform_impl>();
  platform->backend = &backendTable;
  platform->properties.name = backendTable.platform_name;
  platform->properties.vendor = backendTable.platform_vendor;
  platform->properties.version = "OnePass " ONEPASS_VERSION " (SYCL 2020)";
  platform->properties.backend_kind = kind;
  for (uint32_t i = 0; i < backendTable.device_count(); ++i) {
    onepass_backend_device_info info{};
    char *error = nullptr;
    if (backendTable.device_info(i, &info, &error) != 0) {
      ONEPASS_LOG(Warning,
                  "backend " << backendTable.name << ": device " << i << " skipped: " << (error ? error : "?"));
      std::free(error);
      continue;
    }
    auto device = std::make_shared<device_impl>();
    std::string why;
    if (!rt::describeTarget(backendTable, i, device->target, why)) {
      ONEPASS_LOG(Warning, "backend " << backendTable.name << ": device " << i << " skipped: " << why);
      continue;
    }
    device->backend = &backendTable;
    device->index = i;
    device->platform = platform.get();
    device->properties = toProperties(info, kind);
    device->properties.selector_term = selectorWord(kind) + ":" + std::to_string(platform->devices.size());
    device->name = device->properties.name;
    platform->devices.push_back(device);
  }
  return platform;
}

// Why each optional backend is absent ("CUDA: libcuda.so.1 cannot be loaded"),
// and the devices ONEPASS_DEVICE_SELECTOR leaves out.
std::vector<std::string> &absentBackends() {
  static auto *list = new std::vector<std::string>;
  return *list;
}

// Whether ONEPASS_DEVICE_SELECTOR has a positive term naming `backendName`.
bool selectorNamesBackend(const std::string &backendName) {
  std::vector<rt::SelectorTerm> terms;
  std::string error;
  if (!rt::parseSelector(rt::env::deviceSelector(), terms, error)) return false;  // (applySelector reports it)
  return std::any_of(terms.begin(), terms.end(),
                     [&](const rt::SelectorTerm &term) { return !term.negated && term.backend == backendName; });
}

// Leaves out the devices ONEPASS_DEVICE_SELECTOR does not select (each
// backend's devices keep their indices: `cuda:1` is the second CUDA device).
void applySelector(std::vector<std::shared_ptr<platform_impl>> &list) {
  const std::string text = rt::env::deviceSelector();
  if (text.empty()) return;
  std::vector<rt::SelectorTerm> terms;
  std::string error;
  if (!rt::parseSelector(text, terms, error)) rt::raise(errc::invalid, "ONEPASS_DEVICE_SELECTOR='" + text + "': " + error);
  for (const auto &platform : list) {
    const backend kind = platform->properties.backend_kind;
    const std::string backendName = selectorWord(kind);
    std::vector<std::shared_ptr<device_impl>> kept;
    for (std::size_t i = 0; i < platform->devices.size(); ++i) {
      const auto &device = platform->devices[i];
      const device_properties &p = device->properties;
      if (rt::selectorSelects(terms, backendName, p.type == info::device_type::gpu, p.name, int(i)))
        kept.push_back(device);
      else
        absentBackends().push_back("ONEPASS_DEVICE_SELECTOR='" + text + "' leaves out " + backendName + ":" +
                                   std::to_string(i) + " '" + p.name + "'");
    }
    platform->devices = std::move(kept);
  }
  // A platform the selector leaves without devices is not seen either (it
  // would answer has(aspect) with true for every aspect, §4.6.2).
  list.erase(std::remove_if(list.begin(), list.end(), [](const auto &platform) { return platform->devices.empty(); }),
             list.end());
}

const std::vector<std::shared_ptr<platform_impl>> &platforms() {
  // Never destroyed: executors and kernels may still run during static destruction.
  static auto *list = [] {
    {
      rt::DeviceTarget host;
      std::string why;
      rt::preloadJit(rt::describeTarget(rt::cpuBackend(), 0, host, why)
                         ? &host
                         : nullptr);  // in parallel with the drivers' start-up
    }
    // (Owned here until the list is complete: a malformed
    // ONEPASS_DEVICE_SELECTOR throws, and the next call tries again.)
    auto result = std::make_unique<std::vector<std::shared_ptr<platform_impl>>>(
        std::vector<std::shared_ptr<platform_impl>>{makePlatform(rt::cpuBackend(), backend::ext_onepass_cpu)});
    struct Plugin {
      const char *name;
      const char *label;
      backend kind;
    };
    for (const Plugin &plugin : {Plugin{"cuda", "CUDA", backend::cuda}}) {
      std::string why;
      if (const onepass_backend *table = rt::loadBackendPlugin(plugin.name, why))
        result->push_back(makePlatform(*table, plugin.kind));
      else absentBackends().push_back(std::string(plugin.label) + ": " + why);
    }
    // Accelerators first: programs that take device 0 of get_devices() (or
    // platform 0) get a GPU where there is one.
    std::rotate(result->begin(), result->begin() + 1, result->end());
    // The OpenCL, Level Zero and HSA backends (issue 18) are new: their
    // devices come after OnePass's own, and only where
    // ONEPASS_DEVICE_SELECTOR names their backend (opencl, level_zero, hip;
    // alone, with :<n> or :*), so that a node's OpenCL CPU runtime does not
    // change which devices existing programs see, and the Level Zero and HSA
    // plugins, which no Intel or AMD GPU has run yet, are used only on request.
    for (const Plugin &plugin :
         {Plugin{"opencl", "OpenCL", backend::opencl}, Plugin{"level_zero", "Level Zero", backend::level_zero},
          Plugin{"hsa", "HSA", backend::hip}}) {
      const std::string word = selectorWord(plugin.kind);
      if (selectorNamesBackend(word)) {
        std::string why;
        if (const onepass_backend *table = rt::loadBackendPlugin(plugin.name, why))
          result->push_back(makePlatform(*table, plugin.kind));
        else absentBackends().push_back(std::string(plugin.label) + ": " + why);
      } else {
        absentBackends().push_back(std::string(plugin.label) +
                                   ": not loaded (experimental: ONEPASS_DEVICE_SELECTOR=" + word + ":* uses it)");
      }
    }
    applySelector(*result);
    // Most programs launch their first kernel soon: have LLVM ready by then.
    std::vector<const rt::Device *> devices;
    for (const auto &platform : *result)
      for (const auto &device : platform->devices) devices.push_back(device.get());
    rt::warmUpJit(devices);
    return result.release();
  }();
  return *list;
}

}  // namespace

std::vector<std::shared_ptr<platform_impl>> get_platform_impls() { return platforms(); }

std::string describe_absent_backends() {
  platforms();
  std::string text;
  for (const std::string &line : absentBackends()) text += (text.empty() ? "" : "; ") + line;
  return text;
}
const platform_properties &get_platform_properties(const platform_impl &p) { return p.properties; }
std::vector<std::shared_ptr<device_impl>> get_platform_devices(const platform_impl &p) { return p.devices; }
const device_properties &get_device_properties(const device_impl &d) { return d.properties; }

std::shared_ptr<platform_impl> get_device_platform(const device_impl &d) {
  for (const auto &p : platforms())
    if (p.get() == d.platform) return p;
  return nullptr;
}

// ONEPASS_DEVICE=cpu|gpu restricts the default selector to that kind of
// device; otherwise a GPU is preferred over the CPU.
int default_selector_score(const device_impl &d) {
  static const std::string wanted = rt::lowercase(rt::env::deviceSelection());
  const bool isGpu = d.properties.type == info::device_type::gpu;
  // OnePass's own devices before the experimental backends' (an OpenCL CPU
  // runtime such as PoCL; Level Zero and HSA devices).
  const backend kind = d.properties.backend_kind;
  const int fromOpenCl = kind == backend::opencl || kind == backend::level_zero || kind == backend::hip ? 10 : 0;
  if (!wanted.empty()) {
    if (wanted == "cpu") return isGpu ? -1 : 1000 - fromOpenCl;
    if (wanted == "gpu" || wanted == "cuda") return isGpu ? 1000 - fromOpenCl : -1;
    static std::once_flag warned;
    std::call_once(warned, [] {
      ONEPASS_LOG(Warning, "ONEPASS_DEVICE='" << wanted << "' is not one of cpu, gpu, cuda; ignoring it");
    });
  }
  return (isGpu ? 500 : 100) - fromOpenCl;
}

std::shared_ptr<context_impl> make_context(const std::vector<std::shared_ptr<device_impl>> &devices,
                                           const async_handler &handler) {
  auto ctx = std::make_shared<context_impl>();
  ctx->devices = devices;
  ctx->handler = handler;
  return ctx;
}

std::vector<std::shared_ptr<device_impl>> get_context_devices(const context_impl &ctx) { return ctx.devices; }

std::shared_ptr<context_impl> context_from_native(void *handle, const async_handler &handler) {
  std::string why = "no device has a backend with native contexts (backend interoperability needs the CUDA backend)";
  const onepass_backend *asked = nullptr;
  for (const auto &p : platforms())
    for (const auto &d : p->devices) {
      if (!d->backend->native_context_device || d->backend == asked) continue;
      asked = d->backend;  // one question per backend
      uint32_t index = 0;
      char *failure = nullptr;
      if (d->backend->native_context_device(handle, &index, &failure) != 0) {
        why = failure ? failure : "unknown error";
        std::free(failure);
        continue;
      }
      for (const auto &owner : p->devices)
        if (owner->backend == d->backend && owner->index == index) {
          auto ctx = make_context({owner}, handler);
          ctx->native = handle;
          return ctx;
        }
    }
  rt::raise(errc::invalid, "make_context: the native context cannot be used: " + why);
}

std::vector<void *> context_native_handles(const context_impl &ctx) {
  std::vector<void *> handles;
  for (const auto &d : ctx.devices)
    handles.push_back(ctx.native && d == ctx.devices.front() ? ctx.native
                                                             : device_native_handle(*d, native_object::context));
  return handles;
}

std::shared_ptr<context_impl> get_platform_default_context(const platform_impl &p) {
  auto &platform = const_cast<platform_impl &>(p);
  std::call_once(platform.defaultContextOnce, [&] { platform.defaultContext = make_context(platform.devices, {}); });
  return platform.defaultContext;
}

}  // namespace sycl::detail
