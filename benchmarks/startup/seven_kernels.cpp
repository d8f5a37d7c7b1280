// cache_startup.sh's program: seven kernels of the usual kinds (single_task,
// parallel_for over a range in 1 and 2 dimensions, nd_range with local memory
// and a barrier, a reduction, a kernel with a functor, a copy), each launched
// once. With the argument "none" it sets up the same queue and memory and
// launches nothing: the process without any kernel work. With "timed" it
// prints how long its kernels took, from the queue's creation to the last
// kernel's end ("work <microseconds>").
#include <sycl/sycl.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>

struct Scale {
  float *data;
  float factor;
  void operator()(sycl::item<1> i) const { data[i] *= factor; }
};

int main(int argc, char **argv) {
  const auto start = std::chrono::steady_clock::now();
  sycl::queue q(sycl::cpu_selector_v, sycl::property::queue::in_order());
  const std::size_t n = 1024;
  float *a = sycl::malloc_shared<float>(n, q);
  float *b = sycl::malloc_shared<float>(n, q);
  float *sum = sycl::malloc_shared<float>(1, q);
  if (argc > 1 && std::strcmp(argv[1], "none") == 0) {
    q.wait();
  } else {
    q.single_task([=] { a[0] = 1.0f; });
    q.parallel_for(sycl::range<1>(n), [=](sycl::item<1> i) { a[i] = static_cast<float>(i[0]); });
    q.parallel_for(sycl::range<2>(32, 32), [=](sycl::item<2> i) { b[i[0] * 32 + i[1]] = a[i[1] * 32 + i[0]]; });
    q.submit([&](sycl::handler &h) {
      sycl::local_accessor<float, 1> tile(64, h);
      h.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
        tile[it.get_local_id(0)] = b[it.get_global_id(0)];
        sycl::group_barrier(it.get_group());
        a[it.get_global_id(0)] = tile[63 - it.get_local_id(0)];
      });
    });
    q.parallel_for(sycl::range<1>(n), Scale{a, 2.0f});
    q.memcpy(b, a, n * sizeof(float));
    *sum = 0;
    q.parallel_for(sycl::range<1>(n), sycl::reduction(sum, sycl::plus<float>()),
                   [=](sycl::id<1> i, auto &total) { total += b[i]; });
    q.wait();
    if (*sum != 2.0f * (n * (n - 1) / 2)) std::printf("wrong sum %f\n", *sum);
    if (argc > 1 && std::strcmp(argv[1], "timed") == 0)
      std::printf("work %lld\n", static_cast<long long>(std::chrono::duration_cast<std::chrono::microseconds>(
                                                             std::chrono::steady_clock::now() - start)
                                                             .count()));
  }
  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(sum, q);
  return 0;
}
