// SYCL 2020 §4.9.4 command group handler.
#pragma once

#include "detail/kernel_entry.hpp"
#include "detail/runtime_api.hpp"
#include "detail/std_parts.hpp"
#include "specialization_constant.hpp"
#include "event.hpp"
#include "nd_range.hpp"
#include "range.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace sycl {

class queue;
template <typename DataT, int Dimensions, access_mode AccessMode, target AccessTarget,
          access::placeholder IsPlaceholder>
class accessor;
template <typename DataT, int Dimensions> class local_accessor;
enum class bundle_state : int;
template <bundle_state State> class kernel_bundle;
namespace detail {
struct handler_internals;
struct image_access;
template <typename R> struct is_reduction;

// Kernel names (SYCL 2020 §4.11.6): one address per kernel name type, and its
// registration with the kernel's host entry at program start, made by every
// kernel invocation template that uses the name (get_kernel_id looks it up).
template <typename Name> inline constexpr char kernel_name_tag = 0;
template <typename Name, auto Entry> struct kernel_name_registration {
  static inline const bool registered =
      (register_kernel_name(&kernel_name_tag<Name>, reinterpret_cast<const void *>(Entry)), true);
};
}  // namespace detail

class handler {
public:
  handler(const handler &) = delete;
  handler &operator=(const handler &) = delete;

  // --- kernels (§4.9.4.2) -----------------------------------------------------
  template <typename KernelName = detail::auto_name, typename KernelType> void single_task(const KernelType &kernel) {
    if constexpr (std::is_invocable_v<const KernelType &, kernel_handler>) {
      single_task<KernelName>(with_kernel_handler(kernel));
    } else {
      using Name = detail::kernel_name_t<KernelName, KernelType>;
      static_assert(std::is_invocable_v<const KernelType &>, "single_task needs a kernel callable with no arguments");
      auto &launch = begin_kernel(kernel);
      launch.host_entry = reinterpret_cast<const void *>(&detail::kernel_entry_single_task<Name, KernelType>);
      static_cast<void>(
          detail::kernel_name_registration<Name, &detail::kernel_entry_single_task<Name, KernelType>>::registered);
      launch.single_task = true;
      launch.dimensions = 1;
    }
  }

  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  void parallel_for(range<Dimensions> global_range, const KernelType &kernel) {
    if constexpr (std::is_invocable_v<const KernelType &, item<Dimensions>, kernel_handler>) {
      parallel_for<KernelName>(global_range, with_kernel_handler(kernel));
    } else {
      using Name = detail::kernel_name_t<KernelName, KernelType>;
      detail::check_parallel_for_kernel<KernelType, Dimensions>();
      auto &launch = begin_kernel(kernel);
      launch.host_entry =
          reinterpret_cast<const void *>(&detail::kernel_entry_parallel_for<Name, KernelType, Dimensions>);
      static_cast<void>(detail::kernel_name_registration<
                        Name, &detail::kernel_entry_parallel_for<Name, KernelType, Dimensions>>::registered);
      launch.dimensions = Dimensions;
      for (int d = 0; d < Dimensions; ++d) launch.global_range[d] = global_range[d];
    }
  }

  // An nd_range kernel (§4.9.4.2.3): work-groups of the local range. The
  // global range must be a multiple of it in every dimension (errc::nd_range);
  // whether the device can run groups that large is checked at submission.
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  void parallel_for(nd_range<Dimensions> execution_range, const KernelType &kernel) {
    if constexpr (std::is_invocable_v<const KernelType &, nd_item<Dimensions>, kernel_handler>) {
      parallel_for<KernelName>(execution_range, with_kernel_handler(kernel));
    } else {
      using Name = detail::kernel_name_t<KernelName, KernelType>;
      detail::check_nd_range_kernel<KernelType, Dimensions>();
      range<Dimensions> global = execution_range.get_global_range(), local = execution_range.get_local_range();
      // An empty global range runs nothing, whatever the local range (§3.7.2.2).
      for (int d = 0; d < Dimensions && global.size() > 0; ++d) {
        if (local[d] == 0 || global[d] % local[d] != 0)
          throw exception(make_error_code(errc::nd_range),
                          "parallel_for(nd_range): the global range " + detail::range_text(&global[0], Dimensions) +
                              " is not a multiple of the local range " + detail::range_text(&local[0], Dimensions) +
                              " (dimension " + std::to_string(d) + ")");
      }
      auto &launch = begin_kernel(kernel);
      launch.host_entry = reinterpret_cast<const void *>(&detail::kernel_entry_nd_range<Name, KernelType, Dimensions>);
      static_cast<void>(
          detail::kernel_name_registration<Name,
                                           &detail::kernel_entry_nd_range<Name, KernelType, Dimensions>>::registered);
      launch.dimensions = Dimensions;
      for (int d = 0; d < Dimensions; ++d) {
        launch.global_range[d] = global[d];
        launch.local_range[d] = local[d];
        launch.global_offset[d] = execution_range.get_offset()[d];  // deprecated; nd_item reports it
      }
    }
  }

