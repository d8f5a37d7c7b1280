// Kernels whose image the JIT unit tests compile directly (no runtime): the
// tests build each kernel's argument blob by hand from the image's fields.
#include <sycl/sycl.hpp>

void launchAll(sycl::queue &q, float *out, const float *in, float factor, int offset, long *grid,
               int *flag) {
  // Explicit captures: the closure's members follow this order.
  q.parallel_for<class scale_offset>(sycl::range<1>(1), [out, in, factor, offset](sycl::id<1> i) {
    out[i] = in[i] * factor + float(offset);
  });
  q.parallel_for<class grid_ids>(sycl::range<2>(1, 1), [grid](sycl::item<2> it) {
    grid[it.get_linear_id()] = long(it[0]) * 1000 + long(it[1]);
  });
  q.single_task<class set_flag>([flag]() { *flag = 42; });
}
