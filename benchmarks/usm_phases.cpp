// The phases of a BabelStream-shaped process with OnePass (issue 20): device
// discovery, allocation, the first kernel (first touch), 100 rounds of copy,
// mul, add, triad and a dot read on the host, the read-back of the arrays,
// the frees. `usm_phases <n> shared|device`: the arrays in malloc_shared or
// malloc_device memory (then read back with memcpy). usm_phases_cuda.cu is
// the same process with cudaMallocManaged / cudaMalloc; usm_phases.sh runs
// both alternately and prints each phase's best time. Each line of output is
// "<phase> <seconds since the epoch>" at the end of the phase.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace {
double now() {
  timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
}  // namespace

int main(int argc, char **argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t(1) << 25);
  const bool shared = argc < 3 || std::strcmp(argv[2], "device") != 0;
  std::vector<double> ha(n), hb(n), hc(n);  // the host's copies exist before, as in BabelStream
  std::printf("host %.6f\n", now());
  auto devices = sycl::device::get_devices();
  sycl::queue q{devices[0]};
  std::printf("devices %.6f\n", now());
  auto allocate = [&] { return shared ? sycl::malloc_shared<double>(n, q) : sycl::malloc_device<double>(n, q); };
  double *a = allocate(), *b = allocate(), *c = allocate();
  double *sum = sycl::malloc_shared<double>(1, q);
  std::printf("allocate %.6f\n", now());
  q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) {
     a[i] = 0.1;
     b[i] = 0.2;
     c[i] = 0.0;
   }).wait();
  std::printf("init %.6f\n", now());
  double dot = 0;
  for (int round = 0; round < 100; ++round) {
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { c[i] = a[i]; }).wait();
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { b[i] = 0.4 * c[i]; }).wait();
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { c[i] = a[i] + b[i]; }).wait();
    q.parallel_for(sycl::range<1>{n}, [=](sycl::id<1> i) { a[i] = b[i] + 0.4 * c[i]; }).wait();
    q.submit([&](sycl::handler &h) {
      h.parallel_for(sycl::range<1>{n},
                     sycl::reduction(sum, sycl::plus<double>(), sycl::property::reduction::initialize_to_identity{}),
                     [=](sycl::id<1> i, auto &s) { s += a[i] * b[i]; });
    });
    q.wait();
    dot = *sum;
  }
  std::printf("kernels %.6f\n", now());
  if (shared) {
    for (std::size_t i = 0; i < n; ++i) {
      ha[i] = a[i];
      hb[i] = b[i];
      hc[i] = c[i];
    }
  } else {
    q.memcpy(ha.data(), a, n * sizeof(double));
    q.memcpy(hb.data(), b, n * sizeof(double));
    q.memcpy(hc.data(), c, n * sizeof(double));
    q.wait();
  }
  std::printf("read %.6f\n", now());
  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(c, q);
  sycl::free(sum, q);
  std::printf("free %.6f\n", now());
  // The results, so that nothing above is optimized away (and a wrong run shows).
  std::fprintf(stderr, "dot %g a[1] %g b[1] %g c[1] %g\n", dot, ha[1], hb[1], hc[1]);
  return 0;
}
