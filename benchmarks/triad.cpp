// CPU memory bandwidth of OnePass kernels: the STREAM triad
// a[i] = b[i] + s * c[i] over 2^25 floats, with USM shared and USM device
// allocations, against the same loop in the same program compiled by g++ with
// OpenMP (`#pragma omp parallel for simd`, triad_openmp_ref.cpp).
//
// Both sides first-touch their arrays in parallel (OnePass with a kernel, the
// reference with an OpenMP loop), run warm-up iterations, then are timed
// interleaved, with an idle gap before each timed run: libgomp's threads
// spin-wait for milliseconds after a parallel region, and would otherwise
// take a core from whatever runs next. Bandwidth counts 3 arrays x 4 bytes per element (no
// write-allocate traffic), as STREAM does. OnePass uses its default thread
// count (all cores); set OMP_NUM_THREADS to the core count for the reference.
#include "timing.h"
#include "triad_openmp_ref.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr size_t kElements = size_t(1) << 25;
constexpr int kWarmupIterations = 3;
constexpr int kTimedIterations = 20;
constexpr float kScalar = 3.0f;
constexpr float kExpected = 1.0f + kScalar * 2.0f;  // b = 1, c = 2
constexpr double kBytesPerIteration = 3.0 * sizeof(float) * double(kElements);

struct InitKernel {
  float *a;
  float *b;
  float *c;
  void operator()(sycl::id<1> i) const {
    a[i] = 0.0f;
    b[i] = 1.0f;
    c[i] = 2.0f;
  }
};

struct TriadKernel {
  float *a;
  const float *b;
  const float *c;
  float scalar;
  void operator()(sycl::id<1> i) const { a[i] = b[i] + scalar * c[i]; }
};

// The three arrays of one OnePass variant, first-touched by a kernel.
class OnePassTriad {
public:
  OnePassTriad(sycl::queue &q, sycl::usm::alloc kind) : queue_(q) {
    for (float *&array : {std::ref(a_), std::ref(b_), std::ref(c_)}) {
      array = sycl::malloc<float>(kElements, q, kind);
      if (!array) {
        std::fprintf(stderr, "triad: USM allocation of %zu floats failed\n", kElements);
        std::exit(1);
      }
    }
    q.parallel_for(sycl::range<1>(kElements), InitKernel{a_, b_, c_}).wait();
  }
  ~OnePassTriad() {
    for (float *array : {a_, b_, c_}) sycl::free(array, queue_);
  }
  OnePassTriad(const OnePassTriad &) = delete;
  OnePassTriad &operator=(const OnePassTriad &) = delete;

  void run() { queue_.parallel_for(sycl::range<1>(kElements), TriadKernel{a_, b_, c_, kScalar}).wait(); }

  // Device allocations are read back with a copy, as a program would.
  size_t countWrong() {
    std::vector<float> result(kElements);
    queue_.memcpy(result.data(), a_, kElements * sizeof(float)).wait();
    return size_t(std::count_if(result.begin(), result.end(), [](float v) { return v != kExpected; }));
  }

private:
  sycl::queue &queue_;
  float *a_ = nullptr;
  float *b_ = nullptr;
  float *c_ = nullptr;
};

class OpenMpTriad {
public:
  OpenMpTriad() {
    // Allocation only; the pages are touched first by triad_openmp_init.
    for (float *&array : {std::ref(a_), std::ref(b_), std::ref(c_)}) {
      array = static_cast<float *>(std::aligned_alloc(64, kElements * sizeof(float)));
      if (!array) {
        std::fprintf(stderr, "triad: allocation of %zu floats failed\n", kElements);
        std::exit(1);
      }
    }
    triad_openmp_init(a_, b_, c_, kElements);
  }
  ~OpenMpTriad() {
    for (float *array : {a_, b_, c_}) std::free(array);
  }
  OpenMpTriad(const OpenMpTriad &) = delete;
  OpenMpTriad &operator=(const OpenMpTriad &) = delete;

  void run() { triad_openmp(a_, b_, c_, kScalar, kElements); }
  size_t countWrong() const {
    return size_t(std::count_if(a_, a_ + kElements, [](float v) { return v != kExpected; }));
  }

private:
  float *a_ = nullptr;
  float *b_ = nullptr;
  float *c_ = nullptr;
};

struct Variant {
  std::string name;
  std::function<void()> run;
  std::function<size_t()> countWrong;
  std::vector<double> gigabytesPerSecond;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double best(const std::vector<double> &values) { return *std::max_element(values.begin(), values.end()); }

}  // namespace

int main() {
  sycl::queue q;
  sycl::device device = q.get_device();
  std::printf("triad a[i] = b[i] + s*c[i], %zu floats (%.0f MiB per array), %d timed iterations each, interleaved\n",
              kElements, kElements * sizeof(float) / 1048576.0, kTimedIterations);
  std::printf("OnePass device: %s (%u compute units); OpenMP reference: %d threads\n",
              device.get_info<sycl::info::device::name>().c_str(),
              device.get_info<sycl::info::device::max_compute_units>(), triad_openmp_threads());

  OnePassTriad shared(q, sycl::usm::alloc::shared);
  OnePassTriad onDevice(q, sycl::usm::alloc::device);
  OpenMpTriad reference;
  std::vector<Variant> variants;
  variants.push_back({"OnePass USM shared", [&] { shared.run(); }, [&] { return shared.countWrong(); }, {}});
  variants.push_back({"OnePass USM device", [&] { onDevice.run(); }, [&] { return onDevice.countWrong(); }, {}});
  variants.push_back({"OpenMP (g++ -O3)", [&] { reference.run(); }, [&] { return reference.countWrong(); }, {}});

  for (int i = 0; i < kWarmupIterations; ++i)
    for (Variant &v : variants) v.run();
  // Rotate which variant goes first, so none always follows the same one.
  for (int i = 0; i < kTimedIterations; ++i)
    for (size_t k = 0; k < variants.size(); ++k) {
      Variant &v = variants[(i + k) % variants.size()];
      v.gigabytesPerSecond.push_back(kBytesPerIteration / bench::secondsAfterIdle(v.run) / 1e9);
    }

  bool allCorrect = true;
  for (Variant &v : variants)
    if (size_t wrong = v.countWrong()) {
      std::printf("ERROR: %s computed %zu wrong values\n", v.name.c_str(), wrong);
      allCorrect = false;
    }
  if (!allCorrect) return 1;

  const Variant &openmp = variants.back();
  std::printf("%-20s %12s %14s %16s %18s\n", "variant", "best GB/s", "median GB/s", "best/OpenMP", "median/OpenMP");
  for (const Variant &v : variants)
    std::printf("%-20s %12.2f %14.2f %15.3fx %17.3fx\n", v.name.c_str(), best(v.gigabytesPerSecond),
                median(v.gigabytesPerSecond), best(v.gigabytesPerSecond) / best(openmp.gigabytesPerSecond),
                median(v.gigabytesPerSecond) / median(openmp.gigabytesPerSecond));
  std::printf("triad ratio OnePass/OpenMP (best) shared=%.2fx device=%.2fx; (median) shared=%.2fx device=%.2fx "
              "(target >= 0.95x)\n",
              best(variants[0].gigabytesPerSecond) / best(openmp.gigabytesPerSecond),
              best(variants[1].gigabytesPerSecond) / best(openmp.gigabytesPerSecond),
              median(variants[0].gigabytesPerSecond) / median(openmp.gigabytesPerSecond),
              median(variants[1].gigabytesPerSecond) / median(openmp.gigabytesPerSecond));
  return 0;
}
