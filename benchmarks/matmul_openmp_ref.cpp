// The OpenMP reference loops of the matmul benchmark; see matmul_openmp_ref.h.
// Built with `g++ -O3 -march=native -fopenmp -c`.
#include "matmul_openmp_ref.h"

#include <omp.h>

extern "C" {

int matmul_openmp_threads() { return omp_get_max_threads(); }

// C = A x B, a row of C at a time (i, k, j order: unit stride, vectorized).
void matmul_openmp(const float *a, const float *b, float *c, std::size_t n) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    float *row = c + i * n;
    for (std::size_t j = 0; j < n; ++j) row[j] = 0.0f;
    for (std::size_t k = 0; k < n; ++k) {
      const float aik = a[i * n + k];
      const float *bk = b + k * n;
#pragma omp simd
      for (std::size_t j = 0; j < n; ++j) row[j] += aik * bk[j];
    }
  }
}

void stencil_openmp(const float *in, float *out, std::size_t n) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      out[i * n + j] = (i == 0 || j == 0 || i + 1 == n || j + 1 == n)
                           ? in[i * n + j]
                           : 0.2f * (in[i * n + j] + in[(i - 1) * n + j] + in[(i + 1) * n + j] + in[i * n + j - 1] +
                                     in[i * n + j + 1]);
}

// The same algorithms as the SYCL kernels of matmul_kernels.h, as a C++
// programmer would write them for a CPU: a work-group becomes one iteration
// of a parallel loop over the tiles, its local memory an array on the stack,
// its work-items unit-stride inner loops (no barriers needed: one thread
// runs the tile's phases one after the other).
constexpr std::size_t kTile = 16;

void matmul_tiled_openmp(const float *a, const float *b, float *c, std::size_t n) {
  const std::size_t tiles = n / kTile;
#pragma omp parallel for collapse(2) schedule(static)
  for (std::size_t ti = 0; ti < tiles; ++ti)
    for (std::size_t tj = 0; tj < tiles; ++tj) {
      float sum[kTile][kTile] = {};
      for (std::size_t t = 0; t < n; t += kTile) {
        float tileA[kTile][kTile], tileB[kTile][kTile];
        for (std::size_t r = 0; r < kTile; ++r)
          for (std::size_t k = 0; k < kTile; ++k) {
            tileA[r][k] = a[(ti * kTile + r) * n + t + k];
            tileB[r][k] = b[(t + r) * n + tj * kTile + k];
          }
        for (std::size_t r = 0; r < kTile; ++r)
          for (std::size_t j = 0; j < kTile; ++j)
#pragma omp simd
            for (std::size_t k = 0; k < kTile; ++k) sum[r][k] += tileA[r][j] * tileB[j][k];
      }
      for (std::size_t r = 0; r < kTile; ++r)
        for (std::size_t k = 0; k < kTile; ++k) c[(ti * kTile + r) * n + tj * kTile + k] = sum[r][k];
    }
}

void stencil_tiled_openmp(const float *in, float *out, std::size_t n) {
  const std::size_t tiles = n / kTile;
#pragma omp parallel for collapse(2) schedule(static)
  for (std::size_t ti = 0; ti < tiles; ++ti)
    for (std::size_t tj = 0; tj < tiles; ++tj) {
      float tile[kTile + 2][kTile + 2];
      const std::size_t i0 = ti * kTile, j0 = tj * kTile;
      // The tile and its halo (the neighbours that exist).
      for (std::size_t r = 0; r < kTile; ++r) {
        const float *row = in + (i0 + r) * n + j0;
        for (std::size_t c = 0; c < kTile; ++c) tile[r + 1][c + 1] = row[c];
        if (j0 > 0) tile[r + 1][0] = row[-1];
        if (j0 + kTile < n) tile[r + 1][kTile + 1] = row[kTile];
      }
      if (i0 > 0)
        for (std::size_t c = 0; c < kTile; ++c) tile[0][c + 1] = in[(i0 - 1) * n + j0 + c];
      if (i0 + kTile < n)
        for (std::size_t c = 0; c < kTile; ++c) tile[kTile + 1][c + 1] = in[(i0 + kTile) * n + j0 + c];
      for (std::size_t r = 1; r <= kTile; ++r)
        for (std::size_t c = 1; c <= kTile; ++c) {
          const std::size_t i = i0 + r - 1, j = j0 + c - 1;
          out[i * n + j] =
              (i == 0 || j == 0 || i + 1 == n || j + 1 == n)
                  ? tile[r][c]
                  : 0.2f * (tile[r][c] + tile[r - 1][c] + tile[r + 1][c] + tile[r][c - 1] + tile[r][c + 1]);
        }
    }
}

}  // extern "C"
