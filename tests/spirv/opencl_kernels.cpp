// Kernels for tests/spirv/opencl_run.sh: lowered to SPIR-V by onepass-jit and
// run by an OpenCL implementation (PoCL) through opencl_runner.c, which knows
// their arguments: each kernel captures one pointer (its only field): to an
// Args block in shared memory, or the atomics kernel's sum. Run as a program, it
// computes the same on the OnePass CPU device.
#include <sycl/sycl.hpp>

#include <cstdio>

struct Args {
  float *x;
  float *y;
  float *out;
  float a;
  int *groups;  // nd_range: a value per work-item, reversed within each work-group of 64
  float *sum;   // atomics: one float every work-item adds to
};

constexpr size_t kCount = 4096;

int main() {
  sycl::queue q;
  Args *args = sycl::malloc_shared<Args>(1, q);
  args->x = sycl::malloc_shared<float>(kCount, q);
  args->y = sycl::malloc_shared<float>(kCount, q);
  args->out = sycl::malloc_shared<float>(kCount, q);
  args->groups = sycl::malloc_shared<int>(kCount, q);
  args->sum = sycl::malloc_shared<float>(1, q);
  for (size_t i = 0; i < kCount; ++i) {
    args->x[i] = float(i);
    args->y[i] = 1.0f;
    args->groups[i] = int(i);
    args->out[i] = -1.0f;
  }
  args->a = 2.0f;
  *args->sum = 0.0f;
  // KERNEL axpy
  q.parallel_for(sycl::range<1>(kCount - 3), [=](sycl::id<1> i) { args->out[i] = args->a * args->x[i] + args->y[i]; });
  // KERNEL reverse
  q.parallel_for(sycl::nd_range<1>(kCount, 64), [=](sycl::nd_item<1> item) {
    auto &scratch = *sycl::ext::oneapi::group_local_memory_for_overwrite<int[64]>(item.get_group());
    const size_t local = item.get_local_id(0);
    scratch[local] = args->groups[item.get_global_id(0)];
    sycl::group_barrier(item.get_group());
    args->groups[item.get_global_id(0)] = scratch[63 - local];
  });
  // (A pointer the kernel captures itself is known to be global; one loaded
  // from memory is generic, and PoCL's SPIR 1.2 library has no atomics on
  // generic pointers.)
  float *total = args->sum;
  // KERNEL atomics
  q.parallel_for(sycl::range<1>(kCount), [=](sycl::id<1> i) {
    sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device> sum(*total);
    sum.fetch_add(i[0] < 100 ? 0.5f : 0.0f);
  });
  q.wait();
  bool ok = args->out[10] == 21.0f && args->out[kCount - 3] == -1.0f && args->groups[0] == 63 &&
            args->groups[64] == 127 && *args->sum == 50.0f;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
