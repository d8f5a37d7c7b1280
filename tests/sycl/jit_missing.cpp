// Run with ONEPASS_JIT_LIBRARY pointing to a file that does not exist (CTest
// does): submitting a kernel must throw a sycl::exception, at the submit call,
// whose message names the JIT library and that path. The kernel must not run,
// and commands that need no JIT (fill, memcpy) must still work.
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

using onepass_test::check;
using onepass_test::checkEqual;

namespace {

// Submits a kernel; returns whether it threw the expected exception.
bool submitThrowsJitError(sycl::queue &q, int *value, const std::string &path, const std::string &what) {
  try {
    q.single_task([=] { *value = 1; });
    q.wait();
  } catch (const sycl::exception &e) {
    const std::string message = e.what();
    std::printf("%s threw: %s\n", what.c_str(), message.c_str());
    bool mentionsLibrary = message.find("JIT library") != std::string::npos;
    bool mentionsPath = message.find(path) != std::string::npos;
    check(what + ": the message mentions \"JIT library\"", mentionsLibrary);
    check(what + ": the message mentions the path " + path, mentionsPath);
    return mentionsLibrary && mentionsPath;
  }
  onepass_test::fail(what, "a sycl::exception about the missing JIT library", "no exception");
  return false;
}

}  // namespace

int main() {
  const char *configured = std::getenv("ONEPASS_JIT_LIBRARY");
  if (!configured || !*configured) {
    std::printf("FAILED: run this test with ONEPASS_JIT_LIBRARY=/nonexistent/libonepass-jit.so\n");
    return 1;
  }
  const std::string path = configured;

  sycl::queue q;
  int *value = sycl::malloc_shared<int>(1, q);
  *value = 0;
  submitThrowsJitError(q, value, path, "the first kernel submission");
  submitThrowsJitError(q, value, path, "the second kernel submission");
  checkEqual("value the kernel would have written", 0, *value);

  // Memory commands do not need the JIT.
  onepass_test::runPart("fill and memcpy without a JIT", [&] {
    int *device = sycl::malloc_device<int>(16, q);
    int host[16] = {};
    q.fill(device, 7, 16).wait();
    q.memcpy(host, device, sizeof host).wait();
    onepass_test::checkArray("fill then memcpy", 16, host, [](std::size_t) { return 7; });
    sycl::free(device, q);
  });
  sycl::free(value, q);
  return onepass_test::report();
}
