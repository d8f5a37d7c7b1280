// Images (SYCL 2020 §4.7.3), their accessors (§4.7.6.13-14) and samplers
// (§4.7.8): every image format read and written in kernels (values checked
// against the bytes in memory), 1-D/2-D/3-D images with pitches, host
// pointers written back at destruction, set_final_data/set_write_back,
// sampled reads in every addressing and filtering mode against values worked
// out by hand from OpenCL C's sampling formulas, host and host-task
// accessors, dependencies between kernels through images, and the errors.
#include "check.h"

#include <sycl/sycl.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

using onepass_test::check;
using onepass_test::checkEqual;
using onepass_test::checkThrows;

namespace {

template <typename V> std::string show4(const V &v) {
  return "(" + std::to_string(double(v[0])) + ", " + std::to_string(double(v[1])) + ", " +
         std::to_string(double(v[2])) + ", " + std::to_string(double(v[3])) + ")";
}
template <typename V, typename E> void check4(const std::string &what, const V &actual, const E (&expected)[4],
                                              double tolerance = 0) {
  bool same = true;
  for (int c = 0; c < 4; ++c) {
    const double a = double(actual[c]), e = double(expected[c]);
    if (!(a == e || (a - e <= tolerance && e - a <= tolerance))) same = false;
  }
  if (!same) onepass_test::fail(what, show4(expected), show4(actual));
}

template <typename T> void put(std::vector<unsigned char> &bytes, std::size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof(T));
}
template <typename T> T get(const std::vector<unsigned char> &bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof(T));
  return value;
}

// Reads texel 1 of a 2-texel 1-D image of `format` holding `bytes` in a
// kernel, as DataT.
template <typename DataT> DataT readInKernel(sycl::queue &q, sycl::image_format format, std::vector<unsigned char> bytes) {
  sycl::buffer<DataT> result(1);
  {
    sycl::unsampled_image<1> image(bytes.data(), format, sycl::range<1>(2));
    q.submit([&](sycl::handler &h) {
      auto in = image.get_access<DataT, sycl::access_mode::read>(h);
      sycl::accessor out(result, h, sycl::write_only);
      h.single_task([=] { out[0] = in.read(1); });
    });
  }
  return sycl::host_accessor(result)[0];
}

// Writes `color` to texel 1 of a 2-texel 1-D image of `format` in a kernel and
// returns the image's bytes (written back to its host memory).
template <typename DataT>
std::vector<unsigned char> writeInKernel(sycl::queue &q, sycl::image_format format, DataT color) {
  const std::size_t texel = sycl::detail::image_texel_bytes(format);
  std::vector<unsigned char> bytes(2 * texel, 0xAB);
  {
    sycl::unsampled_image<1> image(bytes.data(), format, sycl::range<1>(2));
    q.submit([&](sycl::handler &h) {
      auto out = image.get_access<DataT, sycl::access_mode::write>(h);
      h.single_task([=] { out.write(1, color); });
    });
  }
  return std::vector<unsigned char>(bytes.begin() + texel, bytes.end());
}

