// The SYCL kernels shared by the matmul benchmarks (CPU: matmul.cpp, GPU:
// gpu_matmul.cpp): C = A x B for n x n row-major floats, n a multiple of
// kTile, in kTile x kTile work-groups that stage tiles of A and B in local
// memory (a barrier after loading each pair of tiles, and after using it).
#pragma once

#include <sycl/sycl.hpp>

inline constexpr std::size_t kTile = 16;

inline sycl::event tiledMatmul(sycl::queue &q, const float *a, const float *b, float *c, std::size_t n) {
  return q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 2> tileA(sycl::range<2>(kTile, kTile), h), tileB(sycl::range<2>(kTile, kTile), h);
    h.parallel_for(sycl::nd_range<2>({n, n}, {kTile, kTile}), [=](sycl::nd_item<2> it) {
      const std::size_t row = it.get_global_id(0), column = it.get_global_id(1);
      const std::size_t r = it.get_local_id(0), k = it.get_local_id(1);
      float sum = 0.0f;
      for (std::size_t t = 0; t < n; t += kTile) {
        tileA[r][k] = a[row * n + t + k];
        tileB[r][k] = b[(t + r) * n + column];
        it.barrier(sycl::access::fence_space::local_space);
        for (std::size_t j = 0; j < kTile; ++j) sum += tileA[r][j] * tileB[j][k];
        it.barrier(sycl::access::fence_space::local_space);
      }
      c[row * n + column] = sum;
    });
  });
}

// A 5-point stencil on an n x n grid (the border copied), through
// kTile x kTile tiles with a halo in local memory.
inline sycl::event tiledStencil(sycl::queue &q, const float *in, float *out, std::size_t n) {
  return q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 2> tile(sycl::range<2>(kTile + 2, kTile + 2), h);
    h.parallel_for(sycl::nd_range<2>({n, n}, {kTile, kTile}), [=](sycl::nd_item<2> it) {
      const std::size_t i = it.get_global_id(0), j = it.get_global_id(1);
      const std::size_t r = it.get_local_id(0) + 1, c = it.get_local_id(1) + 1;
      tile[r][c] = in[i * n + j];
      // The halo: edge work-items load their outer neighbours (if any).
      if (r == 1 && i > 0) tile[0][c] = in[(i - 1) * n + j];
      if (r == kTile && i + 1 < n) tile[kTile + 1][c] = in[(i + 1) * n + j];
      if (c == 1 && j > 0) tile[r][0] = in[i * n + j - 1];
      if (c == kTile && j + 1 < n) tile[r][kTile + 1] = in[i * n + j + 1];
      it.barrier(sycl::access::fence_space::local_space);
      if (i == 0 || j == 0 || i + 1 == n || j + 1 == n) out[i * n + j] = tile[r][c];
      else out[i * n + j] = 0.2f * (tile[r][c] + tile[r - 1][c] + tile[r + 1][c] + tile[r][c - 1] + tile[r][c + 1]);
    });
  });
}
