// The multi-TU test's translation unit without kernels: it uses the SYCL host
// API only, and a program linking it in must still find every other TU's kernels.
#include "multi_tu.h"

#include <cstring>

tu_results *allocate_tu_results(sycl::queue &q) {
  auto *results = sycl::malloc_shared<tu_results>(1, q);
  std::memset(results, 0, sizeof(tu_results));
  return results;
}

void release_tu_results(sycl::queue &q, tu_results *results) { sycl::free(results, q); }

int tu_value(char name) { return name == 'a' ? 1000 : 2000; }