void formats(sycl::queue &q) {
  using sycl::image_format;
  {  // unorm8: c / 255
    std::vector<unsigned char> b(8, 0);
    b[4] = 0, b[5] = 51, b[6] = 255, b[7] = 128;
    const float e[4] = {0.0f, 0.2f, 1.0f, 128.0f / 255.0f};
    check4("r8g8b8a8_unorm read as float4", readInKernel<sycl::float4>(q, image_format::r8g8b8a8_unorm, b), e, 1e-6);
    // (half4 data: arithmetic in half, aspect::fp16.)
    onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "r8g8b8a8_unorm read as half4", [&] {
      const float h[4] = {0.0f, 0.2f, 1.0f, 0.50195f};
      check4("r8g8b8a8_unorm read as half4", readInKernel<sycl::half4>(q, image_format::r8g8b8a8_unorm, b), h, 1e-3);
    });
    // Clamped to [0, 1], rounded to nearest (127.5 -> 128).
    auto w = writeInKernel(q, image_format::r8g8b8a8_unorm, sycl::float4(-0.5f, 0.5f, 1.5f, 0.2f));
    const int we[4] = {0, 128, 255, 51};
    check4("r8g8b8a8_unorm written from float4", w, we);
  }
  {  // bgra: blue first in memory, read as (r, g, b, a)
    std::vector<unsigned char> b(8, 0);
    b[4] = 10, b[5] = 20, b[6] = 30, b[7] = 40;
    const float e[4] = {30 / 255.0f, 20 / 255.0f, 10 / 255.0f, 40 / 255.0f};
    check4("b8g8r8a8_unorm read", readInKernel<sycl::float4>(q, image_format::b8g8r8a8_unorm, b), e, 1e-6);
    auto w = writeInKernel(q, image_format::b8g8r8a8_unorm, sycl::float4(1.0f, 0.0f, 0.2f, 0.4f));
    const int we[4] = {51, 0, 255, 102};
    check4("b8g8r8a8_unorm written", w, we);
  }
  {  // unorm16
    std::vector<unsigned char> b(16, 0);
    put<std::uint16_t>(b, 8, 0), put<std::uint16_t>(b, 10, 65535), put<std::uint16_t>(b, 12, 13107),
        put<std::uint16_t>(b, 14, 1);
    const float e[4] = {0.0f, 1.0f, 0.2f, 1.0f / 65535.0f};
    check4("r16g16b16a16_unorm read", readInKernel<sycl::float4>(q, image_format::r16g16b16a16_unorm, b), e, 1e-7);
    auto w = writeInKernel(q, image_format::r16g16b16a16_unorm, sycl::float4(2.0f, 0.5f, -1.0f, 0.2f));
    const int we[4] = {65535, 32768, 0, 13107};
    const int got[4] = {get<std::uint16_t>(w, 0), get<std::uint16_t>(w, 2), get<std::uint16_t>(w, 4),
                        get<std::uint16_t>(w, 6)};
    check4("r16g16b16a16_unorm written", got, we);
  }
  {  // signed integers: sign-extended; written saturated
    std::vector<unsigned char> b(8, 0);
    b[4] = 0x80, b[5] = 0xFF, b[6] = 0, b[7] = 127;
    const int e[4] = {-128, -1, 0, 127};
    check4("r8g8b8a8_sint read", readInKernel<sycl::int4>(q, image_format::r8g8b8a8_sint, b), e);
    auto w = writeInKernel(q, image_format::r8g8b8a8_sint, sycl::int4(-300, 300, -5, 5));
    const int we[4] = {-128, 127, -5, 5};
    const int got[4] = {int(std::int8_t(w[0])), int(std::int8_t(w[1])), int(std::int8_t(w[2])), int(std::int8_t(w[3]))};
    check4("r8g8b8a8_sint written", got, we);

    std::vector<unsigned char> b16(16, 0);
    put<std::int16_t>(b16, 8, -32768), put<std::int16_t>(b16, 10, 5), put<std::int16_t>(b16, 12, -5),
        put<std::int16_t>(b16, 14, 32767);
    const int e16[4] = {-32768, 5, -5, 32767};
    check4("r16g16b16a16_sint read", readInKernel<sycl::int4>(q, image_format::r16g16b16a16_sint, b16), e16);
    auto w16 = writeInKernel(q, image_format::r16g16b16a16_sint, sycl::int4(40000, -40000, 7, -7));
    const int we16[4] = {32767, -32768, 7, -7};
    const int got16[4] = {get<std::int16_t>(w16, 0), get<std::int16_t>(w16, 2), get<std::int16_t>(w16, 4),
                          get<std::int16_t>(w16, 6)};
    check4("r16g16b16a16_sint written", got16, we16);

    std::vector<unsigned char> b32(32, 0);
    put<std::int32_t>(b32, 16, INT32_MIN), put<std::int32_t>(b32, 20, -7), put<std::int32_t>(b32, 24, 7),
        put<std::int32_t>(b32, 28, INT32_MAX);
    const long e32[4] = {INT32_MIN, -7, 7, INT32_MAX};
    check4("r32b32g32a32_sint read", readInKernel<sycl::int4>(q, image_format::r32b32g32a32_sint, b32), e32);
  }
  {  // unsigned integers
    std::vector<unsigned char> b(8, 0);
    b[4] = 255, b[5] = 0, b[6] = 1, b[7] = 200;
    const unsigned e[4] = {255, 0, 1, 200};
    check4("r8g8b8a8_uint read", readInKernel<sycl::uint4>(q, image_format::r8g8b8a8_uint, b), e);
    auto w = writeInKernel(q, image_format::r8g8b8a8_uint, sycl::uint4(300, 5, 0, 255));
    const int we[4] = {255, 5, 0, 255};
    check4("r8g8b8a8_uint written", w, we);

    auto w16 = writeInKernel(q, image_format::r16g16b16a16_uint, sycl::uint4(300, 5, 0, 70000));
    const unsigned we16[4] = {300, 5, 0, 65535};
    const unsigned got16[4] = {get<std::uint16_t>(w16, 0), get<std::uint16_t>(w16, 2), get<std::uint16_t>(w16, 4),
                               get<std::uint16_t>(w16, 6)};
    check4("r16g16b16a16_uint written", got16, we16);

    std::vector<unsigned char> b32(32, 0);
    put<std::uint32_t>(b32, 16, 0xFFFFFFFFu), put<std::uint32_t>(b32, 20, 1), put<std::uint32_t>(b32, 24, 0),
        put<std::uint32_t>(b32, 28, 0x80000000u);
    const double e32[4] = {4294967295.0, 1, 0, 2147483648.0};
    check4("r32b32g32a32_uint read", readInKernel<sycl::uint4>(q, image_format::r32b32g32a32_uint, b32), e32);
  }
  {  // floats
    std::vector<unsigned char> b(16, 0);
    const sycl::half hv[4] = {sycl::half(1.5f), sycl::half(-2.25f), sycl::half(65504.0f), sycl::half(0.25f)};
    for (int c = 0; c < 4; ++c) std::memcpy(b.data() + 8 + 2 * c, &hv[c], 2);
    const float e[4] = {1.5f, -2.25f, 65504.0f, 0.25f};
    check4("r16b16g16a16_sfloat read as float4", readInKernel<sycl::float4>(q, image_format::r16b16g16a16_sfloat, b),
           e);
    onepass_test::runPartNeeding(q, sycl::aspect::fp16, "fp16", "r16b16g16a16_sfloat read as half4", [&] {
      check4("r16b16g16a16_sfloat read as half4", readInKernel<sycl::half4>(q, image_format::r16b16g16a16_sfloat, b),
             e);
    });
    auto w = writeInKernel(q, image_format::r16b16g16a16_sfloat, sycl::float4(1.0f / 3.0f, 1e6f, -0.0f, 2.0f));
    sycl::half got[4];
    std::memcpy(got, w.data(), 8);
    const float we[4] = {float(sycl::half(1.0f / 3.0f)), INFINITY, 0.0f, 2.0f};
    check4("r16b16g16a16_sfloat written (rounded to half)", got, we);

    // Many values, subnormal halves and halfway cases among them: the bits
    // a kernel writes are the host's conversion to half (round to nearest even).
    const int n = 64;
    std::vector<std::uint16_t> halves(n * 4, 0);
    {
      sycl::unsampled_image<1> image(halves.data(), image_format::r16b16g16a16_sfloat, sycl::range<1>(n));
      q.submit([&](sycl::handler &h) {
        auto out = image.get_access<sycl::float4, sycl::access_mode::write>(h);
        h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
          const float v = float(i[0] + 1) / 7.0f;
          out.write(int(i[0]), sycl::float4(v, -v * 1e-5f, v * 1e-7f, 1.0f + float(i[0]) * 0.00048828125f));
        });
      });
    }
    bool same = true;
    for (int i = 0; i < n && same; ++i) {
      const float v = float(i + 1) / 7.0f;
      const float expected[4] = {v, -v * 1e-5f, v * 1e-7f, 1.0f + float(i) * 0.00048828125f};
      for (int c = 0; c < 4; ++c) {
        const sycl::half e(expected[c]);
        std::uint16_t bits;
        std::memcpy(&bits, &e, 2);
        if (bits != halves[i * 4 + c]) {
          onepass_test::fail("half written at texel " + std::to_string(i) + " channel " + std::to_string(c),
                             std::to_string(bits), std::to_string(halves[i * 4 + c]));
          same = false;
        }
      }
    }

    std::vector<unsigned char> b32(32, 0);
    const float fv[4] = {3.25f, -1e30f, 0.0f, 7.0f};
    std::memcpy(b32.data() + 16, fv, 16);
    check4("r32g32b32a32_sfloat read", readInKernel<sycl::float4>(q, image_format::r32g32b32a32_sfloat, b32), fv);
    auto w32 = writeInKernel(q, image_format::r32g32b32a32_sfloat, sycl::float4(0.5f, -8.0f, 1e20f, 3.0f));
    float got32[4];
    std::memcpy(got32, w32.data(), 16);
    const float we32[4] = {0.5f, -8.0f, 1e20f, 3.0f};
    check4("r32g32b32a32_sfloat written", got32, we32);
  }
}

