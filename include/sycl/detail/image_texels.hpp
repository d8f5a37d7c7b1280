// The texels of SYCL 2020 images (§4.7.3): how each image_format stores a
// texel, how image accessors convert it to and from their DataT (int4, uint4,
// float4, half4: §4.7.6.1) and how a sampled read addresses and filters
// (§4.7.8). The same code runs on the host (host image accessors, host tasks)
// and in kernels, on every device: OnePass keeps images in plain memory and
// reads, writes and samples them in software, except that reads on a device
// with texture hardware (NVIDIA GPUs) go through the texture unit when the
// runtime bound a texture to the accessor (image_layout::texture).
//
// The conversions follow OpenCL C's image functions, which SYCL's image
// formats mirror (the specification does not restate them): a unorm channel
// reads as c / (2^n - 1), correctly rounded (as NVIDIA's texture units read
// it), and is written rounded to nearest after clamping to
// [0, 1]; integer channels are written saturated to the channel's range;
// sfloat16 channels are rounded to nearest even. A read or write of a format
// through a DataT of another class (float4 of an integer format, int4 of a
// unorm one) converts the channel values as C++ would (the specification
// leaves it undefined).
#pragma once

#include "../half.hpp"
#include "../vec.hpp"
#include "builtins.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace sycl {

// §4.7.3.1: the data layout of an image's texels (the first is the memory
// order of the channels; `b8g8r8a8` stores blue first).
enum class image_format {
  r8g8b8a8_unorm,
  r16g16b16a16_unorm,
  r8g8b8a8_sint,
  r16g16b16a16_sint,
  r32b32g32a32_sint,
  r8g8b8a8_uint,
  r16g16b16a16_uint,
  r32b32g32a32_uint,
  r16b16g16a16_sfloat,
  r32g32b32a32_sfloat,
  b8g8r8a8_unorm
};

// §4.7.8: how a sampled image is read.
enum class addressing_mode { mirrored_repeat, repeat, clamp_to_edge, clamp, none };
enum class filtering_mode { nearest, linear };
enum class coordinate_normalization_mode { normalized, unnormalized };
struct image_sampler {
  addressing_mode addressing;
  coordinate_normalization_mode coordinate;
  filtering_mode filtering;
};

