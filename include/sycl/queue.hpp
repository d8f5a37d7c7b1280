// SYCL 2020 §4.6.5 queue, with the shortcut functions of §4.6.5.2.
#pragma once

#include "context.hpp"
#include "handler.hpp"
#include "property_list.hpp"

namespace sycl {

class queue : public detail::property_holder {
public:
  explicit queue(const property_list &props = {}) : queue(device(), async_handler{}, props) {}
  explicit queue(const async_handler &handler, const property_list &props = {}) : queue(device(), handler, props) {}
  template <typename Selector,
            typename = std::enable_if_t<std::is_invocable_r_v<int, const Selector &, const device &>>>
  explicit queue(const Selector &selector, const property_list &props = {})
      : queue(device(selector), async_handler{}, props) {}
  template <typename Selector,
            typename = std::enable_if_t<std::is_invocable_r_v<int, const Selector &, const device &>>>
  queue(const Selector &selector, const async_handler &handler, const property_list &props = {})
      : queue(device(selector), handler, props) {}
  explicit queue(const device &dev, const property_list &props = {}) : queue(dev, async_handler{}, props) {}
  queue(const device &dev, const async_handler &handler, const property_list &props = {})
      : queue(context(detail::get_platform_default_context(*dev.get_platform().impl())), dev, handler, props) {}
  queue(const context &ctx, const device &dev, const property_list &props = {})
      : queue(ctx, dev, async_handler{}, props) {}
  // errc::invalid when the device is not one of the context's.
  queue(const context &ctx, const device &dev, const async_handler &handler, const property_list &props = {})
      : property_holder("queue", props), impl_(detail::make_queue(ctx.impl(), dev.impl(), handler, options(props))) {}
  // §4.6.5.1: the device the selector picks (errc::invalid when the context
  // does not contain it).
  template <typename Selector,
            typename = std::enable_if_t<std::is_invocable_r_v<int, const Selector &, const device &>>>
  queue(const context &ctx, const Selector &selector, const property_list &props = {})
      : queue(ctx, device(selector), async_handler{}, props) {}
  template <typename Selector,
            typename = std::enable_if_t<std::is_invocable_r_v<int, const Selector &, const device &>>>
  queue(const context &ctx, const Selector &selector, const async_handler &handler, const property_list &props = {})
      : queue(ctx, device(selector), handler, props) {}

  device get_device() const { return device(detail::get_queue_device(*impl_)); }
  context get_context() const { return context(detail::get_queue_context(*impl_)); }
  bool is_in_order() const { return detail::queue_is_in_order(*impl_); }
  backend get_backend() const noexcept { return get_device().get_backend(); }

  template <typename Param> typename Param::return_type get_info() const {
    if constexpr (std::is_same_v<Param, info::queue::context>) return get_context();
    else if constexpr (std::is_same_v<Param, info::queue::device>) return get_device();
    else static_assert(sizeof(Param) == 0, "queue info descriptor not supported by OnePass");
  }

  template <typename CommandGroup> event submit(CommandGroup command_group) {
    return submit_with(command_group, nullptr, nullptr);
  }

  // §4.6.5.1: when the command group cannot be submitted to this queue
  // (it throws a sycl::exception), it is submitted to `secondary` instead;
  // but a kernel that does not suit both queues' devices is
  // errc::kernel_not_supported either way (§5.7, §4.9.4.4).
  template <typename CommandGroup> event submit(CommandGroup command_group, queue &secondary) {
    bool both_devices = false;
    try {
      return submit_with(command_group, secondary.impl_.get(), &both_devices);
    } catch (const exception &) {
      if (both_devices) throw;
      return secondary.submit(command_group);
    }
  }

  void wait() { detail::queue_wait(*impl_); }
  void wait_and_throw() {
    detail::queue_wait(*impl_);
    detail::queue_throw_asynchronous(*impl_);
  }
  void throw_asynchronous() { detail::queue_throw_asynchronous(*impl_); }

private:
  // `both_devices` is set while the secondary queue's rules are checked.
  template <typename CommandGroup>
  event submit_with(CommandGroup &command_group, const detail::queue_impl *secondary, bool *both_devices) {
    handler h;
    h.queue_ = impl_.get();
    h.secondary_ = secondary;
    command_group(h);
    if (secondary) {
      *both_devices = true;
      h.check_secondary();
      *both_devices = false;
    }
    // The commands before this one wait for what it waits for (a reduction's
    // fill or copy of its target must not run before the command the user
    // ordered the kernel after).
    if (!h.before_.empty()) {
      const auto ordered_after = h.desc_.dependencies;
      for (const auto &before : h.before_) {
        std::function<void(handler &)> first = [&](handler &prior) {
          prior.desc_.dependencies = ordered_after;
          before(prior);
        };
        h.depends_on(submit(first));
      }
    }
    event done(detail::queue_submit(*impl_, std::move(h.desc_)));
    // A command group of finish_ or after_, depending on `done`.
    auto submit_after_done = [&](const std::function<void(handler &)> &group) {
      std::function<void(handler &)> then = [&](handler &next) {  // as before_'s: one instantiation of submit
        next.depends_on(done);
        group(next);
      };
      return submit(then);
    };
    for (const auto &finish : h.finish_) done = submit_after_done(finish);
    for (const auto &finished : h.finished_) finished(done);
    for (const auto &after : h.after_) submit_after_done(after);
    return done;
  }

public:

