/* The JIT request interface (ARCHITECTURE.md, seam 2): "compile kernel K of
 * image I for target T" -> a binary or an error message. A plain C ABI, no
 * SYCL and no LLVM types, so the runtime can dlopen the JIT and an offline tool
 * can use it too. Every function is thread-safe. */
#ifndef ONEPASS_JIT_API_H
#define ONEPASS_JIT_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ONEPASS_JIT_EXPORT __attribute__((visibility("default")))
#define ONEPASS_JIT_INTERFACE_VERSION 14

/* A constant's `field` for an nd_range launch's global offset in dimension
 * d (deprecated in SYCL 2020): ONEPASS_JIT_GLOBAL_OFFSET_FIELD + d, value the
 * offset; the JIT compiles it in where the kernel asks for it
 * (__onepass_get_global_offset), 0 for dimensions without one. */
#define ONEPASS_JIT_GLOBAL_OFFSET_FIELD 0xFFFFFFF0u

/* A field of the kernel object and its value at this launch, which the JIT
 * compiles in: the parameter stays, its value is no longer read. */
typedef struct onepass_jit_constant {
  uint32_t field; /* index among the kernel's fields; an integer field */
  uint32_t size;  /* its size in bytes (1, 2, 4 or 8) */
  uint64_t value; /* zero-extended */
} onepass_jit_constant;

/* A kernel image that exports SYCL_EXTERNAL functions (common/image's
 * kFlagExports): the JIT links the definitions a kernel calls from these. */
typedef struct onepass_jit_library {
  const void *image;
  uint64_t image_size;
} onepass_jit_library;
/* What the runtime knows about the launch that the JIT may specialize on. */
typedef struct onepass_jit_request {
  const void *image; /* a whole kernel image (see common/image) */
  uint64_t image_size;
  const char *kernel_symbol; /* KernelRecord::symbol */
  /* Fields to compile in, none if 0 (a local accessor's range and offset). */
  const onepass_jit_constant *constants;
  uint32_t constant_count;
  /* CPU, nd_range kernels: the work-group range to compile in, per
   * dimension (the loops over a group's work-items get constant trip
   * counts); 0 in dimension 0: any, read from each launch. A kernel compiled
   * for one range must only be launched with it. */
  uint64_t local_range[3];
  /* Images whose exported functions the kernel may call (SYCL_EXTERNAL
   * functions of other translation units and shared libraries): each
   * function the kernel's image only declares is linked, with what it
   * reaches, from the first of them that defines it. None if 0. A function
   * defined nowhere is an error naming it. */
  const onepass_jit_library *libraries;
  uint32_t library_count;
} onepass_jit_request;

/* A binary produced by the JIT; release with onepass_jit_free. */
typedef struct onepass_jit_buffer {
  void *data;
  uint64_t size;
} onepass_jit_buffer;

/* The CPU launch descriptor: the work-items [begin, end) of a launch over
 * `range`, per dimension in SYCL order (dimension 0 varies slowest). For an
 * nd_range kernel, `local` is the work-group's range and begin and end are
 * multiples of it (whole work-groups); other kernels ignore it. */
typedef struct onepass_cpu_launch {
  uint64_t begin[3];
  uint64_t end[3];
  uint64_t range[3];
  uint64_t local[3];
  uint64_t local_memory_bytes; /* nd_range kernels: local memory per work-group */
} onepass_cpu_launch;

/* A loaded CPU kernel: runs the kernel for every work-item of `launch`,
 * reading its arguments from the kernel object `object`. */
typedef void (*onepass_cpu_kernel_fn)(const void *object, const onepass_cpu_launch *launch);

/* Returns ONEPASS_JIT_INTERFACE_VERSION; the runtime refuses a mismatch. */
ONEPASS_JIT_EXPORT int onepass_jit_interface_version(void);
/* "OnePass <version>, LLVM <version>": part of every cache key. */
ONEPASS_JIT_EXPORT const char *onepass_jit_version_string(void);