namespace detail {

// Bytes of one texel of `format`.
constexpr std::size_t image_texel_bytes(image_format format) {
  switch (format) {
  case image_format::r8g8b8a8_unorm:
  case image_format::r8g8b8a8_sint:
  case image_format::r8g8b8a8_uint:
  case image_format::b8g8r8a8_unorm: return 4;
  case image_format::r16g16b16a16_unorm:
  case image_format::r16g16b16a16_sint:
  case image_format::r16g16b16a16_uint:
  case image_format::r16b16g16a16_sfloat: return 8;
  case image_format::r32b32g32a32_sint:
  case image_format::r32b32g32a32_uint:
  case image_format::r32g32b32a32_sfloat: return 16;
  }
  return 0;
}

constexpr bool image_format_valid(image_format format) { return image_texel_bytes(format) != 0; }

// Formats whose reads give floating-point values (normalized or float), the
// ones linear filtering applies to.
constexpr bool image_format_is_float(image_format format) {
  return format == image_format::r8g8b8a8_unorm || format == image_format::r16g16b16a16_unorm ||
         format == image_format::b8g8r8a8_unorm || format == image_format::r16b16g16a16_sfloat ||
         format == image_format::r32g32b32a32_sfloat;
}

// The DataT an image accessor may have (§4.7.6.1).
template <typename DataT> struct is_image_data : std::false_type {};
template <typename E> struct is_image_data<vec<E, 4>>
    : std::bool_constant<std::is_same_v<E, std::int32_t> || std::is_same_v<E, std::uint32_t> ||
                         std::is_same_v<E, float> || std::is_same_v<E, half>> {};
template <typename DataT> inline constexpr bool is_image_data_v = is_image_data<std::remove_const_t<DataT>>::value;

// The coordinates of an image of D dimensions: int / int2 / int4 (unsampled
// reads and writes), float / float2 / float4 (sampled reads).
template <typename E, int D> using image_coord_t = std::conditional_t<D == 1, E, vec<E, D == 2 ? 2 : 4>>;
template <typename Coord, typename E, int D> inline constexpr bool is_image_coord_v =
    std::is_same_v<std::remove_cv_t<Coord>, image_coord_t<E, D>>;
template <int D, typename Coord> auto image_coord(const Coord &coords, int axis) {
  if constexpr (D == 1) return coords;
  else return coords[axis];
}

// A texel's four channels in RGBA order: floats for the float formats,
// 32-bit integers (signed or not, by the format) for the integer ones.
struct texel {
  float f[4];
  std::int64_t i[4];
};

template <typename T> inline T load_scalar(const unsigned char *p) {
  T value;
  __builtin_memcpy(&value, p, sizeof(T));
  return value;
}
template <typename T> inline void store_scalar(unsigned char *p, T value) { __builtin_memcpy(p, &value, sizeof(T)); }

inline float clamp_unit(float v) { return v != v ? 0.0f : v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }
template <typename T> inline T saturate_to(std::int64_t v) {
  constexpr std::int64_t lo = static_cast<std::int64_t>(std::numeric_limits<T>::min());
  constexpr std::int64_t hi = static_cast<std::int64_t>(std::numeric_limits<T>::max());
  return static_cast<T>(v < lo ? lo : v > hi ? hi : v);
}

// Reads the texel at `p`.
inline texel load_texel(const unsigned char *p, image_format format) {
  texel t{};
  switch (format) {
  case image_format::r8g8b8a8_unorm:
    for (int c = 0; c < 4; ++c) t.f[c] = static_cast<float>(p[c]) / 255.0f;
    break;
  case image_format::b8g8r8a8_unorm:
    t.f[0] = static_cast<float>(p[2]) / 255.0f;
    t.f[1] = static_cast<float>(p[1]) / 255.0f;
    t.f[2] = static_cast<float>(p[0]) / 255.0f;
    t.f[3] = static_cast<float>(p[3]) / 255.0f;
    break;
  case image_format::r16g16b16a16_unorm:
    for (int c = 0; c < 4; ++c) t.f[c] = static_cast<float>(load_scalar<std::uint16_t>(p + 2 * c)) / 65535.0f;
    break;
  case image_format::r8g8b8a8_sint:
    for (int c = 0; c < 4; ++c) t.i[c] = load_scalar<std::int8_t>(p + c);
    break;
  case image_format::r16g16b16a16_sint:
    for (int c = 0; c < 4; ++c) t.i[c] = load_scalar<std::int16_t>(p + 2 * c);
    break;
  case image_format::r32b32g32a32_sint:
    for (int c = 0; c < 4; ++c) t.i[c] = load_scalar<std::int32_t>(p + 4 * c);
    break;
  case image_format::r8g8b8a8_uint:
    for (int c = 0; c < 4; ++c) t.i[c] = p[c];
    break;
  case image_format::r16g16b16a16_uint:
    for (int c = 0; c < 4; ++c) t.i[c] = load_scalar<std::uint16_t>(p + 2 * c);
    break;
  case image_format::r32b32g32a32_uint:
    for (int c = 0; c < 4; ++c) t.i[c] = load_scalar<std::uint32_t>(p + 4 * c);
    break;
  case image_format::r16b16g16a16_sfloat:
    for (int c = 0; c < 4; ++c)
      t.f[c] = static_cast<float>(__builtin_bit_cast(_Float16, load_scalar<std::uint16_t>(p + 2 * c)));
    break;
  case image_format::r32g32b32a32_sfloat:
    for (int c = 0; c < 4; ++c) t.f[c] = load_scalar<float>(p + 4 * c);
    break;
  }
  return t;
}

// Writes `t` (in the value class of `format`) to the texel at `p`.
inline void store_texel(unsigned char *p, image_format format, const texel &t) {
  switch (format) {
  case image_format::r8g8b8a8_unorm:
    for (int c = 0; c < 4; ++c) p[c] = static_cast<unsigned char>(__builtin_rintf(clamp_unit(t.f[c]) * 255.0f));
    break;
  case image_format::b8g8r8a8_unorm: {
    const int order[4] = {2, 1, 0, 3};
    for (int c = 0; c < 4; ++c)
      p[order[c]] = static_cast<unsigned char>(__builtin_rintf(clamp_unit(t.f[c]) * 255.0f));
    break;
  }
  case image_format::r16g16b16a16_unorm:
    for (int c = 0; c < 4; ++c)
      store_scalar(p + 2 * c, static_cast<std::uint16_t>(__builtin_rintf(clamp_unit(t.f[c]) * 65535.0f)));
    break;
  case image_format::r8g8b8a8_sint:
    for (int c = 0; c < 4; ++c) store_scalar(p + c, saturate_to<std::int8_t>(t.i[c]));
    break;
  case image_format::r16g16b16a16_sint:
    for (int c = 0; c < 4; ++c) store_scalar(p + 2 * c, saturate_to<std::int16_t>(t.i[c]));
    break;
  case image_format::r32b32g32a32_sint:
    for (int c = 0; c < 4; ++c) store_scalar(p + 4 * c, saturate_to<std::int32_t>(t.i[c]));
    break;
  case image_format::r8g8b8a8_uint:
    for (int c = 0; c < 4; ++c) store_scalar(p + c, saturate_to<std::uint8_t>(t.i[c]));
    break;
  case image_format::r16g16b16a16_uint:
    for (int c = 0; c < 4; ++c) store_scalar(p + 2 * c, saturate_to<std::uint16_t>(t.i[c]));
    break;
  case image_format::r32b32g32a32_uint:
    for (int c = 0; c < 4; ++c) store_scalar(p + 4 * c, saturate_to<std::uint32_t>(t.i[c]));
    break;
  case image_format::r16b16g16a16_sfloat:
    for (int c = 0; c < 4; ++c)
      store_scalar(p + 2 * c, __builtin_bit_cast(std::uint16_t, static_cast<_Float16>(t.f[c])));
    break;
  case image_format::r32g32b32a32_sfloat:
    for (int c = 0; c < 4; ++c) store_scalar(p + 4 * c, t.f[c]);
    break;
  }
}

// A texel as an accessor's DataT, and back.
template <typename DataT> DataT texel_to(const texel &t, image_format format) {
  using E = typename DataT::element_type;
  DataT result;
  const bool is_float = image_format_is_float(format);
  for (int c = 0; c < 4; ++c) {
    if constexpr (std::is_integral_v<E>) result[c] = is_float ? static_cast<E>(t.f[c]) : static_cast<E>(t.i[c]);
    else result[c] = is_float ? static_cast<E>(t.f[c]) : static_cast<E>(static_cast<float>(t.i[c]));
  }
  return result;
}
template <typename DataT> texel texel_from(const DataT &color, image_format format) {
  using E = typename DataT::element_type;
  texel t{};
  const bool is_float = image_format_is_float(format);
  for (int c = 0; c < 4; ++c) {
    const E v = color[c];
    if (is_float) t.f[c] = static_cast<float>(v);
    else if constexpr (std::is_integral_v<E>) t.i[c] = static_cast<std::int64_t>(v);
    else {  // a float written to an integer format: C++'s conversion, saturated
      const float f = static_cast<float>(v);
      t.i[c] = f != f ? 0 : f >= 9.2e18f ? INT64_MAX : f <= -9.2e18f ? INT64_MIN : static_cast<std::int64_t>(f);
    }
  }
  return t;
}

// Where an image's texels are and how they are laid out. `data` is the first
// byte of the image; in a kernel, until the kernel runs, it holds the token of
// the image's storage (accessor.hpp explains tokens).
struct image_layout {
  unsigned char *data = nullptr;
  // The image's texture object on the device that runs the kernel, 0 if
  // none (reads in software): a sampled image's sampler, or an unsampled
  // image's nearest reads with zeros outside. The runtime writes it in its
  // copy of the kernel object, in the 8 bytes after `data`'s token
  // (runtime/sycl/Queue.cpp, bindAccessors).
  std::uint64_t texture = 0;
  std::size_t range[3] = {0, 1, 1};  // x, y, z
  std::size_t pitch[2] = {0, 0};     // bytes per row, per slice
  image_format format = image_format::r8g8b8a8_unorm;

