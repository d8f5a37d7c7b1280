// SYCL 2020 §4.11 kernel bundles: kernel identifiers, executable bundles, and
// the kernel class.
//
// A kernel's identity is its host entry (detail/kernel_entry.hpp); every
// kernel invocation registers its kernel name type with it at program start
// (detail::kernel_name_registration, handler.hpp), which get_kernel_id<Name>
// looks up. Every device has aspect::online_compiler and online_linker (the
// JIT): bundles exist in all three states. Input and object bundles hold the
// kernels' device code as it is in the program; specialization constants are
// set on input bundles and travel through compile, link and build. Getting an
// executable bundle (get_kernel_bundle, build, link) compiles its kernels for
// its devices then and there (the JIT's work, errc::build if it fails); a
// command group that uses the bundle (handler::use_kernel_bundle) runs those
// binaries and takes the bundle's specialization constants. (A kernel that
// reads specialization constants is compiled for their values, so its
// binary for a bundle's values is made at the first launch that uses them.)
#pragma once

#include "context.hpp"
#include "detail/runtime_api.hpp"
#include "detail/std_parts.hpp"
#include "handler.hpp"
#include "info.hpp"
#include "range.hpp"

#include <algorithm>
#include <memory>
#include <type_traits>
#include <vector>

namespace sycl {

enum class bundle_state : int { input, object, executable };

template <bundle_state State> class kernel_bundle;
class kernel;

class kernel_id {
public:
  kernel_id() = delete;
  const char *get_name() const noexcept { return detail::kernel_entry_name(entry_); }

  friend bool operator==(const kernel_id &a, const kernel_id &b) { return a.entry_ == b.entry_; }
  friend bool operator!=(const kernel_id &a, const kernel_id &b) { return !(a == b); }

  explicit kernel_id(const void *host_entry) : entry_(host_entry) {}
  const void *host_entry() const { return entry_; }

private:
  const void *entry_;
};

// §4.11.6. A name no kernel invocation of the program uses is errc::invalid
// here, at run time: OnePass cannot see the whole program at compile time to
// diagnose it then, as the specification asks.
template <typename KernelName> kernel_id get_kernel_id() {
  return kernel_id(detail::kernel_entry_for_name(&detail::kernel_name_tag<KernelName>));
}

ONEPASS_RT_API std::vector<kernel_id> get_kernel_ids();  // runtime/sycl/KernelBundles.cpp

// §4.11.9: attributes, features and precision the device lacks make a kernel
// incompatible with it. Defined in runtime/sycl/KernelBundles.cpp.
ONEPASS_RT_API bool is_compatible(const std::vector<kernel_id> &kernelIds, const device &dev);
template <typename KernelName> bool is_compatible(const device &dev) {
  return is_compatible({get_kernel_id<KernelName>()}, dev);
}

namespace detail {

// What a kernel bundle holds: its context and devices, and its kernels (one
// device image each). Shared: bundles have reference semantics (§4.5.2).
struct kernel_bundle_data {
  context ctx;
  std::vector<device> devices;
  std::vector<kernel_id> ids;
  // The kernels' host entries, for the launches of command groups that use
  // the bundle (kernel_launch_desc::bundle): derived from `ids`.
  std::shared_ptr<const std::vector<const void *>> entries;
  // The specialization constants set on the bundle (§4.11.12.2), if any.
  std::shared_ptr<spec_table> spec;