// 1-D/2-D/3-D images with pitches: a kernel writes f(x, y, z) to every texel;
// the host memory (written back at destruction) holds it at x * 16 + y * row
// pitch + z * slice pitch, and the padding is untouched.
void shapes(sycl::queue &q) {
  const std::size_t W = 5, H = 3, D = 2, row = 5 * 16 + 24, slice = row * H + 40;
  std::vector<unsigned char> host(slice * D, 0xCD);
  {
    sycl::unsampled_image<3> image(host.data(), sycl::image_format::r32b32g32a32_sint, sycl::range<3>(W, H, D),
                                   sycl::range<2>(row, slice));
    checkEqual("3-D image get_pitch()[0]", image.get_pitch()[0], row);
    checkEqual("3-D image get_pitch()[1]", image.get_pitch()[1], slice);
    checkEqual("3-D image byte_size()", image.byte_size(), slice * D);
    checkEqual("3-D image size()", image.size(), W * H * D);
    q.submit([&](sycl::handler &h) {
      sycl::unsampled_image_accessor<sycl::int4, 3, sycl::access_mode::write> out(image, h);
      h.parallel_for(sycl::range<3>(W, H, D), [=](sycl::item<3> it) {
        const int x = int(it[0]), y = int(it[1]), z = int(it[2]);
        out.write(sycl::int4(x, y, z, 0), sycl::int4(x, y, z, x + 10 * y + 100 * z));
      });
    });
  }
  bool right = true, padding = true;
  for (std::size_t z = 0; z < D; ++z)
    for (std::size_t y = 0; y < H; ++y) {
      for (std::size_t x = 0; x < W; ++x) {
        const std::size_t at = x * 16 + y * row + z * slice;
        right = right && get<int>(host, at) == int(x) && get<int>(host, at + 4) == int(y) &&
                get<int>(host, at + 8) == int(z) && get<int>(host, at + 12) == int(x + 10 * y + 100 * z);
      }
      for (std::size_t p = W * 16; p < row; ++p) padding = padding && host[z * slice + y * row + p] == 0xCD;
    }
  check("3-D image with pitches: every texel written back at its place", right);
  check("3-D image with pitches: the row padding untouched", padding);

  // 2-D, default pitch, no host memory: written in one kernel, read in the next.
  sycl::unsampled_image<2> image(sycl::image_format::r32g32b32a32_sfloat, sycl::range<2>(7, 4));
  checkEqual("2-D image default pitch", image.get_pitch()[0], std::size_t(7 * 16));
  checkEqual("2-D image get_range()[1]", image.get_range()[1], std::size_t(4));
  q.submit([&](sycl::handler &h) {
    auto out = image.get_access<sycl::float4, sycl::access_mode::write>(h);
    h.parallel_for(sycl::range<2>(7, 4), [=](sycl::item<2> it) {
      const sycl::int2 at{int(it[0]), int(it[1])};
      out.write(at, sycl::float4(float(it[0]), float(it[1]), 0.5f, 1.0f));
    });
  });
  sycl::buffer<float> sums(1);
  q.submit([&](sycl::handler &h) {
    auto in = image.get_access<const sycl::float4>(h);
    sycl::accessor s(sums, h, sycl::write_only);
    h.single_task([=] {
      float total = 0;
      for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 7; ++x) total += in.read(sycl::int2{x, y})[0] * 10 + in.read(sycl::int2{x, y})[1];
      s[0] = total;
    });
  });
  // sum over x of 10x (x<7) * 4 rows + sum of y (y<4) * 7 columns = 840 + 42
  checkEqual("2-D image written by a kernel, read by the next", sycl::host_accessor(sums)[0], 882.0f);

  // The host accessor sees the kernels' writes, and its writes reach kernels.
  {
    sycl::host_unsampled_image_accessor<sycl::float4, 2> ha(image);
    const float e[4] = {6.0f, 3.0f, 0.5f, 1.0f};
    check4("host_unsampled_image_accessor reads a kernel's write", ha.read(sycl::int2{6, 3}), e);
    ha.write(sycl::int2{0, 0}, sycl::float4(-1.0f, -2.0f, -3.0f, -4.0f));
    checkEqual("host_unsampled_image_accessor size()", ha.size(), std::size_t(28));
  }
  q.submit([&](sycl::handler &h) {
    sycl::unsampled_image_accessor<sycl::float4, 2, sycl::access_mode::read> in(image, h);
    sycl::accessor s(sums, h, sycl::write_only);
    h.single_task([=] { s[0] = in.read(sycl::int2{0, 0})[3]; });
  });
  checkEqual("a kernel reads the host accessor's write", sycl::host_accessor(sums)[0], -4.0f);

  // Out-of-range unsampled reads give zeros, writes are dropped (undefined
  // in SYCL; OnePass never touches memory outside the image).
  q.submit([&](sycl::handler &h) {
    auto in = image.get_access<sycl::float4, sycl::access_mode::read>(h);
    sycl::accessor s(sums, h, sycl::write_only);
    h.single_task([=] { s[0] = in.read(sycl::int2{7, 0})[2] + in.read(sycl::int2{-1, 2})[3] + in.read(sycl::int2{0, 4})[0]; });
  });
  checkEqual("out-of-range unsampled reads", sycl::host_accessor(sums)[0], 0.0f);
}

