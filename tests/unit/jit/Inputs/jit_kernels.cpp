// Kernels whose image the JIT unit tests compile directly (no runtime): the
// tests build each kernel's argument blob by hand from the image's fields.
#include <sycl/sycl.hpp>

void launchAll(sycl::queue &q, float *out, const float *in, float factor, int offset, long *grid, int *flag) {
  // Explicit captures: the closure's members follow this order.
  q.parallel_for<class scale_offset>(
      sycl::range<1>(1), [out, in, factor, offset](sycl::id<1> i) { out[i] = in[i] * factor + float(offset); });
  q.parallel_for<class grid_ids>(
      sycl::range<2>(1, 1), [grid](sycl::item<2> it) { grid[it.get_linear_id()] = long(it[0]) * 1000 + long(it[1]); });
  q.single_task<class set_flag>([flag]() { *flag = 42; });
  q.parallel_for<class group_ids>(sycl::nd_range<1>(sycl::range<1>(4), sycl::range<1>(2)), [grid](sycl::nd_item<1> it) {
    grid[it.get_global_linear_id()] = long(it.get_group(0)) * 1000 + long(it.get_global_range(0));
  });
}

SYCL_EXTERNAL float definedElsewhere(float x);  // no definition in any translation unit

void launchMath(sycl::queue &q, float *out, const float *in, double *wide) {
  // C, C++ and SYCL math: on NVIDIA GPUs these come from libdevice.
  q.parallel_for<class math_calls>(sycl::range<1>(1), [out, in, wide](sycl::id<1> i) {
    float x = in[i];
    out[i] = sycl::sin(x) + std::pow(x, 2.5f) + sycl::exp10(x * 0.1f) + sycl::sinpi(x) + expf(-x);
    wide[i] = std::cos(double(x)) + sycl::log1p(double(x));
  });
  q.parallel_for<class native_math>(sycl::range<1>(1), [out, in](sycl::id<1> i) {
    out[i] = sycl::native::sin(in[i]) + sycl::native::exp(in[i]) + sycl::native::divide(in[i], 3.0f);
  });
  q.parallel_for<class undefined_call>(sycl::range<1>(1),
                                       [out, in](sycl::id<1> i) { out[i] = definedElsewhere(in[i]); });
}

// A tile with a halo: the edge work-items also load their outer neighbours.
// In `halo_clobbered` a store to global memory (which `in` may alias) comes
// first, so those loads must stay where they are.
void launchHalo(sycl::queue &q, float *out, const float *in, std::size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(34), h);
    h.parallel_for<class halo_loads>(sycl::nd_range<1>(n, 32), [=](sycl::nd_item<1> it) {
      const std::size_t g = it.get_global_id(0), l = it.get_local_id(0);
      tile[l + 1] = in[g];
      if (l == 0 && g > 0) tile[0] = in[g - 1];
      if (l == 31 && g + 1 < n) tile[33] = in[g + 1];
      it.barrier(sycl::access::fence_space::local_space);
      out[g] = tile[l] + tile[l + 1] + tile[l + 2];
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(34), h);
    h.parallel_for<class halo_clobbered>(sycl::nd_range<1>(n, 32), [=](sycl::nd_item<1> it) {
      const std::size_t g = it.get_global_id(0), l = it.get_local_id(0);
      tile[l + 1] = in[g];
      out[g] = 0.0f;
      if (l == 0 && g > 0) tile[0] = in[g - 1];
      it.barrier(sycl::access::fence_space::local_space);
      out[g] += tile[l] + tile[l + 1];
    });
  });
}

// Local memory the kernel allocates itself: 256 + 4 bytes, in slots of 16.
void launchGroupLocal(sycl::queue &q, int *out) {
  q.parallel_for<class group_local>(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1> it) {
    int(*tile)[64] = sycl::ext::oneapi::group_local_memory_for_overwrite<int[64]>(it.get_group());
    int *flag = sycl::ext::oneapi::group_local_memory_for_overwrite<int>(it.get_group());
    (*tile)[it.get_local_id(0)] = int(it.get_global_id(0));
    if (it.get_local_id(0) == 0) *flag = 7;
    it.barrier();
    out[it.get_global_id(0)] = (*tile)[63 - it.get_local_id(0)] + *flag;
  });
}

// Halo loads from two buffers under one condition: each falls back on its
// own buffer's load, at two places in the entry block.
void launchTwoHalos(sycl::queue &q, float *out, const float *a, const float *b, std::size_t n) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(33), h);
    h.parallel_for<class two_halos>(sycl::nd_range<1>(n, 32), [=](sycl::nd_item<1> it) {
      const std::size_t g = it.get_global_id(0), l = it.get_local_id(0);
      const float own = b[g] * 2.0f;
      tile[l + 1] = a[g] + own;
      if (l == 0 && g > 0) tile[0] = a[g - 1] + b[g - 1] * 2.0f;
      it.barrier(sycl::access::fence_space::local_space);
      out[g] = tile[l] + tile[l + 1];
    });
  });
}
