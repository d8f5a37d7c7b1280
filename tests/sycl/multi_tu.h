// The multi-translation-unit test: multi_tu_a.cpp and multi_tu_b.cpp each
// launch kernels that are spelled identically (lambdas and a function object
// in an anonymous namespace) but write a value of their own TU;
// multi_tu_main.cpp checks that each TU's kernels ran their own code.
// multi_tu_nokernels.cpp has no kernels at all and is linked in as well.
#pragma once

#include <sycl/sycl.hpp>

#include <cstddef>

constexpr std::size_t kTuItems = 37;

struct tu_results {
  int single;
  int lambda_items[kTuItems];
  int functor_items[kTuItems];
  int named_items[kTuItems];
  int shared_items[kTuItems];
};

// A kernel function object defined once in this header: both TUs instantiate
// the same kernel (one definition by the ODR), each with its own value.
struct shared_fill {
  int *out;
  int value;
  void operator()(sycl::id<1> i) const { out[i] = value * 10 + static_cast<int>(i[0]); }
};

// multi_tu_a.cpp and multi_tu_b.cpp: run every kernel of the TU on `out`.
void run_tu_a(sycl::queue &q, tu_results *out);
void run_tu_b(sycl::queue &q, tu_results *out);

// multi_tu_nokernels.cpp: host code only.
tu_results *allocate_tu_results(sycl::queue &q);
void release_tu_results(sycl::queue &q, tu_results *results);
// The value TU `name` ('a' or 'b') writes.
int tu_value(char name);
