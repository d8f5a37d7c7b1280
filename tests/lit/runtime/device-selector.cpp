// ONEPASS_DEVICE_SELECTOR (issue 19): which devices the program sees at all.
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: %t | FileCheck %s --check-prefix=ALL
// RUN: env ONEPASS_DEVICE_SELECTOR=cpu:0 %t | FileCheck %s --check-prefix=CPU
// RUN: env ONEPASS_DEVICE_SELECTOR='CPU:*, !cuda' %t | FileCheck %s --check-prefix=CPU
// RUN: env ONEPASS_DEVICE_SELECTOR='!cpu' %t | FileCheck %s --check-prefix=NONE
// RUN: env ONEPASS_DEVICE_SELECTOR=no-such-device %t | FileCheck %s --check-prefix=NONE
// RUN: env ONEPASS_DEVICE_SELECTOR=cpu:x %t | FileCheck %s --check-prefix=BADINDEX
// RUN: env ONEPASS_DEVICE_SELECTOR=rocm:0 %t | FileCheck %s --check-prefix=BADBACKEND
// RUN: env ONEPASS_DEVICE_SELECTOR=cpu,,gpu %t | FileCheck %s --check-prefix=EMPTY
#include <sycl/sycl.hpp>

#include <cstdio>

// ALL: cpu devices: 1
// CPU: devices: 1
// CPU-NEXT: cpu devices: 1
// CPU-NEXT: ran on the CPU
// NONE: devices: 0
// NONE: queue: no SYCL device satisfies the device selector {{.*}}ONEPASS_DEVICE_SELECTOR='{{.*}}' leaves out cpu:0 '
// BADINDEX: error: ONEPASS_DEVICE_SELECTOR='cpu:x': 'cpu:x' needs a device index or '*' after the colon
// BADBACKEND: error: ONEPASS_DEVICE_SELECTOR='rocm:0': 'rocm:0' names no backend OnePass has (cpu, cuda, opencl, level_zero, hip)
// EMPTY: error: ONEPASS_DEVICE_SELECTOR='cpu,,gpu': '' is an empty term

int main() {
  try {
    const std::vector<sycl::device> devices = sycl::device::get_devices();
    std::printf("devices: %zu\n", devices.size());
    std::printf("cpu devices: %zu\n", sycl::device::get_devices(sycl::info::device_type::cpu).size());
  } catch (const sycl::exception &e) {
    std::printf("error: %s\n", e.what());
    return 0;
  }
  try {
    sycl::queue q;
    int *x = sycl::malloc_shared<int>(1, q);
    q.single_task([=] { *x = 7; }).wait();
    std::printf("ran on the %s\n", q.get_device().is_cpu() && *x == 7 ? "CPU" : "?");
    sycl::free(x, q);
  } catch (const sycl::exception &e) {
    std::printf("queue: %s\n", e.what());
  }
  return 0;
}
