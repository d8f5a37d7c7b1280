// The narrow interface between the SYCL headers and libonepass-rt.
// The SYCL API layer turns each command group into a command_group_desc (an
// "operation" in ARCHITECTURE.md) and hands it to the runtime; it never talks
// to a backend directly. Nothing here is part of the SYCL API.
#pragma once

#include "../access.hpp"
#include "../exception.hpp"
#include "../info.hpp"
#include "defines.hpp"
#include "std_parts.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sycl::detail {

// "{a, b, c}": a range's first `dimensions` values, for error messages.
inline std::string range_text(const std::size_t *values, int dimensions) {
  std::string text = "{";
  for (int d = 0; d < dimensions; ++d) text += (d ? ", " : "") + std::to_string(values[d]);
  return text + "}";
}

// The layout of the structs below is shared by the headers a program was
// compiled with and the runtime it runs with. Each change of it renames this
// tag, which the functions that take those structs take too (their symbols
// change with it): a program built against other headers then stops at its
// first such call with the dynamic loader's "undefined symbol" error, naming
// the function, instead of reading memory of another shape.
struct abi_2026_11_27c {};

struct platform_impl;
struct device_impl;
struct context_impl;
struct queue_impl;
struct event_impl;
struct buffer_impl;
struct stream_impl;  // the runtime's side of a sycl::stream

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
  std::size_t max_work_item_sizes[3] = {1, 1, 1};  // per axis of the device (SYCL's last dimension first)
  std::uint64_t global_mem_size = 0;
  std::uint64_t max_mem_alloc_size = 0;
  std::uint64_t local_mem_size = 0;
  std::uint32_t cache_line_size = 64;
  std::uint32_t kernel_features = 0;  // what the device runs: the backend's ONEPASS_KERNEL_FEATURE_* bits
  std::vector<std::size_t> sub_group_sizes;
  std::vector<aspect> aspects;
  std::uint64_t global_mem_cache_size = 0;  // the largest cache before global memory; 0: unknown
  // The ONEPASS_DEVICE_SELECTOR term that picks this device alone
  // ("cuda:1"): its backend's word and its index among that backend's devices.
  std::string selector_term;
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

ONEPASS_RT_API std::shared_ptr<context_impl> make_context(const std::vector<std::shared_ptr<device_impl>> &devices,
                                                          const async_handler &handler);
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
                                                      const async_handler &handler, const queue_options &options);
ONEPASS_RT_API std::shared_ptr<device_impl> get_queue_device(const queue_impl &);
ONEPASS_RT_API std::shared_ptr<context_impl> get_queue_context(const queue_impl &);
ONEPASS_RT_API bool queue_is_in_order(const queue_impl &);
// Whether the queue's device is the CPU device (library code that shapes its
// kernels for the device: reductions).
ONEPASS_RT_API bool queue_device_is_cpu(const queue_impl &);
// The most work-groups a range reduction on the queue's device runs as
// (handler::reduce_range): 2048 on a GPU; on the CPU eight per thread (16 to
// 1024), so that each work-item's share of the range is long.
ONEPASS_RT_API std::size_t reduction_group_limit(const queue_impl &);

struct kernel_launch_desc {
  // A small trivially copyable kernel object is copied into the description
  // itself (no allocation per launch); others are held by `object`.
  static constexpr std::size_t inline_capacity = 64, inline_alignment = 16;

  const void *host_entry = nullptr;    // address of the kernel's entry instantiation: its identity
  std::shared_ptr<const void> object;  // a copy of the kernel object, the argument blob (if not inline)
  alignas(inline_alignment) unsigned char inline_object[inline_capacity];
  std::size_t object_size = 0;
  bool single_task = false;
  int dimensions = 1;
  std::size_t global_range[3] = {1, 1, 1};
  std::size_t local_range[3] = {0, 0, 0};  // an nd_range kernel's work-group; 0: a range kernel
  std::size_t local_memory_bytes = 0;      // per work-group: the command group's local accessors
  // How much work one work-item does, in units of a plain work-item's: a
  // range reduction's work-items on the CPU each take a share of the range.
  // The CPU device splits launches by work, not by work-items.
  std::size_t work_per_item = 1;
  // An nd_range's global offset (deprecated in SYCL 2020): the JIT compiles
  // it in (__onepass_get_global_offset); 0s for nearly every launch.
  std::size_t global_offset[3] = {0, 0, 0};
  // A hierarchical kernel's work-group size (parallel_for_work_group): its
  // device work-groups are of one work-item, which runs the group's code;
  // 0s for other kernels.
  std::size_t hierarchical_group[3] = {0, 0, 0};
  // handler::use_kernel_bundle (§4.9.4.4): the host entries of the bundle's
  // kernels, which run as the bundle built them; null without a bundle.
  std::shared_ptr<const std::vector<const void *>> bundle;

