// A local accessor's range and its offset in local memory are set up by the
// command group: stage 1 marks them launch constants, which a JIT may compile
// in (the CUDA backend does: a tile's row stride becomes a constant). The
// program's own values stay plain fields.
// RUN: %onepass -fsycl-sscp -c %s -o %t.o
// RUN: %onepass-kernels %t.o | FileCheck %s

#include <sycl/sycl.hpp>

void tiles(sycl::queue &q, float *out, std::size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 2> tile(sycl::range<2>(16, 16), h);
    h.parallel_for<class Tiles>(sycl::nd_range<2>({n, n}, {16, 16}), [=](sycl::nd_item<2> it) {
      tile[it.get_local_id(0)][it.get_local_id(1)] = float(n);
      it.barrier();
      out[it.get_global_linear_id()] = tile[it.get_local_id(1)][it.get_local_id(0)];
    });
  });
}

// CHECK: kernel 0: Tiles
// CHECK: field 0: offset 0, size 8, int, launch constant
// CHECK-NEXT: field 1: offset 8, size 8, int, launch constant
// CHECK-NEXT: field 2: offset 16, size 8, int, launch constant
// CHECK-NEXT: field 3: offset {{[0-9]+}}, size 8, int{{$}}
// CHECK: pointer{{$}}
// CHECK-NOT: launch constant
