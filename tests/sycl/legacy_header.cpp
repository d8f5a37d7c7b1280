// SYCL 1.2.1 spellings SYCL 2020 keeps (§4.3, §4.6.1.3): <CL/sycl.hpp>, the
// cl::sycl namespace and the deprecated selector classes.
#include <CL/sycl.hpp>

#include "check.h"

#pragma clang diagnostic ignored "-Wdeprecated-declarations"

int main() {
  cl::sycl::queue q{cl::sycl::cpu_selector{}};
  onepass_test::check("cpu_selector picks the CPU", q.get_device().is_cpu());
  cl::sycl::default_selector chooser;
  const cl::sycl::device_selector &base = chooser;
  onepass_test::check("device_selector::select_device", base.select_device() == cl::sycl::device(chooser));
  int *value = cl::sycl::malloc_shared<int>(1, q);
  q.single_task([=] { *value = 42; }).wait();
  onepass_test::checkEqual("a kernel through cl::sycl", 42, *value);
  cl::sycl::free(value, q);
  return onepass_test::report();
}