  std::size_t texel_bytes() const { return image_texel_bytes(format); }
  // The texel at x, y, z (inside the image).
  unsigned char *at(std::size_t x, std::size_t y, std::size_t z) const {
    return data + x * texel_bytes() + y * pitch[0] + z * pitch[1];
  }
  bool inside(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return x >= 0 && y >= 0 && z >= 0 && static_cast<std::size_t>(x) < range[0] &&
           static_cast<std::size_t>(y) < range[1] && static_cast<std::size_t>(z) < range[2];
  }
};

template <typename DataT, int D> DataT texture_fetch(const image_layout &image, const float (&at)[3]);

// An unsampled read: a texel outside the image (undefined by the
// specification) reads as zeros instead of touching memory out of bounds.
// Through a texture (nearest, unnormalized, a border of zeros), at the
// texel's centre.
template <typename DataT, int D, typename Coord> DataT image_read(const image_layout &image, const Coord &coords) {
  if (image.texture) {
    float centre[3] = {0.0f, 0.0f, 0.0f};
    for (int d = 0; d < D; ++d) centre[d] = static_cast<float>(image_coord<D>(coords, d)) + 0.5f;
    return texture_fetch<DataT, D>(image, centre);
  }
  std::int64_t at[3] = {0, 0, 0};
  for (int d = 0; d < D; ++d) at[d] = static_cast<std::int64_t>(image_coord<D>(coords, d));
  if (!image.inside(at[0], at[1], at[2])) return texel_to<DataT>(texel{}, image.format);
  return texel_to<DataT>(load_texel(image.at(at[0], at[1], at[2]), image.format), image.format);
}

// An unsampled write: outside the image, nothing is written.
template <typename DataT, int D, typename Coord>
void image_write(const image_layout &image, const Coord &coords, const DataT &color) {
  std::int64_t at[3] = {0, 0, 0};
  for (int d = 0; d < D; ++d) at[d] = static_cast<std::int64_t>(image_coord<D>(coords, d));
  if (!image.inside(at[0], at[1], at[2])) return;
  store_texel(image.at(at[0], at[1], at[2]), image.format, texel_from(color, image.format));
}

// One axis of a sampled read: the texel indices to blend and the weight of
// the second (nearest: i0 only). OpenCL C 1.2 §8.2 gives these formulas.
// `inside` is false for a clamp-mode index outside the image (the border).
struct sample_axis {
  std::int64_t i0 = 0, i1 = 0;
  float weight = 0.0f;
  bool inside0 = true, inside1 = true;
};

inline std::int64_t floor_index(float u) { return static_cast<std::int64_t>(__builtin_floorf(u)); }

inline sample_axis address_axis(float s, std::size_t extent, const image_sampler &sampler) {
  sample_axis axis;
  const std::int64_t w = static_cast<std::int64_t>(extent);
  const float wf = static_cast<float>(extent);
  const bool normalized = sampler.coordinate == coordinate_normalization_mode::normalized;
  const bool linear = sampler.filtering == filtering_mode::linear;
  if (s != s) s = 0.0f;  // NaN coordinates sample the first texel
  auto clamp_index = [w](std::int64_t i) { return i < 0 ? 0 : i > w - 1 ? w - 1 : i; };
  switch (sampler.addressing) {
  case addressing_mode::repeat: {
    // Defined for normalized coordinates; unnormalized ones are normalized first.
    const float n = normalized ? s : s / wf;
    const float u = (n - __builtin_floorf(n)) * wf;
    if (!linear) {
      axis.i0 = floor_index(u);
      if (axis.i0 > w - 1) axis.i0 -= w;
    } else {
      axis.i0 = floor_index(u - 0.5f);
      axis.i1 = axis.i0 + 1;
      axis.weight = (u - 0.5f) - __builtin_floorf(u - 0.5f);
      if (axis.i0 < 0) axis.i0 += w;
      if (axis.i1 > w - 1) axis.i1 -= w;
    }
    break;
  }
  case addressing_mode::mirrored_repeat: {
    const float n = normalized ? s : s / wf;
    float m = 2.0f * __builtin_rintf(0.5f * n);
    m = __builtin_fabsf(n - m);
    const float u = m * wf;
    if (!linear) {
      axis.i0 = floor_index(u);
      if (axis.i0 > w - 1) axis.i0 = w - 1;
    } else {
      axis.i0 = floor_index(u - 0.5f);
      axis.i1 = axis.i0 + 1;
      axis.weight = (u - 0.5f) - __builtin_floorf(u - 0.5f);
      if (axis.i0 < 0) axis.i0 = 0;
      if (axis.i1 > w - 1) axis.i1 = w - 1;
    }
    break;
  }
  case addressing_mode::clamp_to_edge:
  case addressing_mode::clamp:
  case addressing_mode::none: {
    float u = normalized ? s * wf : s;
    // Keep far-out coordinates in the index type's range.
    u = u < -1.0e9f ? -1.0e9f : u > 1.0e9f ? 1.0e9f : u;
    if (!linear) axis.i0 = floor_index(u);
    else {
      axis.i0 = floor_index(u - 0.5f);
      axis.i1 = axis.i0 + 1;
      axis.weight = (u - 0.5f) - __builtin_floorf(u - 0.5f);
    }
    if (sampler.addressing == addressing_mode::clamp) {
      axis.inside0 = axis.i0 >= 0 && axis.i0 < w;
      axis.inside1 = axis.i1 >= 0 && axis.i1 < w;
    } else {  // clamp_to_edge; none is undefined outside the image: clamped too
      axis.i0 = clamp_index(axis.i0);
      axis.i1 = clamp_index(axis.i1);
    }
    break;
  }
  }
  return axis;
}

static_assert(__builtin_offsetof(image_layout, texture) == sizeof(void *),
              "the runtime finds an image's texture right after its data pointer");

// A read through the texture the runtime bound: the texture object has the
// image's format and the sampler's addressing, filtering and coordinates, so
// the unit returns the texel (blended, or the border) in the format's channel
// order; b8g8r8a8 swaps red and blue back.
template <typename DataT, int D> DataT texture_fetch(const image_layout &image, const float (&at)[3]) {
  const int kind = image_format_is_float(image.format) ? 0
                   : (image.format == image_format::r8g8b8a8_sint || image.format == image_format::r16g16b16a16_sint ||
                      image.format == image_format::r32b32g32a32_sint)
                       ? 1
                       : 2;
  unsigned bits[4];
  __onepass_image_texture_read(image.texture, D, kind, at[0], at[1], at[2], bits);
  texel t{};
  for (int c = 0; c < 4; ++c) {
    if (kind == 0) t.f[c] = __builtin_bit_cast(float, bits[c]);
    else if (kind == 1) t.i[c] = static_cast<std::int32_t>(bits[c]);
    else t.i[c] = bits[c];
  }
  if (image.format == image_format::b8g8r8a8_unorm) {
    const float blue = t.f[0];
    t.f[0] = t.f[2];
    t.f[2] = blue;
  }
  return texel_to<DataT>(t, image.format);
}
template <typename DataT, int D, typename Coord> DataT texture_sample(const image_layout &image, const Coord &coords) {
  float at[3] = {0.0f, 0.0f, 0.0f};
  for (int d = 0; d < D; ++d) at[d] = static_cast<float>(image_coord<D>(coords, d));
  return texture_fetch<DataT, D>(image, at);
}

// A sampled read (§4.7.6.14). Linear filtering blends the 2^D nearest texels
// of float formats; integer formats are always read nearest. Under
// addressing_mode::clamp, texels outside the image are the border color,
// zeros in every channel (every SYCL image format has an alpha channel).
template <typename DataT, int D, typename Coord>
DataT image_sample(const image_layout &image, const image_sampler &sampler, const Coord &coords) {
  if (image.texture) return texture_sample<DataT, D>(image, coords);
  if (image.range[0] == 0 || image.range[1] == 0 || image.range[2] == 0) return texel_to<DataT>(texel{}, image.format);
  image_sampler used = sampler;
  if (!image_format_is_float(image.format)) used.filtering = filtering_mode::nearest;
  sample_axis axes[3];
  for (int d = 0; d < D; ++d) axes[d] = address_axis(static_cast<float>(image_coord<D>(coords, d)), image.range[d], used);
  if (used.filtering == filtering_mode::nearest) {
    for (int d = 0; d < D; ++d)
      if (!axes[d].inside0) return texel_to<DataT>(texel{}, image.format);
    return texel_to<DataT>(load_texel(image.at(axes[0].i0, axes[1].i0, axes[2].i0), image.format), image.format);
  }
  texel blended{};
  for (int corner = 0; corner < (1 << D); ++corner) {
    float weight = 1.0f;
    std::int64_t at[3] = {0, 0, 0};
    bool inside = true;
    for (int d = 0; d < D; ++d) {
      const bool second = (corner >> d) & 1;
      weight *= second ? axes[d].weight : 1.0f - axes[d].weight;
      at[d] = second ? axes[d].i1 : axes[d].i0;
      inside = inside && (second ? axes[d].inside1 : axes[d].inside0);
    }
    if (!inside || weight == 0.0f) continue;
    const texel t = load_texel(image.at(at[0], at[1], at[2]), image.format);
    for (int c = 0; c < 4; ++c) blended.f[c] += weight * t.f[c];
  }
  return texel_to<DataT>(blended, image.format);
}

}  // namespace detail
}  // namespace sycl
