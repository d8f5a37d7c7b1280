// sycl::vec (SYCL 2020 §4.14.2) and sycl::half (§4.14.1) on the host and in
// kernels: every check below runs in a kernel on the device and once more on
// the host, against values worked out by hand.
#define SYCL_SIMPLE_SWIZZLES
#include "check.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <limits>
#include <type_traits>

using sycl::vec;

// --- compile-time properties ------------------------------------------------
static_assert(sizeof(sycl::float3) == 16 && alignof(sycl::float3) == 16, "§4.14.2.6: a 3-element vec takes 4");
static_assert(sizeof(sycl::float4) == 16 && alignof(sycl::float4) == 16);
static_assert(sizeof(sycl::double16) == 128 && sizeof(sycl::char2) == 2 && alignof(sycl::short8) == 16);
static_assert(sizeof(sycl::half8) == 16 && sizeof(vec<bool, 4>) == 4 && sizeof(vec<std::byte, 16>) == 16);
static_assert(std::is_same_v<sycl::char4, vec<std::int8_t, 4>> && std::is_same_v<sycl::ulong2, vec<std::uint64_t, 2>>);
static_assert(std::is_same_v<sycl::uint16, vec<std::uint32_t, 16>> && std::is_same_v<sycl::half3, vec<sycl::half, 3>>);
static_assert(std::is_same_v<decltype(sycl::float4() < sycl::float4()), sycl::int4>, "relational: int32 lanes");
static_assert(std::is_same_v<decltype(sycl::double2() == 1.0), sycl::long2>, "relational: int64 lanes");
static_assert(std::is_same_v<decltype(sycl::half2() != sycl::half2()), sycl::short2>, "relational: int16 lanes");
static_assert(std::is_same_v<decltype(!sycl::uchar3()), sycl::char3>, "logical: int8 lanes");
static_assert(std::is_same_v<decltype(vec{1.f, 2.f, 3.f}), sycl::float3>, "deduction guide");
static_assert(sycl::float8::size() == 8 && sycl::float3::byte_size() == 16);
static_assert(std::is_same_v<sycl::float4::element_type, float> && std::is_same_v<sycl::int2::value_type, int>);
static_assert(std::is_same_v<decltype(sycl::float4().swizzle<0, 1>() + sycl::float2()), sycl::float2>);
static_assert(!std::is_convertible_v<float, sycl::float4>, "§4.14.2.1: the broadcast constructor is explicit");
static_assert(std::is_convertible_v<float, vec<float, 1>> && std::is_convertible_v<vec<float, 1>, float>);

// Whether `a % b` compiles: integral element types only.
template <typename V, typename = void> struct has_modulo : std::false_type {};
template <typename V> struct has_modulo<V, std::void_t<decltype(V() % V())>> : std::true_type {};
static_assert(has_modulo<sycl::int4>::value && !has_modulo<sycl::float4>::value && !has_modulo<sycl::half2>::value);

constexpr sycl::int4 kConstexprVec(1, 2, 3, 4);
static_assert(kConstexprVec[2] == 3, "constexpr element constructor");

// --- checks that run on the device and on the host -----------------------------
// Each check writes its line into `failed` when it fails.
constexpr int kMaxFailures = 64;
struct Failures {
  int count = 0;
  int lines[kMaxFailures];
};
#define VEC_CHECK(condition)                                                                                           \
  do {                                                                                                                 \
    if (!(condition) && failures.count < kMaxFailures) failures.lines[failures.count++] = __LINE__;                    \
  } while (0)

template <typename V> bool same(const V &v, const V &expected) {
  for (std::size_t i = 0; i < V::size(); ++i)
    if (!(v[int(i)] == expected[int(i)])) return false;
  return true;
}

