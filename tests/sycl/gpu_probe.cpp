// Says whether a CUDA device is usable: prints it and exits 0, or prints why
// not and exits 77 (CTest's "skipped"), so GPU tests skip cleanly without one.
#include <sycl/sycl.hpp>

#include <cstdio>

int main() {
  try {
    sycl::queue q{sycl::gpu_selector_v};
    std::printf("GPU: %s (%s)\n", q.get_device().get_info<sycl::info::device::name>().c_str(),
                q.get_device().get_info<sycl::info::device::driver_version>().c_str());
    return 0;
  } catch (const sycl::exception &e) {
    std::printf("no CUDA device: %s\n", e.what());
    return 77;
  }
}