// A 1-D sampled image of 4 texels, channel c of texel i = 10 i + c.
std::vector<float> rampTexels() {
  std::vector<float> t(16);
  for (int i = 0; i < 4; ++i)
    for (int c = 0; c < 4; ++c) t[i * 4 + c] = float(10 * i + c);
  return t;
}

// Samples `coords` with `sampler`, in a kernel and with a host accessor.
std::vector<sycl::float4> sample1d(sycl::queue &q, const sycl::image_sampler &sampler,
                                   const std::vector<float> &coords) {
  const std::vector<float> texels = rampTexels();
  sycl::sampled_image<1> image(texels.data(), sycl::image_format::r32g32b32a32_sfloat, sampler, sycl::range<1>(4));
  sycl::buffer<float> in(coords.data(), sycl::range<1>(coords.size()));
  sycl::buffer<sycl::float4> out(coords.size());
  q.submit([&](sycl::handler &h) {
    auto img = image.get_access<sycl::float4>(h);
    sycl::accessor c(in, h, sycl::read_only);
    sycl::accessor o(out, h, sycl::write_only);
    h.parallel_for(sycl::range<1>(coords.size()), [=](sycl::id<1> i) { o[i] = img.read(c[i]); });
  });
  std::vector<sycl::float4> result;
  sycl::host_accessor r(out);
  sycl::host_sampled_image_accessor<sycl::float4, 1> host(image);
  for (std::size_t i = 0; i < coords.size(); ++i) {
    result.push_back(r[i]);
    const sycl::float4 h = host.read(coords[i]);
    // Texture units blend with 8-bit weights (NVIDIA GPUs): up to 1/512 of
    // two neighbours' difference (10 here) off the software sampler's.
    const float tolerance = sampler.filtering == sycl::filtering_mode::linear ? 0.04f : 0.0f;
    for (int c = 0; c < 4; ++c)
      if (std::fabs(h[c] - r[i][c]) > tolerance)
        onepass_test::fail("host_sampled_image_accessor and the kernel agree at " + std::to_string(coords[i]),
                           show4(r[i]), show4(h));
  }
  return result;
}

