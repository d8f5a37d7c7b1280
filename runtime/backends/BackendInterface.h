/* The backend plugin interface (ARCHITECTURE.md, seam 3): a small C-ABI table
 * each backend fills in. A backend does only what needs its driver: it
 * describes its devices and the JIT target of each, turns the JIT's output
 * into a loadable binary and loads it, allocates, copies, fills, launches and
 * keeps markers. The runtime's kernel provider (KernelProvider.h) does the
 * rest of "a binary for kernel K on device D": the in-memory and persistent
 * caches and the JIT. Calls go one way, runtime to backend: a backend never
 * calls back into the runtime except to log. The CPU backend is built into the runtime; GPU
 * backends will be shared libraries exporting onepass_backend_entry() and
 * dlopen'ed only if present, so a binary runs where their drivers are absent.
 * The basic operations are synchronous: the runtime calls them from the
 * device's executor lanes, in dependency order; independent operations may be
 * called from several lanes at once (at most concurrent_operations).
 * A backend may also offer asynchronous operations on `streams` in-order
 * streams per device (see below); the runtime then enqueues kernels, copies
 * and fills without waiting, orders dependent operations by stream order and
 * markers, and learns of completion by polling markers. */
#ifndef ONEPASS_BACKEND_INTERFACE_H
#define ONEPASS_BACKEND_INTERFACE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ONEPASS_BACKEND_INTERFACE_VERSION 16

enum onepass_usm_kind { ONEPASS_USM_HOST = 0, ONEPASS_USM_DEVICE = 1, ONEPASS_USM_SHARED = 2 };
enum onepass_device_type { ONEPASS_DEVICE_CPU = 1, ONEPASS_DEVICE_GPU = 2 };

/* Kernel features (the image's KernelFeature bits, common/image/KernelImage.h). */
#define ONEPASS_KERNEL_FEATURE_BARRIER 2u      /* work-group barriers */
#define ONEPASS_KERNEL_FEATURE_LOCAL_MEMORY 4u /* work-group local memory */
/* Hierarchical kernels' work-groups run at their size: the device's JIT
 * target spreads parallel_for_work_item over them (jit/src/HierarchicalLowering.h);
 * without it they run as work-groups of one work-item. */
#define ONEPASS_KERNEL_FEATURE_HIERARCHICAL 16u
#define ONEPASS_KERNEL_FEATURE_FP16 64u        /* half precision arithmetic (aspect::fp16) */
#define ONEPASS_KERNEL_FEATURE_ATOMIC64 128u   /* atomic operations on 64-bit values (aspect::atomic64) */

typedef struct onepass_backend_device_info {
  char name[256];
  char vendor[128];
  char version[64];
  char driver_version[64];
  uint32_t device_type; /* onepass_device_type */
  uint32_t vendor_id;
  uint32_t compute_units;
  uint32_t clock_mhz;
  uint64_t global_mem_bytes;
  uint64_t local_mem_bytes;
  /* What the device runs beyond plain kernels: ONEPASS_KERNEL_FEATURE_* bits.
   * A kernel using another one is rejected before launch
   * (kernel_not_supported). (Double precision is the fp64 aspect instead;
   * ATOMIC64 is the atomic64 aspect.) */
  uint32_t kernel_features;
  uint64_t max_alloc_bytes;
  uint64_t max_work_group_size;
  uint32_t has_fp64;
  uint32_t cache_line_bytes;
  uint32_t sub_group_size; /* work-items per sub-group (the sub-group builtins' maximum) */
  /* The most work-items of a work-group along each axis; axis 0 carries
   * SYCL's last dimension (CUDA's x). */
  uint64_t max_work_item_sizes[3];
  uint64_t global_cache_bytes; /* the largest cache before global memory (L2 on GPUs, the last level on CPUs) */
} onepass_backend_device_info;

/* What a device's kernels are compiled for. The strings stay valid while
 * the backend is loaded. */
typedef struct onepass_backend_target {
  uint32_t jit_target; /* ONEPASS_JIT_TARGET_* of jit_api.h */
  uint32_t arch;       /* see onepass_jit_target */
  uint32_t isa_version;
  const char *device_library;         /* "" if none */
  const char *device_library_missing; /* where the backend looked for it ("" if found) */
  /* Everything else that changes a finished binary or whether it loads here:
   * part of the persistent cache's keys (e.g. "cuda sm_90|driver 13000|
   * libdevice <hash>", or the host CPU's model and features). */
  const char *identity;
  /* 1: an nd_range kernel is compiled for its work-group range (the CPU's
   * work-item loops get constant trip counts), so each range has a binary. */
  uint32_t per_work_group_range;
} onepass_backend_target;

/* One kernel launch: the loaded kernel, its kernel object (argument blob) and
 * the iteration space. */
