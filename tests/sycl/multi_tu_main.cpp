// The multi-TU test's main program (see multi_tu.h): TU a and TU b each run
// kernels spelled identically to the other TU's; each must run its own code.
#include "check.h"
#include "multi_tu.h"

#include <cstddef>
#include <string>

using onepass_test::checkArray;
using onepass_test::checkEqual;

namespace {

// A kernel of this TU spelled like those of a and b, with a value of its own.
constexpr int kTuValue = 3000;

void launch(sycl::queue &q, tu_results *out) {
  int *single = &out->single;
  q.single_task([=] { *single = kTuValue; });
  q.wait();
}

void checkTu(const std::string &tu, const tu_results *out, int value) {
  checkEqual("TU " + tu + ": single_task lambda", value, out->single);
  checkArray("TU " + tu + ": parallel_for lambda", kTuItems, out->lambda_items,
             [&](std::size_t i) { return value + static_cast<int>(i); });
  checkArray("TU " + tu + ": function object in an anonymous namespace", kTuItems, out->functor_items,
             [&](std::size_t i) { return value + 2 * static_cast<int>(i); });
  checkArray("TU " + tu + ": parallel_for<class tu_named_kernel>", kTuItems, out->named_items,
             [&](std::size_t i) { return value - static_cast<int>(i); });
  checkArray("TU " + tu + ": shared_fill from the common header", kTuItems, out->shared_items,
             [&](std::size_t i) { return value * 10 + static_cast<int>(i); });
}

}  // namespace

int main() {
  sycl::queue q;
  tu_results *a = allocate_tu_results(q);
  tu_results *b = allocate_tu_results(q);
  tu_results *own = allocate_tu_results(q);

  onepass_test::runPart("a then b", [&] {
    run_tu_a(q, a);
    run_tu_b(q, b);
    launch(q, own);
    checkTu("a", a, tu_value('a'));
    checkTu("b", b, tu_value('b'));
    checkEqual("main TU: single_task lambda", kTuValue, own->single);
  });

  // Again in the other order, into swapped buffers: compiled kernels are
  // cached by kernel identity, and neither TU may pick up the other's.
  onepass_test::runPart("b then a", [&] {
    run_tu_b(q, a);
    run_tu_a(q, b);
    checkTu("b (second run)", a, tu_value('b'));
    checkTu("a (second run)", b, tu_value('a'));
  });

  release_tu_results(q, a);
  release_tu_results(q, b);
  release_tu_results(q, own);
  return onepass_test::report();
}
