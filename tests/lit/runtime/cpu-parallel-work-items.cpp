// The CPU launcher's loops over work-items are parallel loops for LLVM
// (jit/targets/cpu/ParallelLoops.h): between barriers work-items share nothing but
// atomics, so the vectorizer needs no runtime alias checks, even between
// pointers it cannot tell apart. A kernel with private memory left in an
// alloca (shared by every iteration of the loop) does not get the marks.
// (Compiled, then linked: a sanitizer build of OnePass links with its
// sanitizers, and the kernels checked here must be compiled without them.)
// RUN: %onepass -fsycl-sscp -O2 -c %s -o %t.o
// RUN: %onepass -fsycl-sscp %t.o -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ONEPASS_DUMP_DIR=%t.dir ONEPASS_CACHE=0 %t | FileCheck %s --check-prefix=RESULT
// RUN: cat %t.dir/*scaled*.unoptimized.ll | FileCheck %s --check-prefix=LOOPS
// RUN: cat `ls %t.dir/*scaled*.ll | grep -v -e unoptimized -e stepped` | FileCheck %s --check-prefix=SCALED
// RUN: cat `ls %t.dir/*privateArray*.ll | grep -v -e unoptimized -e stepped` | FileCheck %s --check-prefix=PRIVATE
#include <sycl/sycl.hpp>

#include <cstdio>

namespace {

// Two USM pointers the compiler cannot tell apart.
void scaled(sycl::queue &q, const float *in, float *out, std::size_t n) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { out[i] = in[i] * 3.0f; }).wait();
}

// A private array indexed at run time stays in memory.
void privateArray(sycl::queue &q, const int *in, int *out, std::size_t n) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
     int own[8];
     for (int k = 0; k < 8; ++k) own[k] = in[i] + k;
     out[i] = own[in[i] & 7];
   }).wait();
}

}  // namespace

int main() {
  sycl::queue q{sycl::cpu_selector_v};
  const std::size_t n = 1000;
  float *in = sycl::malloc_shared<float>(n, q), *out = sycl::malloc_shared<float>(n, q);
  int *ints = sycl::malloc_shared<int>(n, q), *picked = sycl::malloc_shared<int>(n, q);
  for (std::size_t i = 0; i < n; ++i) {
    in[i] = float(i);
    ints[i] = int(i * 7);
  }
  scaled(q, in, out, n);
  privateArray(q, ints, picked, n);
  int wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += out[i] != 3.0f * float(i) || picked[i] != ints[i] + (ints[i] & 7);
  std::printf("wrong: %d\n", wrong);
  sycl::free(in, q);
  sycl::free(out, q);
  sycl::free(ints, q);
  sycl::free(picked, q);
}

// RESULT: wrong: 0

// The work-item loop, before optimization: parallel, and not to be unrolled.
// LOOPS: br i1 %{{.*}}, label %wi.loop, label %wi.exit, !llvm.loop [[LOOP:![0-9]+]]
// LOOPS-DAG: [[LOOP]] = distinct !{[[LOOP]], [[PARALLEL:![0-9]+]], [[NOUNROLL:![0-9]+]]}
// LOOPS-DAG: [[PARALLEL]] = !{!"llvm.loop.parallel_accesses", [[GROUP:![0-9]+]]}
// LOOPS-DAG: [[GROUP]] = distinct !{}
// LOOPS-DAG: [[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}

// Vectorized with no runtime check between `in` and `out`.
// SCALED: vector.body:
// SCALED: load <{{[0-9]+}} x float>{{.*}}!llvm.access.group
// SCALED-NOT: found.conflict

// PRIVATE-NOT: llvm.access.group