  // The runtime's copy of the kernel object, wherever it is.
  void *object_data() { return object ? const_cast<void *>(object.get()) : inline_object; }
};

// prefetch and mem_advise (§4.9.4.3) are hints about USM at `destination`,
// `bytes` long (mem_advise's advice in `count`).
struct interop_state;  // what an interop host task sees (the runtime's)
enum class command_kind { none, kernel, copy, fill, host_task, copy_region, fill_region, prefetch, mem_advise };

// One side of an explicit copy or fill that involves accessors (§4.9.4.3): an
// accessor of the command group (the token of its view, as in buffer_access),
// or dense host memory at `pointer`. Boxes are padded to 3 dimensions, SYCL's last.
struct region_side {
  std::uintptr_t token = 0;
  void *pointer = nullptr;
  std::size_t extent[3] = {1, 1, 1};  // of the accessor's (sub-)buffer view
  std::size_t offset[3] = {0, 0, 0};
  std::size_t range[3] = {1, 1, 1};
};

// One accessor's requirement on a buffer (an "access" of the task graph).
// info::device::mem_base_addr_align of every OnePass device, in bytes: the
// size of the largest built-in type (double16, long16), the least the
// specification allows (§4.6.4.2). A sub-buffer a device accesses must start
// at a multiple of it (§4.7.2.3; the runtime checks, handler::add_access).
inline constexpr std::size_t mem_base_addr_align_bytes = 128;

struct buffer_access {
  buffer_impl *buffer = nullptr;
  access_mode mode = access_mode::read_write;
  bool no_init = false;
  bool on_host = false;  // target::host_task: the host's copy, for a host task
  int dimensions = 1;
  std::size_t offset[3] = {0, 0, 0};  // the accessed box in the buffer, in elements
  std::size_t range[3] = {1, 1, 1};
  // Device accessors hold this value in their data pointer until the runtime
  // replaces it, in its copy of the kernel object, by the data's address on
  // the device that runs the kernel (see buffer_token).
  std::uintptr_t token = 0;
};

// The same requirement (e.g. an accessor registered twice with a command group).
inline bool same_access(const buffer_access &a, const buffer_access &b) {
  for (int d = 0; d < 3; ++d)
    if (a.offset[d] != b.offset[d] || a.range[d] != b.range[d]) return false;
  return a.token == b.token && a.mode == b.mode && a.on_host == b.on_host;
}

struct command_group_desc {
  command_kind kind = command_kind::none;
  kernel_launch_desc kernel;
  void *destination = nullptr;
  const void *source = nullptr;
  std::size_t bytes = 0;               // copy: bytes to copy
  std::vector<unsigned char> pattern;  // fill: one element's bytes
  std::size_t count = 0;               // fill: number of elements; mem_advise: the advice
  std::vector<std::shared_ptr<event_impl>> dependencies;
  std::vector<buffer_access> accesses;
  std::function<void()> host_task;
  // A host task that takes an interop_handle (§4.10.2): its target::device
  // accessors' data lie on the queue's device, where interop_handle finds them.
  std::function<void(const interop_state &)> interop_task;
  region_side region_source, region_destination;      // copy_region (source unused by fill_region)
  std::size_t element_bytes = 0;                      // copy_region, fill_region
  std::shared_ptr<const void> keep_alive;             // a shared_ptr side of a copy
  std::vector<std::shared_ptr<stream_impl>> streams;  // the kernel's sycl::streams
};

ONEPASS_RT_API std::shared_ptr<event_impl> queue_submit(queue_impl &, command_group_desc &&, abi_2026_11_27c = {});

