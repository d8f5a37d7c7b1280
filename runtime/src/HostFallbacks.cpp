// Host definitions of the device builtins and of the kernel entry stubs, so
// that host code referring to them links. Reaching any of them means device
// code ran on the host, which is a bug: report it clearly and stop.
#include <sycl/detail/builtins.hpp>

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
__attribute__((visibility("default"))) void *__onepass_local_memory() noexcept {
  deviceOnly("local memory (a local_accessor's data)");
}
__attribute__((visibility("default"))) int __onepass_target_is_cpu() noexcept { return 1; }
__attribute__((visibility("default"))) void __onepass_group_barrier() noexcept {
  deviceOnly("a work-group barrier");
}
__attribute__((visibility("default"))) void __onepass_host_kernel_called(const char *kernelName) {
  std::fprintf(stderr, "onepass: fatal: the body of kernel '%s' was called directly on the host\n", kernelName);
  std::abort();
}
}
