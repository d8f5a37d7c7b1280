// usm_phases.cpp's process in CUDA: cudaMallocManaged (managed) or cudaMalloc
// (device) arrays, the same kernels, the dot's partial sums added into a
// managed double (managed) or copied to the host (device). Built by
// usm_phases.sh with nvcc.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace {
double now() {
  timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
constexpr int kBlock = 1024;
__global__ void initArrays(double *a, double *b, double *c, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) { a[i] = 0.1; b[i] = 0.2; c[i] = 0.0; }
}
__global__ void copyK(const double *a, double *c, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i];
}
__global__ void mulK(double *b, const double *c, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) b[i] = 0.4 * c[i];
}
__global__ void addK(const double *a, const double *b, double *c, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void triadK(double *a, const double *b, const double *c, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) a[i] = b[i] + 0.4 * c[i];
}
__global__ void dotK(const double *a, const double *b, double *partial, size_t n) {
  __shared__ double tile[kBlock];
  double s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    s += a[i] * b[i];
  tile[threadIdx.x] = s;
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    __syncthreads();
    if (threadIdx.x < half) tile[threadIdx.x] += tile[threadIdx.x + half];
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = tile[0];
}
}  // namespace

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (size_t(1) << 25);
  const bool managed = argc < 3 || std::strcmp(argv[2], "device") != 0;
  std::vector<double> ha(n), hb(n), hc(n);
  std::printf("host %.6f\n", now());
  int count = 0, sms = 0;
  cudaGetDeviceCount(&count);
  cudaSetDevice(0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaFree(nullptr);
  std::printf("devices %.6f\n", now());
  const int dotBlocks = 4 * sms;
  double *a, *b, *c, *partial;
  if (managed) {
    cudaMallocManaged(&a, n * sizeof(double));
    cudaMallocManaged(&b, n * sizeof(double));
    cudaMallocManaged(&c, n * sizeof(double));
  } else {
    cudaMalloc(&a, n * sizeof(double));
    cudaMalloc(&b, n * sizeof(double));
    cudaMalloc(&c, n * sizeof(double));
  }
  cudaMalloc(&partial, dotBlocks * sizeof(double));
  std::vector<double> sums(dotBlocks);
  std::printf("allocate %.6f\n", now());
  const unsigned blocks = unsigned((n + kBlock - 1) / kBlock);
  initArrays<<<blocks, kBlock>>>(a, b, c, n);
  cudaDeviceSynchronize();
  std::printf("init %.6f\n", now());
  double dot = 0;
  for (int round = 0; round < 100; ++round) {
    copyK<<<blocks, kBlock>>>(a, c, n);
    cudaDeviceSynchronize();
    mulK<<<blocks, kBlock>>>(b, c, n);
    cudaDeviceSynchronize();
    addK<<<blocks, kBlock>>>(a, b, c, n);
    cudaDeviceSynchronize();
    triadK<<<blocks, kBlock>>>(a, b, c, n);
    cudaDeviceSynchronize();
    dotK<<<dotBlocks, kBlock>>>(a, b, partial, n);
    cudaMemcpy(sums.data(), partial, dotBlocks * sizeof(double), cudaMemcpyDeviceToHost);
    dot = 0;
    for (double s : sums) dot += s;
  }
  std::printf("kernels %.6f\n", now());
  if (managed) {
    for (size_t i = 0; i < n; ++i) {
      ha[i] = a[i];
      hb[i] = b[i];
      hc[i] = c[i];
    }
  } else {
    cudaMemcpy(ha.data(), a, n * sizeof(double), cudaMemcpyDeviceToHost);
    cudaMemcpy(hb.data(), b, n * sizeof(double), cudaMemcpyDeviceToHost);
    cudaMemcpy(hc.data(), c, n * sizeof(double), cudaMemcpyDeviceToHost);
  }
  std::printf("read %.6f\n", now());
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFree(partial);
  std::printf("free %.6f\n", now());
  std::fprintf(stderr, "dot %g a[1] %g b[1] %g c[1] %g\n", dot, ha[1], hb[1], hc[1]);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