// --- streams (§4.16) ---------------------------------------------------------
// A stream's control block on its device (sycl/stream.hpp formats into it):
// the buffer and the work-items' slots, which the runtime sets up when the
// kernel is submitted.
// The head of a work-item's slot, then its text. The runtime zeroes slots
// before the kernel: zeroes are the defaults.
struct stream_slot {
  std::uint32_t fill;
  std::uint8_t base;  // 0: decimal, 8, 16
  std::uint8_t showbase;
  std::uint8_t showpos;
  std::uint8_t notation;   // 0: default, 1: fixed, 2: scientific, 3: hexfloat
  std::int32_t width;      // 0: none
  std::int32_t precision;  // 0: none (6), else the precision + 1
};
struct stream_control {
  char *out;               // the stream's buffer
  std::uint32_t capacity;  // its size
  std::uint32_t used;      // bytes flushed into it (may pass capacity: those were dropped)
  std::uint32_t truncated;
  std::uint32_t dims;  // of the kernel's range (0: single_task)
  char *items;         // item_count slots of item_stride bytes
  std::uint64_t item_stride;
  std::uint64_t item_count;
};
// A stream (sycl::stream's constructor) on the queue's device: `*control`
// is its control block there. errc::invalid for a size over 4 GiB.
ONEPASS_RT_API std::shared_ptr<stream_impl> stream_create(const queue_impl &, std::size_t total_bytes,
                                                          std::size_t work_item_bytes, stream_control **control);
ONEPASS_RT_API void queue_wait(queue_impl &);
ONEPASS_RT_API void queue_throw_asynchronous(queue_impl &);

// --- events ----------------------------------------------------------------
// A new event that is already complete and belongs to no command: what a
// default-constructed sycl::event holds (§4.6.6: distinct from every other).
ONEPASS_RT_API std::shared_ptr<event_impl> event_make_complete();
ONEPASS_RT_API void event_wait(const std::shared_ptr<event_impl> &);
ONEPASS_RT_API void event_wait_and_throw(const std::shared_ptr<event_impl> &);
ONEPASS_RT_API info::event_command_status event_status(const event_impl &);
ONEPASS_RT_API std::vector<std::shared_ptr<event_impl>> event_dependencies(const event_impl &);
enum class profiling_point { submit, start, end };
ONEPASS_RT_API std::uint64_t event_profiling(const event_impl &, profiling_point);
// The backend of the event's queue; null: the default device's. Never throws.
ONEPASS_RT_API backend event_backend(const event_impl *) noexcept;

// --- backend interoperability (§4.5.1, §4.10.2) -----------------------------
enum class native_object : unsigned { device = 0, context = 1, queue = 2 };  // ONEPASS_NATIVE_*
// The native object behind a device; errc::feature_not_supported when its
// backend has no native API (the CPU device).
ONEPASS_RT_API void *device_native_handle(const device_impl &, native_object);
ONEPASS_RT_API const std::shared_ptr<device_impl> &interop_device(const interop_state &);
// What an interop host task's native objects are: those of its queue (made
// from native ones: make_queue, make_context), else its device's.
ONEPASS_RT_API void *interop_native_object(const interop_state &, native_object);
// The native event of an event (CUDA: a CUevent that completes once the
// command has, the same each time it is asked for): errc::feature_not_supported
// when its device has none. Waits until the command is on its stream (a host
// task's: until it is complete).
ONEPASS_RT_API void *event_native_handle(const std::shared_ptr<event_impl> &);
// An event that completes when the native event `handle` (CUDA: a CUevent,
// recorded or not) does, of the context's device.
ONEPASS_RT_API std::shared_ptr<event_impl> event_from_native(const context_impl &, void *handle);
// A context of the device a native context (CUDA: a CUcontext) is on, which
// get_native answers with that handle; errc::invalid if no device is.
ONEPASS_RT_API std::shared_ptr<context_impl> context_from_native(void *handle, const async_handler &);
// The native contexts of a context's devices (an adopted one for its device).
ONEPASS_RT_API std::vector<void *> context_native_handles(const context_impl &);
// An in-order queue whose commands run on the native queue `handle` (CUDA: a
// CUstream of the device's primary context), of a device of the context.
ONEPASS_RT_API std::shared_ptr<queue_impl> queue_from_native(const std::shared_ptr<context_impl> &, void *handle,
                                                             const async_handler &);
