// sycl::stream (SYCL 2020 §4.16): what kernels print, captured from stdout
// and compared with the host's own formatting (printf's %g/%f/%e/%a for
// floating point), on the default device (ONEPASS_DEVICE picks it).
#include "capture_output.h"
#include "check.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <sstream>
#include <string>

using onepass_test::capture;
using onepass_test::check;
using onepass_test::checkEqual;
using onepass_test::checkThrows;

namespace {

std::string format(const char *spec, double value) {
  char text[128];
  std::snprintf(text, sizeof(text), spec, value);
  return text;
}

void basics(sycl::queue &q) {
  auto [out, err] = capture([&] {
    q.submit([&](sycl::handler &h) {
       sycl::stream os(1024, 256, h);
       h.single_task([=] {
         os << "hello " << 42 << ' ' << -7 << ' ' << 4000000000u << ' ' << -9000000000000ll << sycl::endl;
         os << true << ' ' << false << ' ' << static_cast<unsigned char>('A') << sycl::endl;
         os << sycl::hex << 255 << ' ' << sycl::showbase << 255 << ' ' << sycl::oct << 8 << ' ' << sycl::dec
            << sycl::showpos << 5 << ' ' << -5 << sycl::noshowpos << ' ' << sycl::noshowbase << sycl::endl;
         os << '[' << sycl::setw(6) << 42 << ']' << sycl::endl;
         os << sycl::int3{1, -2, 3} << ' ' << sycl::id<2>{4, 5} << ' ' << sycl::range<3>{6, 7, 8} << sycl::endl;
         os << "no flush at the end";
       });
     }).wait();
  });
  checkEqual("integers, bools, chars, manipulators, vec/id/range; the implicit flush at the end",
             std::string("hello 42 -7 4000000000 -9000000000000\n"
                         "true false A\n"
                         "ff 0xff 010 +5 -5 \n"
                         "[    42]\n"
                         "{1, -2, 3} {4, 5} {6, 7, 8}\n"
                         "no flush at the end"),
             out);
  checkEqual("nothing on stderr", std::string(), err);
}

// Floating point, every notation, against printf on the host.
void floating(sycl::queue &q) {
  static const double values[] = {0.0,   3.5,       1.0 / 3,   -2.25,     123456789.0, 1e-5,    0.000123456,
                                  1e100, -1.5e-300, 9.9999999, 0.5,       1e16,        123.456, 2.0 / 3 * 1e7,
                                  0.125, 5e-324,    1e-310,    0.1 + 0.2, 1234.5};
  constexpr int n = sizeof(values) / sizeof(values[0]);
  double *data = sycl::malloc_shared<double>(n, q);
  for (int i = 0; i < n; ++i) data[i] = values[i];
  auto [out, err] = capture([&] {
    q.submit([&](sycl::handler &h) {
       sycl::stream os(1 << 16, 4096, h);
       h.single_task([=] {
         for (int i = 0; i < n; ++i) {
           const double v = data[i];
           os << sycl::defaultfloat << sycl::setprecision(6) << v << '|' << sycl::setprecision(3) << v << '|'
              << sycl::fixed << sycl::setprecision(6) << v << '|' << sycl::setprecision(2) << v << '|'
              << sycl::scientific << sycl::setprecision(6) << v << '|' << sycl::setprecision(1) << v << '|'
              << sycl::hexfloat << v << sycl::endl;
         }
         os << sycl::defaultfloat << sycl::setprecision(6) << 1.0f / 0.0f << ' ' << -1.0f / 0.0f << ' '
            << std::numeric_limits<float>::quiet_NaN() << ' ' << static_cast<float>(0.1) << ' ' << sycl::half(1.5)
            << sycl::endl;
       });
     }).wait();
  });
  std::string expected;
  for (double v : values) {
    expected += format("%g", v) + "|" + format("%.3g", v) + "|";
    // printf's %f of 1e100 prints the double's exact value (1000000000000000015902...);
    // a stream computes 16 significant digits, then zeros.
    expected += (v == 1e100 ? "1" + std::string(100, '0') + ".000000" : format("%f", v)) + "|";
    expected += (v == 1e100 ? "1" + std::string(100, '0') + ".00" : format("%.2f", v)) + "|";
    expected += format("%e", v) + "|" + format("%.1e", v) + "|" + format("%a", v) + "\n";
  }
  expected += "inf -inf nan " + format("%g", static_cast<float>(0.1)) + " 1.5\n";
  // One line at a time: a mismatch shows its line.
  std::istringstream got(out), want(expected);
  std::string gotLine, wantLine;
  int line = 0;
  while (std::getline(want, wantLine)) {
    std::getline(got, gotLine);
    checkEqual("floating point, line " + std::to_string(++line), wantLine, gotLine);
    gotLine.clear();
  }
  checkEqual("nothing on stderr", std::string(), err);
  sycl::free(data, q);
}

// Every work-item's line whole and once (§4.16.3: no mixing between flushes).
void workItems(sycl::queue &q) {
  constexpr int n = 4096;
  auto [out, err] = capture([&] {
    q.submit([&](sycl::handler &h) {
       sycl::stream os(n * 64, 128, h);
       h.parallel_for(sycl::range<2>(64, n / 64), [=](sycl::item<2> it) {
         os << "work-item " << it.get_linear_id() << " of " << it.get_range() << " at " << it.get_id() << sycl::endl;
       });
     }).wait();
  });
  std::set<std::string> lines;
  std::istringstream text(out);
  int count = 0;
  for (std::string line; std::getline(text, line); ++count) lines.insert(line);
  checkEqual("range kernel: lines", n, count);
  bool all = true;
  for (int i = 0; i < n && all; ++i) {
    const std::string want = "work-item " + std::to_string(i) + " of {64, 64} at {" + std::to_string(i / 64) + ", " +
                             std::to_string(i % 64) + "}";
    all = check("range kernel: " + want, lines.count(want) == 1);
  }
  checkEqual("nothing on stderr", std::string(), err);

  // nd_range and hierarchical kernels: the SYCL objects' text.
  auto [ndOut, ndErr] = capture([&] {
    q.submit([&](sycl::handler &h) {
       sycl::stream os(4096, 256, h);
       h.parallel_for(sycl::nd_range<1>(4, 2), [=](sycl::nd_item<1> it) {
         if (it.get_global_id(0) == 3) os << it << sycl::endl << it.get_nd_range() << sycl::endl;
       });
     }).wait();
    q.submit([&](sycl::handler &h) {
       sycl::stream os(4096, 256, h);
       h.parallel_for_work_group(sycl::range<1>(2), sycl::range<1>(3), [=](sycl::group<1> g) {
         if (g.get_group_id(0) == 1) os << g << sycl::endl;
       });
     }).wait();
  });
  checkEqual("nd_item, nd_range, group",
             std::string("nd_item(global_id: {3}, local_id: {1})\n"
                         "nd_range(global_range: {4}, local_range: {2}, offset: {0})\n"
                         "group(id: {1}, range: {2})\n"),
             ndOut);
  checkEqual("nothing on stderr", std::string(), ndErr);
}

// Limits: text over the buffer is dropped (once said on stderr), never mixed.
void limits(sycl::queue &q) {
  auto [out, err] = capture([&] {
    q.submit([&](sycl::handler &h) {
       sycl::stream os(100, 16, h);
       h.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) { os << "line " << i[0] << sycl::endl; });
     }).wait();
  });
  check("over the buffer: at most its 100 bytes", out.size() <= 100 && out.size() >= 60);
  std::istringstream text(out);
  for (std::string line; std::getline(text, line);)
    if (!text.eof()) check("over the buffer: whole lines (" + line + ")", line.rfind("line ", 0) == 0);
  check("over the buffer: said on stderr", err.find("sycl::stream: output was dropped") != std::string::npos);

  auto [wiOut, wiErr] = capture([&] {
    q.submit([&](sycl::handler &h) {
       sycl::stream os(1024, 8, h);
       h.single_task([=] { os << "0123456789abcdef" << sycl::endl << "ok" << sycl::endl; });
     }).wait();
  });
  checkEqual("over the work-item buffer: cut at 8 bytes, then the next statement", std::string("01234567ok\n"), wiOut);
  check("over the work-item buffer: said on stderr", !wiErr.empty());
}

