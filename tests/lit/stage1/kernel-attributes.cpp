// SYCL 2020 §5.8.1 kernel attributes reach the kernel image, from the three
// places SYCL puts them: a lambda's declarator (after the parameters), before
// a function object's operator(), and between its name and parameters; also
// the C++23 place before a lambda's parameters. Their arguments may be
// constant expressions: template arguments, constant variables, enumerators
// and arithmetic. Clang does not know the attributes: no "unknown attribute"
// warning for them, and one for an attribute on something that is no kernel.
// RUN: %onepass -fsycl-sscp -Wno-c++23-lambda-attributes -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=WARN -DFILE=%s --implicit-check-not=warning:
// RUN: %onepass-kernels %t.o | FileCheck %s
// With clang's unknown-attribute warnings off, or all warnings, the same.
// RUN: %onepass -fsycl-sscp -w -c %s -o %t.w.o
// RUN: %onepass-kernels %t.w.o | FileCheck %s
// RUN: %onepass -fsycl-sscp -Wno-unknown-attributes -Wno-c++23-lambda-attributes -c %s -o %t.nowarn.o
// RUN: %onepass-kernels %t.nowarn.o | FileCheck %s
// Under -Werror too; other unknown attributes stay errors there.
// RUN: %onepass -fsycl-sscp -Werror -Wno-c++23-lambda-attributes -DNO_STRAY -c %s -o %t.werror.o
// RUN: %onepass-kernels %t.werror.o | FileCheck %s
// RUN: not %onepass -fsycl-sscp -Werror -Wno-c++23-lambda-attributes -DNO_STRAY -DFOREIGN -c %s -o %t.foreign.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FOREIGN

#include <sycl/sycl.hpp>

namespace tiles {
constexpr std::size_t kEdge = 8;
enum Widths { kWide = 32 };
}  // namespace tiles

// From a macro.
#define GROUPS_OF_8 [[sycl::reqd_work_group_size(8)]]

struct Before {
  int *out;
  [[sycl::reqd_work_group_size(4, 8)]] void operator()(sycl::nd_item<2> it) const { out[0] = int(it.get_local_range(0)); }
};

struct AfterName {
  int *out;
  void operator() [[sycl::reqd_work_group_size(tiles::kEdge * 2)]] [[sycl::reqd_sub_group_size(tiles::kWide)]] (
      sycl::nd_item<1> it) const {
    out[0] = int(it.get_local_range(0));
  }
};

template <std::size_t Group> void launch(sycl::queue &q, int *out) {
  constexpr std::size_t half = Group / 2;
  q.parallel_for(sycl::nd_range<1>(64, Group), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(Group)]] {
    out[0] = int(it.get_local_range(0));
  });
  q.parallel_for(sycl::nd_range<1>(64, half), [=] [[sycl::reqd_work_group_size(half + 0x0)]] (sycl::nd_item<1> it) {
    out[0] = int(it.get_local_range(0));
  });
}

#ifndef NO_STRAY
// WARN: [[FILE]]:[[@LINE+1]]:3: warning: 'sycl::reqd_work_group_size' ignored: it is not on a SYCL kernel's lambda or function object operator()
[[sycl::reqd_work_group_size(4)]] void notAKernel() {}
#endif
#ifdef FOREIGN
// FOREIGN: error: unknown attribute 'foo::bar' ignored [-Werror,-Wunknown-attributes]
[[foo::bar]] int foreign;
#endif

void submit(sycl::queue &q, int *out) {
  q.parallel_for(sycl::nd_range<2>({8, 8}, {4, 8}), Before{out});
  q.parallel_for(sycl::nd_range<1>(64, 16), AfterName{out});
  launch<64>(q, out);
  q.parallel_for(sycl::nd_range<1>(64, 8), [=](sycl::nd_item<1> it) [[sycl::work_group_size_hint(8)]] {
    out[0] = int(it.get_local_range(0));
  });
  q.parallel_for(sycl::nd_range<1>(64, 8), [=](sycl::nd_item<1> it) GROUPS_OF_8 { out[0] = int(it.get_local_range(0)); });
}

// CHECK-LABEL: kernel {{[0-9]+}}: Before
// CHECK: object:
// CHECK-NEXT: required work-group size: 4 x 8
// CHECK-NOT: required sub-group size
// CHECK-LABEL: kernel {{[0-9]+}}: AfterName
// CHECK: object:
// CHECK-NEXT: required work-group size: 16
// CHECK-NEXT: required sub-group size: 32
// CHECK-LABEL: kernel {{[0-9]+}}: lambda at {{.*}}kernel-attributes.cpp:46:
// CHECK: object:
// CHECK-NEXT: required work-group size: 64
// CHECK-LABEL: kernel {{[0-9]+}}: lambda at {{.*}}kernel-attributes.cpp:49:
// CHECK: object:
// CHECK-NEXT: required work-group size: 32
// A hint has no effect.
// CHECK-LABEL: kernel {{[0-9]+}}: lambda at {{.*}}kernel-attributes.cpp:67:
// CHECK: object:
// CHECK-NOT: required
// CHECK: field 0
// CHECK-LABEL: kernel {{[0-9]+}}: lambda at {{.*}}kernel-attributes.cpp:70:
// CHECK: object:
// CHECK-NEXT: required work-group size: 8
