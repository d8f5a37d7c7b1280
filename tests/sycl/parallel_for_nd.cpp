// 2-D and 3-D parallel_for: every work-item records its linear id, its ids
// and the range it sees. SYCL 2020 §3.11.1: ids are row-major, the last
// dimension varies fastest, so item::get_linear_id of (i0, i1, i2) in range
// (r0, r1, r2) is (i0 * r1 + i1) * r2 + i2.
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstddef>
#include <string>

using onepass_test::checkEqual;
using onepass_test::rangeText;

namespace {

struct record {
  std::size_t linear;
  std::size_t ids[3];
  std::size_t range[3];
  int visits;
};

// Checks that every record was written exactly once with matching ids.
void checkRecords(const std::string &what, const record *out, const std::size_t *r, int dims) {
  std::size_t total = 1;
  for (int d = 0; d < dims; ++d) total *= r[d];
  int shown = 0;
  std::size_t bad = 0;
  for (std::size_t linear = 0; linear < total; ++linear) {
    std::size_t ids[3] = {0, 0, 0};
    std::size_t rest = linear;
    for (int d = dims - 1; d >= 0; --d) {
      ids[d] = rest % r[d];
      rest /= r[d];
    }
    const record &rec = out[linear];
    bool ok = rec.visits == 1 && rec.linear == linear;
    for (int d = 0; d < dims; ++d) ok = ok && rec.ids[d] == ids[d] && rec.range[d] == r[d];
    if (ok) continue;
    ++bad;
    if (shown++ >= 8) continue;
    std::string where = what + " element " + std::to_string(linear);
    checkEqual(where + " visits", 1, rec.visits);
    checkEqual(where + " get_linear_id", linear, rec.linear);
    for (int d = 0; d < dims; ++d) {
      checkEqual(where + " id[" + std::to_string(d) + "]", ids[d], rec.ids[d]);
      checkEqual(where + " range[" + std::to_string(d) + "]", r[d], rec.range[d]);
    }
  }
  if (bad > 8) checkEqual(what + ": elements that differ", std::size_t(0), bad);
}

void run2d(sycl::queue &q, std::size_t r0, std::size_t r1) {
  const std::size_t r[2] = {r0, r1};
  const std::string what = "2-D item " + rangeText(r, 2);
  record *out = sycl::malloc_shared<record>(r0 * r1 + 1, q);
  q.memset(out, 0, (r0 * r1 + 1) * sizeof(record)).wait();
  q.parallel_for(sycl::range<2>(r0, r1), [=](sycl::item<2> it) {
     // Index computed from the ids and the range, independently of get_linear_id.
     record &rec = out[it[0] * it.get_range(1) + it[1]];
     rec.linear = it.get_linear_id();
     for (int d = 0; d < 2; ++d) {
       rec.ids[d] = it.get_id(d);
       rec.range[d] = it.get_range()[d];
     }
     rec.visits += 1;
   }).wait();
  checkRecords(what, out, r, 2);
  checkEqual(what + ": record past the end untouched", 0, out[r0 * r1].visits);
  sycl::free(out, q);
}

void run3d(sycl::queue &q, std::size_t r0, std::size_t r1, std::size_t r2) {
  const std::size_t r[3] = {r0, r1, r2};
  const std::string what = "3-D item " + rangeText(r, 3);
  record *out = sycl::malloc_shared<record>(r0 * r1 * r2 + 1, q);
  q.memset(out, 0, (r0 * r1 * r2 + 1) * sizeof(record)).wait();
  q.submit([&](sycl::handler &h) {
     h.parallel_for(sycl::range<3>(r0, r1, r2), [=](sycl::item<3> it) {
       sycl::range<3> range = it.get_range();
       record &rec = out[(it[0] * range[1] + it[1]) * range[2] + it[2]];
       rec.linear = it.get_linear_id();
       sycl::id<3> id = it.get_id();
       for (int d = 0; d < 3; ++d) {
         rec.ids[d] = id[d];
         rec.range[d] = it.get_range(d);
       }
       rec.visits += 1;
     });
   }).wait();
  checkRecords(what, out, r, 3);
  checkEqual(what + ": record past the end untouched", 0, out[r0 * r1 * r2].visits);
  sycl::free(out, q);
}

// Kernels taking an id<N> see the same ids; the linear id is computed here.
void runIds(sycl::queue &q) {
  const std::size_t r0 = 9, r1 = 11, r2 = 5;
  std::size_t *out2 = sycl::malloc_shared<std::size_t>(r0 * r1, q);
  std::size_t *out3 = sycl::malloc_shared<std::size_t>(r0 * r1 * r2, q);
  q.parallel_for(sycl::range<2>(r0, r1), [=](sycl::id<2> i) { out2[i[0] * r1 + i[1]] = i[0] * 1000 + i[1]; });
  q.parallel_for(sycl::range<3>(r0, r1, r2),
                 [=](sycl::id<3> i) { out3[(i[0] * r1 + i[1]) * r2 + i[2]] = i[0] * 1000000 + i[1] * 1000 + i[2]; });
  q.wait();
  onepass_test::checkArray("2-D id<2>", r0 * r1, out2, [&](std::size_t k) { return (k / r1) * 1000 + k % r1; });
  onepass_test::checkArray("3-D id<3>", r0 * r1 * r2, out3,
                           [&](std::size_t k) { return (k / (r1 * r2)) * 1000000 + (k / r2 % r1) * 1000 + k % r2; });
  sycl::free(out2, q);
  sycl::free(out3, q);
}

// A range with a zero extent in any dimension runs nothing.
void runEmpty(sycl::queue &q) {
  int *ran = sycl::malloc_shared<int>(1, q);
  *ran = 0;
  q.parallel_for(sycl::range<2>(0, 7), [=](sycl::item<2>) { *ran += 1; });
  q.parallel_for(sycl::range<2>(7, 0), [=](sycl::item<2>) { *ran += 10; });
  q.parallel_for(sycl::range<3>(4, 0, 3), [=](sycl::item<3>) { *ran += 100; });
  q.parallel_for(sycl::range<3>(4, 3, 0), [=](sycl::item<3>) { *ran += 1000; });
  q.wait();
  checkEqual("work-items run for ranges with a zero extent", 0, *ran);
  sycl::free(ran, q);
}

}  // namespace

int main() {
  sycl::queue q;
  const std::size_t ranges2[][2] = {{1, 1}, {7, 13}, {1, 1000}, {300, 1}, {513, 129}, {2, 40000}};
  for (const auto &r : ranges2) onepass_test::runPart("2-D " + rangeText(r, 2), [&] { run2d(q, r[0], r[1]); });
  const std::size_t ranges3[][3] = {{1, 1, 1}, {3, 5, 7}, {2, 1, 40}, {1, 17, 1}, {64, 33, 17}, {1, 1, 70001}};
  for (const auto &r : ranges3) onepass_test::runPart("3-D " + rangeText(r, 3), [&] { run3d(q, r[0], r[1], r[2]); });
  onepass_test::runPart("id<N> kernels", [&] { runIds(q); });
  onepass_test::runPart("empty ranges", [&] { runEmpty(q); });
  return onepass_test::report();
}