void vecChecks(Failures &failures, const float *input) {
  // Constructors: broadcast, elements from scalars, vecs and swizzles.
  sycl::float4 a(input[0], input[1], input[2], input[3]);  // 1 2 3 4
  VEC_CHECK(same(a, sycl::float4(1, 2, 3, 4)));
  VEC_CHECK(same(sycl::float4(2.5f), sycl::float4(2.5f, 2.5f, 2.5f, 2.5f)));
  VEC_CHECK(same(sycl::float4(a.lo(), 7, 8.0), sycl::float4(1, 2, 7, 8)));
  VEC_CHECK(same(sycl::float8(a, a.wzyx()), sycl::float8(1, 2, 3, 4, 4, 3, 2, 1)));
  VEC_CHECK(same(sycl::int3(1, sycl::int2(2, 3)), sycl::int3(1, 2, 3)));
  VEC_CHECK(same(sycl::float4(), sycl::float4(0.f)));

  // Element access.
  VEC_CHECK(a.x() == 1 && a.y() == 2 && a.z() == 3 && a.w() == 4 && a.r() == 1 && a.a() == 4);
  VEC_CHECK(a.s0() == 1 && a.s3() == 4 && a[2] == 3);
  sycl::int16 sixteen(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  VEC_CHECK(sixteen.sF() == 15 && sixteen.sA() == 10 && sixteen[9] == 9);
  sixteen.s5() = 50;
  VEC_CHECK(sixteen[5] == 50);

  // Arithmetic with vecs and scalars on either side.
  VEC_CHECK(same(a + a, sycl::float4(2, 4, 6, 8)));
  VEC_CHECK(same(a * 2, sycl::float4(2, 4, 6, 8)));
  VEC_CHECK(same(10.f - a, sycl::float4(9, 8, 7, 6)));
  VEC_CHECK(same(a / sycl::float4(2), sycl::float4(0.5f, 1, 1.5f, 2)));
  VEC_CHECK(same(-a, sycl::float4(-1, -2, -3, -4)) && same(+a, a));
  sycl::float4 b = a;
  b += 1;
  b *= sycl::float4(2, 2, 2, 2);
  VEC_CHECK(same(b, sycl::float4(4, 6, 8, 10)));
  VEC_CHECK(same(b++, sycl::float4(4, 6, 8, 10)) && same(b, sycl::float4(5, 7, 9, 11)));
  VEC_CHECK(same(--b, sycl::float4(4, 6, 8, 10)));

  // Integer operators.
  sycl::int4 i(7, -8, 9, 10);
  VEC_CHECK(same(i % 4, sycl::int4(3, 0, 1, 2)));
  VEC_CHECK(same(i & 6, sycl::int4(6, 0, 0, 2)) && same(i | 1, sycl::int4(7, -7, 9, 11)));
  VEC_CHECK(same(i ^ i, sycl::int4(0)) && same(~sycl::int4(0), sycl::int4(-1)));
  VEC_CHECK(same(i << 1, sycl::int4(14, -16, 18, 20)) && same(i >> 1, sycl::int4(3, -4, 4, 5)));
  VEC_CHECK(same(1 << sycl::int4(0, 1, 2, 3), sycl::int4(1, 2, 4, 8)));
  sycl::uchar4 u(250, 5, 128, 0);
  u += 10;  // wraps in 8 bits
  VEC_CHECK(same(u, sycl::uchar4(4, 15, 138, 10)));
  sycl::long2 big(std::int64_t(1) << 40, -3);
  VEC_CHECK(same(big * 2, sycl::long2(std::int64_t(1) << 41, -6)));

  // Relational and logical operators: -1 or 0.
  VEC_CHECK(same(a < 2.5f, sycl::int4(-1, -1, 0, 0)));
  VEC_CHECK(same(a == sycl::float4(1, 0, 3, 0), sycl::int4(-1, 0, -1, 0)));
  VEC_CHECK(same(3 >= a, sycl::int4(-1, -1, -1, 0)));
  VEC_CHECK(same(sycl::double2(0.5, 0) && 1.0, sycl::long2(-1, 0)));
  VEC_CHECK(same(sycl::int2(0, 4) || sycl::int2(0, 0), sycl::int2(0, -1)));
  VEC_CHECK(same(!sycl::int2(0, 4), sycl::int2(-1, 0)));
  float nan = std::numeric_limits<float>::quiet_NaN();
  VEC_CHECK(same(sycl::float2(nan, 1) != sycl::float2(nan, 1), sycl::int2(-1, 0)));

  // Swizzles as values, as targets and in arithmetic.
  VEC_CHECK(same(sycl::float4(a.swizzle<3, 2, 1, 0>()), sycl::float4(4, 3, 2, 1)));
  VEC_CHECK(same(sycl::float2(a.swizzle<sycl::elem::z, sycl::elem::z>()), sycl::float2(3, 3)));
  VEC_CHECK(same(a.xy() + a.zw(), sycl::float2(4, 6)));
  VEC_CHECK(same(a.zw() * 2.f, sycl::float2(6, 8)) && same(1.f + a.xx(), sycl::float2(2, 2)));
  VEC_CHECK(same(a.wzy() - sycl::float3(1), sycl::float3(3, 2, 1)));
  VEC_CHECK(same(a.xy() < a.yx(), sycl::int2(-1, 0)));
  VEC_CHECK(same(sycl::float2(a.lo()), sycl::float2(1, 2)) && same(sycl::float2(a.hi()), sycl::float2(3, 4)));
  VEC_CHECK(same(sycl::float2(a.odd()), sycl::float2(2, 4)) && same(sycl::float2(a.even()), sycl::float2(1, 3)));
  float single = a.swizzle<2>();
  VEC_CHECK(single == 3);
  sycl::float4 c = a;
  c.lo() = sycl::float2(9, 8);
  c.odd() += 100;
  VEC_CHECK(same(c, sycl::float4(9, 108, 3, 104)));
  c.zw() = 0.5f;
  c.xy() = c.yx();
  VEC_CHECK(same(c, sycl::float4(108, 9, 0.5f, 0.5f)));
  c.swizzle<1>()++;
  c.rgb() *= 2.f;
  VEC_CHECK(same(c, sycl::float4(216, 20, 1, 0.5f)));
  sycl::float3 three(1, 2, 3);
  VEC_CHECK(three.hi()[0] == 3 && three.lo()[1] == 2 && three.odd()[0] == 2);
  sycl::int8 eight(0, 1, 2, 3, 4, 5, 6, 7);
  VEC_CHECK(same(sycl::int4(eight.hi()), sycl::int4(4, 5, 6, 7)) &&
            same(sycl::int4(eight.odd()), sycl::int4(1, 3, 5, 7)));
  eight.even() = sycl::int4(-1);
  VEC_CHECK(same(eight, sycl::int8(-1, 1, -1, 3, -1, 5, -1, 7)));
  VEC_CHECK(same(sycl::int2(eight.hi().lo()), sycl::int2(-1, 5)));
  // A swizzle has a vec's element access and simple swizzles, on the same vec.
  sycl::float4 e = a;
  e.zyx().x() = 9;  // e.z
  e.swizzle<3, 2, 1, 0>().y() += 1;
  VEC_CHECK(same(e, sycl::float4(1, 2, 10, 4)) && a.wzyx().xy().y() == 3);
  VEC_CHECK(eight.hi().s3() == 7 && same(sycl::float2(e.wzyx().yx()), sycl::float2(10, 4)));
  const sycl::float4 constant = a;
  VEC_CHECK(same(constant.zyx() + 0.f, sycl::float3(3, 2, 1)));

  // convert: the four rounding modes, integer wrap and bool.
  sycl::float4 halves(2.5f, -2.5f, 1.5f, -0.4f);
  // automatic: to nearest even from floating point (§4.14.2.5).
  VEC_CHECK(same(halves.convert<int>(), sycl::int4(2, -2, 2, 0)));
  VEC_CHECK(same(sycl::int2(7, -7).convert<float>(), sycl::float2(7, -7)));
  VEC_CHECK(same(halves.convert<int, sycl::rounding_mode::rte>(), sycl::int4(2, -2, 2, 0)));
  VEC_CHECK(same(halves.convert<int, sycl::rounding_mode::rtz>(), sycl::int4(2, -2, 1, 0)));
  VEC_CHECK(same(halves.convert<int, sycl::rounding_mode::rtp>(), sycl::int4(3, -2, 2, 0)));
  VEC_CHECK(same(halves.convert<int, sycl::rounding_mode::rtn>(), sycl::int4(2, -3, 1, -1)));
  sycl::double2 near1(1.0 + 1e-12, -(1.0 + 1e-12));
  float above1 = std::nextafter(1.0f, 2.0f);
  VEC_CHECK(same(near1.convert<float>(), sycl::float2(1, -1)));
  VEC_CHECK(same(near1.convert<float, sycl::rounding_mode::rtz>(), sycl::float2(1, -1)));
  VEC_CHECK(same(near1.convert<float, sycl::rounding_mode::rtp>(), sycl::float2(above1, -1)));
  VEC_CHECK(same(near1.convert<float, sycl::rounding_mode::rtn>(), sycl::float2(1, -above1)));
  sycl::int2 odd(16777217, -16777217);  // 2^24 + 1: not a float
  VEC_CHECK(same(odd.convert<float, sycl::rounding_mode::rtp>(), sycl::float2(16777218.f, -16777216.f)));
  VEC_CHECK(same(odd.convert<float, sycl::rounding_mode::rtn>(), sycl::float2(16777216.f, -16777218.f)));
  VEC_CHECK(same(sycl::int2(300, -1).convert<std::uint8_t>(), sycl::uchar2(44, 255)));
  VEC_CHECK(same(sycl::int4(0, 2, -1, 0).convert<bool>(), vec<bool, 4>(false, true, true, false)));

  // as: the same bytes.
  VEC_CHECK(sycl::float4(1.0f).as<sycl::int4>()[0] == 0x3f800000);
  VEC_CHECK(sycl::int2(0x01020304, 0).as<sycl::uchar8>()[0] == 4);

  // load and store.
  float buffer[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  sycl::float4 loaded;
  loaded.load(1, buffer);
  VEC_CHECK(same(loaded, sycl::float4(4, 5, 6, 7)));
  loaded.store(0, buffer);
  VEC_CHECK(buffer[0] == 4 && buffer[3] == 7);
  sycl::float3 three_loaded;
  three_loaded.load(0, input);
  VEC_CHECK(same(three_loaded, sycl::float3(1, 2, 3)));

  // bool, byte, double and one-element vecs (half: halfVecChecks).
  vec<bool, 4> flags(true, false, true, true);
  VEC_CHECK(same(flags + flags, vec<bool, 4>(true, false, true, true)));
  VEC_CHECK(same(flags == vec<bool, 4>(true), sycl::char4(-1, 0, -1, -1)));
  vec<std::byte, 2> bytes(std::byte{0xf0}, std::byte{0x0f});
  VEC_CHECK((bytes | vec<std::byte, 2>(std::byte{1}))[0] == std::byte{0xf1});
  sycl::double3 d(1, 2, 3);
  VEC_CHECK(same(d * 0.5, sycl::double3(0.5, 1, 1.5)));
  vec<int, 1> one = 5;
  int scalar = one + 1;
  VEC_CHECK(scalar == 6);
}

// half vecs: arithmetic needs aspect::fp16 on the device.
void halfVecChecks(Failures &failures) {
  sycl::half4 h(1.5f, 2, -3, 0.25f);
  VEC_CHECK(same(h * h + sycl::half(1), sycl::half4(3.25f, 5, 10, 1.0625f)));
  VEC_CHECK(same(h < sycl::half(1), sycl::short4(0, 0, -1, -1)));
  VEC_CHECK(same(h.convert<float>(), sycl::float4(1.5f, 2, -3, 0.25f)));
  VEC_CHECK(same(sycl::float2(65519.f, 1e-8f).convert<sycl::half>(), sycl::half2(65504.f, 0.f)));
}

int main() {
  sycl::queue q;
  std::printf("Running on: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  float *input = sycl::malloc_shared<float>(4, q);
  for (int k = 0; k < 4; ++k) input[k] = float(k + 1);
  Failures *device = sycl::malloc_shared<Failures>(1, q);
  *device = Failures();
  q.single_task([=] { vecChecks(*device, input); }).wait();
  Failures host;
  vecChecks(host, input);
  for (int k = 0; k < device->count; ++k)
    onepass_test::check("device: the vec check at vec.cpp line " + std::to_string(device->lines[k]), false);
  for (int k = 0; k < host.count; ++k)
    onepass_test::check("host: the vec check at vec.cpp line " + std::to_string(host.lines[k]), false);
  onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "half vecs", [&] {
    *device = Failures();
    q.single_task([=] { halfVecChecks(*device); }).wait();
    Failures onHost;
    halfVecChecks(onHost);
    for (int k = 0; k < device->count; ++k)
      onepass_test::check("device: the half vec check at vec.cpp line " + std::to_string(device->lines[k]), false);
    for (int k = 0; k < onHost.count; ++k)
      onepass_test::check("host: the half vec check at vec.cpp line " + std::to_string(onHost.lines[k]), false);
  });

  // float4 through USM in a parallel_for: whole-vector loads and stores.
  const int n = 4096;
  sycl::float4 *positions = sycl::malloc_shared<sycl::float4>(n, q);
  sycl::float4 *moved = sycl::malloc_shared<sycl::float4>(n, q);
  sycl::half *halves = sycl::malloc_shared<sycl::half>(n, q);
  for (int k = 0; k < n; ++k) {
    positions[k] = sycl::float4(float(k), float(k) * 2, float(k) * 3, 1);
    halves[k] = sycl::half(float(k % 64) * 0.25f);
  }
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> k) {
     sycl::float4 p = positions[k];
     moved[k] = p.wzyx() * 2.f + p;
   }).wait();
  int wrong = 0;
  for (int k = 0; k < n; ++k) {
    sycl::float4 e(2 + float(k), 6 * float(k) + 2 * float(k), 4 * float(k) + 3 * float(k), 2 * float(k) + 1);
    if (!same(moved[k], e)) ++wrong;
  }
  onepass_test::checkEqual("float4 parallel_for: wrong elements", 0, wrong);
  onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "half parallel_for", [&] {
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> k) { halves[k] = halves[k] * sycl::half(2) + 1; }).wait();
    int wrongHalves = 0;
    for (int k = 0; k < n; ++k)
      if (float(halves[k]) != float(k % 64) * 0.5f + 1) ++wrongHalves;
    onepass_test::checkEqual("half parallel_for: wrong elements", 0, wrongHalves);
  });
  sycl::free(input, q);
  sycl::free(device, q);
  sycl::free(positions, q);
  sycl::free(moved, q);
  sycl::free(halves, q);

  // minimum<>/maximum<> of vecs and marrays (§4.17.2): element by element,
  // of the operands' type.
  {
    sycl::int4 a(1, 5, 3, 8), b(4, 2, 3, 9);
    auto low = sycl::minimum<>{}(a, b), high = sycl::maximum<>{}(a, b);
    static_assert(std::is_same_v<decltype(low), sycl::int4> && std::is_same_v<decltype(high), sycl::int4>);
    onepass_test::check("minimum<>(int4, int4)", low[0] == 1 && low[1] == 2 && low[2] == 3 && low[3] == 8);
    onepass_test::check("maximum<>(int4, int4)", high[0] == 4 && high[1] == 5 && high[2] == 3 && high[3] == 9);
    sycl::marray<float, 3> c{1.f, 5.f, -2.f}, d{2.f, 1.f, -3.f};
    auto m = sycl::maximum<>{}(c, d);
    static_assert(std::is_same_v<decltype(m), sycl::marray<float, 3>>);
    onepass_test::check("maximum<>(marray, marray)", m[0] == 2.f && m[1] == 5.f && m[2] == -2.f);
    static_assert(std::is_same_v<decltype(sycl::minimum<>{}(1, 2.0)), double>);
    onepass_test::check("minimum<>(int, double)", sycl::minimum<>{}(3, 2.5) == 2.5);
  }
  return onepass_test::report();
}
