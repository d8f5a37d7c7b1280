// Kernel names, kernel identifiers and executable kernel bundles (SYCL 2020
// §4.11). A kernel's identity is its host entry; each kernel invocation
// template registers its kernel name type with it at program start. Building
// an executable bundle builds each kernel's generic binary (the one that takes
// any launch) through the kernel provider; launches with the bundle
// (handler::use_kernel_bundle) run that binary.
#include "Errors.h"
#include "KernelProvider.h"
#include "KernelRegistry.h"
#include "KernelValidation.h"
#include "Runtime.h"

// (The public headers, as users' compilers see them: system headers, whose
// uses of their own deprecated classes, sycl::atomic's, warn nobody; also
// where their templates are instantiated, at the end of this file.)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <sycl/kernel_bundle.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <mutex>

using namespace onepass;

namespace {

struct NameTable {
  std::mutex mutex;
  std::map<const void *, const void *> entryOfName;  // name tag -> host entry
};
NameTable &names() {
  static auto *table = new NameTable;  // never destroyed: used during static initialization and exit
  return *table;
}

std::shared_ptr<const rt::RegisteredKernel> kernelOf(const void *hostEntry) {
  return rt::syclCall([&] { return rt::lookupKernel(hostEntry); });
}

}  // namespace

namespace sycl::detail {

void register_kernel_name(const void *name_tag, const void *host_entry) {
  NameTable &table = names();
  std::lock_guard<std::mutex> lock(table.mutex);
  table.entryOfName.emplace(name_tag, host_entry);  // the first invocation's, if a name is (wrongly) reused
}

const void *kernel_entry_for_name(const void *name_tag) {
  NameTable &table = names();
  std::lock_guard<std::mutex> lock(table.mutex);
  auto it = table.entryOfName.find(name_tag);
  if (it == table.entryOfName.end())
    rt::raise(errc::invalid, "get_kernel_id: no kernel invocation of this program uses this kernel name (SYCL 2020 "
                             "§4.11.6: the name must be the kernel name of a kernel the application defines)");
  return it->second;
}

std::vector<const void *> kernel_entries() {
  std::vector<const void *> entries;
  rt::forEachKernel([&](const rt::RegisteredKernel &kernel) { entries.push_back(kernel.hostEntry); });
  return entries;
}

const char *kernel_entry_name(const void *host_entry) {
  // (kernel_id::get_name is noexcept.) The records live as long as the program.
  try {
    return rt::lookupKernel(host_entry)->name.c_str();
  } catch (const rt::Error &) {
    return "(a kernel without device code)";
  }
}

std::string kernel_incompatibility(const void *host_entry, const device_impl &device) {
  return kernelIncompatibility(*kernelOf(host_entry), device);
}

void build_kernel(const void *host_entry, device_impl &device) {
  std::shared_ptr<const rt::RegisteredKernel> kernel = kernelOf(host_entry);
  onepass_backend_launch none{};
  rt::syclCall([&] { return rt::provideKernel(device, *kernel, host_entry, none, /*generic=*/true); });
}

std::string build_kernel_for_target(const void *host_entry, std::uint32_t kind, std::uint32_t arch,
                                    const char *device_library, const char *device_library_missing,
                                    jit_output_transform transform, void *context, bool &found) {
  found = false;
  try {
    std::shared_ptr<const rt::RegisteredKernel> kernel = kernelOf(host_entry);
    rt::DeviceTarget target;
    target.kind = kind;
    target.arch = arch;
    target.isaVersion = 0;  // PTX: the lowest ISA the architecture needs, which every driver for it takes
    target.deviceLibrary = device_library ? device_library : "";
    target.deviceLibraryMissing = device_library_missing ? device_library_missing : "";
    target.name = rt::targetName(kind, arch);
    std::function<std::string(std::vector<unsigned char> &)> finish;
    if (transform) finish = [&](std::vector<unsigned char> &output) { return transform(output, context); };
    return rt::buildForTarget(*kernel, target, finish, found);
  } catch (const std::exception &e) {
    return e.what();
  }
}

bool kernels_use_spec_constant(const std::vector<const void *> &entries, const std::uint64_t *key,
                               bool unknown) noexcept {
  for (const void *entry : entries) {
    try {
      const image::KernelView &info = kernelOf(entry)->info;
      if (!info.specKeysKnown) {
        if (unknown) return true;
      } else if (key ? std::binary_search(info.specKeys.begin(), info.specKeys.end(), *key) : !info.specKeys.empty()) {
        return true;
      }
    } catch (const exception &) {
      // (a kernel without device code: it reads nothing)
    }
  }
  return false;
}

std::string kernel_attributes(const void *host_entry) {
  const image::KernelView &info = kernelOf(host_entry)->info;
  std::string text;
  if (info.reqdWorkGroupSize[0] != 0) {
    text = "reqd_work_group_size(";
    for (uint32_t d = 0; d < info.dimensions; ++d) text += (d ? "," : "") + std::to_string(info.reqdWorkGroupSize[d]);
    text += ")";
  }
  if (info.reqdSubGroupSize != 0)
    text +=
        (text.empty() ? "" : " ") + std::string("reqd_sub_group_size(") + std::to_string(info.reqdSubGroupSize) + ")";
  return text;
}

kernel_device_info kernel_info_on_device(const void *host_entry, device_impl &device) {
  std::shared_ptr<const rt::RegisteredKernel> kernel = kernelOf(host_entry);
  const image::KernelView &info = kernel->info;
  const device_properties &properties = device.properties;
  rt::KernelLimits limits = rt::syclCall([&] { return rt::kernelLimits(device, *kernel, host_entry); });
  kernel_device_info result;
  result.work_group_size = properties.max_work_group_size;
  if (limits.maxWorkGroupSize != 0)
    result.work_group_size = std::min<std::size_t>(result.work_group_size, limits.maxWorkGroupSize);
  result.private_mem_size = limits.privateBytes;
  if (info.reqdWorkGroupSize[0] != 0) {  // 1 in the dimensions the kernel does not have
    std::size_t required = 1;
    for (uint32_t d = 0; d < 3; ++d)
      required *= result.compile_work_group_size[d] = d < info.dimensions ? info.reqdWorkGroupSize[d] : 1;
    result.work_group_size = std::min(result.work_group_size, required);
  }
  const std::size_t subGroup = properties.sub_group_sizes.empty() ? 1 : properties.sub_group_sizes.back();
  result.max_sub_group_size = static_cast<uint32_t>(info.reqdSubGroupSize ? info.reqdSubGroupSize : subGroup);
  result.compile_sub_group_size = info.reqdSubGroupSize;
  result.preferred_work_group_size_multiple = std::min<std::size_t>(result.max_sub_group_size, result.work_group_size);
  result.max_num_sub_groups =
      static_cast<uint32_t>((result.work_group_size + result.max_sub_group_size - 1) / result.max_sub_group_size);
  return result;
}

std::shared_ptr<kernel_bundle_data> change_state(const std::vector<const kernel_bundle_data *> &from,
                                                 const std::vector<device> &devs, bool build, const char *what) {
  if (from.empty()) throw exception(make_error_code(errc::invalid), std::string(what) + ": no kernel bundles");
  if (devs.empty())
    throw exception(make_error_code(errc::invalid), std::string(what) + ": the list of devices is empty");
  const context &ctx = from.front()->ctx;
  for (const kernel_bundle_data *b : from) {
    if (b->ctx != ctx)
      throw exception(make_error_code(errc::invalid),
                      std::string(what) + ": the kernel bundles have different contexts");
    for (const device &dev : devs)
      if (std::find(b->devices.begin(), b->devices.end(), dev) == b->devices.end())
        throw exception(make_error_code(errc::invalid), std::string(what) + ": device '" +
                                                            dev.get_info<info::device::name>() +
                                                            "' is not a device of every kernel bundle (§4.11.11)");
  }
  auto data = std::make_shared<kernel_bundle_data>(kernel_bundle_data{ctx, {}, {}, {}, {}});
  for (const device &dev : devs)
    if (std::find(data->devices.begin(), data->devices.end(), dev) == data->devices.end()) data->devices.push_back(dev);
  std::vector<kernel_id> kernels;
  for (const kernel_bundle_data *b : from) {
    for (const kernel_id &id : b->ids) {
      if (std::find(kernels.begin(), kernels.end(), id) != kernels.end()) continue;
      bool runs = false;
      for (const device &dev : data->devices)
        if (kernel_incompatibility(id.host_entry(), *dev.impl()).empty()) {
          runs = true;
          if (build) build_kernel(id.host_entry(), *dev.impl());  // errc::build
        }
      if (runs) kernels.push_back(id);
    }
    data->merge_spec_constants(*b, what);
  }
  data->set_kernels(std::move(kernels));
  return data;
}

std::vector<device> common_devices(const std::vector<const kernel_bundle_data *> &from) {
  if (from.empty()) throw exception(make_error_code(errc::invalid), "link: no kernel bundles");
  std::vector<device> common = from.front()->devices;
  for (const kernel_bundle_data *b : from)
    common.erase(std::remove_if(common.begin(), common.end(),
                                [&](const device &d) {
                                  return std::find(b->devices.begin(), b->devices.end(), d) == b->devices.end();
                                }),
                 common.end());
  return common;
}

void kernel_bundle_data::merge_spec_constants(const kernel_bundle_data &from, const char *what) {
  if (!from.spec) return;
  if (!spec) spec = std::make_shared<spec_table>();
  spec->merge(*from.spec, what);
}

void kernel_bundle_data::set_kernels(std::vector<kernel_id> kernels) {
  ids = std::move(kernels);
  auto list = std::make_shared<std::vector<const void *>>();
  for (const kernel_id &id : ids) list->push_back(id.host_entry());
  entries = std::move(list);
}

}  // namespace sycl::detail