/* What the JIT compiles for. */
enum onepass_jit_target_kind {
  /* This host's CPU: an ELF shared object for this CPU (load it with
   * onepass_jit_load_cpu, or dlopen it). Its entry, the symbol
   * ONEPASS_ABI_CPU_LAUNCH, is an onepass_cpu_kernel_fn. */
  ONEPASS_JIT_TARGET_HOST = 1,
  /* An NVIDIA GPU: PTX text, NUL-terminated (the size counts the NUL), in the
   * newest PTX ISA up to isa_version that LLVM supports. Its entry is
   * "__onepass_ptx_kernel"; its parameters are the kernel's fields, then, for
   * a range kernel (not for a single_task or an nd_range kernel), the global
   * range as one 64-bit value per dimension, in SYCL dimension order. Math
   * calls go to libdevice (device_library), linked only into kernels that use
   * it. */
  ONEPASS_JIT_TARGET_PTX = 2,
  /* An OpenCL or Level Zero device: a SPIR-V module (binary) in OpenCL's
   * environment. Its entry is the OpenCL kernel "__onepass_spirv_kernel";
   * its parameters are the kernel's fields (pointers as 64-bit integers:
   * global addresses, so every argument is set by value),
   * then, for a range kernel, the global range as one 64-bit value per
   * dimension in SYCL order, then, for a kernel with local accessors, a
   * `local` pointer to the work-group's local memory (its size is the
   * launch's local memory). SYCL's last dimension is OpenCL's dimension 0.
   * arch holds flags (ONEPASS_JIT_SPIRV_*, below); isa_version and the
   * device library are unused. */
  ONEPASS_JIT_TARGET_SPIRV = 3,
  /* An AMD GPU (HSA): a code object (an ELF shared object, code object v5)
   * for the gfx architecture `arch`, whose name's digits read as hex (0x942
   * for gfx942, 0x90a for gfx90a, 0x1100 for gfx1100). Its kernel is
   * "__onepass_amdgcn_kernel"; its parameters are the kernel's fields
   * (pointers as global pointers), then, for a range kernel, the global
   * range as one 64-bit value per dimension in SYCL order; local accessors
   * use the dispatch's dynamic LDS (group segment size). Math calls AMD's
   * ocml: device_library is the directory of the ROCm device libraries'
   * ocml.bc. */
  ONEPASS_JIT_TARGET_AMDGCN = 4
};

/* SPIR-V's arch flags. ONE_ITEM_SUB_GROUPS: sub-groups of one work-item
 * each, for devices without sub-group support (no OpenCL sub-group
 * extensions): the sub-group builtins need nothing of the device (a shuffle
 * reads the work-item's own value); the backend reports sub-group size 1. */
#define ONEPASS_JIT_SPIRV_ONE_ITEM_SUB_GROUPS 1u

/* The largest work-group a SPIR-V kernel runs: the work-group algorithms'
 * scratch has a slot per work-item for this many, and their barrier loops
 * step over this many work-items (jit/builtins/spirv/group.cpp). The Level
 * Zero and OpenCL backends report no larger maximum. */
#define ONEPASS_JIT_SPIRV_MAX_WORK_GROUP 1024u

typedef struct onepass_jit_target {
  uint32_t kind;                      /* onepass_jit_target_kind */
  uint32_t arch;                      /* PTX: compute capability, 10 * major + minor (90 for sm_90);
                                         AMDGCN: the gfx number as hex (0x942) */
  uint32_t isa_version;               /* PTX: newest PTX ISA the driver accepts, 10 * major + minor; 0: the
                           lowest the architecture needs */
  const char *device_library;         /* PTX: NVIDIA's libdevice.10.bc; AMDGCN: the directory of ocml.bc;
                                         NULL or "" if none was found */
  const char *device_library_missing; /* where the caller looked, quoted in the error of a kernel that
                                         needs the library when there is none (may be NULL) */
} onepass_jit_target;

/* Compiles one kernel for `target` (the one entry of the JIT: every target
 * goes through the same pipeline). Returns 0 and the binary in *binary (free
 * its data with onepass_jit_free); otherwise 1 and *error is a message (free
 * it with onepass_jit_free). */
ONEPASS_JIT_EXPORT int onepass_jit_compile(const onepass_jit_request *request, const onepass_jit_target *target,
                                           onepass_jit_buffer *binary, char **error);

/* Does the one-time work of a first onepass_jit_compile for `target` (LLVM's
 * targets, the builtin library, the device library's file, and a small kernel
 * through the whole pipeline, which brings LLVM's code into memory), so a
 * kernel compiled afterwards pays only for itself. Meant for a background
 * thread started when a device is found; safe to run while other threads
 * compile. Does nothing for targets that need no warm-up. */
ONEPASS_JIT_EXPORT void onepass_jit_warm_up(const onepass_jit_target *target);

/* For tests: reads the LLVM bitcode module of `size` bytes, runs the pass
 * pipeline `pipeline` on it (LLVM's textual syntax, as opt's -passes=; the
 * JIT's own passes by the names jit/targets/cpu/CpuPassPipeline.h lists) and
 * returns the module as text in *result (NUL-terminated), after comment lines
 * describing each kernel whose barriers were lowered. */
ONEPASS_JIT_EXPORT int onepass_jit_test_run_passes(const void *bitcode, uint64_t size, const char *pipeline,
                                                   onepass_jit_buffer *result, char **error);

/* Loads a CPU kernel the JIT compiled (a shared object) into this process with
 * the system's dynamic loader and returns its launch function. The code stays
 * loaded for the process's life. (The runtime's CPU backend loads them itself,
 * without this library: common/platform/SharedObjectLoader.h.) */
ONEPASS_JIT_EXPORT int onepass_jit_load_cpu(const void *object, uint64_t size, onepass_cpu_kernel_fn *kernel,
                                            char **error);

ONEPASS_JIT_EXPORT void onepass_jit_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif /* ONEPASS_JIT_API_H */
