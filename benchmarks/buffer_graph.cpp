// The buffer task graph on the default device (the CPU unless ONEPASS_DEVICE
// says otherwise).
//
//  1. Submission overhead: command groups per second for an empty kernel with
//     one read_write accessor (each depends on the last through the buffer),
//     on an in-order and an out-of-order queue; the reference is the same
//     kernel on a USM pointer, on the same kind of queue, in the same run,
//     rounds alternating. Printed: rates and the ratio buffer/USM.
//  2. Concurrency of disjoint accessors: kernels on the two halves of one
//     buffer (default pages: the halves lie on different pages), submitted
//     together, against the sum of the same kernels run one at a time.
//     A control with every kernel on the whole buffer (all conflicting) shows
//     the serialized case. Printed: wall time / serialized sum.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

constexpr int kSubmissions = 20000;
constexpr int kRounds = 5;

double bufferRate(sycl::queue &q, sycl::buffer<int> &buffer) {
  auto start = Clock::now();
  for (int i = 0; i < kSubmissions; ++i)
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(buffer, h, sycl::read_write);
      h.parallel_for(sycl::range<1>(1), [=](sycl::id<1>) { (void)a; });
    });
  q.wait();
  return kSubmissions / seconds(start, Clock::now());
}

double usmRate(sycl::queue &q, int *data) {
  auto start = Clock::now();
  for (int i = 0; i < kSubmissions; ++i)
    q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<1>(1), [=](sycl::id<1>) { (void)data; }); });
  q.wait();
  return kSubmissions / seconds(start, Clock::now());
}

constexpr std::size_t kElements = std::size_t(1) << 20;
constexpr int kSteps = 4;             // kernels per half
constexpr int kWorkPerElement = 512;  // dependent multiply-adds per element

// A serial kernel (single_task): on the CPU it runs on one executor lane, so
// two of them can only overlap if the graph lets them.
sycl::event submitHalf(sycl::queue &q, sycl::buffer<float> &buffer, std::size_t first, std::size_t count) {
  return q.submit([&](sycl::handler &h) {
    sycl::accessor a(buffer, h, sycl::range<1>(count), sycl::id<1>(first), sycl::read_write);
    h.single_task([=] {
      for (std::size_t i = 0; i < count; ++i) {
        float x = a[i];
        for (int k = 0; k < kWorkPerElement; ++k) x = x * 0.999f + 0.5f;
        a[i] = x;
      }
    });
  });
}

// Section 3: one round of a kernel writing 256 floats and their read on the host.
constexpr std::size_t kResult = 256;
// What both kernels of a round compute for element i: `work` dependent multiply-adds.
inline float roundResult(std::size_t i, int work) {
  float x = static_cast<float>(i);
  for (int k = 0; k < work; ++k) x = x * 0.999f + 1.0f;
  return x;
}
double readBack(sycl::queue &q, sycl::buffer<float> *buffer, float *device, float *host, int work) {
  auto start = Clock::now();
  if (buffer) {
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(*buffer, h, sycl::write_only, sycl::no_init);
      h.parallel_for(sycl::range<1>(kResult), [=](sycl::id<1> i) { a[i] = roundResult(i[0], work); });
    });
    sycl::host_accessor r(*buffer, sycl::read_only);
    host[0] = r[kResult - 1];
  } else {
    q.parallel_for(sycl::range<1>(kResult), [=](sycl::id<1> i) { device[i] = roundResult(i[0], work); });
    q.memcpy(host, device, kResult * sizeof(float)).wait();
  }
  return seconds(start, Clock::now());
}

}  // namespace