  // --- shortcuts -------------------------------------------------------------
  template <typename KernelName = detail::auto_name, typename KernelType> event single_task(const KernelType &kernel) {
    return submit([&](handler &h) { h.single_task<KernelName>(kernel); });
  }
  template <typename KernelName = detail::auto_name, typename KernelType>
  event single_task(event dependency, const KernelType &kernel) {
    return single_task<KernelName>(std::vector<event>{dependency}, kernel);
  }
  template <typename KernelName = detail::auto_name, typename KernelType>
  event single_task(const std::vector<event> &dependencies, const KernelType &kernel) {
    return submit([&](handler &h) {
      h.depends_on(dependencies);
      h.single_task<KernelName>(kernel);
    });
  }

  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  event parallel_for(range<Dimensions> global_range, const KernelType &kernel) {
    return submit([&](handler &h) { h.parallel_for<KernelName>(global_range, kernel); });
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  event parallel_for(range<Dimensions> global_range, event dependency, const KernelType &kernel) {
    return parallel_for<KernelName>(global_range, std::vector<event>{dependency}, kernel);
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  event parallel_for(range<Dimensions> global_range, const std::vector<event> &dependencies, const KernelType &kernel) {
    return submit([&](handler &h) {
      h.depends_on(dependencies);
      h.parallel_for<KernelName>(global_range, kernel);
    });
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  event parallel_for(nd_range<Dimensions> execution_range, const KernelType &kernel) {
    return submit([&](handler &h) { h.parallel_for<KernelName>(execution_range, kernel); });
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  event parallel_for(nd_range<Dimensions> execution_range, event dependency, const KernelType &kernel) {
    return parallel_for<KernelName>(execution_range, std::vector<event>{dependency}, kernel);
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType> event
  parallel_for(nd_range<Dimensions> execution_range, const std::vector<event> &dependencies, const KernelType &kernel) {
    return submit([&](handler &h) {
      h.depends_on(dependencies);
      h.parallel_for<KernelName>(execution_range, kernel);
    });
  }
  // With reductions (reduction.hpp).
  template <typename KernelName = detail::auto_name, int Dimensions, typename First, typename Second, typename... Rest,
            typename = std::enable_if_t<detail::is_reduction<std::decay_t<First>>::value>>
  event parallel_for(range<Dimensions> global_range, First &&first, Second &&second, Rest &&...rest) {
    return submit([&](handler &h) {
      h.parallel_for<KernelName>(global_range, std::forward<First>(first), std::forward<Second>(second),
                                 std::forward<Rest>(rest)...);
    });
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename First, typename Second, typename... Rest,
            typename = std::enable_if_t<detail::is_reduction<std::decay_t<First>>::value>>
  event parallel_for(nd_range<Dimensions> execution_range, First &&first, Second &&second, Rest &&...rest) {
    return submit([&](handler &h) {
      h.parallel_for<KernelName>(execution_range, std::forward<First>(first), std::forward<Second>(second),
                                 std::forward<Rest>(rest)...);
    });
  }

  // Deprecated in SYCL 2020: with an offset (handler::parallel_for's).
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  event parallel_for(range<Dimensions> global_range, id<Dimensions> offset, const KernelType &kernel) {
    return submit([&](handler &h) { h.parallel_for<KernelName>(global_range, offset, kernel); });
  }

  template <typename KernelName = detail::auto_name, typename KernelType>
  event parallel_for(std::size_t count, const KernelType &kernel) {
    return parallel_for<KernelName>(range<1>(count), kernel);
  }

  // memcpy, memset, prefetch and mem_advise with a list of dependencies are
  // defined in the runtime (runtime/sycl/HeaderBodies.cpp): a TU that
  // includes <sycl/sycl.hpp> instantiates no queue::submit for them.
  ONEPASS_RT_API event memcpy(void *destination, const void *source, std::size_t bytes,
                              const std::vector<event> &dependencies = {});
  template <typename T>
  event copy(const T *source, T *destination, std::size_t count, const std::vector<event> &dependencies = {}) {
    return submit([&](handler &h) {
      h.depends_on(dependencies);
      h.copy(source, destination, count);
    });
  }
  ONEPASS_RT_API event memset(void *pointer, int value, std::size_t bytes,
                              const std::vector<event> &dependencies = {});
  template <typename T>
  event fill(void *pointer, const T &pattern, std::size_t count, const std::vector<event> &dependencies = {}) {
    return submit([&](handler &h) {
      h.depends_on(dependencies);
      h.fill(pointer, pattern, count);
    });
  }
  // The same with one dependency (SYCL 2020 §4.6.5.2).
  // (memcpy, memset, prefetch and mem_advise: runtime/sycl/HeaderBodies.cpp.)
  ONEPASS_RT_API event memcpy(void *destination, const void *source, std::size_t bytes, event dependency);
  template <typename T> event copy(const T *source, T *destination, std::size_t count, event dependency) {
    return copy(source, destination, count, std::vector<event>{dependency});
  }
  ONEPASS_RT_API event memset(void *pointer, int value, std::size_t bytes, event dependency);
  template <typename T> event fill(void *pointer, const T &pattern, std::size_t count, event dependency) {
    return fill(pointer, pattern, count, std::vector<event>{dependency});
  }

  // USM hints (§4.6.5.3): prefetch and mem_advise, as handler::prefetch and
  // handler::mem_advise in a command group of their own.
  ONEPASS_RT_API event prefetch(const void *ptr, std::size_t numBytes, const std::vector<event> &depEvents = {});
  ONEPASS_RT_API event prefetch(const void *ptr, std::size_t numBytes, event depEvent);
  ONEPASS_RT_API event mem_advise(const void *ptr, std::size_t numBytes, int advice,
                                  const std::vector<event> &depEvents = {});
  ONEPASS_RT_API event mem_advise(const void *ptr, std::size_t numBytes, int advice, event depEvent);

  // Shortcuts with (placeholder) accessors (§4.6.5.2): the accessor is
  // required by the command group the shortcut submits.
  template <typename T, int Dims, access_mode Mode, target Tgt, access::placeholder P>
  event update_host(accessor<T, Dims, Mode, Tgt, P> acc) {
    return submit([&](handler &h) { h.update_host(acc); });
  }
  template <typename T, int Dims, access_mode Mode, target Tgt, access::placeholder P>
  event fill(accessor<T, Dims, Mode, Tgt, P> dest, const T &src) {
    return submit([&](handler &h) {
      h.require(dest);
      h.fill(dest, src);
    });
  }
  template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt, access::placeholder SrcP, typename DestT>
  event copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, SrcP> src, DestT *dest) {
    return submit([&](handler &h) {
      h.require(src);
      h.copy(src, dest);
    });
  }
  template <typename SrcT, typename DestT, int DestDim, access_mode DestMode, target DestTgt, access::placeholder DestP>
  event copy(const SrcT *src, accessor<DestT, DestDim, DestMode, DestTgt, DestP> dest) {
    return submit([&](handler &h) {
      h.require(dest);
      h.copy(src, dest);
    });
  }
  template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt, access::placeholder SrcP, typename DestT>
  event copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, SrcP> src, std::shared_ptr<DestT> dest) {
    return submit([&](handler &h) {
      h.require(src);
      h.copy(src, dest);
    });
  }
  template <typename SrcT, typename DestT, int DestDim, access_mode DestMode, target DestTgt, access::placeholder DestP>
  event copy(std::shared_ptr<SrcT> src, accessor<DestT, DestDim, DestMode, DestTgt, DestP> dest) {
    return submit([&](handler &h) {
      h.require(dest);
      h.copy(src, dest);
    });
  }
  template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt, access::placeholder SrcP, typename DestT,
            int DestDim, access_mode DestMode, target DestTgt, access::placeholder DestP>
  event copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, SrcP> src,
             accessor<DestT, DestDim, DestMode, DestTgt, DestP> dest) {
    return submit([&](handler &h) {
      h.require(src);
      h.require(dest);
      h.copy(src, dest);
    });
  }

  friend bool operator==(const queue &a, const queue &b) { return a.impl_ == b.impl_; }
  friend bool operator!=(const queue &a, const queue &b) { return !(a == b); }

  // OnePass internals (backend interoperability: make_queue, get_native).
  // (A template, so that a TU instantiates its property list only where it
  // makes a queue this way.)
  template <typename Impl, typename = std::enable_if_t<std::is_same_v<Impl, std::shared_ptr<detail::queue_impl>>>>
  explicit queue(Impl impl)
      : property_holder("queue", detail::queue_is_in_order(*impl) ? property_list{property::queue::in_order{}}
                                                                  : property_list{}),
        impl_(std::move(impl)) {}
  const std::shared_ptr<detail::queue_impl> &impl() const { return impl_; }

private:
  friend struct std::hash<queue>;

  static detail::queue_options options(const property_list &props) {
    detail::queue_options o;
    o.in_order = props.has_property<property::queue::in_order>();
    o.enable_profiling = props.has_property<property::queue::enable_profiling>();
    return o;
  }
  std::shared_ptr<detail::queue_impl> impl_;
};

}  // namespace sycl

// §4.5.2: std::hash agrees with operator== (the same runtime object).
namespace std {
template <> struct hash<sycl::queue> {
  size_t operator()(const sycl::queue &q) const noexcept { return hash<const void *>()(q.impl_.get()); }
};
}  // namespace std
