// Compile-time benchmark input: vec-heavy kernels (SYCL 2020 §4.14.2). Every
// element type and size a lattice or image code uses, with swizzles as values
// and as targets, conversions and the simple swizzles, in kernels
// instantiated from one template per element type.
#define SYCL_SIMPLE_SWIZZLES
#include <sycl/sycl.hpp>

#include <cstdint>

template <typename T, int N> class VecKernel;

template <typename T> void vec4Kernel(sycl::queue &q, sycl::vec<T, 4> *data, std::size_t n) {
  q.parallel_for<VecKernel<T, 4>>(sycl::range<1>(n), [=](sycl::id<1> i) {
    sycl::vec<T, 4> v = data[i];
    sycl::vec<T, 4> w = v.wzyx() * T(2) + v.xxyy() - v.zwzw();
    w.lo() += v.hi();
    w.odd() = v.even() * T(3);
    w.xyz() = w.zxy() + sycl::vec<T, 3>(v.w());
    sycl::vec<T, 2> s = w.xy() + w.template swizzle<3, 2>();
    w.rg() -= s;
    auto mask = w > v;
    w = mask[0] ? w : v;
    data[i] = w + v.template swizzle<sycl::elem::y, sycl::elem::x, sycl::elem::w, sycl::elem::z>();
  });
}

template <typename T> void vec8Kernel(sycl::queue &q, sycl::vec<T, 8> *data, std::size_t n) {
  q.parallel_for<VecKernel<T, 8>>(sycl::range<1>(n), [=](sycl::id<1> i) {
    sycl::vec<T, 8> v = data[i];
    sycl::vec<T, 4> a = v.lo(), b = v.hi();
    sycl::vec<T, 8> w(a * b, b - a);
    w.even() += v.odd();
    w.template swizzle<0, 7>() = w.template swizzle<7, 0>();
    data[i] = w + v.template convert<float>().template convert<T>();
  });
}

template <typename T> void vec16Kernel(sycl::queue &q, sycl::vec<T, 16> *data, std::size_t n) {
  q.parallel_for<VecKernel<T, 16>>(sycl::range<1>(n), [=](sycl::id<1> i) {
    sycl::vec<T, 16> v = data[i];
    v.lo().lo() = v.hi().hi() + v.odd().even();
    v.s0() = v.sF() + v.s7();
    data[i] = v * v - v;
  });
}

template <typename T> void allSizes(sycl::queue &q, void *memory, std::size_t n) {
  vec4Kernel<T>(q, static_cast<sycl::vec<T, 4> *>(memory), n);
  vec8Kernel<T>(q, static_cast<sycl::vec<T, 8> *>(memory), n);
  vec16Kernel<T>(q, static_cast<sycl::vec<T, 16> *>(memory), n);
}

void run(sycl::queue &q, void *memory, std::size_t n) {
  allSizes<float>(q, memory, n);
  allSizes<double>(q, memory, n);
  allSizes<sycl::half>(q, memory, n);
  allSizes<std::int32_t>(q, memory, n);
  allSizes<std::uint8_t>(q, memory, n);
  allSizes<std::int64_t>(q, memory, n);
  q.wait();
}
