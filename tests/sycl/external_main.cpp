// A kernel calling SYCL_EXTERNAL functions of another TU, of a static
// library and of a shared library (each built with onepass++), on the
// default device: the JIT links their device code into the kernel. A
// function with only a host definition is errc::build at the launch, naming
// it and the kernel.
#include "check.h"
#include "external.h"

#include <cstdio>
#include <string>

using onepass_test::check;
using onepass_test::checkArray;
using onepass_test::checkThrows;

namespace {

void linked(sycl::queue &q) {
  constexpr std::size_t n = 64;
  float *f = sycl::malloc_shared<float>(n, q);
  int *k = sycl::malloc_shared<int>(n, q);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> id) {
     const int i = static_cast<int>(id[0]);
     f[i] = ext_polynomial(static_cast<float>(i) * 0.5f);
     k[i] = ext_twice_plus(i, 7) + ext_twice(i);
   }).wait();
  checkArray("a static library's function", n, f, [](std::size_t i) {
    const float x = static_cast<float>(i) * 0.5f;
    return (2.0f * x + 3.0f) * x + 1.0f;
  });
  checkArray("another TU's function calling a shared library's", n, k,
             [](std::size_t i) { return static_cast<int>(4 * i + 7); });
  sycl::free(f, q);
  sycl::free(k, q);
}

void hostOnly(sycl::queue &q) {
  int *out = sycl::malloc_shared<int>(1, q);
  std::string message;
  checkThrows("a function with only a host definition", sycl::errc::build, [&] {
    try {
      q.single_task([=] { out[0] = ext_host_only(1); }).wait();
    } catch (const sycl::exception &e) {
      message = e.what();
      throw;
    }
  });
  check("the error names the function (" + message + ")", message.find("ext_host_only(int)") != std::string::npos);
  check("the error names the kernel's file", message.find("external_main.cpp") != std::string::npos);
  sycl::free(out, q);
}

}  // namespace

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  onepass_test::runPart("linked", [&] { linked(q); });
  onepass_test::runPart("host only", [&] { hostOnly(q); });
  return onepass_test::report();
}
