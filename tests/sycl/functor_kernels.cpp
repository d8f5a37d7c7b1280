// Kernels written as named function objects (SYCL 2020 §4.12.2: a class
// with a const operator() and members), and lambdas given an explicit kernel
// name with parallel_for<class name> / single_task<class name>.
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstddef>

using onepass_test::checkArray;
using onepass_test::checkEqual;

namespace {

// out[i] = scale * in[i] + offset, for item<1>.
struct scale_and_offset {
  const int *in;
  long *out;
  int scale;
  long offset;
  void operator()(sycl::item<1> it) const { out[it] = static_cast<long>(scale) * in[it] + offset; }
};

// A function object with no arguments, for single_task, with a helper member function.
struct write_constants {
  double *out;
  double base;
  short count;
  double value(int k) const { return base * k; }
  void operator()() const {
    for (int k = 0; k < count; ++k) out[k] = value(k);
  }
};

// A 2-D function object taking id<2>, whose members include a small array.
struct matrix_fill {
  float *out;
  std::size_t columns;
  float weights[2];
  void operator()(sycl::id<2> i) const {
    out[i[0] * columns + i[1]] = weights[0] * static_cast<float>(i[0]) + weights[1] * static_cast<float>(i[1]);
  }
};

// Members in a base class as well as in the function object itself.
struct kernel_base {
  int *out;
  int bias;
};
struct derived_kernel : kernel_base {
  int factor;
  derived_kernel(int *o, int b, int f) : kernel_base{o, b}, factor(f) {}
  void operator()(std::size_t i) const { out[i] = static_cast<int>(i) * factor + bias; }
};

// A template function object: each instantiation is its own kernel.
template <typename T> struct iota_kernel {
  T *out;
  T start;
  void operator()(sycl::id<1> i) const { out[i] = start + static_cast<T>(i[0]); }
};

void functionObjects(sycl::queue &q) {
  const std::size_t n = 1001;
  int *in = sycl::malloc_shared<int>(n, q);
  long *out = sycl::malloc_shared<long>(n, q);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<int>(i) - 500;

  q.parallel_for(sycl::range<1>(n), scale_and_offset{in, out, -3, 1L << 33}).wait();
  checkArray("scale_and_offset via queue::parallel_for", n, out,
             [&](std::size_t i) { return -3L * in[i] + (1L << 33); });

  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<1>(n), scale_and_offset{in, out, 7, -11}); }).wait();
  checkArray("scale_and_offset via handler::parallel_for", n, out, [&](std::size_t i) { return 7L * in[i] - 11; });

  double *constants = sycl::malloc_shared<double>(8, q);
  for (int k = 0; k < 8; ++k) constants[k] = -1.0;
  q.single_task(write_constants{constants, 0.25, 6}).wait();
  checkArray("write_constants via single_task", 8, constants,
             [](std::size_t k) { return k < 6 ? 0.25 * static_cast<double>(k) : -1.0; });

  const std::size_t rows = 13, columns = 29;
  float *matrix = sycl::malloc_shared<float>(rows * columns, q);
  q.submit([&](sycl::handler &h) {
     h.parallel_for(sycl::range<2>(rows, columns), matrix_fill{matrix, columns, {2.0f, -0.5f}});
   }).wait();
  checkArray("matrix_fill", rows * columns, matrix, [&](std::size_t k) {
    return 2.0f * static_cast<float>(k / columns) - 0.5f * static_cast<float>(k % columns);
  });

  int *ints = sycl::malloc_shared<int>(n, q);
  q.parallel_for(n, derived_kernel(ints, 9, -4)).wait();
  checkArray("derived_kernel", n, ints, [](std::size_t i) { return static_cast<int>(i) * -4 + 9; });

  q.parallel_for(sycl::range<1>(n), iota_kernel<int>{ints, -100}).wait();
  checkArray("iota_kernel<int>", n, ints, [](std::size_t i) { return static_cast<int>(i) - 100; });
  q.parallel_for(sycl::range<1>(n), iota_kernel<long>{out, 1L << 40}).wait();
  checkArray("iota_kernel<long>", n, out, [](std::size_t i) { return (1L << 40) + static_cast<long>(i); });

  // The same function object type launched twice with different members.
  q.parallel_for(sycl::range<1>(n), scale_and_offset{in, out, 1, 0});
  q.wait();
  checkArray("scale_and_offset relaunched", n, out, [&](std::size_t i) { return static_cast<long>(in[i]); });

  for (void *p : {static_cast<void *>(in), static_cast<void *>(out), static_cast<void *>(constants),
                  static_cast<void *>(matrix), static_cast<void *>(ints)})
    sycl::free(p, q);
}

void namedLambdas(sycl::queue &q) {
  const std::size_t n = 777;
  int *out = sycl::malloc_shared<int>(n, q);
  q.parallel_for<class my_name>(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = 3 * static_cast<int>(i[0]); }).wait();
  checkArray("parallel_for<class my_name>", n, out, [](std::size_t i) { return 3 * static_cast<int>(i); });

  q.submit([&](sycl::handler &h) {
     h.parallel_for<class my_handler_name>(sycl::range<1>(n),
                                           [=](sycl::item<1> it) { out[it] = -static_cast<int>(it.get_linear_id()); });
   }).wait();
  checkArray("handler::parallel_for<class my_handler_name>", n, out,
             [](std::size_t i) { return -static_cast<int>(i); });

  q.parallel_for<class my_count_name>(n, [=](std::size_t i) { out[i] = static_cast<int>(i) + 1; }).wait();
  checkArray("parallel_for<class my_count_name>(size_t)", n, out,
             [](std::size_t i) { return static_cast<int>(i) + 1; });

  q.single_task<class my_task_name>([=] { out[0] = 4242; }).wait();
  checkEqual("single_task<class my_task_name>", 4242, out[0]);

  q.submit([&](sycl::handler &h) { h.single_task<class my_handler_task_name>([=] { out[1] = -4242; }); }).wait();
  checkEqual("handler::single_task<class my_handler_task_name>", -4242, out[1]);

  // A named function object with an explicit (different) kernel name.
  long *longs = sycl::malloc_shared<long>(n, q);
  int *ints = sycl::malloc_shared<int>(n, q);
  for (std::size_t i = 0; i < n; ++i) ints[i] = static_cast<int>(i);
  q.parallel_for<class functor_with_name>(sycl::range<1>(n), scale_and_offset{ints, longs, 2, 5}).wait();
  checkArray("parallel_for<class functor_with_name>(scale_and_offset)", n, longs,
             [](std::size_t i) { return 2L * static_cast<long>(i) + 5; });
  sycl::free(out, q);
  sycl::free(longs, q);
  sycl::free(ints, q);
}

}  // namespace

int main() {
  sycl::queue q;
  onepass_test::runPart("function objects", [&] { functionObjects(q); });
  onepass_test::runPart("named lambdas", [&] { namedLambdas(q); });
  return onepass_test::report();
}