  // Adds `from`'s specialization constants to this bundle's own table (a
  // value of `from` wins). (This and set_kernels are defined in the runtime,
  // runtime/sycl/KernelBundles.cpp.)
  ONEPASS_RT_API void merge_spec_constants(const kernel_bundle_data &from, const char *what);
  ONEPASS_RT_API void set_kernels(std::vector<kernel_id> kernels);
};

// Whether two lists without duplicates hold the same elements (the devices,
// the kernels of bundles).
template <typename T> bool same_elements(const std::vector<T> &x, const std::vector<T> &y) {
  return x.size() == y.size() &&
         std::all_of(x.begin(), x.end(), [&](const T &e) { return std::find(y.begin(), y.end(), e) != y.end(); });
}

template <bundle_state State> std::shared_ptr<kernel_bundle_data>
make_bundle(const context &ctx, const std::vector<device> &devs, const std::vector<kernel_id> *requested) {
  if (devs.empty()) throw exception(make_error_code(errc::invalid), "get_kernel_bundle: the list of devices is empty");
  const std::vector<device> contextDevices = ctx.get_devices();
  auto data = std::make_shared<kernel_bundle_data>(kernel_bundle_data{ctx, {}, {}, {}, {}});
  for (const device &dev : devs) {
    if (std::find(contextDevices.begin(), contextDevices.end(), dev) == contextDevices.end())
      throw exception(make_error_code(errc::invalid), "get_kernel_bundle: device '" +
                                                          dev.get_info<info::device::name>() +
                                                          "' is not a device of the context");
    if (std::find(data->devices.begin(), data->devices.end(), dev) == data->devices.end()) data->devices.push_back(dev);
  }
  for (const device &dev : data->devices) {
    if (State == bundle_state::input && !dev.has(aspect::online_compiler))
      throw exception(make_error_code(errc::invalid),
                      "get_kernel_bundle<bundle_state::input>: device '" + dev.get_info<info::device::name>() +
                          "' lacks aspect::online_compiler (OnePass exposes kernels as executable bundles only)");
    if (State == bundle_state::object && !dev.has(aspect::online_linker))
      throw exception(make_error_code(errc::invalid),
                      "get_kernel_bundle<bundle_state::object>: device '" + dev.get_info<info::device::name>() +
                          "' lacks aspect::online_linker (OnePass exposes kernels as executable bundles only)");
  }
  const std::vector<kernel_id> all = requested ? *requested : get_kernel_ids();
  std::vector<kernel_id> included;
  for (const kernel_id &id : all) {
    std::vector<device> compatible;
    for (const device &dev : data->devices)
      if (kernel_incompatibility(id.host_entry(), *dev.impl()).empty()) compatible.push_back(dev);
    if (compatible.empty()) {
      if (!requested) continue;  // all kernels: those compatible with some device
      throw exception(make_error_code(errc::invalid),
                      std::string("get_kernel_bundle: kernel '") + id.get_name() +
                          "' is incompatible with every device of the bundle: " +
                          kernel_incompatibility(id.host_entry(), *data->devices.front().impl()));
    }
    if (std::find(included.begin(), included.end(), id) != included.end()) continue;
    if (State == bundle_state::executable)
      for (const device &dev : compatible) build_kernel(id.host_entry(), *dev.impl());  // errc::build
    included.push_back(id);
  }
  data->set_kernels(std::move(included));
  return data;
}

}  // namespace detail

// §4.11.14: OnePass's device images hold one kernel each.
template <bundle_state State> class device_image {
public:
  device_image() = delete;
  bool has_kernel(const kernel_id &kernelId) const noexcept { return kernelId == id_; }
  bool has_kernel(const kernel_id &kernelId, const device &dev) const noexcept {
    return kernelId == id_ && std::find(data_->devices.begin(), data_->devices.end(), dev) != data_->devices.end() &&
           detail::kernel_incompatibility(id_.host_entry(), *dev.impl()).empty();
  }

  device_image(kernel_id id, std::shared_ptr<detail::kernel_bundle_data> data) : id_(id), data_(std::move(data)) {}

  // Common reference semantics (§4.5.2): the same image is the same kernel's
  // code for the same devices of the same context (bundles made from one
  // another share their images).
  friend bool operator==(const device_image &a, const device_image &b) {
    if (a.id_ != b.id_) return false;
    return a.data_ == b.data_ ||
           (a.data_->ctx == b.data_->ctx && detail::same_elements(a.data_->devices, b.data_->devices));
  }
  friend bool operator!=(const device_image &a, const device_image &b) { return !(a == b); }

private:
  friend struct std::hash<device_image>;
  kernel_id id_;
  std::shared_ptr<detail::kernel_bundle_data> data_;
};

template <bundle_state State> class kernel_bundle {
public:
  using device_image_iterator = typename std::vector<device_image<State>>::const_iterator;

  kernel_bundle() = delete;

  bool empty() const noexcept { return data_->ids.empty(); }
  backend get_backend() const noexcept { return data_->ctx.get_backend(); }
  context get_context() const noexcept { return data_->ctx; }
  std::vector<device> get_devices() const noexcept { return data_->devices; }

  bool has_kernel(const kernel_id &kernelId) const noexcept {
    return std::find(data_->ids.begin(), data_->ids.end(), kernelId) != data_->ids.end();
  }
  bool has_kernel(const kernel_id &kernelId, const device &dev) const noexcept {
    return has_kernel(kernelId) && device_image<State>(kernelId, data_).has_kernel(kernelId, dev);
  }
  template <typename KernelName> bool has_kernel() const noexcept {
    try {
      return has_kernel(get_kernel_id<KernelName>());
    } catch (const exception &) {
      return false;  // no kernel of that name
    }
  }
  template <typename KernelName> bool has_kernel(const device &dev) const noexcept {
    try {
      return has_kernel(get_kernel_id<KernelName>(), dev);
    } catch (const exception &) {
      return false;
    }
  }
  std::vector<kernel_id> get_kernel_ids() const { return data_->ids; }

  template <bundle_state S = State, typename = std::enable_if_t<S == bundle_state::executable>>
  kernel get_kernel(const kernel_id &kernelId) const;
  template <typename KernelName, bundle_state S = State, typename = std::enable_if_t<S == bundle_state::executable>>
  kernel get_kernel() const;

  // §4.11.12.2: whether the bundle's kernels read specialization constants
  // (stage 1 records those each kernel reaches; a kernel built before that
  // record existed counts as reading the constants set on the bundle). The
  // JIT compiles their values into the kernels, so they are native.
  bool contains_specialization_constants() const noexcept {
    return data_->entries &&
           detail::kernels_use_spec_constant(*data_->entries, nullptr, data_->spec && data_->spec->values.count > 0);
  }
  bool native_specialization_constant() const noexcept { return contains_specialization_constants(); }
  template <auto &SpecName> bool has_specialization_constant() const noexcept {
    const std::uint64_t key = detail::spec_key<SpecName>();
    return data_->entries && detail::kernels_use_spec_constant(*data_->entries, &key,
                                                               data_->spec && data_->spec->values.find(key) != nullptr);
  }
  template <auto &SpecName, bundle_state S = State, typename = std::enable_if_t<S == bundle_state::input>>
  void set_specialization_constant(detail::spec_value_t<SpecName> value) {
    if (!data_->spec) data_->spec = std::make_shared<detail::spec_table>();
    data_->spec->set(detail::spec_key<SpecName>(), &SpecName, &value, sizeof(value), alignof(decltype(value)),
                     "kernel_bundle::set_specialization_constant");
  }
  template <auto &SpecName> detail::spec_value_t<SpecName> get_specialization_constant() const {
    return detail::spec_value<SpecName>(data_->spec ? &data_->spec->values : nullptr);
  }

  device_image_iterator begin() const {
    images();
    return images_->begin();
  }
  device_image_iterator end() const {
    images();
    return images_->end();
  }

  // Equal: the same context, devices and device images (§4.11.12).
  friend bool operator==(const kernel_bundle &a, const kernel_bundle &b) {
    if (a.data_ == b.data_) return true;
    return a.data_->ctx == b.data_->ctx && detail::same_elements(a.data_->devices, b.data_->devices) &&
           detail::same_elements(a.data_->ids, b.data_->ids);
  }
  friend bool operator!=(const kernel_bundle &a, const kernel_bundle &b) { return !(a == b); }

  explicit kernel_bundle(std::shared_ptr<detail::kernel_bundle_data> data) : data_(std::move(data)) {}
  const std::shared_ptr<detail::kernel_bundle_data> &data() const { return data_; }

private:
  void images() const {
    if (images_) return;
    auto list = std::make_shared<std::vector<device_image<State>>>();
    for (const kernel_id &id : data_->ids) list->emplace_back(id, data_);
    images_ = std::move(list);
  }
  std::shared_ptr<detail::kernel_bundle_data> data_;
  mutable std::shared_ptr<std::vector<device_image<State>>> images_;
};

// §4.11.13.
class kernel {
public:
  kernel() = delete;

