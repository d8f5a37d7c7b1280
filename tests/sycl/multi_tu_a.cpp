// Translation unit "a" of the multi-TU test (see multi_tu.h). multi_tu_b.cpp
// is this file with another value and function name: keep the two identical
// line for line, so that even the kernels' source positions are the same.
#include "multi_tu.h"

namespace {

constexpr int kTuValue = 1000;

// Declared identically in multi_tu_b.cpp; only this TU's definition may run here.
struct write_tu_value {
  int *out;
  void operator()(sycl::id<1> i) const { out[i] = kTuValue + 2 * static_cast<int>(i[0]); }
};

void launch(sycl::queue &q, tu_results *out) {
  int *single = &out->single;
  q.single_task([=] { *single = kTuValue; });
  int *lambdaItems = out->lambda_items;
  q.parallel_for(sycl::range<1>(kTuItems), [=](sycl::id<1> i) { lambdaItems[i] = kTuValue + static_cast<int>(i[0]); });
  q.parallel_for(sycl::range<1>(kTuItems), write_tu_value{out->functor_items});
  int *named = out->named_items;
  q.parallel_for<class tu_named_kernel>(sycl::range<1>(kTuItems),
                                        [=](sycl::id<1> i) { named[i] = kTuValue - static_cast<int>(i[0]); });
  q.parallel_for(sycl::range<1>(kTuItems), shared_fill{out->shared_items, kTuValue});
  q.wait();
}

}  // namespace

void run_tu_a(sycl::queue &q, tu_results *out) { launch(q, out); }
