// Synchronous errors (SYCL 2020 §4.13): invalid command groups and copies
// throw sycl::exception at submission with the right error code, the queue
// stays usable afterwards, and with no asynchronous error the async_handler
// is never called.
#include "check.h"

#include <sycl/sycl.hpp>

#include <string>
#include <system_error>

using onepass_test::check;
using onepass_test::checkEqual;
using onepass_test::checkNoThrow;
using onepass_test::checkThrows;

namespace {

void twoCommands(sycl::queue &q) {
  int *a = sycl::malloc_shared<int>(4, q);
  int *b = sycl::malloc_shared<int>(4, q);
  checkThrows("kernel then memcpy in one command group", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.single_task([=] { a[0] = 1; });
      h.memcpy(b, a, sizeof(int));
    });
  });
  checkThrows("two kernels in one command group", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { a[i] = 2; });
      h.single_task([=] { b[0] = 2; });
    });
  });
  checkThrows("memset then fill in one command group", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.memset(a, 0, sizeof(int));
      h.fill(b, 7, 4);
    });
  });
  checkThrows("copy then memcpy in one command group", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.copy(static_cast<const int *>(a), b, 4);
      h.memcpy(b, a, sizeof(int));
    });
  });
  q.wait();
  // The queue still works after the rejected command groups.
  a[0] = 0;
  q.single_task([=] { a[0] = 99; }).wait();
  checkEqual("kernel after rejected command groups", 99, a[0]);
  sycl::free(a, q);
  sycl::free(b, q);
}

void nullPointers(sycl::queue &q) {
  int *a = sycl::malloc_device<int>(4, q);
  checkThrows("queue::memcpy to nullptr", sycl::errc::invalid, [&] { q.memcpy(nullptr, a, 4); });
  checkThrows("queue::memcpy from nullptr", sycl::errc::invalid, [&] { q.memcpy(a, nullptr, 4); });
  checkThrows("handler::memcpy from nullptr", sycl::errc::invalid,
              [&] { q.submit([&](sycl::handler &h) { h.memcpy(a, nullptr, 16); }); });
  checkThrows("queue::copy to nullptr", sycl::errc::invalid,
              [&] { q.copy(static_cast<const int *>(a), static_cast<int *>(nullptr), 4); });
  checkNoThrow("queue::memcpy of 0 bytes with nullptrs", [&] { q.memcpy(nullptr, nullptr, 0).wait(); });
  q.wait();
  sycl::free(a, q);
}

void exceptionProperties(sycl::queue &q) {
  try {
    q.memcpy(nullptr, nullptr, 8);
    onepass_test::fail("memcpy(nullptr, nullptr, 8)", "sycl::exception", "no exception");
  } catch (const sycl::exception &e) {
    checkEqual("exception category is sycl_category()", true, &e.category() == &sycl::sycl_category());
    checkEqual("exception code", true, e.code() == sycl::errc::invalid);
    check("what() is not empty", std::string(e.what()).size() > 0);
    std::printf("memcpy(nullptr, nullptr, 8) threw: %s\n", e.what());
  }
  // sycl::exception is a std::exception.
  checkNoThrow("sycl::exception caught as std::exception", [&] {
    try {
      q.memcpy(nullptr, nullptr, 8);
    } catch (const std::exception &) {
    }
  });
}

void asyncHandlerNotCalled() {
  int calls = 0;
  // A lambda straight into the constructor (not an async_handler variable):
  // overload resolution must not take it for a property_list.
  sycl::queue q([&](sycl::exception_list errors) { calls += static_cast<int>(errors.size()) + 1; });
  int *a = sycl::malloc_shared<int>(64, q);
  q.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) { a[i] = static_cast<int>(i[0]); });
  q.single_task([=] { a[0] = -1; }).wait_and_throw();
  q.wait_and_throw();
  q.throw_asynchronous();
  checkEqual("async_handler calls with no asynchronous error", 0, calls);
  checkEqual("results with an async_handler installed", 63, a[63]);
  sycl::free(a, q);

  // The same for a handler installed on the context.
  int contextCalls = 0;
  sycl::device dev;
  sycl::context ctx(dev, [&](sycl::exception_list) { ++contextCalls; });
  sycl::queue onContext(ctx, dev);
  onContext.single_task([] {});
  onContext.wait_and_throw();
  checkEqual("context async_handler calls with no asynchronous error", 0, contextCalls);
}

// A command group with no command is allowed and completes.
void emptyCommandGroup(sycl::queue &q) {
  int *a = sycl::malloc_shared<int>(1, q);
  sycl::event kernel = q.single_task([=] { a[0] = 5; });
  sycl::event empty = q.submit([&](sycl::handler &h) { h.depends_on(kernel); });
  empty.wait();
  checkEqual("empty command group status", sycl::info::event_command_status::complete,
             empty.get_info<sycl::info::event::command_execution_status>());
  kernel.wait();
  checkEqual("kernel before the empty command group", 5, a[0]);
  sycl::free(a, q);
}

}  // namespace

int main() {
  sycl::queue q;
  onepass_test::runPart("two commands in one command group", [&] { twoCommands(q); });
  onepass_test::runPart("null pointers", [&] { nullPointers(q); });
  onepass_test::runPart("exception properties", [&] { exceptionProperties(q); });
  onepass_test::runPart("async_handler not called", [] { asyncHandlerNotCalled(); });
  onepass_test::runPart("empty command group", [&] { emptyCommandGroup(q); });
  {
    // §4.13.2: an exception may carry its context.
    sycl::context ctx;
    sycl::exception withContext(ctx, sycl::errc::invalid, "with a context");
    onepass_test::check("exception(context, ...) has a context", withContext.has_context());
    onepass_test::check("exception::get_context gives it back", withContext.get_context() == ctx);
    onepass_test::checkEqual("its message", std::string("with a context"), std::string(withContext.what()));
    sycl::exception plain(sycl::errc::runtime, "plain");
    onepass_test::check("exception without a context", !plain.has_context());
    onepass_test::checkThrows("get_context of an exception without one", sycl::errc::invalid,
                              [&] { plain.get_context(); });
    sycl::exception byCategory(ctx, static_cast<int>(sycl::errc::build), sycl::sycl_category());
    onepass_test::check("exception(context, int, category)",
                        byCategory.code() == sycl::errc::build && byCategory.has_context());
  }
  return onepass_test::report();
}