// Sizes of 0: the text is dropped (and said on stderr), nothing fails.
void empty(sycl::queue &q) {
  auto [out, err] = capture([&] {
    q.submit([&](sycl::handler &h) {
       sycl::stream os(0, 0, h);
       h.parallel_for(sycl::range<1>(4), [=](sycl::id<1> i) { os << "dropped " << i[0] << sycl::endl; });
     }).wait();
  });
  checkEqual("a stream of 0 bytes prints nothing", std::string(), out);
  check("a stream of 0 bytes: said on stderr", !err.empty());
}

void api(sycl::queue &q) {
  q.submit([&](sycl::handler &h) {
    sycl::stream os(1000, 100, h);
    sycl::stream copy = os;
    sycl::stream other(1000, 100, h);
    checkEqual("stream::size", std::size_t(1000), os.size());
    checkEqual("stream::get_work_item_buffer_size", std::size_t(100), os.get_work_item_buffer_size());
    check("stream: copies are equal, others not", copy == os && other != os);
    check("stream: hash of copies", std::hash<sycl::stream>()(copy) == std::hash<sycl::stream>()(os));
    check("stream::has_property", !os.has_property<sycl::property::queue::in_order>());
    checkThrows("stream::get_property", sycl::errc::invalid,
                [&] { (void)os.get_property<sycl::property::queue::in_order>(); });
    checkThrows("stream of 5 GiB", sycl::errc::invalid, [&] { sycl::stream bad(std::size_t(5) << 30, 10, h); });
    h.single_task([=] { copy << sycl::flush; });
  });
  q.wait();
}

}  // namespace

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  onepass_test::runPart("basics", [&] { basics(q); });
  onepass_test::runPart("floating point", [&] { floating(q); });
  onepass_test::runPart("work-items", [&] { workItems(q); });
  onepass_test::runPart("limits", [&] { limits(q); });
  onepass_test::runPart("empty", [&] { empty(q); });
  onepass_test::runPart("api", [&] { api(q); });
  return onepass_test::report();
}
