// The discarded branch of `if constexpr` is never emitted: what it holds
// (here a throw and a call of an undefined function) is not device code,
// as in the common pattern of a host-only branch in code shared with
// kernels.
// RUN: %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s --allow-empty \
// RUN:   --implicit-check-not=error: --implicit-check-not=warning:

#include <sycl/sycl.hpp>

constexpr bool kOnHost = false;
void hostLog(int value);  // defined in another file

int clampToZero(int x) {
  if constexpr (kOnHost) {
    hostLog(x);
    if (x < 0) throw x;
  }
  return x < 0 ? 0 : x;
}

int main() {
  sycl::queue q;
  int *out = nullptr;
  int n = 3;
  q.single_task([=] { out[0] = clampToZero(n); });
  return 0;
}