void sampling(sycl::queue &q) {
  using sycl::addressing_mode;
  using sycl::filtering_mode;
  const auto norm = sycl::coordinate_normalization_mode::normalized;
  const auto unnorm = sycl::coordinate_normalization_mode::unnormalized;
  const float t0[4] = {0, 1, 2, 3}, t1[4] = {10, 11, 12, 13}, t2[4] = {20, 21, 22, 23}, t3[4] = {30, 31, 32, 33},
              border[4] = {0, 0, 0, 0};
  {
    auto r = sample1d(q, {addressing_mode::clamp_to_edge, unnorm, filtering_mode::nearest}, {2.7f, -1.0f, 9.0f});
    check4("nearest clamp_to_edge 2.7", r[0], t2);
    check4("nearest clamp_to_edge -1", r[1], t0);
    check4("nearest clamp_to_edge 9", r[2], t3);
  }
  {
    auto r = sample1d(q, {addressing_mode::clamp, unnorm, filtering_mode::nearest}, {-0.5f, 4.2f, 3.9f});
    check4("nearest clamp -0.5: the border", r[0], border);
    check4("nearest clamp 4.2: the border", r[1], border);
    check4("nearest clamp 3.9", r[2], t3);
  }
  {
    auto r = sample1d(q, {addressing_mode::clamp_to_edge, unnorm, filtering_mode::linear}, {1.75f, 1.5f, 0.0f});
    const float e0[4] = {12.5f, 13.5f, 14.5f, 15.5f};
    check4("linear clamp_to_edge 1.75", r[0], e0, 1e-5);
    check4("linear clamp_to_edge 1.5 (a texel centre)", r[1], t1);
    check4("linear clamp_to_edge 0", r[2], t0);
  }
  {
    // 0.25: texels -1 (border) and 0, weight 0.75 on texel 0.
    auto r = sample1d(q, {addressing_mode::clamp, unnorm, filtering_mode::linear}, {0.25f});
    const float e[4] = {0.0f, 0.75f, 1.5f, 2.25f};
    check4("linear clamp 0.25 blends the border", r[0], e, 1e-5);
  }
  {
    auto r = sample1d(q, {addressing_mode::repeat, norm, filtering_mode::nearest}, {1.3f, -0.1f, 0.5f});
    check4("nearest repeat 1.3", r[0], t1);
    check4("nearest repeat -0.1", r[1], t3);
    check4("nearest repeat 0.5", r[2], t2);
  }
  {
    auto r = sample1d(q, {addressing_mode::repeat, norm, filtering_mode::linear}, {0.0f, 0.375f});
    const float e0[4] = {15, 16, 17, 18};
    check4("linear repeat 0 wraps to the last texel", r[0], e0, 1e-5);
    check4("linear repeat 0.375 (texel 1's centre)", r[1], t1, 1e-5);
  }
  {
    auto r = sample1d(q, {addressing_mode::mirrored_repeat, norm, filtering_mode::nearest}, {1.1f, -0.2f, 0.6f});
    check4("nearest mirrored_repeat 1.1", r[0], t3);
    check4("nearest mirrored_repeat -0.2", r[1], t0);
    check4("nearest mirrored_repeat 0.6", r[2], t2);
  }
  {
    auto r = sample1d(q, {addressing_mode::mirrored_repeat, norm, filtering_mode::linear}, {1.1f});
    check4("linear mirrored_repeat 1.1", r[0], t3, 1e-4);
  }
  {
    auto r = sample1d(q, {addressing_mode::clamp_to_edge, norm, filtering_mode::nearest}, {0.3f, 1.0f});
    check4("nearest normalized 0.3", r[0], t1);
    check4("nearest normalized 1.0 (clamped)", r[1], t3);
  }

  // 2-D linear: the centre of a 2x2 image is the mean of its texels; 3-D nearest.
  {
    const float texels[16] = {0, 0, 0, 1, 1, 0, 0, 1, 2, 0, 0, 1, 3, 0, 0, 1};
    sycl::sampled_image<2> image(texels, sycl::image_format::r32g32b32a32_sfloat,
                                 {addressing_mode::clamp_to_edge, norm, filtering_mode::linear}, sycl::range<2>(2, 2));
    std::vector<unsigned char> vol(3 * 2 * 2 * 4);
    for (std::size_t i = 0; i < 12; ++i)
      for (int c = 0; c < 4; ++c) vol[i * 4 + c] = static_cast<unsigned char>(i * 20 + c);
    sycl::sampled_image<3> volume(vol.data(), sycl::image_format::r8g8b8a8_uint,
                                  {addressing_mode::none, unnorm, filtering_mode::linear}, sycl::range<3>(3, 2, 2));
    sycl::buffer<sycl::float4> out(1);
    sycl::buffer<sycl::uint4> vout(1);
    q.submit([&](sycl::handler &h) {
      auto img = image.get_access<sycl::float4>(h);
      auto v = volume.get_access<sycl::uint4>(h);
      sycl::accessor o(out, h, sycl::write_only);
      sycl::accessor vo(vout, h, sycl::write_only);
      h.single_task([=] {
        o[0] = img.read(sycl::float2(0.5f, 0.5f));
        // Integer formats are read nearest even with a linear sampler.
        vo[0] = v.read(sycl::float4(2.6f, 1.2f, 1.9f, 0.0f));
      });
    });
    const float e[4] = {1.5f, 0.0f, 0.0f, 1.0f};
    check4("2-D linear at the centre", sycl::host_accessor(out)[0], e, 1e-6);
    const unsigned ve[4] = {11 * 20, 11 * 20 + 1, 11 * 20 + 2, 11 * 20 + 3};  // texel (2, 1, 1)
    check4("3-D integer format read nearest", sycl::host_accessor(vout)[0], ve);
  }
  // A unorm format filters in normalized values.
  {
    const unsigned char texels[8] = {0, 255, 0, 255, 255, 255, 0, 255};
    sycl::sampled_image<1> image(texels, sycl::image_format::r8g8b8a8_unorm,
                                 {addressing_mode::clamp_to_edge, unnorm, filtering_mode::linear}, sycl::range<1>(2));
    sycl::host_sampled_image_accessor<sycl::float4, 1> host(image);
    const float e[4] = {0.5f, 1.0f, 0.0f, 1.0f};
    check4("linear unorm between 0 and 255", host.read(1.0f), e, 1e-6);
  }
}

