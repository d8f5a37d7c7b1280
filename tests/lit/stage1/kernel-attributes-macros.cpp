// Kernel attributes on lambdas written in macros, as the CTS writes them: a
// lambda in a macro's argument (a Catch2 TEST_CASE body), an attribute passed
// as an argument to a macro whose body has the lambda, and a hierarchical
// (parallel_for_work_group) lambda, whose attributes are its kernel's; an
// argument that is an element of a constant array; kernels the headers wrap
// (taking a kernel_handler, a range with an offset).
// RUN: %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
// RUN: %onepass-kernels %t.o | FileCheck %s
// DIAG-NOT: error:
// DIAG-NOT: warning:

#include <sycl/sycl.hpp>

#define BODY(...) __VA_ARGS__
#define SUBMIT(NAME, ATTRIBUTE, SIZE)                                                                                  \
  q.parallel_for<NAME>(sycl::nd_range<1>(SIZE, SIZE), [=](sycl::nd_item<1> it) ATTRIBUTE { out[0] = 1; })

class InArgument;
class InBody;
class Hierarchical;
class ArrayElement;
class WithHandler;
class WithOffset;
template <int N> class InTemplate;

template <int N> void templated(sycl::queue &q, int *out) {
  BODY({
    const auto kernel = [=](sycl::nd_item<1>) [[sycl::reqd_sub_group_size(N)]] { out[0] = N; };
    q.parallel_for<InTemplate<N>>(sycl::nd_range<1>(N, N), kernel);
  })
}

void submit(sycl::queue &q, int *out) {
  BODY({
    q.parallel_for<InArgument>(sycl::nd_range<1>(64, 16),
                               [=](sycl::nd_item<1>) [[sycl::reqd_work_group_size(16)]] { out[0] = 1; });
  })
  BODY(SUBMIT(InBody, [[sycl::reqd_work_group_size(32)]], 32);)
  q.submit([&](sycl::handler &h) {
    h.parallel_for_work_group<Hierarchical>(sycl::range<2>(2, 2), sycl::range<2>(4, 2),
                                            [=](sycl::group<2>) [[sycl::reqd_work_group_size(4, 2)]] { out[0] = 2; });
  });
  templated<8>(q, out);
  q.submit([&](sycl::handler &h) {
    h.parallel_for<WithHandler>(sycl::nd_range<1>(64, 16), [=](sycl::nd_item<1>, sycl::kernel_handler)
                                                               [[sycl::reqd_work_group_size(16)]] { out[0] = 4; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<WithOffset>(sycl::range<1>(64), sycl::id<1>(2),
                               [=](sycl::item<1>) [[sycl::reqd_sub_group_size(8)]] { out[0] = 5; });
  });
  static constexpr std::size_t sizes[3] = {16, 4294967295, 64};
  BODY(q.parallel_for<ArrayElement>(sycl::nd_range<1>(64, 64),
                                    [=](sycl::nd_item<1>) [[sycl::reqd_work_group_size(sizes[2])]] { out[0] = 3; });)
}

// CHECK-LABEL: kernel {{[0-9]+}}: InArgument
// CHECK: required work-group size: 16{{$}}
// CHECK-LABEL: kernel {{[0-9]+}}: InBody
// CHECK: required work-group size: 32{{$}}
// CHECK-LABEL: kernel {{[0-9]+}}: Hierarchical
// CHECK: required work-group size: 4 x 2{{$}}
// CHECK-LABEL: kernel {{[0-9]+}}: InTemplate<8>
// CHECK: required sub-group size: 8{{$}}
// CHECK-LABEL: kernel {{[0-9]+}}: WithHandler
// CHECK: required work-group size: 16{{$}}
// CHECK-LABEL: kernel {{[0-9]+}}: WithOffset
// CHECK: required sub-group size: 8{{$}}
// CHECK-LABEL: kernel {{[0-9]+}}: ArrayElement
// CHECK: required work-group size: 64{{$}}