namespace sycl {

std::vector<kernel_id> get_kernel_ids() {
  std::vector<kernel_id> ids;
  for (const void *entry : detail::kernel_entries()) ids.emplace_back(entry);
  return ids;
}

bool is_compatible(const std::vector<kernel_id> &kernelIds, const device &dev) {
  return std::all_of(kernelIds.begin(), kernelIds.end(), [&](const kernel_id &id) {
    return detail::kernel_incompatibility(id.host_entry(), *dev.impl()).empty();
  });
}

// §4.11.11: compile, link and build. A bundle's devices are the devices of a
// call that names none.
kernel_bundle<bundle_state::object> compile(const kernel_bundle<bundle_state::input> &inputBundle,
                                            const std::vector<device> &devs, const property_list &) {
  return kernel_bundle<bundle_state::object>(detail::change_state({inputBundle.data().get()}, devs, false, "compile"));
}
kernel_bundle<bundle_state::object> compile(const kernel_bundle<bundle_state::input> &inputBundle,
                                            const property_list &propList) {
  return compile(inputBundle, inputBundle.get_devices(), propList);
}
kernel_bundle<bundle_state::executable> link(const std::vector<kernel_bundle<bundle_state::object>> &objectBundles,
                                             const std::vector<device> &devs, const property_list &) {
  return kernel_bundle<bundle_state::executable>(
      detail::change_state(detail::bundle_data(objectBundles), devs, true, "link"));
}
kernel_bundle<bundle_state::executable> link(const kernel_bundle<bundle_state::object> &objectBundle,
                                             const std::vector<device> &devs, const property_list &) {
  return kernel_bundle<bundle_state::executable>(detail::change_state({objectBundle.data().get()}, devs, true, "link"));
}
kernel_bundle<bundle_state::executable> link(const std::vector<kernel_bundle<bundle_state::object>> &objectBundles,
                                             const property_list &) {
  const std::vector<const detail::kernel_bundle_data *> data = detail::bundle_data(objectBundles);
  return kernel_bundle<bundle_state::executable>(
      detail::change_state(data, detail::common_devices(data), true, "link"));
}
kernel_bundle<bundle_state::executable> link(const kernel_bundle<bundle_state::object> &objectBundle,
                                             const property_list &propList) {
  return link(objectBundle, objectBundle.get_devices(), propList);
}
kernel_bundle<bundle_state::executable> build(const kernel_bundle<bundle_state::input> &inputBundle,
                                              const std::vector<device> &devs, const property_list &) {
  return kernel_bundle<bundle_state::executable>(detail::change_state({inputBundle.data().get()}, devs, true, "build"));
}
kernel_bundle<bundle_state::executable> build(const kernel_bundle<bundle_state::input> &inputBundle,
                                              const property_list &propList) {
  return build(inputBundle, inputBundle.get_devices(), propList);
}

}  // namespace sycl