void lifetime(sycl::queue &q) {
  // set_final_data: the data goes elsewhere; set_write_back(false): nowhere.
  std::vector<int> a(8, 1), b(8, 0), c(8, 7);
  {
    sycl::unsampled_image<1> image(a.data(), sycl::image_format::r32b32g32a32_sint, sycl::range<1>(2));
    image.set_final_data(b.data());
    q.submit([&](sycl::handler &h) {
      auto out = image.get_access<sycl::int4, sycl::access_mode::write>(h);
      h.single_task([=] { out.write(1, sycl::int4(5, 6, 7, 8)); });
    });
  }
  // (The host pointer itself is the image's host copy while the image lives,
  // as with buffers: README.)
  checkEqual("set_final_data: the destination holds the kernel's write", b[7], 8);
  checkEqual("set_final_data: the destination holds the rest of the image", b[0], 1);
  {
    sycl::unsampled_image<1> image(a.data(), sycl::image_format::r32b32g32a32_sint, sycl::range<1>(2));
    image.set_final_data(c.data());
    image.set_write_back(false);
    q.submit([&](sycl::handler &h) {
      auto out = image.get_access<sycl::int4, sycl::access_mode::write>(h);
      h.single_task([=] { out.write(0, sycl::int4(0)); });
    });
    q.wait();
  }
  checkEqual("set_write_back(false): the final data destination keeps its values", c[0], 7);

  // shared_ptr: the image shares ownership and writes back into it.
  std::shared_ptr<void> shared(new int[4]{0, 0, 0, 0}, [](void *p) { delete[] static_cast<int *>(p); });
  {
    sycl::unsampled_image<1> image(shared, sycl::image_format::r32b32g32a32_sint, sycl::range<1>(1));
    q.submit([&](sycl::handler &h) {
      auto out = image.get_access<sycl::int4, sycl::access_mode::write>(h);
      h.single_task([=] { out.write(0, sycl::int4(9, 8, 7, 6)); });
    });
  }
  checkEqual("shared_ptr image written back", static_cast<int *>(shared.get())[3], 6);

  // Reference semantics: copies are the same image; accessors compare by copy.
  sycl::unsampled_image<1> i1(sycl::image_format::r8g8b8a8_uint, sycl::range<1>(4)), i2 = i1,
      i3(sycl::image_format::r8g8b8a8_uint, sycl::range<1>(4));
  check("a copied image equals the original", i1 == i2 && !(i1 != i2));
  check("two images differ", i1 != i3);
  check("equal images hash alike", std::hash<sycl::unsampled_image<1>>()(i1) == std::hash<sycl::unsampled_image<1>>()(i2));
  sycl::host_unsampled_image_accessor<sycl::uint4, 1> h1(i1);
  auto h2 = h1;
  check("a copied host image accessor equals the original", h1 == h2);
  h2.write(2, sycl::uint4(1, 2, 3, 4));
  checkEqual("a write through a copy is seen by the original", h1.read(2)[3], 4u);

  // Host tasks: image_target::host_task accessors read the host's current copy.
  sycl::unsampled_image<1> image(sycl::image_format::r32g32b32a32_sfloat, sycl::range<1>(3));
  q.submit([&](sycl::handler &h) {
    auto out = image.get_access<sycl::float4, sycl::access_mode::write>(h);
    h.parallel_for(sycl::range<1>(3), [=](sycl::id<1> i) { out.write(int(i[0]), sycl::float4(float(i[0]) * 2)); });
  });
  float seen = -1;
  q.submit([&](sycl::handler &h) {
    sycl::unsampled_image_accessor<sycl::float4, 1, sycl::access_mode::read, sycl::image_target::host_task> in(image,
                                                                                                             h);
    h.host_task([=, &seen] { seen = in.read(2)[1]; });
  });
  q.wait();
  checkEqual("a host task reads a kernel's image write", seen, 4.0f);
}

void errors(sycl::queue &q) {
  checkThrows("a row pitch smaller than a row", sycl::errc::invalid, [] {
    sycl::unsampled_image<2> image(sycl::image_format::r8g8b8a8_unorm, sycl::range<2>(8, 2), sycl::range<1>(16));
  });
  checkThrows("a slice pitch smaller than its rows", sycl::errc::invalid, [] {
    sycl::unsampled_image<3> image(sycl::image_format::r8g8b8a8_unorm, sycl::range<3>(8, 2, 2),
                                   sycl::range<2>(32, 40));
  });
  checkThrows("an image_format value outside the enumeration", sycl::errc::invalid, [] {
    sycl::unsampled_image<1> image(static_cast<sycl::image_format>(99), sycl::range<1>(8));
  });
  sycl::unsampled_image<1> image(sycl::image_format::r8g8b8a8_unorm, sycl::range<1>(8));
  checkThrows("no_init on a read accessor", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::unsampled_image_accessor<sycl::float4, 1, sycl::access_mode::read> in(image, h, {sycl::no_init});
      h.single_task([=] { (void)in; });
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::unsampled_image_accessor<sycl::float4, 1, sycl::access_mode::write> out(image, h, {sycl::no_init});
    check("no_init reported by has_property", out.has_property<sycl::property::no_init>());
    h.single_task([=] { out.write(0, sycl::float4(1)); });
  });
  q.wait();
  const sycl::device d = q.get_device();
  check("the device has aspect::image", d.has(sycl::aspect::image));
  check("image2d_max_width is at least 8192", d.get_info<sycl::info::device::image2d_max_width>() >= 8192);
}

}  // namespace

