// A function object with one call operator per dimensionality, each with its
// own kernel attributes (as the CTS's kernel category writes them): a kernel
// takes the attributes of the operator it calls, not those of the others.
// RUN: %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
// RUN: %onepass-kernels %t.o | FileCheck %s
// DIAG-NOT: error:
// DIAG-NOT: warning:

#include <sycl/sycl.hpp>

template <int Which> struct PerDimension {
  int *out;
  [[sycl::reqd_work_group_size(4)]] void operator()(sycl::nd_item<1> it) const { out[0] = int(it.get_local_range(0)); }
  [[sycl::reqd_work_group_size(2, 8)]] void operator()(sycl::nd_item<2> it) const { out[0] = int(it.get_local_range(0)); }
  [[sycl::work_group_size_hint(2, 2, 2)]] [[sycl::reqd_work_group_size(1, 2, 4)]] void operator()(
      sycl::nd_item<3> it) const {
    out[0] = int(it.get_local_range(0));
  }
};

void submit(sycl::queue &q, int *out) {
  q.parallel_for(sycl::nd_range<1>(64, 4), PerDimension<1>{out});
  q.parallel_for(sycl::nd_range<2>({8, 8}, {2, 8}), PerDimension<2>{out});
  q.parallel_for(sycl::nd_range<3>({8, 8, 8}, {1, 2, 4}), PerDimension<3>{out});
}

// CHECK-LABEL: kernel {{[0-9]+}}: PerDimension<1>
// CHECK: object:
// CHECK-NEXT: required work-group size: 4{{$}}
// CHECK-LABEL: kernel {{[0-9]+}}: PerDimension<2>
// CHECK: object:
// CHECK-NEXT: required work-group size: 2 x 8{{$}}
// CHECK-LABEL: kernel {{[0-9]+}}: PerDimension<3>
// CHECK: object:
// CHECK-NEXT: required work-group size: 1 x 2 x 4{{$}}
