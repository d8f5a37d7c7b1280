// sycl::stream against CUDA's printf on an NVIDIA GPU (issue 17's figure):
// a kernel of 2^16 work-items each writing one line ("work-item <i> value
// <2.5 i>", the float as printf's %g) to stdout, from submission until the
// text is written (OnePass: the command's wait, by which the runtime has
// printed the stream; CUDA: cudaDeviceSynchronize, which prints the printf
// FIFO). Both sides write to a temporary file in place of stdout, whose lines
// are counted and checked after each run. One warm-up per side (OnePass
// JIT-compiles its kernel), then 7 rounds alternating; best and median, and
// the ratio CUDA time / OnePass time (above 1.0: the stream is faster).
// Run with ONEPASS_DEVICE=gpu; exits 77 where there is no GPU.
//   benchmarks/programs/gpu_print [lines, default 65536]
#include "gpu_print_cuda.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

// Runs `body` with stdout sent to a fresh temporary file; returns its lines
// that have the expected form, and the seconds `body` reported.
struct Captured {
  double seconds = -1;
  std::size_t goodLines = 0, lines = 0;
};
template <typename Body> Captured captured(Body body) {
  char path[] = "/tmp/gpu_print_XXXXXX";
  const int file = mkstemp(path);
  Captured c;
  if (file < 0) return c;
  std::fflush(stdout);
  const int saved = dup(1);
  dup2(file, 1);
  c.seconds = body();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(file);
  if (FILE *in = std::fopen(path, "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, in)) {
      ++c.lines;
      unsigned long long i = 0;
      double value = 0;
      if (std::sscanf(line, "work-item %llu value %lf", &i, &value) == 2 &&
          std::abs(value - 2.5 * static_cast<double>(i)) <= 1e-5 * (1.0 + 2.5 * static_cast<double>(i)))
        ++c.goodLines;
    }
    std::fclose(in);
  }
  std::remove(path);
  return c;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

int main(int argc, char **argv) {
  const std::size_t lines = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : std::size_t(1) << 16;
  if (lines == 0 || lines > (std::size_t(1) << 24)) {
    std::fprintf(stderr, "gpu_print: 1 to 2^24 lines\n");
    return 2;
  }
  sycl::queue q;
  if (!q.get_device().is_gpu()) {
    std::fprintf(stderr, "gpu_print: no GPU (run with ONEPASS_DEVICE=gpu on a machine with one)\n");
    return 77;
  }
  if (!cuda_print_init(lines)) {
    std::fprintf(stderr, "gpu_print: CUDA is not usable here\n");
    return 77;
  }
  auto onepass = [&] {
    const auto start = std::chrono::steady_clock::now();
    q.submit([&](sycl::handler &h) {
       sycl::stream os(lines * 64, 64, h);
       h.parallel_for(sycl::range<1>(lines), [=](sycl::id<1> i) {
         os << "work-item " << static_cast<unsigned long long>(i[0]) << " value " << 2.5f * static_cast<float>(i[0])
            << sycl::endl;
       });
     }).wait();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  auto cuda = [&] { return cuda_print(lines); };
  std::vector<double> times[2];
  bool right = true;
  for (int round = 0; round <= 7; ++round)
    for (int side = 0; side < 2; ++side) {
      const Captured c = side == 0 ? captured(onepass) : captured(cuda);
      if (c.seconds < 0 || c.lines != lines || c.goodLines != lines) {
        std::fprintf(stderr, "gpu_print: %s round %d wrote %zu lines, %zu of the expected form (expected %zu)\n",
                     side == 0 ? "OnePass" : "CUDA", round, c.lines, c.goodLines, lines);
        right = false;
      }
      if (round > 0) times[side].push_back(c.seconds);  // round 0: warm-up
    }
  const double bestOnePass = *std::min_element(times[0].begin(), times[0].end());
  const double bestCuda = *std::min_element(times[1].begin(), times[1].end());
  std::printf("gpu_print on %s: %zu work-items, one line each (written to a file)\n",
              q.get_device().get_info<sycl::info::device::name>().c_str(), lines);
  std::printf("  sycl::stream   best %8.2f ms  median %8.2f ms\n", bestOnePass * 1e3, median(times[0]) * 1e3);
  std::printf("  CUDA printf    best %8.2f ms  median %8.2f ms\n", bestCuda * 1e3, median(times[1]) * 1e3);
  std::printf("  ratio CUDA / OnePass: best %.2fx, median %.2fx%s\n", bestCuda / bestOnePass,
              median(times[1]) / median(times[0]), right ? "" : "  (OUTPUT WRONG)");
  return right ? 0 : 1;
}