// Every sampler on 1-, 2- and 3-D images of a float and a unorm format: the
// kernel's reads (on NVIDIA GPUs, the texture unit's) agree with the host
// accessor's (OnePass's software sampler) inside and around the image.
// Coordinates keep a fifth of a texel or more from the texel edges, where
// the texture unit's fixed-point coordinates may round to the neighbour;
// `none` is sampled inside only (undefined outside, §4.7.8), repeat and
// mirrored_repeat with normalized coordinates only (the same).
template <int D> void samplerAgreement(sycl::queue &q) {
  using sycl::addressing_mode, sycl::filtering_mode;
  using Coord = std::conditional_t<D == 1, float, std::conditional_t<D == 2, sycl::float2, sycl::float4>>;
  const std::size_t extent[3] = {5, 3, 2};
  const auto r = [] {
    if constexpr (D == 1) return sycl::range<1>(5);
    else if constexpr (D == 2) return sycl::range<2>(5, 3);
    else return sycl::range<3>(5, 3, 2);
  }();
  std::size_t texelCount = 1;
  for (int d = 0; d < D; ++d) texelCount *= extent[d];
  std::vector<float> floats(4 * texelCount);
  std::vector<unsigned char> bytes(4 * texelCount);
  for (std::size_t i = 0; i < floats.size(); ++i) {
    bytes[i] = static_cast<unsigned char>((i * 97 + 13) % 256);
    floats[i] = static_cast<float>((i * 37 + 5) % 64) / 64.0f;
  }
  for (const auto format : {sycl::image_format::r32g32b32a32_sfloat, sycl::image_format::r8g8b8a8_unorm})
    for (const auto addressing : {addressing_mode::mirrored_repeat, addressing_mode::repeat,
                                  addressing_mode::clamp_to_edge, addressing_mode::clamp, addressing_mode::none})
      for (const bool normalized : {true, false})
        for (const auto filtering : {filtering_mode::nearest, filtering_mode::linear}) {
          const bool repeats = addressing == addressing_mode::repeat || addressing == addressing_mode::mirrored_repeat;
          if (repeats && !normalized) continue;
          const sycl::image_sampler sampler{addressing,
                                            normalized ? sycl::coordinate_normalization_mode::normalized
                                                       : sycl::coordinate_normalization_mode::unnormalized,
                                            filtering};
          std::vector<float> axis[3];
          for (int d = 0; d < D; ++d) {
            const int e = static_cast<int>(extent[d]);
            const int first = addressing == addressing_mode::none ? 0 : -e - 2,
                      last = addressing == addressing_mode::none ? e : 2 * e + 2;
            for (int i = first; i < last; ++i) {
              const float u = static_cast<float>(i) + ((i & 1) ? 0.65f : 0.2f);
              axis[d].push_back(normalized ? u / static_cast<float>(e) : u);
            }
          }
          std::vector<Coord> coords;
          for (float x : axis[0])
            for (float y : D > 1 ? axis[1] : std::vector<float>{0.0f})
              for (float z : D > 2 ? axis[2] : std::vector<float>{0.0f}) {
                if constexpr (D == 1) coords.push_back(x);
                else if constexpr (D == 2) coords.push_back(sycl::float2{x, y});
                else coords.push_back(sycl::float4{x, y, z, 0.0f});
              }
          const void *data = format == sycl::image_format::r8g8b8a8_unorm ? static_cast<const void *>(bytes.data())
                                                                          : static_cast<const void *>(floats.data());
          sycl::sampled_image<D> image(data, format, sampler, r);
          sycl::buffer<Coord> in(coords.data(), sycl::range<1>(coords.size()));
          sycl::buffer<sycl::float4> out(coords.size());
          q.submit([&](sycl::handler &h) {
            auto img = image.template get_access<sycl::float4>(h);
            sycl::accessor c(in, h, sycl::read_only);
            sycl::accessor o(out, h, sycl::write_only);
            h.parallel_for(sycl::range<1>(coords.size()), [=](sycl::id<1> i) { o[i] = img.read(c[i]); });
          });
          sycl::host_accessor got(out);
          sycl::host_sampled_image_accessor<sycl::float4, D> host(image);
          // 8-bit weights: 1/512 of a neighbour difference (below 1) per axis.
          const float tolerance = filtering == filtering_mode::linear ? 0.004f * D : 1e-6f;
          int wrong = 0;
          std::string first;
          for (std::size_t i = 0; i < coords.size(); ++i) {
            const sycl::float4 want = host.read(coords[i]);
            for (int ch = 0; ch < 4; ++ch)
              if (!(std::fabs(want[ch] - got[i][ch]) <= tolerance)) {
                if (wrong++ == 0)
                  first = "coordinate #" + std::to_string(i) + ": " + show4(got[i]) + " vs " + show4(want);
                break;
              }
          }
          if (wrong)
            onepass_test::fail(std::to_string(D) + "-D format " + std::to_string(static_cast<int>(format)) +
                                   " addressing " + std::to_string(static_cast<int>(addressing)) +
                                   (normalized ? " normalized" : " unnormalized") +
                                   (filtering == filtering_mode::linear ? " linear" : " nearest") +
                                   ": the kernel's reads agree with the host's (" + std::to_string(wrong) + " of " +
                                   std::to_string(coords.size()) + " differ; first " + first + ")",
                               "0", std::to_string(wrong));
        }
}

