// Hierarchical kernels on PTX (jit/src/HierarchicalLowering.h), end to end
// through onepass-jit: a triad over the group compiles to its nd_range form
// (no barrier, no shared memory); a work-group scope loop around
// parallel_for_work_item over a work-group array has the two barriers of the
// group loop and its shared memory declared at module scope (.visible: LLVM
// keeps per-function lists of internal shared variables across the modules a
// reused pipeline prints, which crashed on a freed function's address); no
// kernel falls back to one work-item (that would warn on stderr).
// Not in a sanitizer build: its onepass++ compiles programs with UBSan's
// checks, whose branches (dropped for PTX by the optimizer, after this
// lowering) end the uniform prefix, so the triad keeps its objects in shared
// memory there (correct, slower).
// UNSUPPORTED: sanitizer
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.dir && onepass-jit --target=ptx %t -o %t.dir 2>%t.err | FileCheck %s --check-prefix=TOOL
// RUN: not grep warning %t.err
// RUN: FileCheck %s --check-prefix=TRIAD < %t.dir/0.0.ptx
// RUN: FileCheck %s --check-prefix=SUMS < %t.dir/0.1.ptx
#include <sycl/sycl.hpp>

// TOOL: 2 kernels compiled for ptx

// TRIAD-NOT: barrier
// TRIAD-NOT: .shared
// TRIAD: .entry __onepass_ptx_kernel
// TRIAD: ld.global
// TRIAD-NOT: barrier
// TRIAD: ret;

// SUMS: .visible .shared .align {{[0-9]+}} .b8 __onepass_ptx_group_local[
// SUMS: .entry __onepass_ptx_kernel
// SUMS-COUNT-2: barrier.sync 0;
// SUMS-NOT: barrier
// SUMS: ret;

int main() {
  sycl::queue q;
  constexpr std::size_t n = 1024, local = 64;
  float *a = sycl::malloc_shared<float>(n, q), *c = sycl::malloc_shared<float>(n, q);
  q.submit([&](sycl::handler &h) {
    h.parallel_for_work_group(sycl::range<1>(n / local), sycl::range<1>(local), [=](sycl::group<1> g) {
      g.parallel_for_work_item([&](sycl::h_item<1> it) { c[it.get_global_id(0)] = 2.0f * a[it.get_global_id(0)]; });
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for_work_group(sycl::range<1>(n / local), sycl::range<1>(local), [=](sycl::group<1> g) {
      float tile[local];
      g.parallel_for_work_item([&](sycl::h_item<1> it) { tile[it.get_local_id(0)] = a[it.get_global_id(0)]; });
      for (std::size_t half = local / 2; half > 0; half /= 2)
        g.parallel_for_work_item(sycl::range<1>(half), [&](sycl::h_item<1> it) {
          tile[it.get_logical_local_id(0)] += tile[it.get_logical_local_id(0) + half];
        });
      c[g.get_group_id(0)] = tile[0];
    });
  });
  q.wait();
  sycl::free(a, q);
  sycl::free(c, q);
}