typedef struct onepass_backend_launch {
  void *kernel; /* the backend's handle from load_kernel */
  const void *object;
  uint64_t object_size;
  const uint32_t *field_offsets; /* where each kernel parameter lies in `object` */
  const uint32_t *field_sizes;   /* and its size in bytes */
  uint32_t field_count;
  uint32_t dimensions; /* 0 for single_task */
  uint64_t global_range[3];
  /* An nd_range kernel's work-group range (global_range is a multiple of
   * it); all 0 for other kernels, whose grouping is the backend's choice. */
  uint64_t local_range[3];
  /* Local memory per work-group in bytes (nd_range kernels; 0 for others). */
  uint64_t local_memory_bytes;
  /* Each work-item's work in units of a plain work-item's (a range
   * reduction's work-items on the CPU take a share of the range each); 0 or
   * 1: one. A CPU backend splits the launch by it. */
  uint64_t work_per_item;
} onepass_backend_launch;

/* What a loaded kernel can take on its device (kernel_limits). */
typedef struct onepass_kernel_limits {
  uint64_t max_work_group_size; /* work-items per work-group at most, for this kernel */
  uint64_t private_bytes;       /* private (local, stack) memory per work-item */
} onepass_kernel_limits;

/* A sampled image (SYCL 2020 §4.7.3.2) as a texture: its texels' layout in
 * the allocation, its format and its sampler (§4.7.8). The enums' values are
 * SYCL's (include/sycl/detail/image_texels.hpp: image_format,
 * addressing_mode, filtering_mode). */
typedef struct onepass_backend_image {
  uint32_t dimensions; /* 1, 2 or 3 */
  uint32_t format;
  uint32_t addressing;
  uint32_t filtering;
  uint32_t normalized; /* 1: normalized coordinates */
  uint64_t range[3];   /* texels along x, y, z (1 past the image's dimensions) */
  uint64_t pitch[2];   /* bytes per row, per slice */
  /* 1: an unsampled image, which kernels may write; it is read at texel
   * centres, nearest, zeros outside (its sampler says so) */
  uint32_t writable;
} onepass_backend_image;

/* What the runtime offers a backend plugin: its log, nothing else. */
typedef struct onepass_runtime_services {
  uint32_t interface_version;
  /* level: 0 error, 1 warning, 2 info, 3 debug */
  void (*log)(int level, const char *message);
} onepass_runtime_services;

/* Every function returns 0 on success; on failure, 1 and *error is a
 * malloc'ed message the caller frees. */
