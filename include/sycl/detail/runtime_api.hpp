// The narrow interface between the SYCL headers and libonepass-rt.
// The SYCL API layer turns each command group into a command_group_desc (an
// "operation" in ARCHITECTURE.md) and hands it to the runtime; it never talks
// to a backend directly. Nothing here is part of the SYCL API.
#pragma once

#include "../exception.hpp"
#include "../info.hpp"
#include "defines.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sycl::detail {

struct platform_impl;
struct device_impl;
struct context_impl;
struct queue_impl;
struct event_impl;

struct platform_properties {
  std::string name;
  std::string vendor;
  std::string version;
  backend backend_kind = backend::ext_onepass_cpu;
};

struct device_properties {
  info::device_type type = info::device_type::cpu;
  backend backend_kind = backend::ext_onepass_cpu;
  std::string name;
  std::string vendor;
  std::string driver_version;
  std::string version;
  std::uint32_t vendor_id = 0;
  std::uint32_t max_compute_units = 1;
  std::uint32_t max_clock_frequency_mhz = 0;
  std::size_t max_work_group_size = 1;
  std::uint64_t global_mem_size = 0;
  std::uint64_t max_mem_alloc_size = 0;
  std::uint64_t local_mem_size = 0;
  std::uint32_t cache_line_size = 64;
  std::vector<std::size_t> sub_group_sizes;
  std::vector<aspect> aspects;
};

// --- platforms, devices, contexts ---------------------------------------
ONEPASS_RT_API std::vector<std::shared_ptr<platform_impl>> get_platform_impls();
ONEPASS_RT_API const platform_properties &get_platform_properties(const platform_impl &);
ONEPASS_RT_API std::vector<std::shared_ptr<device_impl>> get_platform_devices(const platform_impl &);
ONEPASS_RT_API const device_properties &get_device_properties(const device_impl &);
ONEPASS_RT_API std::shared_ptr<platform_impl> get_device_platform(const device_impl &);
// Why optional backends (CUDA, ...) have no devices here; empty if all are present.
ONEPASS_RT_API std::string describe_absent_backends();
// The device the default selector picks (honours ONEPASS_DEVICE).
ONEPASS_RT_API int default_selector_score(const device_impl &);

ONEPASS_RT_API std::shared_ptr<context_impl>
make_context(const std::vector<std::shared_ptr<device_impl>> &devices, const async_handler &handler);
ONEPASS_RT_API std::vector<std::shared_ptr<device_impl>> get_context_devices(const context_impl &);
// SYCL 2020 §4.6.2: the platform's default context, shared by every queue
// constructed without an explicit context.
ONEPASS_RT_API std::shared_ptr<context_impl> get_platform_default_context(const platform_impl &);

// --- queues and commands -------------------------------------------------
struct queue_options {
  bool in_order = false;
  bool enable_profiling = false;
};

ONEPASS_RT_API std::shared_ptr<queue_impl> make_queue(const std::shared_ptr<context_impl> &ctx,
                                                      const std::shared_ptr<device_impl> &dev,
                                                      const async_handler &handler,
                                                      const queue_options &options);
ONEPASS_RT_API std::shared_ptr<device_impl> get_queue_device(const queue_impl &);
ONEPASS_RT_API std::shared_ptr<context_impl> get_queue_context(const queue_impl &);
ONEPASS_RT_API bool queue_is_in_order(const queue_impl &);

struct kernel_launch_desc {
  const void *host_entry = nullptr;  // address of the kernel's entry instantiation: its identity
  std::shared_ptr<const void> object;  // a copy of the kernel object, the argument blob
  std::size_t object_size = 0;
  bool single_task = false;
  int dimensions = 1;
  std::size_t global_range[3] = {1, 1, 1};
};

enum class command_kind { none, kernel, copy, fill };

struct command_group_desc {
  command_kind kind = command_kind::none;
  kernel_launch_desc kernel;
  void *destination = nullptr;
  const void *source = nullptr;
  std::size_t bytes = 0;                // copy: bytes to copy
  std::vector<unsigned char> pattern;   // fill: one element's bytes
  std::size_t count = 0;                // fill: number of elements
  std::vector<std::shared_ptr<event_impl>> dependencies;
};

ONEPASS_RT_API std::shared_ptr<event_impl> queue_submit(queue_impl &, command_group_desc &&);
ONEPASS_RT_API void queue_wait(queue_impl &);
ONEPASS_RT_API void queue_throw_asynchronous(queue_impl &);

// --- events ----------------------------------------------------------------
ONEPASS_RT_API void event_wait(const std::shared_ptr<event_impl> &);
ONEPASS_RT_API void event_wait_and_throw(const std::shared_ptr<event_impl> &);
ONEPASS_RT_API info::event_command_status event_status(const event_impl &);
ONEPASS_RT_API std::vector<std::shared_ptr<event_impl>> event_dependencies(const event_impl &);
enum class profiling_point { submit, start, end };
ONEPASS_RT_API std::uint64_t event_profiling(const event_impl &, profiling_point);

// --- USM -------------------------------------------------------------------
enum class usm_kind { host, device, shared, unknown };
ONEPASS_RT_API void *usm_allocate(std::size_t bytes, std::size_t alignment, usm_kind kind,
                                  const std::shared_ptr<device_impl> &dev,
                                  const std::shared_ptr<context_impl> &ctx);
ONEPASS_RT_API void usm_free(void *ptr, const context_impl &ctx);
ONEPASS_RT_API usm_kind usm_pointer_kind(const void *ptr, const context_impl &ctx);
ONEPASS_RT_API std::shared_ptr<device_impl> usm_pointer_device(const void *ptr, const context_impl &ctx);

}  // namespace sycl::detail