  // With reductions (§4.9.2, reduction.hpp): parallel_for(range or nd_range,
  // reductions..., kernel), the kernel taking a reducer per reduction.
  template <typename KernelName = detail::auto_name, int Dimensions, typename First, typename Second, typename... Rest,
            typename = std::enable_if_t<detail::is_reduction<std::decay_t<First>>::value>>
  void parallel_for(range<Dimensions> global_range, First &&first, Second &&second, Rest &&...rest) {
    parallel_for_reduce<KernelName>(global_range, std::forward<First>(first), std::forward<Second>(second),
                                    std::forward<Rest>(rest)...);
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename First, typename Second, typename... Rest,
            typename = std::enable_if_t<detail::is_reduction<std::decay_t<First>>::value>>
  void parallel_for(nd_range<Dimensions> execution_range, First &&first, Second &&second, Rest &&...rest) {
    parallel_for_reduce<KernelName>(execution_range, std::forward<First>(first), std::forward<Second>(second),
                                    std::forward<Rest>(rest)...);
  }

  // Deprecated in SYCL 2020 (§4.9.4.2.2): ids start at `offset`, which the
  // kernel's items report (get_offset); the launch itself has none.
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  void parallel_for(range<Dimensions> global_range, id<Dimensions> offset, const KernelType &kernel) {
    if constexpr (std::is_invocable_v<const KernelType &, item<Dimensions>, kernel_handler>) {
      parallel_for<KernelName>(global_range, offset, with_kernel_handler(kernel));
    } else {
      detail::check_parallel_for_kernel<KernelType, Dimensions>();
      parallel_for<KernelName>(global_range, detail::offset_kernel<KernelType, Dimensions>{kernel, offset});
    }
  }

  // A braced list of 2 or 3 sizes is a range (§4.9.4.2.2: parallel_for({N1, N2}, kernel)).
  template <typename KernelName = detail::auto_name, typename KernelType>
  void parallel_for(range<2> global_range, const KernelType &kernel) {
    parallel_for<KernelName, 2, KernelType>(global_range, kernel);
  }
  template <typename KernelName = detail::auto_name, typename KernelType>
  void parallel_for(range<3> global_range, const KernelType &kernel) {
    parallel_for<KernelName, 3, KernelType>(global_range, kernel);
  }

  // A plain count means a 1-D range (as `range<1>` is implicitly constructible).
  template <typename KernelName = detail::auto_name, typename KernelType>
  void parallel_for(std::size_t count, const KernelType &kernel) {
    parallel_for<KernelName>(range<1>(count), kernel);
  }

  // Hierarchical kernels (§4.9.4.2.4, deprecated in SYCL 2020): `kernel` runs
  // once per work-group and takes its group<Dimensions>, whose
  // parallel_for_work_item runs the work-items. The handler describes each
  // work-group as a device work-group of one work-item that runs the
  // group's code and its work-item loops in turn (variables of the
  // work-group scope are that work-item's, so shared as the spec says);
  // a device whose JIT target spreads the loops over the group
  // (ONEPASS_KERNEL_FEATURE_HIERARCHICAL: NVIDIA GPUs) gets the work-groups
  // at their size instead (runtime/sycl/Queue.cpp, jit/src/HierarchicalLowering.h).
  // Without a work-group size the runtime picks 1 in every dimension.
  template <typename KernelName = detail::auto_name, typename WorkgroupFunctionType, int Dimensions>
  void parallel_for_work_group(range<Dimensions> num_work_groups, const WorkgroupFunctionType &kernel) {
    parallel_for_work_group<KernelName>(num_work_groups, ones<Dimensions>(), kernel);
  }
  template <typename KernelName = detail::auto_name, typename WorkgroupFunctionType, int Dimensions>
  void parallel_for_work_group(range<Dimensions> num_work_groups, range<Dimensions> work_group_size,
                               const WorkgroupFunctionType &kernel) {
    if constexpr (std::is_invocable_v<const WorkgroupFunctionType &, group<Dimensions>, kernel_handler>) {
      parallel_for_work_group<KernelName>(num_work_groups, work_group_size, with_kernel_handler(kernel));
    } else {
      static_assert(std::is_invocable_v<const WorkgroupFunctionType &, group<Dimensions>>,
                    "parallel_for_work_group needs a kernel callable with sycl::group<N> (SYCL 2020 §4.9.4.2.4); "
                    "the kernel must be const-callable");
      for (int d = 0; d < Dimensions; ++d)
        if (work_group_size[d] == 0)
          throw exception(make_error_code(errc::nd_range), "parallel_for_work_group: the work-group size " +
                                                               detail::range_text(&work_group_size[0], Dimensions) +
                                                               " is empty in dimension " + std::to_string(d));
      parallel_for<KernelName>(nd_range<Dimensions>(num_work_groups, ones<Dimensions>()),
                               detail::work_group_kernel<WorkgroupFunctionType, Dimensions>{kernel, work_group_size});
      for (int d = 0; d < Dimensions; ++d) desc_.kernel.hierarchical_group[d] = work_group_size[d];
    }
  }

  // --- specialization constants (§4.9.5.2) -----------------------------------
  template <auto &SpecName> void set_specialization_constant(detail::spec_value_t<SpecName> value) {
    check_no_bundle("set_specialization_constant");
    if (!spec_) spec_ = std::make_unique<detail::spec_table>();
    spec_->set(detail::spec_key<SpecName>(), &SpecName, &value, sizeof(value), alignof(decltype(value)),
               "handler::set_specialization_constant");
  }
  template <auto &SpecName> detail::spec_value_t<SpecName> get_specialization_constant() {
    check_no_bundle("get_specialization_constant");
    return detail::spec_value<SpecName>(spec_ ? &spec_->values : nullptr);
  }

  // --- explicit memory operations (§4.9.4.3) ----------------------------------
  void memcpy(void *destination, const void *source, std::size_t bytes) {
    begin_command(detail::command_kind::copy);
    desc_.destination = destination;
    desc_.source = source;
    desc_.bytes = bytes;
  }
  template <typename T> void copy(const T *source, T *destination, std::size_t count) {
    static_assert(std::is_trivially_copyable_v<T>, "handler::copy needs a trivially copyable type");
    memcpy(destination, source, count * sizeof(T));
  }
  ONEPASS_RT_API void memset(void *pointer, int value, std::size_t bytes);
  template <typename T> void fill(void *pointer, const T &pattern, std::size_t count) {
    static_assert(std::is_trivially_copyable_v<T>, "handler::fill needs a trivially copyable type");
    begin_command(detail::command_kind::fill);
    desc_.destination = pointer;
    desc_.pattern.resize(sizeof(T));
    std::memcpy(desc_.pattern.data(), &pattern, sizeof(T));
    desc_.count = count;
  }

  // USM hints (§4.9.4.3): commands of the task graph like the
  // others, ordered by their dependencies; what they do is the backend's
  // choice (runtime/sycl/Queue.cpp). The spec has `void *`; `const void *`
  // also takes the const pointers code written for DPC++ (and the CTS) passes.
  void prefetch(const void *ptr, std::size_t numBytes) {
    begin_command(detail::command_kind::prefetch);
    desc_.destination = const_cast<void *>(ptr);
    desc_.bytes = numBytes;
  }
  // Advice values are backend-specific; 0 reverts to the default behaviour.
  void mem_advise(const void *ptr, std::size_t numBytes, int advice) {
    begin_command(detail::command_kind::mem_advise);
    desc_.destination = const_cast<void *>(ptr);
    desc_.bytes = numBytes;
    desc_.count = static_cast<std::size_t>(static_cast<unsigned>(advice));
  }

  // --- explicit copies with accessors (§4.9.4.3); defined in accessor.hpp -----
  template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt, access::placeholder SrcPh, typename DestT>
  void copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, SrcPh> src, std::shared_ptr<DestT> dest);
  template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt, access::placeholder SrcPh, typename DestT>
  void copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, SrcPh> src, DestT *dest);
  template <typename SrcT, typename DestT, int DestDim, access_mode DestMode, target DestTgt,
            access::placeholder DestPh>
  void copy(std::shared_ptr<SrcT> src, accessor<DestT, DestDim, DestMode, DestTgt, DestPh> dest);
  template <typename SrcT, typename DestT, int DestDim, access_mode DestMode, target DestTgt,
            access::placeholder DestPh>
  void copy(const SrcT *src, accessor<DestT, DestDim, DestMode, DestTgt, DestPh> dest);
  template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt, access::placeholder SrcPh, typename DestT,
            int DestDim, access_mode DestMode, target DestTgt, access::placeholder DestPh>
  void copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, SrcPh> src,
            accessor<DestT, DestDim, DestMode, DestTgt, DestPh> dest);
  template <typename T, int Dim, access_mode Mode, target Tgt, access::placeholder Ph>
  void update_host(accessor<T, Dim, Mode, Tgt, Ph> acc);
  template <typename T, int Dim, access_mode Mode, target Tgt, access::placeholder Ph>
  void fill(accessor<T, Dim, Mode, Tgt, Ph> dest, const T &src);

  // --- host tasks (§4.10) ------------------------------------------------------
  // Runs `task` on a host thread once the command group's requirements are met;
  // its target::host_task accessors see the host's copy of the data. A
  // target::device accessor used in a host task is undefined by §4.7.6.9
  // (native handles only); OnePass gives it the host's copy too, as if it
  // were a host_task accessor, rather than leave it pointing nowhere.
  // A task taking an interop_handle sees its target::device accessors' data
  // on the device instead (interop_handle.hpp, where this is defined).
  template <typename T> void host_task(T &&task);

  // --- requirements and dependencies (§4.9.4.1) ---------------------------------
  // Binds a placeholder accessor (or any accessor) to this command group.
  template <typename T, int D, access_mode M, target Tg, access::placeholder P>
  void require(accessor<T, D, M, Tg, P> acc);

  ONEPASS_RT_API void depends_on(event e);
  void depends_on(const std::vector<event> &events) {
    for (const event &e : events) depends_on(e);
  }

  // --- kernel bundles (§4.9.4.4); defined in kernel_bundle.hpp ----------------
  template <bundle_state State> void use_kernel_bundle(const kernel_bundle<State> &bundle);