  backend get_backend() const noexcept { return bundle_->ctx.get_backend(); }
  context get_context() const { return bundle_->ctx; }
  kernel_bundle<bundle_state::executable> get_kernel_bundle() const {
    return kernel_bundle<bundle_state::executable>(bundle_);
  }

  template <typename Param> typename Param::return_type get_info() const {
    if constexpr (std::is_same_v<Param, info::kernel::attributes>) return detail::kernel_attributes(id_.host_entry());
    else if constexpr (std::is_same_v<Param, info::kernel::num_args>)
      throw exception(make_error_code(errc::invalid),
                      "info::kernel::num_args: only for kernels of a backend's "
                      "interoperability bundle or device built-in kernels (§4.11.13.2)");
    else static_assert(sizeof(Param) == 0, "kernel info descriptor not supported by OnePass");
  }

  template <typename Param> typename Param::return_type get_info(const device &dev) const {
    namespace k = info::kernel_device_specific;
    const std::string why = detail::kernel_incompatibility(id_.host_entry(), *dev.impl());
    if (!why.empty()) throw exception(make_error_code(errc::invalid), "kernel::get_info: " + why);
    if constexpr (std::is_same_v<Param, k::global_work_size>) {
      throw exception(make_error_code(errc::invalid),
                      "info::kernel_device_specific::global_work_size: only for custom devices and built-in kernels "
                      "(§4.11.13.2)");
    } else {
      const detail::kernel_device_info i = detail::kernel_info_on_device(id_.host_entry(), *dev.impl());
      if constexpr (std::is_same_v<Param, k::work_group_size>) return i.work_group_size;
      else if constexpr (std::is_same_v<Param, k::compile_work_group_size>)
        return range<3>(i.compile_work_group_size[0], i.compile_work_group_size[1], i.compile_work_group_size[2]);
      else if constexpr (std::is_same_v<Param, k::preferred_work_group_size_multiple>)
        return i.preferred_work_group_size_multiple;
      else if constexpr (std::is_same_v<Param, k::private_mem_size>) return i.private_mem_size;
      else if constexpr (std::is_same_v<Param, k::max_num_sub_groups>) return i.max_num_sub_groups;
      else if constexpr (std::is_same_v<Param, k::compile_num_sub_groups>) return i.compile_num_sub_groups;
      else if constexpr (std::is_same_v<Param, k::max_sub_group_size>) return i.max_sub_group_size;
      else if constexpr (std::is_same_v<Param, k::compile_sub_group_size>) return i.compile_sub_group_size;
      else static_assert(sizeof(Param) == 0, "kernel_device_specific info descriptor not supported by OnePass");
    }
  }

