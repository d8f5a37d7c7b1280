// sycl::ext::oneapi::experimental::printf from kernels: every line a kernel
// prints, captured from stdout and compared with the host's snprintf of the
// same format and values, on the default device (ONEPASS_DEVICE picks it).
// On an NVIDIA GPU the driver prints the text when the host waits.
#include "capture_output.h"
#include "check.h"

#include <cstdio>
#include <set>
#include <sstream>
#include <string>

using onepass_test::capture;
using onepass_test::check;
using onepass_test::checkEqual;
namespace experimental = sycl::ext::oneapi::experimental;

namespace {

bool usesOpenClPrintf(const sycl::queue &q) {
  return q.get_backend() == sycl::backend::opencl || q.get_backend() == sycl::backend::level_zero;
}

// A format in a constant array at namespace scope, as DPC++ code writes it.
const char kItemFormat[] = "item %d of %lu: %.3f %s %lld %c %u %x\n";
enum class colour { red = 3 };

// The lines of `text`, in order of their text: work-items print in any order.
std::multiset<std::string> lines(const std::string &text) {
  std::multiset<std::string> result;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) result.insert(line);
  return result;
}

template <typename... Args> std::string hostFormat(const char *format, Args... args) {
  char text[256];
  std::snprintf(text, sizeof(text), format, args...);
  std::string line(text);
  if (!line.empty() && line.back() == '\n') line.pop_back();
  return line;
}

// Out of line, so the argument buffer is made in a function of its own.
[[gnu::noinline]] void report(int value, double scaled) {
  experimental::printf("helper: %d %g\n", value, scaled);
}

void items(sycl::queue &q) {
  constexpr std::size_t n = 64;
  int *results = sycl::malloc_shared<int>(n, q);
  auto [out, err] = capture([&] {
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> id) {
       const int i = static_cast<int>(id[0]);
       const float x = 0.25f * static_cast<float>(i);
       results[i] = experimental::printf(kItemFormat, i, static_cast<unsigned long>(n), x, "text", static_cast<long long>(i) * 10000000000LL,
                                         static_cast<char>('A' + i % 26), static_cast<unsigned>(i) * 3u,
                                         static_cast<unsigned>(i) * 4096u);
     }).wait();
  });
  std::multiset<std::string> expected;
  for (std::size_t i = 0; i < n; ++i)
    expected.insert(hostFormat(kItemFormat, static_cast<int>(i), static_cast<unsigned long>(n), 0.25 * static_cast<double>(i), "text",
                               static_cast<long long>(i) * 10000000000LL, static_cast<char>('A' + i % 26),
                               static_cast<unsigned>(i) * 3u, static_cast<unsigned>(i) * 4096u));
  check("printf: one line per work-item, as the host formats it", lines(out) == expected);
  if (lines(out) != expected) std::printf("got:\n%s", out.c_str());
  checkEqual("printf: nothing on stderr", std::string(), err);
  // OpenCL C's printf, which SPIR-V devices run, returns 0 on success
  // (OpenCL 1.2 §6.12.13.3); the CPU's printf and CUDA's a positive count.
  const bool spirv = usesOpenClPrintf(q);
  bool succeeded = true;
  for (std::size_t i = 0; i < n; ++i) succeeded = succeeded && (spirv ? results[i] == 0 : results[i] > 0);
  check(spirv ? "printf: returns 0 (OpenCL C's success)" : "printf: returns a positive count", succeeded);
  sycl::free(results, q);
}

void shapes(sycl::queue &q) {
  auto [out, err] = capture([&] {
    q.single_task([=] {
       experimental::printf("no arguments\n");
       experimental::printf("%%d literally, then %d%%\n", 100);
       report(7, 0.5);
       experimental::printf("colour %d, double %.10f, negative %i, short %hd, bool %d\n", colour::red,
                            3.14159265358979, -42, static_cast<short>(-7), true);
       const char *const word = "pointer-to-text";
       experimental::printf("%s / %.4s\n", word, word);
     }).wait();
  });
  std::multiset<std::string> expected = {"no arguments", "%d literally, then 100%", "helper: 7 0.5",
                                         hostFormat("colour %d, double %.10f, negative %i, short %hd, bool %d\n", 3,
                                                    3.14159265358979, -42, -7, 1),
                                         "pointer-to-text / poin"};
  // PoCL 3.1's printf prints a double at float precision (its own OpenCL C
  // kernels too): said, not passed silently.
  const std::string floatPrecision = hostFormat("colour %d, double %.10f, negative %i, short %hd, bool %d\n", 3,
                                                double(float(3.14159265358979)), -42, -7, 1);
  std::multiset<std::string> printed = lines(out);
  if (usesOpenClPrintf(q) && printed.count(floatPrecision) == 1) {
    std::printf("SKIPPED printf of a double at full precision: this OpenCL implementation prints doubles at float "
                "precision (%s)\n", floatPrecision.c_str());
    printed.erase(floatPrecision);
    expected.erase(hostFormat("colour %d, double %.10f, negative %i, short %hd, bool %d\n", 3, 3.14159265358979, -42,
                              -7, 1));
  }
  check("printf: formats without and with arguments, from a called function", printed == expected);
  if (printed != expected) std::printf("got:\n%s", out.c_str());
}

// Text printed by a kernel is out by the time its event completes, before what
// the host prints after waiting.
void ordering(sycl::queue &q) {
  auto [out, err] = capture([&] {
    sycl::event e = q.single_task([=] { experimental::printf("from the kernel\n"); });
    e.wait();
    std::printf("from the host\n");
  });
  checkEqual("printf: the kernel's text precedes the host's after wait", std::string("from the kernel\nfrom the host\n"),
             out);
}

void host(sycl::queue &) {
  auto [out, err] = capture([&] { experimental::printf("host %d %s\n", 5, "call"); });
  checkEqual("printf called on the host prints there", std::string("host 5 call\n"), out);
}

}  // namespace

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  onepass_test::runPart("items", [&] { items(q); });
  onepass_test::runPart("shapes", [&] { shapes(q); });
  onepass_test::runPart("ordering", [&] { ordering(q); });
  onepass_test::runPart("host", [&] { host(q); });
  return onepass_test::report();
}