int main() {
  sycl::queue inOrder{sycl::property::queue::in_order()};
  sycl::queue outOfOrder{sycl::property::queue::enable_profiling()};
  std::printf("device: %s\n\n", outOfOrder.get_device().get_info<sycl::info::device::name>().c_str());

  std::printf("== 1. submission overhead: %d command groups of an empty kernel, median of %d rounds\n", kSubmissions,
              kRounds);
  {
    sycl::buffer<int> buffer{sycl::range<1>(1024)};
    int *usm = sycl::malloc_device<int>(1024, outOfOrder);
    bufferRate(inOrder, buffer);  // warm-up: JIT and allocations
    usmRate(inOrder, usm);
    for (sycl::queue *q : {&inOrder, &outOfOrder}) {
      std::vector<double> withBuffer, withUsm;
      for (int r = 0; r < kRounds; ++r) {
        withBuffer.push_back(bufferRate(*q, buffer));
        withUsm.push_back(usmRate(*q, usm));
      }
      double b = median(withBuffer), u = median(withUsm);
      std::printf("%-13s buffer+accessor %9.0f CG/s   USM %9.0f CG/s   ratio buffer/USM %.2f\n",
                  q == &inOrder ? "in-order" : "out-of-order", b, u, b / u);
    }
    sycl::free(usm, outOfOrder);
  }

  std::printf("\n== 2. disjoint accessors: %d kernels on each half of a %zu-float buffer\n", kSteps, kElements);
  {
    std::vector<float> host(kElements, 1.0f);
    sycl::buffer<float> buffer(host.data(), sycl::range<1>(kElements));
    std::size_t half = kElements / 2;
    submitHalf(outOfOrder, buffer, 0, half);  // warm-up: JIT
    outOfOrder.wait();
    std::vector<double> serialized, together, control;
    int overlapping = 0;  // kernel pairs whose executions overlapped in time (last round)
    for (int r = 0; r < kRounds; ++r) {
      auto start = Clock::now();
      for (int s = 0; s < kSteps; ++s)
        for (std::size_t first : {std::size_t(0), half}) {
          submitHalf(outOfOrder, buffer, first, half);
          outOfOrder.wait();
        }
      serialized.push_back(seconds(start, Clock::now()));

      start = Clock::now();
      std::vector<sycl::event> events;
      for (int s = 0; s < kSteps; ++s)
        for (std::size_t first : {std::size_t(0), half}) events.push_back(submitHalf(outOfOrder, buffer, first, half));
      outOfOrder.wait();
      together.push_back(seconds(start, Clock::now()));
      overlapping = 0;
      for (std::size_t i = 0; i < events.size(); ++i)
        for (std::size_t j = i + 1; j < events.size(); ++j) {
          auto si = events[i].get_profiling_info<sycl::info::event_profiling::command_start>();
          auto ei = events[i].get_profiling_info<sycl::info::event_profiling::command_end>();
          auto sj = events[j].get_profiling_info<sycl::info::event_profiling::command_start>();
          auto ej = events[j].get_profiling_info<sycl::info::event_profiling::command_end>();
          overlapping += si < ej && sj < ei;
        }

      // Control: the same amount of work, each kernel on the whole buffer's
      // first or second half through a whole-buffer accessor: all conflict.
      start = Clock::now();
      for (int s = 0; s < kSteps; ++s)
        for (std::size_t first : {std::size_t(0), half})
          outOfOrder.submit([&](sycl::handler &h) {
            sycl::accessor a(buffer, h, sycl::read_write);
            h.single_task([=] {
              for (std::size_t i = first; i < first + half; ++i) {
                float x = a[i];
                for (int k = 0; k < kWorkPerElement; ++k) x = x * 0.999f + 0.5f;
                a[i] = x;
              }
            });
          });
      outOfOrder.wait();
      control.push_back(seconds(start, Clock::now()));
    }
    double s = median(serialized), t = median(together), c = median(control);
    std::printf("serialized sum %.1f ms   submitted together %.1f ms   ratio %.2f (1.00 = no overlap)\n", s * 1e3,
                t * 1e3, t / s);
    std::printf("kernel pairs that ran at the same time: %d (a half's chain of %d is ordered; the halves are not)\n",
                overlapping, kSteps);
    std::printf("control, all accessors conflicting: %.1f ms   ratio %.2f\n", c * 1e3, c / s);
  }

  {
    const bool gpu = inOrder.get_device().is_gpu();
    const int work = gpu ? 40000 : 2000, rounds = gpu ? 2000 : 200;
    std::printf(
        "\n== 3. a kernel's result read on the host: %d rounds of a kernel (%d multiply-adds per work-item) and "
        "its 256 floats read, median\n",
        rounds, work);
    sycl::buffer<float> buffer{sycl::range<1>(kResult)};
    float *device = sycl::malloc_device<float>(kResult, inOrder);
    std::vector<float> host(kResult), other(kResult);
    std::vector<double> withBuffer, withUsm;
    for (int r = 0; r < rounds + 20; ++r) {  // the first 20: warm-up
      double b = readBack(inOrder, &buffer, nullptr, host.data(), work);
      double u = readBack(inOrder, nullptr, device, other.data(), work);
      if (r >= 20) {
        withBuffer.push_back(b);
        withUsm.push_back(u);
      }
    }
    sycl::free(device, inOrder);
    if (host[0] != other[kResult - 1]) std::printf("MISMATCH: %g against %g\n", host[0], other[kResult - 1]);
    double b = median(withBuffer), u = median(withUsm);
    std::printf("kernel + host_accessor %.2f us   kernel + memcpy + wait (USM) %.2f us   ratio buffer/USM %.3f\n",
                b * 1e6, u * 1e6, b / u);
  }
  return 0;
}
