// Kernel attributes OnePass cannot read, or that do not fit the kernel, are
// errors at the attribute, with a note naming the kernel. (Kernels are
// reported in the order clang instantiates them.)
// RUN: not %onepass -fsycl-sscp -c %s -o %t.o 2>&1 | FileCheck %s -DFILE=%s \
// RUN:   --implicit-check-not=error: --implicit-check-not=note:

#include <sycl/sycl.hpp>

int runtimeSize();

void submit(sycl::queue &q, int *out) {
  // CHECK-DAG: [[FILE]]:[[@LINE+2]]:72: error: the arguments of 'sycl::reqd_work_group_size' must be integral constant expressions OnePass can read from the source (literals, template arguments, constant variables and their array elements, enumerators, + - * / % << >>); it cannot read 'runtimeSize', which is not an integral constant OnePass can find
  // CHECK-DAG: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE+1]]:45' defined here
  q.parallel_for(sycl::nd_range<1>(64, 16), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(runtimeSize())]] {
    out[it.get_global_id(0)] = 1;
  });
  // CHECK-DAG: [[FILE]]:[[@LINE+2]]:80: error: 'sycl::reqd_work_group_size' has 1 argument(s), but the kernel's range has 2 dimension(s)
  // CHECK-DAG: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE+1]]:53' defined here
  q.parallel_for(sycl::nd_range<2>({8, 8}, {4, 4}), [=](sycl::nd_item<2> it) [[sycl::reqd_work_group_size(16)]] {
    out[it.get_global_linear_id()] = 1;
  });
  // CHECK-DAG: [[FILE]]:[[@LINE+2]]:72: error: the arguments of 'sycl::reqd_sub_group_size' must be at least 1
  // CHECK-DAG: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE+1]]:45' defined here
  q.parallel_for(sycl::nd_range<1>(64, 16), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(0)]] {
    out[it.get_global_id(0)] = 1;
  });
  // CHECK-DAG: [[FILE]]:[[@LINE+2]]:23: error: 'sycl::reqd_work_group_size' has 1 argument(s), but the kernel's range has 0 dimension(s) (a single_task)
  // CHECK-DAG: note: in SYCL kernel 'lambda at [[FILE]]:[[@LINE+1]]:17' defined here
  q.single_task([=] [[sycl::reqd_work_group_size(1)]] { out[0] = 1; });
}
// CHECK: 4 errors generated.