  friend bool operator==(const kernel &a, const kernel &b) { return a.id_ == b.id_ && a.bundle_ == b.bundle_; }
  friend bool operator!=(const kernel &a, const kernel &b) { return !(a == b); }

  kernel(kernel_id id, std::shared_ptr<detail::kernel_bundle_data> bundle) : id_(id), bundle_(std::move(bundle)) {}
  const kernel_id &id() const { return id_; }

private:
  kernel_id id_;
  std::shared_ptr<detail::kernel_bundle_data> bundle_;
};

template <bundle_state State> template <bundle_state S, typename>
kernel kernel_bundle<State>::get_kernel(const kernel_id &kernelId) const {
  if (!has_kernel(kernelId))
    throw exception(make_error_code(errc::invalid),
                    std::string("kernel_bundle::get_kernel: the bundle does not contain kernel '") +
                        kernelId.get_name() + "'");
  return kernel(kernelId, data_);
}
template <bundle_state State> template <typename KernelName, bundle_state S, typename>
kernel kernel_bundle<State>::get_kernel() const {
  return get_kernel(get_kernel_id<KernelName>());
}

// §4.11.7.
template <bundle_state State> kernel_bundle<State>
get_kernel_bundle(const context &ctxt, const std::vector<device> &devs, const std::vector<kernel_id> &kernelIds) {
  return kernel_bundle<State>(detail::make_bundle<State>(ctxt, devs, &kernelIds));
}
template <bundle_state State>
kernel_bundle<State> get_kernel_bundle(const context &ctxt, const std::vector<device> &devs) {
  return kernel_bundle<State>(detail::make_bundle<State>(ctxt, devs, nullptr));
}
template <bundle_state State> kernel_bundle<State> get_kernel_bundle(const context &ctxt) {
  return get_kernel_bundle<State>(ctxt, ctxt.get_devices());
}
template <bundle_state State>
kernel_bundle<State> get_kernel_bundle(const context &ctxt, const std::vector<kernel_id> &kernelIds) {
  return get_kernel_bundle<State>(ctxt, ctxt.get_devices(), kernelIds);
}
template <typename KernelName, bundle_state State> kernel_bundle<State> get_kernel_bundle(const context &ctxt) {
  return get_kernel_bundle<State>(ctxt, ctxt.get_devices(), {get_kernel_id<KernelName>()});
}
template <typename KernelName, bundle_state State>
kernel_bundle<State> get_kernel_bundle(const context &ctxt, const std::vector<device> &devs) {
  return get_kernel_bundle<State>(ctxt, devs, {get_kernel_id<KernelName>()});
}
template <bundle_state State, typename Selector,
          typename = std::enable_if_t<std::is_invocable_r_v<bool, Selector, const device_image<State> &>>>
kernel_bundle<State> get_kernel_bundle(const context &ctxt, const std::vector<device> &devs, Selector selector) {
  kernel_bundle<State> all = get_kernel_bundle<State>(ctxt, devs);
  std::vector<kernel_id> chosen;
  for (const kernel_id &id : all.get_kernel_ids())
    if (selector(device_image<State>(id, all.data()))) chosen.push_back(id);
  auto data = std::make_shared<detail::kernel_bundle_data>(*all.data());
  data->set_kernels(std::move(chosen));
  return kernel_bundle<State>(std::move(data));
}
template <bundle_state State, typename Selector,
          typename = std::enable_if_t<std::is_invocable_r_v<bool, Selector, const device_image<State> &>>>
kernel_bundle<State> get_kernel_bundle(const context &ctxt, Selector selector) {
  return get_kernel_bundle<State>(ctxt, ctxt.get_devices(), selector);
}

// §4.11.8.
template <bundle_state State>
bool has_kernel_bundle(const context &ctxt, const std::vector<device> &devs, const std::vector<kernel_id> &kernelIds) {
  if (devs.empty()) throw exception(make_error_code(errc::invalid), "has_kernel_bundle: the list of devices is empty");
  const std::vector<device> contextDevices = ctxt.get_devices();
  for (const device &dev : devs)
    if (std::find(contextDevices.begin(), contextDevices.end(), dev) == contextDevices.end())
      throw exception(make_error_code(errc::invalid), "has_kernel_bundle: device '" +
                                                          dev.get_info<info::device::name>() +
                                                          "' is not a device of the context");
  return std::all_of(kernelIds.begin(), kernelIds.end(), [&](const kernel_id &id) {
    return std::any_of(devs.begin(), devs.end(), [&](const device &dev) { return is_compatible({id}, dev); });
  });
}
template <bundle_state State> bool has_kernel_bundle(const context &ctxt, const std::vector<device> &devs) {
  const std::vector<kernel_id> all = get_kernel_ids();
  if (!has_kernel_bundle<State>(ctxt, devs, std::vector<kernel_id>{})) return false;
  return std::any_of(all.begin(), all.end(), [&](const kernel_id &id) {
    return std::any_of(devs.begin(), devs.end(), [&](const device &dev) { return is_compatible({id}, dev); });
  });
}
template <bundle_state State> bool has_kernel_bundle(const context &ctxt) {
  return has_kernel_bundle<State>(ctxt, ctxt.get_devices());
}
template <bundle_state State> bool has_kernel_bundle(const context &ctxt, const std::vector<kernel_id> &kernelIds) {
  return has_kernel_bundle<State>(ctxt, ctxt.get_devices(), kernelIds);
}
template <typename KernelName, bundle_state State> bool has_kernel_bundle(const context &ctxt) {
  return has_kernel_bundle<State>(ctxt, {get_kernel_id<KernelName>()});
}
template <typename KernelName, bundle_state State>
bool has_kernel_bundle(const context &ctxt, const std::vector<device> &devs) {
  return has_kernel_bundle<State>(ctxt, devs, {get_kernel_id<KernelName>()});
}

// §4.11.10.
template <bundle_state State> kernel_bundle<State> join(const std::vector<kernel_bundle<State>> &bundles) {
  if (bundles.empty()) {  // an empty bundle, of the default context (the spec names no other)
    const context ctx;
    auto empty =
        std::make_shared<detail::kernel_bundle_data>(detail::kernel_bundle_data{ctx, ctx.get_devices(), {}, {}, {}});
    empty->set_kernels({});
    return kernel_bundle<State>(std::move(empty));
  }
  auto data = std::make_shared<detail::kernel_bundle_data>(*bundles.front().data());
  std::vector<kernel_id> kernels = data->ids;
  for (const kernel_bundle<State> &b : bundles) {
    if (b.get_context() != data->ctx || !detail::same_elements(b.data()->devices, data->devices))
      throw exception(make_error_code(errc::invalid),
                      "join: the kernel bundles have different contexts or different devices (§4.11.10)");
    for (const kernel_id &id : b.get_kernel_ids())
      if (std::find(kernels.begin(), kernels.end(), id) == kernels.end()) kernels.push_back(id);
  }
  data->set_kernels(std::move(kernels));
  // The joined bundle's constants: those of the bundles, a later one's value
  // winning (a table of its own: setting one later changes no input bundle).
  data->spec = nullptr;
  for (const kernel_bundle<State> &b : bundles) data->merge_spec_constants(*b.data(), "join");
  return kernel_bundle<State>(std::move(data));
}

namespace detail {
// §4.11.11: the bundle of `from`'s kernels that `devs` run, with a copy of
// their specialization constants; with `build` (link, build) each kernel is
// compiled for `devs` (errc::build). `what` names the call in errors. Defined
// in the runtime (runtime/sycl/KernelBundles.cpp), as is common_devices (the
// devices every bundle of `from` has): a TU that includes <sycl/sycl.hpp>
// instantiates none of it.
ONEPASS_RT_API std::shared_ptr<kernel_bundle_data> change_state(const std::vector<const kernel_bundle_data *> &from,
                                                                const std::vector<device> &devs, bool build,
                                                                const char *what);
ONEPASS_RT_API std::vector<device> common_devices(const std::vector<const kernel_bundle_data *> &from);
template <bundle_state State>
std::vector<const kernel_bundle_data *> bundle_data(const std::vector<kernel_bundle<State>> &bundles) {
  std::vector<const kernel_bundle_data *> data;
  for (const kernel_bundle<State> &b : bundles) data.push_back(b.data().get());
  return data;
}
}  // namespace detail

// §4.11.11: compile (input to object), link (objects to executable), build
// (input to executable). The JIT does the work when a bundle becomes
// executable; an object bundle is its kernels' device code, ready to link.
// Defined in runtime/sycl/KernelBundles.cpp.
ONEPASS_RT_API kernel_bundle<bundle_state::object> compile(const kernel_bundle<bundle_state::input> &inputBundle,
                                                           const std::vector<device> &devs,
                                                           const property_list &propList = {});
ONEPASS_RT_API kernel_bundle<bundle_state::object> compile(const kernel_bundle<bundle_state::input> &inputBundle,
                                                           const property_list &propList = {});
ONEPASS_RT_API kernel_bundle<bundle_state::executable>
link(const std::vector<kernel_bundle<bundle_state::object>> &objectBundles, const std::vector<device> &devs,
     const property_list &propList = {});
ONEPASS_RT_API kernel_bundle<bundle_state::executable> link(const kernel_bundle<bundle_state::object> &objectBundle,
                                                            const std::vector<device> &devs,
                                                            const property_list &propList = {});
ONEPASS_RT_API kernel_bundle<bundle_state::executable>
link(const std::vector<kernel_bundle<bundle_state::object>> &objectBundles, const property_list &propList = {});
ONEPASS_RT_API kernel_bundle<bundle_state::executable> link(const kernel_bundle<bundle_state::object> &objectBundle,
                                                            const property_list &propList = {});
ONEPASS_RT_API kernel_bundle<bundle_state::executable> build(const kernel_bundle<bundle_state::input> &inputBundle,
                                                             const std::vector<device> &devs,
                                                             const property_list &propList = {});
ONEPASS_RT_API kernel_bundle<bundle_state::executable> build(const kernel_bundle<bundle_state::input> &inputBundle,
                                                             const property_list &propList = {});

// §4.9.4.4.
template <bundle_state State> void handler::use_kernel_bundle(const kernel_bundle<State> &bundle) {
  static_assert(State == bundle_state::executable,
                "handler::use_kernel_bundle takes a kernel_bundle<bundle_state::executable>");
  for (const detail::queue_impl *q : {queue_, secondary_})
    if (q && bundle.get_context().impl() != detail::get_queue_context(*q))
      throw exception(make_error_code(errc::invalid),
                      std::string("handler::use_kernel_bundle: the kernel bundle's context is not the ") +
                          (q == queue_ ? "queue's" : "secondary queue's") + " (§4.9.4.4)");
  if (secondary_) {
    const std::vector<device> &devices = bundle.data()->devices;
    bundle_has_secondary_ =
        std::find(devices.begin(), devices.end(), device(detail::get_queue_device(*secondary_))) != devices.end();
  }
  if (spec_)
    throw exception(make_error_code(errc::invalid),
                    "handler::use_kernel_bundle after handler::set_specialization_constant in the same command group "
                    "(§4.9.4.4: set the constants on the kernel bundle instead)");
  desc_.kernel.bundle = bundle.data()->entries;
  bundle_spec_ = bundle.data()->spec;
}

}  // namespace sycl

// §4.5.2: std::hash agrees with operator==.
namespace std {
template <> struct hash<sycl::kernel_id> {
  size_t operator()(const sycl::kernel_id &id) const noexcept { return hash<const void *>()(id.host_entry()); }
};
template <> struct hash<sycl::kernel> {
  size_t operator()(const sycl::kernel &k) const noexcept { return hash<const void *>()(k.id().host_entry()); }
};
template <sycl::bundle_state State> struct hash<sycl::device_image<State>> {
  std::size_t operator()(const sycl::device_image<State> &image) const {
    return std::hash<sycl::kernel_id>()(image.id_);  // equal images have equal kernels
  }
};
template <sycl::bundle_state State> struct hash<sycl::kernel_bundle<State>> {
  size_t operator()(const sycl::kernel_bundle<State> &b) const noexcept {
    return hash<const void *>()(b.get_context().impl().get());
  }
};
}  // namespace std
