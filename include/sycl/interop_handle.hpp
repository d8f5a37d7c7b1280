// SYCL 2020 §4.10.2: the interop_handle a host task may take, to reach the
// backend's native objects and its accessors' data on the device.
#pragma once

#include "accessor.hpp"
#include "backend.hpp"

namespace sycl {

class interop_handle {
public:
  interop_handle() = delete;

  backend get_backend() const noexcept { return device(detail::interop_device(*state_)).get_backend(); }

  // The device address of a target::device accessor's (sub-)buffer.
  template <backend Backend, typename DataT, int Dims, access_mode Mode, target Target, access::placeholder P>
  backend_return_t<Backend, buffer<DataT, Dims>>
  get_native_mem(const accessor<DataT, Dims, Mode, Target, P> &acc) const {
    static_assert(Target == target::device, "interop_handle::get_native_mem takes accessors of target::device");
    check(Backend, "interop_handle::get_native_mem");
    return static_cast<DataT *>(
        detail::interop_native_mem(*state_, reinterpret_cast<std::uintptr_t>(acc.view_.start())));
  }
  // The native queue (the CUstream of a queue made by make_queue, else the
  // device's interop stream): work the host task enqueues on it has completed
  // when the host task's event completes (OnePass waits for it).
  template <backend Backend> backend_return_t<Backend, queue> get_native_queue() const {
    check(Backend, "interop_handle::get_native_queue");
    return static_cast<CUstream_st *>(native(detail::native_object::queue));
  }
  template <backend Backend> backend_return_t<Backend, device> get_native_device() const {
    check(Backend, "interop_handle::get_native_device");
    return static_cast<int>(reinterpret_cast<std::intptr_t>(native(detail::native_object::device)));
  }
  template <backend Backend> backend_return_t<Backend, context> get_native_context() const {
    check(Backend, "interop_handle::get_native_context");
    return {static_cast<CUctx_st *>(native(detail::native_object::context))};
  }

private:
  friend class handler;
  explicit interop_handle(const detail::interop_state &state) : state_(&state) {}
  void check(backend asked, const char *what) const {
    const backend actual = get_backend();
    if (asked != actual) detail::throw_backend_mismatch(what, asked, actual);
  }
  void *native(detail::native_object what) const {
    return detail::interop_native_object(*state_, what);
  }
  const detail::interop_state *state_;
};

template <typename T> void handler::host_task(T &&task) {
  using F = std::decay_t<T>;
  constexpr bool interop = std::is_invocable_v<F &, interop_handle>;
  static_assert(interop || std::is_invocable_v<F &>, "host_task needs a callable taking nothing or an interop_handle");
  begin_command(detail::command_kind::host_task);
  if constexpr (interop) {
    desc_.interop_task = [task = F(std::forward<T>(task))](const detail::interop_state &state) mutable {
      task(interop_handle(state));
    };
  } else {
    F closure(std::forward<T>(task));
    bind_host_task_accessors(&closure, sizeof(closure));
    desc_.host_task = [task = std::move(closure)]() mutable { task(); };
  }
}

}  // namespace sycl
