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

#include <algorithm>
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

}  // namespace sycl::detail