// Unsampled reads of every format, 1-D and 2-D images whose rows are a
// multiple of 32 bytes (on NVIDIA GPUs: texture fetches of the image's memory
// in place) and 3-D ones, inside and outside the image: the kernel's reads
// agree exactly with the host accessor's (zeros outside).
template <int D> void unsampledAgreement(sycl::queue &q) {
  using Coord = std::conditional_t<D == 1, int, std::conditional_t<D == 2, sycl::int2, sycl::int4>>;
  const int extent[3] = {32, 3, 2};
  const auto r = [] {
    if constexpr (D == 1) return sycl::range<1>(32);
    else if constexpr (D == 2) return sycl::range<2>(32, 3);
    else return sycl::range<3>(32, 3, 2);
  }();
  for (int f = 0; f <= static_cast<int>(sycl::image_format::b8g8r8a8_unorm); ++f) {
    const auto format = static_cast<sycl::image_format>(f);
    std::vector<unsigned char> bytes(16 * 32 * 3 * 2);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>((i * 131 + 7) % 251);
    // Finite values: the high byte of each channel keeps its exponent's top bit clear.
    if (format == sycl::image_format::r16b16g16a16_sfloat)
      for (std::size_t i = 0; i < bytes.size(); i += 2) bytes[i + 1] &= 0x3f;
    if (format == sycl::image_format::r32g32b32a32_sfloat)
      for (std::size_t i = 0; i < bytes.size(); i += 4) bytes[i + 3] &= 0x3f;
    sycl::unsampled_image<D> image(bytes.data(), format, r);
    std::vector<Coord> coords;
    for (int z = D > 2 ? -1 : 0; z < (D > 2 ? extent[2] + 1 : 1); ++z)
      for (int y = D > 1 ? -1 : 0; y < (D > 1 ? extent[1] + 1 : 1); ++y)
        for (int x = -2; x < extent[0] + 2; ++x) {
          if constexpr (D == 1) coords.push_back(x);
          else if constexpr (D == 2) coords.push_back(sycl::int2{x, y});
          else coords.push_back(sycl::int4{x, y, z, 0});
        }
    sycl::buffer<Coord> in(coords.data(), sycl::range<1>(coords.size()));
    sycl::buffer<sycl::float4> outF(coords.size());
    sycl::buffer<sycl::int4> outI(coords.size());
    sycl::buffer<sycl::uint4> outU(coords.size());
    q.submit([&](sycl::handler &h) {
      sycl::unsampled_image_accessor<sycl::float4, D, sycl::access_mode::read> imgF(image, h);
      sycl::unsampled_image_accessor<sycl::int4, D, sycl::access_mode::read> imgI(image, h);
      sycl::unsampled_image_accessor<sycl::uint4, D, sycl::access_mode::read> imgU(image, h);
      sycl::accessor c(in, h, sycl::read_only);
      sycl::accessor oF(outF, h, sycl::write_only);
      sycl::accessor oI(outI, h, sycl::write_only);
      sycl::accessor oU(outU, h, sycl::write_only);
      h.parallel_for(sycl::range<1>(coords.size()), [=](sycl::id<1> i) {
        oF[i] = imgF.read(c[i]);
        oI[i] = imgI.read(c[i]);
        oU[i] = imgU.read(c[i]);
      });
    });
    sycl::host_accessor gotF(outF);
    sycl::host_accessor gotI(outI);
    sycl::host_accessor gotU(outU);
    sycl::host_unsampled_image_accessor<sycl::float4, D, sycl::access_mode::read> hostF(image);
    sycl::host_unsampled_image_accessor<sycl::int4, D, sycl::access_mode::read> hostI(image);
    sycl::host_unsampled_image_accessor<sycl::uint4, D, sycl::access_mode::read> hostU(image);
    // (A float read as an integer, e.g. a negative one as uint4, is C++'s
    // conversion, undefined for some values: compared for integer formats.)
    const bool integer = f >= 2 && f <= 7;
    int wrong = 0;
    std::string first;
    for (std::size_t i = 0; i < coords.size(); ++i) {
      const sycl::float4 wf = hostF.read(coords[i]);
      const sycl::int4 wi = hostI.read(coords[i]);
      const sycl::uint4 wu = hostU.read(coords[i]);
      for (int ch = 0; ch < 4; ++ch)
        if (!(wf[ch] == gotF[i][ch]) || (integer && (wi[ch] != gotI[i][ch] || wu[ch] != gotU[i][ch]))) {
          if (wrong++ == 0) first = "#" + std::to_string(i) + ": " + show4(gotF[i]) + " vs " + show4(wf);
          break;
        }
    }
    if (wrong)
      onepass_test::fail(std::to_string(D) + "-D format " + std::to_string(f) +
                             ": unsampled reads in the kernel agree with the host's (" + std::to_string(wrong) +
                             " of " + std::to_string(coords.size()) + " differ; first " + first + ")",
                         "0", std::to_string(wrong));
  }
}

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  onepass_test::runPart("formats", [&] { formats(q); });
  onepass_test::runPart("shapes", [&] { shapes(q); });
  onepass_test::runPart("sampling", [&] { sampling(q); });
  onepass_test::runPart("unsampled agreement", [&] {
    unsampledAgreement<1>(q);
    unsampledAgreement<2>(q);
    unsampledAgreement<3>(q);
  });
  onepass_test::runPart("sampler agreement", [&] {
    samplerAgreement<1>(q);
    samplerAgreement<2>(q);
    samplerAgreement<3>(q);
  });
  onepass_test::runPart("lifetime", [&] { lifetime(q); });
  onepass_test::runPart("errors", [&] { errors(q); });
  return onepass_test::report();
}