// A queue's native queue: the adopted one, else the device's interop queue.
ONEPASS_RT_API void *queue_native_handle(const queue_impl &);
// Where the data of the command group's accessor with this token lie on the
// device; errc::invalid for an accessor that is not the command group's.
ONEPASS_RT_API void *interop_native_mem(const interop_state &, std::uintptr_t token);

// --- buffers (runtime-spec.md) ---------------------------------------------
struct buffer_init {
  std::size_t element_size = 1;
  int dimensions = 1;
  std::size_t range[3] = {1, 1, 1};             // SYCL order
  void *host_storage = nullptr;                 // used as the host's copy, written back to at destruction
  const void *initial_data = nullptr;           // copied in at construction
  std::shared_ptr<void> keep_alive;             // owns host_storage (shared_ptr constructors)
  void *final_data = nullptr;                   // write-back target other than host_storage (use_mutex)
  std::mutex *final_mutex = nullptr;            // held while writing to final_data (use_mutex)
  std::size_t page_range[3] = {0, 0, 0};        // elements per page, SYCL order; 0: the default
  std::shared_ptr<context_impl> bound_context;  // property::buffer::context_bound: usable only there
};
// The returned handle's deleter is the buffer's destructor (SYCL 2020
// §4.7.2.3): it waits for the buffer's commands, then writes the data back.
ONEPASS_RT_API std::shared_ptr<buffer_impl> make_buffer(const buffer_init &init, abi_2026_11_27c = {});
// The tokens of a buffer are [buffer_token, buffer_token + byte size): never a
// user-space address, so a kernel argument holding one is an accessor.
ONEPASS_RT_API std::uintptr_t buffer_token(const buffer_impl &);
ONEPASS_RT_API void buffer_set_final_data(buffer_impl &, void *destination);  // nullptr: no write-back
ONEPASS_RT_API void buffer_set_final_writer(buffer_impl &, std::function<void(const void *data)> writer);
ONEPASS_RT_API void buffer_set_write_back(buffer_impl &, bool enabled);
// The host's copy of the data (allocated on first use; never moves).
ONEPASS_RT_API void *buffer_host_data(buffer_impl &);
// An image's shape, format and sampler (SYCL 2020 §4.7.3, §4.7.8; an
// unsampled image's reads are a sampler's too: nearest, unnormalized, zeros
// outside), kept with its storage: on a device with texture hardware the
// runtime binds a texture of them to the image's accessors. The enums'
// values are sycl::image_format's, addressing_mode's and filtering_mode's.
struct image_sampling {
  int dimensions = 1;
  int format = 0;
  int addressing = 0;
  int filtering = 0;
  bool normalized = false;
  std::size_t range[3] = {1, 1, 1};  // texels along x, y, z
  std::size_t pitch[2] = {0, 0};     // bytes per row, per slice
  bool writable = false;             // an unsampled image (read nearest at texel centres, zeros outside)
};
ONEPASS_RT_API void buffer_set_image_sampling(buffer_impl &, const image_sampling &);
// A host task's copy of its closure, `bytes` long: each pointer-sized word
// that is a token of one of `accesses`' buffers becomes the address in the
// buffer's host copy (device accessors used in a host task).
ONEPASS_RT_API void host_task_bind_tokens(void *closure, std::size_t bytes, const std::vector<buffer_access> &accesses);

// A host_accessor's hold on a buffer: `data` is current for the access on the
// host until `hold` is released (its last copy destroyed); commands that
// conflict with the access wait until then.
struct host_access {
  void *data = nullptr;
  std::shared_ptr<void> hold;
};
ONEPASS_RT_API host_access buffer_acquire_host(const buffer_access &access);