typedef struct onepass_backend {
  uint32_t interface_version;
  const char *name;
  const char *platform_name;
  const char *platform_vendor;
  uint32_t (*device_count)(void);
  int (*device_info)(uint32_t device, onepass_backend_device_info *info, char **error);
  void *(*allocate)(uint32_t device, uint64_t bytes, uint64_t alignment, uint32_t usm_kind);
  void (*deallocate)(uint32_t device, void *pointer, uint32_t usm_kind);
  int (*copy)(uint32_t device, void *destination, const void *source, uint64_t bytes, char **error);
  int (*fill)(uint32_t device, void *destination, const void *pattern, uint32_t pattern_bytes, uint64_t count,
              char **error);
  /* The JIT target of the device's kernels. */
  int (*device_target)(uint32_t device, onepass_backend_target *target, char **error);
  /* Optional (NULL: the JIT's output is the binary): turns the JIT's output
   * into the binary to cache and load (PTX into a cubin), a malloc'ed copy
   * the caller frees. On failure the runtime loads the JIT's output itself,
   * uncached. */
  int (*finalize_binary)(uint32_t device, const void *jit_output, uint64_t size, void **binary, uint64_t *binary_size,
                         char **error);
  /* Loads a binary (finalized, or the JIT's output) and returns the handle
   * launches pass back in onepass_backend_launch::kernel. Loaded kernels stay
   * for the process's life. */
  int (*load_kernel)(uint32_t device, const void *binary, uint64_t size, void **kernel, char **error);
  int (*launch)(uint32_t device, const onepass_backend_launch *launch, char **error);
  /* How many operations of one device may run at once (executor lanes). */
  uint32_t concurrent_operations;

  /* Asynchronous operations: `streams` in-order streams per device, numbered
   * 0..streams-1; 0 streams (and NULL functions) if the backend has none.
   * The *_async functions enqueue and return; their failures at enqueue time
   * are reported like the synchronous ones, failures while running surface
   * when a later marker of the stream is queried or waited for. */
  uint32_t streams;
  int (*launch_async)(uint32_t device, uint32_t stream, const onepass_backend_launch *launch, char **error);
  int (*copy_async)(uint32_t device, uint32_t stream, void *destination, const void *source, uint64_t bytes,
                    char **error);
  int (*fill_async)(uint32_t device, uint32_t stream, void *destination, const void *pattern, uint32_t pattern_bytes,
                    uint64_t count, char **error);
  /* A marker completes when everything enqueued on the stream before it has
   * completed. With `timing`, marker_time can say when that happened. Returns
   * NULL on failure. */
  void *(*record_marker)(uint32_t device, uint32_t stream, uint32_t timing, char **error);
  /* Work enqueued on `stream` after this call waits for the marker (on the
   * device, without blocking the caller). */
  int (*stream_wait_marker)(uint32_t device, uint32_t stream, void *marker, char **error);
  /* 1: complete; 0: not yet; -1: the work before it failed (*error says how). */
  int (*query_marker)(uint32_t device, void *marker, char **error);
  /* Blocks until the marker completes; 0 on success, 1 if the work failed. */
  int (*wait_marker)(uint32_t device, void *marker, char **error);
  /* When a completed timing marker completed, in nanoseconds of the host's
   * steady clock (std::chrono::steady_clock). */
  int (*marker_time)(uint32_t device, void *marker, uint64_t *nanoseconds, char **error);
  void (*release_marker)(uint32_t device, void *marker);
  /* Optional (NULL if absent): blocks until everything enqueued on the stream
   * so far is done; fails like wait_marker. Cheaper than a marker for a wait
   * on the newest operation. */
  int (*wait_stream)(uint32_t device, uint32_t stream, char **error);
  /* Optional (NULL: the device's limits apply to every kernel): what a loaded
   * kernel can take (registers and stack may allow fewer work-items per
   * work-group than the device's maximum). */
  int (*kernel_limits)(uint32_t device, void *kernel, onepass_kernel_limits *limits, char **error);
  /* Optional (NULL: the backend has no native API, e.g. the CPU): the native
   * object behind a device for SYCL's backend interoperability (§4.5.1):
   * ONEPASS_NATIVE_* below. The handles stay valid while the backend is
   * loaded. */
  int (*native_handle)(uint32_t device, uint32_t what, void **handle, char **error);
  /* Optional: blocks until the work users enqueued on the native queue
   * (ONEPASS_NATIVE_QUEUE) has completed: a host task's interop work is done
   * when the host task's event completes. */
  int (*native_finish)(uint32_t device, char **error);
  /* Optional (NULL: no native events): the native event behind a marker
   * (CUDA: its CUevent), valid until the marker is released; with a NULL
   * marker, a native event that is complete (valid while the backend is
   * loaded). */
  int (*marker_native)(uint32_t device, void *marker, void **handle, char **error);
  /* Optional: a marker for a native event made outside OnePass (CUDA: a
   * CUevent), for query_marker and wait_marker; release_marker then forgets
   * it without destroying the native event. NULL on failure. */
  void *(*adopt_native_event)(uint32_t device, void *handle, char **error);
  /* Optional (NULL: no native queues can be adopted): a stream for a native
   * queue made outside OnePass (CUDA: a CUstream of the device's context),
   * numbered from `streams` up (below ONEPASS_MAX_STREAMS); the same number
   * for the same handle. Asynchronous operations on that number go to the
   * user's queue, which stays theirs (never destroyed). */
  int (*adopt_native_queue)(uint32_t device, void *handle, uint32_t *stream, char **error);
  /* Optional: the device a native context (CUDA: a CUcontext) is on, for
   * SYCL contexts made from one (make_context). */
  int (*native_context_device)(void *handle, uint32_t *device, char **error);
  /* Optional (NULL: images are read in software): a texture that reads the
   * image whose texels begin at `data` (an allocation of `allocate`), into
   * *texture; it lives until the allocation is deallocated. A read-only
   * (sampled) image's contents stay the same while it lives: the texture may
   * hold a copy, made at the first call for the allocation in order on
   * `stream` (UINT32_MAX: before returning), after which later calls on any
   * stream order their work. A writable one's texture must read the
   * allocation itself (the runtime binds it only to kernels that do not
   * write the image). 0 in *texture: this image cannot be a texture here
   * (its size or layout, a sampler the hardware does not have); the kernel
   * reads it in software. */
  int (*image_texture)(uint32_t device, uint32_t stream, const void *data, const onepass_backend_image *image,
                       uint64_t *texture, char **error);
} onepass_backend;

/* Streams per device at most, the backend's own and adopted ones together. */
#define ONEPASS_MAX_STREAMS 16u

#define ONEPASS_NATIVE_DEVICE 0u  /* CUDA: the CUdevice, as an integer */
#define ONEPASS_NATIVE_CONTEXT 1u /* CUDA: the primary CUcontext the runtime uses */
#define ONEPASS_NATIVE_QUEUE 2u   /* CUDA: a CUstream for interop work (one per device) */

/* A backend plugin (lib/onepass/libonepass-backend-<name>.so) exports this.
 * It returns NULL if the backend cannot work here, with *why saying why
 * (e.g. "libcuda.so.1 not found"); the runtime frees *why. */
typedef const onepass_backend *(*onepass_backend_entry_fn)(const onepass_runtime_services *services, char **why);
#define ONEPASS_BACKEND_ENTRY_SYMBOL "onepass_backend_entry"

#ifdef __cplusplus
}
#endif

#endif /* ONEPASS_BACKEND_INTERFACE_H */
