// Host definitions of the device builtins and of the kernel entry stubs, so
// that host code referring to them links. Reaching a work-item query means
// device code ran on the host, which is a bug: report it clearly and stop.
// (Math and printf have real host forms.)
#include <sycl/detail/builtins.hpp>
#include <sycl/ext/oneapi/experimental/builtins.hpp>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace {
[[noreturn]] void deviceOnly(const char *what) {
  std::fprintf(stderr, "onepass: fatal: %s was called on the host; it is only valid inside a SYCL kernel\n", what);
  std::abort();
}
}  // namespace

extern "C" {
__attribute__((visibility("default"))) std::size_t __onepass_get_global_id(int) noexcept {
  deviceOnly("the work-item query get_global_id");
}
__attribute__((visibility("default"))) std::size_t __onepass_get_global_range(int) noexcept {
  deviceOnly("the work-item query get_global_range");
}
__attribute__((visibility("default"))) std::size_t __onepass_get_local_id(int) noexcept {
  deviceOnly("the work-item query get_local_id");
}
__attribute__((visibility("default"))) std::size_t __onepass_get_local_range(int) noexcept {
  deviceOnly("the work-item query get_local_range");
}
__attribute__((visibility("default"))) std::size_t __onepass_get_group_id(int) noexcept {
  deviceOnly("the work-item query get_group_id");
}
__attribute__((visibility("default"))) std::size_t __onepass_get_group_range(int) noexcept {
  deviceOnly("the work-item query get_group_range");
}
__attribute__((visibility("default"))) std::size_t __onepass_get_global_offset(int) noexcept {
  deviceOnly("the work-item query get_offset");
}
__attribute__((visibility("default"))) void *__onepass_local_memory() noexcept {
  deviceOnly("local memory (a local_accessor's data)");
}
__attribute__((visibility("default"))) void *__onepass_group_local_memory(std::size_t, std::size_t) noexcept {
  deviceOnly("group_local_memory (sycl::ext::oneapi)");
}
__attribute__((visibility("default"))) int __onepass_target_is_cpu() noexcept { return 1; }
__attribute__((visibility("default"))) unsigned __onepass_group_steps_bound() noexcept { return 0; }
__attribute__((visibility("default"))) void __onepass_image_texture_read(unsigned long long, int, int, float, float,
                                                                         float, unsigned *) noexcept {
  deviceOnly("a sampled image read through a texture");
}
// Stage 1 replaces every call of the specialization-constant key builtin.
__attribute__((visibility("default"))) unsigned long long __onepass_spec_key(const void *) noexcept {
  std::fprintf(stderr, "onepass: fatal: a translation unit that uses specialization constants was compiled without "
                       "'onepass++ -fsycl-sscp'\n");
  std::abort();
}
// ext::oneapi::experimental::printf: C's, on the host and on the CPU device
// (whose kernels call this definition).
__attribute__((visibility("default"))) int __onepass_printf(const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  const int printed = std::vprintf(format, arguments);
  va_end(arguments);
  return printed;
}
// Math the device libraries define per target; the host divides.
__attribute__((visibility("default"))) float __onepass_rsqrtf(float x) noexcept { return 1.0f / std::sqrt(x); }
__attribute__((visibility("default"))) double __onepass_rsqrt(double x) noexcept { return 1.0 / std::sqrt(x); }
#define ONEPASS_SUB_GROUP_FALLBACK(result, name, ...)                                                                  \
  __attribute__((visibility("default"))) result name(__VA_ARGS__) noexcept {                                           \
    deviceOnly("the sub-group function " #name);                                                                       \
  }
ONEPASS_SUB_GROUP_FALLBACK(void *, __onepass_group_scratch)
ONEPASS_SUB_GROUP_FALLBACK(unsigned, __onepass_sub_group_local_id)
ONEPASS_SUB_GROUP_FALLBACK(unsigned, __onepass_sub_group_size)
ONEPASS_SUB_GROUP_FALLBACK(unsigned, __onepass_sub_group_max_size)
ONEPASS_SUB_GROUP_FALLBACK(unsigned, __onepass_sub_group_id)
ONEPASS_SUB_GROUP_FALLBACK(unsigned, __onepass_sub_group_count)
ONEPASS_SUB_GROUP_FALLBACK(unsigned, __onepass_sub_group_shuffle, unsigned, unsigned)
ONEPASS_SUB_GROUP_FALLBACK(unsigned, __onepass_sub_group_shuffle_down, unsigned, unsigned)
ONEPASS_SUB_GROUP_FALLBACK(unsigned, __onepass_sub_group_shuffle_up, unsigned, unsigned)
ONEPASS_SUB_GROUP_FALLBACK(unsigned, __onepass_sub_group_shuffle_xor, unsigned, unsigned)
ONEPASS_SUB_GROUP_FALLBACK(int, __onepass_sub_group_any, int)
ONEPASS_SUB_GROUP_FALLBACK(int, __onepass_sub_group_all, int)
ONEPASS_SUB_GROUP_FALLBACK(void, __onepass_sub_group_barrier)
#undef ONEPASS_SUB_GROUP_FALLBACK
__attribute__((visibility("default"))) void __onepass_group_barrier() noexcept { deviceOnly("a work-group barrier"); }
__attribute__((visibility("default"))) void __onepass_hierarchical_region_begin(const void *) noexcept {
  deviceOnly("group::parallel_for_work_item");
}
__attribute__((visibility("default"))) void __onepass_hierarchical_region_end() noexcept {
  deviceOnly("group::parallel_for_work_item");
}
// Called by the host copy of a kernel body stage 1 replaced (its symbol from onepass_abi.hpp).
void __onepass_host_kernel_called(const char *kernelName) __asm__(ONEPASS_ABI_HOST_KERNEL_CALLED);
__attribute__((visibility("default"))) void __onepass_host_kernel_called(const char *kernelName) {
  std::fprintf(stderr, "onepass: fatal: the body of kernel '%s' was called directly on the host\n", kernelName);
  std::abort();
}
}
