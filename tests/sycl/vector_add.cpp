// 1-D vector addition with every parameter form a parallel_for kernel may take
// (id<1>, item<1>, size_t, auto), through the queue shortcuts and through
// handler::parallel_for, for sizes that are not multiples of any chunk or
// vector width, including the empty range.
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstddef>
#include <string>
#include <vector>

using onepass_test::checkArray;
using onepass_test::checkEqual;

namespace {

enum class form { id, item, size_t_index, auto_index, handler_item, count_overload };

const char *formName(form f) {
  switch (f) {
  case form::id: return "id<1>";
  case form::item: return "item<1>";
  case form::size_t_index: return "size_t";
  case form::auto_index: return "auto";
  case form::handler_item: return "handler item<1>";
  case form::count_overload: return "size_t count";
  }
  return "?";
}

void launch(sycl::queue &q, form f, std::size_t n, const float *a, const float *b, float *c) {
  sycl::range<1> r(n);
  switch (f) {
  case form::id: q.parallel_for(r, [=](sycl::id<1> i) { c[i] = a[i] + b[i]; }).wait(); break;
  case form::item:
    q.parallel_for(r, [=](sycl::item<1> it) { c[it.get_id(0)] = a[it[0]] + b[it.get_linear_id()]; }).wait();
    break;
  case form::size_t_index: q.parallel_for(r, [=](std::size_t i) { c[i] = a[i] + b[i]; }).wait(); break;
  case form::auto_index: q.parallel_for(r, [=](auto i) { c[i] = a[i] + b[i]; }).wait(); break;
  case form::handler_item:
    q.submit([&](sycl::handler &h) { h.parallel_for(r, [=](sycl::item<1> it) { c[it] = a[it] + b[it]; }); }).wait();
    break;
  case form::count_overload: q.parallel_for(n, [=](sycl::id<1> i) { c[i] = a[i] + b[i]; }).wait(); break;
  }
}

// Runs one size with one kernel form on device memory; checks the result and
// that nothing past the end was written.
void vectorAdd(sycl::queue &q, form f, std::size_t n) {
  const std::string what = std::string("c (") + formName(f) + ", n=" + std::to_string(n) + ")";
  const std::size_t guard = 5;  // elements past n that must stay untouched
  std::vector<float> a(n), b(n), c(n + guard, -1.0f);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 1024);
    b[i] = 0.5f * static_cast<float>(i % 4096);
  }

  float *da = sycl::malloc_device<float>(n, q);
  float *db = sycl::malloc_device<float>(n, q);
  float *dc = sycl::malloc_device<float>(n + guard, q);
  q.memcpy(da, a.data(), n * sizeof(float));
  q.memcpy(db, b.data(), n * sizeof(float));
  q.memcpy(dc, c.data(), (n + guard) * sizeof(float));
  q.wait();

  launch(q, f, n, da, db, dc);

  q.memcpy(c.data(), dc, (n + guard) * sizeof(float)).wait();
  checkArray(what, n, c.data(), [&](std::size_t i) { return a[i] + b[i]; });
  checkArray(what + " past the end", guard, c.data() + n, [](std::size_t) { return -1.0f; });
  sycl::free(da, q);
  sycl::free(db, q);
  sycl::free(dc, q);
}

// The same addition on shared memory with integers, read back directly.
void vectorAddShared(sycl::queue &q, std::size_t n) {
  int *a = sycl::malloc_shared<int>(n, q);
  int *b = sycl::malloc_shared<int>(n, q);
  int *c = sycl::malloc_shared<int>(n, q);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<int>(i);
    b[i] = -3 * static_cast<int>(i) + 7;
    c[i] = 0;
  }
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { c[i] = a[i] + b[i]; }).wait();
  checkArray("shared int c (n=" + std::to_string(n) + ")", n, c,
             [](std::size_t i) { return -2 * static_cast<int>(i) + 7; });
  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(c, q);
}

}  // namespace

int main() {
  sycl::queue q;
  const std::size_t sizes[] = {0, 1, 17, 1000003};
  for (form f : {form::id, form::item, form::size_t_index, form::auto_index, form::handler_item, form::count_overload})
    for (std::size_t n : sizes)
      onepass_test::runPart(std::string("vector add ") + formName(f) + " n=" + std::to_string(n),
                            [&] { vectorAdd(q, f, n); });
  for (std::size_t n : {std::size_t(1), std::size_t(17), std::size_t(16385), std::size_t(1000003)})
    onepass_test::runPart("shared vector add n=" + std::to_string(n), [&] { vectorAddShared(q, n); });

  // An empty range runs no work-item at all.
  onepass_test::runPart("empty range", [&] {
    int *ran = sycl::malloc_shared<int>(1, q);
    *ran = 0;
    q.parallel_for(sycl::range<1>(0), [=](sycl::id<1>) { *ran = 1; }).wait();
    checkEqual("work-items run for range<1>(0)", 0, *ran);
    sycl::free(ran, q);
  });
  return onepass_test::report();
}
