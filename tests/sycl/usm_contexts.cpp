// USM pointer queries are per context (SYCL 2020 §4.8.4): get_pointer_type
// returns usm::alloc::unknown, and get_pointer_device throws errc::invalid,
// for a pointer that is not a USM allocation of the context asked about,
// even when it is one of another context on the same device.
#include "check.h"

#include <sycl/sycl.hpp>

using onepass_test::checkEqual;
using onepass_test::checkThrows;

int main() {
  sycl::device dev;
  sycl::context first(dev), second(dev);
  checkEqual("two contexts created separately differ", true, first != second);

  onepass_test::runPart("allocations of one context queried in another", [&] {
    int *device = sycl::malloc_device<int>(16, dev, first);
    int *shared = sycl::malloc_shared<int>(16, dev, first);
    int *host = sycl::malloc_host<int>(16, first);

    checkEqual("device allocation in its own context", sycl::usm::alloc::device, sycl::get_pointer_type(device, first));
    checkEqual("shared allocation in its own context", sycl::usm::alloc::shared, sycl::get_pointer_type(shared, first));
    checkEqual("host allocation in its own context", sycl::usm::alloc::host, sycl::get_pointer_type(host, first));

    checkEqual("device allocation in another context", sycl::usm::alloc::unknown,
               sycl::get_pointer_type(device, second));
    checkEqual("shared allocation in another context", sycl::usm::alloc::unknown,
               sycl::get_pointer_type(shared + 3, second));
    checkEqual("host allocation in another context", sycl::usm::alloc::unknown, sycl::get_pointer_type(host, second));

    checkEqual("get_pointer_device in its own context", true, sycl::get_pointer_device(device, first) == dev);
    checkThrows("get_pointer_device of a device allocation in another context", sycl::errc::invalid,
                [&] { sycl::get_pointer_device(device, second); });
    checkThrows("get_pointer_device of a shared allocation in another context", sycl::errc::invalid,
                [&] { sycl::get_pointer_device(shared, second); });

    sycl::free(device, first);
    sycl::free(shared, first);
    sycl::free(host, first);
  });

  // Queues on the two contexts each use their own context's memory.
  onepass_test::runPart("a queue per context", [&] {
    sycl::queue q1(first, dev), q2(second, dev);
    int *a = sycl::malloc_shared<int>(4, q1);
    int *b = sycl::malloc_shared<int>(4, q2);
    q1.single_task([=] { a[0] = 1; }).wait();
    q2.single_task([=] { b[0] = 2; }).wait();
    checkEqual("kernel on the first context's queue", 1, a[0]);
    checkEqual("kernel on the second context's queue", 2, b[0]);
    checkEqual("q2's allocation seen from the first context", sycl::usm::alloc::unknown,
               sycl::get_pointer_type(b, first));
    sycl::free(a, q1);
    sycl::free(b, q2);
  });
  return onepass_test::report();
}
