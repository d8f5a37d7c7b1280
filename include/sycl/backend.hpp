// SYCL 2020 §4.5.1: backend interoperability. OnePass's CUDA backend
// (backend::cuda) exposes its native objects with the types of the SYCL CUDA
// backend convention: a device is a CUdevice, a context the CUcontexts of its
// devices, a queue a CUstream, a buffer's data a DataT * (a CUdeviceptr's
// value). The CPU device has no native API: its backend_traits know only a
// buffer's data (host memory, for interop_handle::get_native_mem).
#pragma once

#include "context.hpp"
#include "device.hpp"
#include "exception.hpp"
#include "half.hpp"
#include "queue.hpp"

#include <cstdint>
#include <string>
#include <vector>

// The CUDA driver API's handle types, declared as cuda.h declares them (so
// both headers can be included, in any order).
struct CUctx_st;
struct CUstream_st;
struct CUevent_st;

namespace sycl {

template <typename T, int D, typename A> class buffer;

namespace detail {
template <typename T> struct cuda_interop {};  // not interoperable: no input/return type
template <> struct cuda_interop<platform> { using return_type = std::vector<int>; };
template <> struct cuda_interop<device> {
  using input_type = int;
  using return_type = int;
};
template <> struct cuda_interop<context> {
  using input_type = CUctx_st *;
  using return_type = std::vector<CUctx_st *>;
};
template <> struct cuda_interop<queue> {
  using input_type = CUstream_st *;
  using return_type = CUstream_st *;
};
template <> struct cuda_interop<event> {
  using input_type = CUevent_st *;
  using return_type = CUevent_st *;
};
template <typename T, int D, typename A> struct cuda_interop<buffer<T, D, A>> { using return_type = T *; };
template <typename T, int D, access_mode M, target Tg, access::placeholder P>
struct cuda_interop<accessor<T, D, M, Tg, P>> {
  using return_type = T *;
};
template <typename T, int D> struct cuda_interop<local_accessor<T, D>> { using return_type = T *; };

inline const char *backend_name(backend b) {
  switch (b) {
  case backend::ext_onepass_cpu: return "ext_onepass_cpu";
  case backend::cuda: return "cuda";
  case backend::level_zero: return "level_zero";
  case backend::opencl: return "opencl";
  case backend::hip: return "hip";
  }
  return "unknown";
}
[[noreturn]] inline void throw_backend_mismatch(const char *what, backend asked, backend actual) {
  throw exception(make_error_code(errc::backend_mismatch),
                  std::string(what) + ": asked for backend::" + backend_name(asked) +
                      ", but the object's backend is backend::" + backend_name(actual));
}
inline void *native_of(const device &d, native_object what) { return device_native_handle(*d.impl(), what); }

// The CPU device's only native object: a buffer's data, in host memory.
template <typename T> struct cpu_interop {};
template <typename T, int D, typename A> struct cpu_interop<buffer<T, D, A>> { using return_type = T *; };
}  // namespace detail

template <backend Backend> class backend_traits;
template <> class backend_traits<backend::cuda> {
public:
  template <class T> using input_type = typename detail::cuda_interop<T>::input_type;
  template <class T> using return_type = typename detail::cuda_interop<T>::return_type;
};
template <> class backend_traits<backend::ext_onepass_cpu> {
public:
  template <class T> using return_type = typename detail::cpu_interop<T>::return_type;
};
template <backend Backend, typename SyclType> using backend_input_t =
    typename backend_traits<Backend>::template input_type<SyclType>;
template <backend Backend, typename SyclType> using backend_return_t =
    typename backend_traits<Backend>::template return_type<SyclType>;

// §4.5.1.2 get_native: errc::backend_mismatch unless the object is Backend's.
template <backend Backend, typename SyclObject>
backend_return_t<Backend, SyclObject> get_native(const SyclObject &object) {
  static_assert(Backend == backend::cuda, "OnePass: only backend::cuda has native objects");
  if (object.get_backend() != Backend) detail::throw_backend_mismatch("get_native", Backend, object.get_backend());
  if constexpr (std::is_same_v<SyclObject, device>)
    return static_cast<int>(reinterpret_cast<std::intptr_t>(detail::native_of(object, detail::native_object::device)));
  else if constexpr (std::is_same_v<SyclObject, platform>) {
    std::vector<int> devices;
    for (const device &d : object.get_devices()) devices.push_back(get_native<Backend>(d));
    return devices;
  } else if constexpr (std::is_same_v<SyclObject, context>) {
    std::vector<CUctx_st *> contexts;
    for (void *handle : detail::context_native_handles(*object.impl()))
      contexts.push_back(static_cast<CUctx_st *>(handle));
    return contexts;
  } else if constexpr (std::is_same_v<SyclObject, queue>)
    // The CUstream the queue was made from (make_queue), else the device's
    // interop stream.
    return static_cast<CUstream_st *>(detail::queue_native_handle(*object.impl()));
  else if constexpr (std::is_same_v<SyclObject, event>)
    // A CUevent that completes once the command has (possibly with later
    // work of its stream): waits until the command is on its stream.
    return static_cast<CUevent_st *>(detail::event_native_handle(object.impl()));
  else static_assert(sizeof(SyclObject) == 0, "OnePass: get_native does not support this SYCL class");
}

// Kernel function interoperability (the CUDA backend's convention): in a
// kernel, an accessor's or local accessor's native object is a pointer to
// its first element, which device functions taking a T * can use. (Read-only
// accessors of a non-const T give a T *, as the convention says.)
template <backend Backend, typename T, int D, access_mode M, target Tg, access::placeholder P>
T *get_native(const accessor<T, D, M, Tg, P> &acc) {
  static_assert(Backend == backend::cuda, "OnePass: only backend::cuda has native objects");
  static_assert(Tg == target::device || Tg == target::constant_buffer || Tg == target::local,
                "get_native of an accessor is for accessors used in kernels (target::device, constant_buffer, "
                "local)");
  if constexpr (Tg == target::device || Tg == target::local)  // (target::local: a local_accessor)
    return const_cast<T *>(acc.template get_multi_ptr<access::decorated::no>().get_raw());
  else return const_cast<T *>(acc.get_pointer().get());
}
template <backend Backend, typename T, int D> T *get_native(const local_accessor<T, D> &acc) {
  static_assert(Backend == backend::cuda, "OnePass: only backend::cuda has native objects");
  return const_cast<T *>(acc.template get_multi_ptr<access::decorated::no>().get_raw());
}

// §4.5.1.3: the OnePass device behind a CUdevice (errc::invalid if none is).
template <backend Backend> device make_device(const backend_input_t<Backend, device> &native) {
  static_assert(Backend == backend::cuda, "OnePass: only backend::cuda has native objects");
  for (const device &d : device::get_devices())
    if (d.get_backend() == Backend && get_native<Backend>(d) == native) return d;
  throw exception(make_error_code(errc::invalid),
                  "make_device<backend::cuda>: no OnePass device is CUdevice " + std::to_string(native));
}

// §4.5.1.3: a context of the device a CUcontext is on, whose get_native
// answers that CUcontext (errc::invalid if no OnePass device is its device).
// OnePass itself keeps running the device's work in the device's primary
// context (the CUDA runtime API's context too): memory from sycl::malloc_*
// and buffers lies there, not in the given CUcontext.
template <backend Backend>
context make_context(const backend_input_t<Backend, context> &native, const async_handler handler = {}) {
  static_assert(Backend == backend::cuda, "OnePass: only backend::cuda has native objects");
  return context(detail::context_from_native(native, handler));
}

// §4.5.1.3: an in-order queue whose commands run on the CUstream, in order
// with the work others enqueue there (the stream stays the caller's, never
// destroyed). The stream must belong to the primary context of a device of
// the context (errc::invalid otherwise). Commands OnePass runs on the host
// (host tasks, buffer write-backs) follow the queue's order but not the
// stream's.
template <backend Backend> queue make_queue(const backend_input_t<Backend, queue> &native, const context &target,
                                            const async_handler handler = {}) {
  static_assert(Backend == backend::cuda, "OnePass: only backend::cuda has native objects");
  if (target.get_backend() != Backend) detail::throw_backend_mismatch("make_queue", Backend, target.get_backend());
  return queue(detail::queue_from_native(target.impl(), native, handler));
}

// §4.5.1.3: an event that completes when the CUevent does (a CUevent never
// recorded is complete). errc::backend_mismatch unless the context is CUDA's.
template <backend Backend> event make_event(const backend_input_t<Backend, event> &native, const context &target) {
  static_assert(Backend == backend::cuda, "OnePass: only backend::cuda has native objects");
  if (target.get_backend() != Backend) detail::throw_backend_mismatch("make_event", Backend, target.get_backend());
  return event(detail::event_from_native(*target.impl(), native));
}

// SYCL 2020 Appendix C.7.8 (Table 163): the OpenCL backend's scalar type
// aliases, which code written for SYCL 1.2.1 uses without an OpenCL backend.
namespace opencl {
using cl_bool = bool;
using cl_char = std::int8_t;
using cl_uchar = std::uint8_t;
using cl_short = std::int16_t;
using cl_ushort = std::uint16_t;
using cl_int = std::int32_t;
using cl_uint = std::uint32_t;
using cl_long = std::int64_t;
using cl_ulong = std::uint64_t;
using cl_half = half;
using cl_float = float;
using cl_double = double;
}  // namespace opencl

}  // namespace sycl