private:
  friend class queue;
  template <typename, int, access_mode, target, access::placeholder> friend class accessor;
  template <typename, int> friend class local_accessor;
  friend class stream;
  friend struct detail::handler_internals;
  friend struct detail::image_access;
  handler() = default;

  // Reductions over a range run in groups of this size, at most as many as
  // the runtime's reduction_group_limit says (the GPU's, without a queue).
  static constexpr std::size_t kReductionGroupSize = 256, kReductionGroupsGpu = 2048;
  const detail::queue_impl *queue_ = nullptr;  // the queue submitting this command group
  template <typename KernelName, int Dimensions, typename... Rest>
  void parallel_for_reduce(range<Dimensions> global_range, Rest &&...rest);
  template <typename KernelName, int Dimensions, typename... Rest>
  void parallel_for_reduce(nd_range<Dimensions> execution_range, Rest &&...rest);
  template <typename KernelName, int Dimensions, typename Kernel, typename Arguments, std::size_t... I> void
  reduce_range(range<Dimensions> global_range, const Kernel &kernel, Arguments &arguments, std::index_sequence<I...>);
  template <typename KernelName, int Dimensions, typename Kernel, typename Arguments, std::size_t... I>
  void reduce_nd_range(nd_range<Dimensions> execution_range, const Kernel &kernel, Arguments &arguments,
                       std::index_sequence<I...>);
  // Command groups queue::submit submits before this one (the reductions'
  // initialize_to_identity); this one depends on them. And those it submits
  // after this one, depending on it (freeing a reduction's scratch memory).
  // finish_: command groups that complete this one's work (a reduction's
  // copy from its cell to its target): each depends on the one before, and
  // the event submit returns is the last one's; finished_ is then called
  // with that event.
  std::vector<std::function<void(handler &)>> before_, after_, finish_;
  std::vector<std::function<void(const event &)>> finished_;

  // A local accessor's place in the work-group's local memory: its offset,
  // after those of the command group's earlier local accessors.
  std::size_t reserve_local_memory(std::size_t bytes, std::size_t alignment) {
    std::size_t &total = desc_.kernel.local_memory_bytes;
    const std::size_t offset = (total + alignment - 1) / alignment * alignment;
    total = offset + bytes;
    return offset;
  }

  // (add_access, add_stream, has_access, depends_on(event) and memset are
  // defined in the runtime, runtime/sycl/HeaderBodies.cpp: no vector member
  // or algorithm of theirs is instantiated in every TU.)
  ONEPASS_RT_API void add_access(const detail::buffer_access &access);
  // A sycl::stream of this command group: its control block on the device.
  ONEPASS_RT_API void *add_stream(std::size_t total_bytes, std::size_t work_item_bytes);
  inline void bind_host_task_accessors(void *closure, std::size_t bytes);
  template <typename Accessor> static detail::buffer_access access_of(const Accessor &acc) { return acc.access_; }
  ONEPASS_RT_API bool has_access(const detail::buffer_access &access) const;
  // Registers an accessor given to copy/fill/update_host (unless it already
  // is) and describes its side of the operation.
  template <typename Accessor> detail::region_side accessor_side(const Accessor &acc);

  void begin_command(detail::command_kind kind) {
    if (desc_.kind != detail::command_kind::none)
      throw exception(make_error_code(errc::invalid),
                      "a command group may contain only one command (kernel, copy or fill)");
    desc_.kind = kind;
  }

  template <typename KernelType> detail::kernel_launch_desc &begin_kernel(const KernelType &kernel) {
    static_assert(std::is_copy_constructible_v<KernelType>, "a SYCL kernel must be copyable");
    begin_command(detail::command_kind::kernel);
    if constexpr (std::is_trivially_copyable_v<KernelType> &&
                  sizeof(KernelType) <= detail::kernel_launch_desc::inline_capacity &&
                  alignof(KernelType) <= detail::kernel_launch_desc::inline_alignment)
      std::memcpy(desc_.kernel.inline_object, static_cast<const void *>(&kernel), sizeof(KernelType));
    else desc_.kernel.object = std::make_shared<KernelType>(kernel);
    desc_.kernel.object_size = sizeof(KernelType);
    return desc_.kernel;
  }

  // A kernel taking a kernel_handler, with this command group's
  // specialization constants.
  template <typename KernelType> detail::kernel_with_handler<KernelType> with_kernel_handler(const KernelType &kernel) {
    detail::kernel_with_handler<KernelType> wrapped{kernel, {}};
    if (spec_) wrapped.values = spec_->values;
    else if (bundle_spec_) wrapped.values = bundle_spec_->values;  // the kernel bundle's (§4.9.5.2)
    return wrapped;
  }
  template <int Dimensions> static range<Dimensions> ones() {
    range<Dimensions> r;
    for (int d = 0; d < Dimensions; ++d) r[d] = 1;
    return r;
  }
  void check_no_bundle(const char *what) const {
    if (desc_.kernel.bundle)
      throw exception(make_error_code(errc::invalid),
                      std::string("handler::") + what +
                          ": the command group uses a kernel bundle (set the constant on the bundle, §4.9.5.2)");
  }

  detail::command_group_desc desc_;
  std::unique_ptr<detail::spec_table> spec_;          // the values set, if any
  std::shared_ptr<const detail::spec_table> bundle_spec_;  // those of the kernel bundle used, if any
  // submit(cgf, secondary) (§4.6.5.1): the secondary queue, whose device the
  // command group's kernel must suit too (§4.9.4.4, §5.7), and whether the
  // kernel bundle used has that device.
  const detail::queue_impl *secondary_ = nullptr;
  bool bundle_has_secondary_ = true;
  // The rules of a command group with a secondary queue, once it has run:
  // its kernel suits both queues' devices (errc::kernel_not_supported).
  // runtime/sycl/HeaderBodies.cpp.
  ONEPASS_RT_API void check_secondary() const;
};

}  // namespace sycl