// --- kernel names and kernel bundles (§4.11) -------------------------------
// Each kernel launch template registers its kernel's name type at program
// start: `name_tag` is an address unique to the type, `host_entry` the
// kernel's identity.
ONEPASS_RT_API void register_kernel_name(const void *name_tag, const void *host_entry);
// The host entry of the kernel the name tag names; errc::invalid if none
// (get_kernel_id of a name no kernel invocation uses).
ONEPASS_RT_API const void *kernel_entry_for_name(const void *name_tag);
// Every kernel of the program (its registered images), by host entry.
ONEPASS_RT_API std::vector<const void *> kernel_entries();
// A kernel's name for users; lives as long as the program.
ONEPASS_RT_API const char *kernel_entry_name(const void *host_entry);
// Why the kernel cannot run on the device (§4.11.9), or "" if it can.
ONEPASS_RT_API std::string kernel_incompatibility(const void *host_entry, const device_impl &device);
// Compiles the kernel for the device now, as kernels of an executable bundle
// run (errc::build naming the kernel, the device and the reason).
ONEPASS_RT_API void build_kernel(const void *host_entry, device_impl &device);
// onepass-cache warm --target: the kernel's JIT output for a GPU target
// without a device of it (kind: onepass_jit_target_kind; arch and the device
// library as jit_api.h's onepass_jit_target has them) into the persistent
// cache. `transform`, if given, turns the output into what is stored (the
// tool makes PTX a fat binary with a cubin); it returns "" or what went
// wrong. Returns "" or what went wrong; `found`: the entry was there already.
using jit_output_transform = std::string (*)(std::vector<unsigned char> &output, void *context);
ONEPASS_RT_API std::string build_kernel_for_target(const void *host_entry, std::uint32_t kind, std::uint32_t arch,
                                                   const char *device_library, const char *device_library_missing,
                                                   jit_output_transform transform, void *context, bool &found);
// §4.11.12.2: whether a kernel of `entries` reads the specialization constant
// of `key` (any constant where `key` is null). Kernels of images older than
// this record (format 2) answer `unknown`.
ONEPASS_RT_API bool kernels_use_spec_constant(const std::vector<const void *> &entries, const std::uint64_t *key,
                                              bool unknown) noexcept;
// §4.11.13.2: the kernel's attributes (§5.8.1) as source text.
ONEPASS_RT_API std::string kernel_attributes(const void *host_entry);
// §4.11.13.2 Table 116, for a built kernel on a device.
struct kernel_device_info {
  std::size_t work_group_size = 0;
  std::size_t compile_work_group_size[3] = {0, 0, 0};  // SYCL's order
  std::size_t preferred_work_group_size_multiple = 1;
  std::size_t private_mem_size = 0;
  std::uint32_t max_num_sub_groups = 0, compile_num_sub_groups = 0, max_sub_group_size = 0, compile_sub_group_size = 0;
};
ONEPASS_RT_API kernel_device_info kernel_info_on_device(const void *host_entry, device_impl &device);

// --- USM -------------------------------------------------------------------
enum class usm_kind { host, device, shared, unknown };
ONEPASS_RT_API void *usm_allocate(std::size_t bytes, std::size_t alignment, usm_kind kind,
                                  const std::shared_ptr<device_impl> &dev, const std::shared_ptr<context_impl> &ctx);
ONEPASS_RT_API void usm_free(void *ptr, const context_impl &ctx);
ONEPASS_RT_API usm_kind usm_pointer_kind(const void *ptr, const context_impl &ctx);
// A reduction on a GPU whose target is host or shared USM combines into a
// piece of device memory instead (a cell of the queue's), copied to the
// target after the kernel: the kernel's atomics never move the target's page
// between the host and the device. Returns nullptr where the target itself
// serves (the CPU device, device USM, memory OnePass did not allocate).
// A null target is a buffer's (the host combines into the buffer's host
// copy): the cell comes with staging memory on any GPU.
// For a shared target, *staging is set to pinned host memory of the cell's
// size: the result goes there and the host stores it into the target (a
// device copy into a managed page the host holds costs the driver ~50 us, a
// host store nothing); otherwise *staging is nullptr.
ONEPASS_RT_API void *reduction_cell_take(const queue_impl &, const void *target, std::size_t bytes, void **staging);
// The cell is free again once `after` (the copy to the target) is complete.
ONEPASS_RT_API void reduction_cell_give_back(const queue_impl &, void *cell, const std::shared_ptr<event_impl> &after);
ONEPASS_RT_API std::shared_ptr<device_impl> usm_pointer_device(const void *ptr, const context_impl &ctx);

}  // namespace sycl::detail
