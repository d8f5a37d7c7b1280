// SYCL 2020 §4.7.3 images: unsampled_image and sampled_image, their
// properties (§4.7.3.3) and the image sampler (§4.7.8). The image accessors
// (§4.7.6.13-14) are in image_accessor.hpp; the texel formats and sampling in
// detail/image_texels.hpp.
//
// An image's data lives in the runtime exactly as a buffer's does (one
// storage per image, tracked and moved between devices like a buffer's
// bytes: runtime-spec.md): its texels, row after row and slice after slice
// with the image's pitches. Kernels read and write it through plain memory on
// every device, sampling in software.
#pragma once

#include "access.hpp"
#include "context.hpp"
#include "detail/image_texels.hpp"
#include "detail/memory_properties.hpp"
#include "detail/reference_semantics.hpp"
#include "detail/runtime_api.hpp"
#include "detail/std_parts.hpp"
#include "exception.hpp"
#include "property_list.hpp"
#include "range.hpp"

#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

namespace sycl {

// §4.7.1.1: the default allocator of images (host memory, in bytes).
using image_allocator = std::allocator<std::byte>;

// §4.7.6.13: where an image accessor is used.
enum class image_target { device, host_task };

namespace property::image {
class use_host_ptr : public detail::property_base {};
class use_mutex : public detail::mutex_property {
public:
  using detail::mutex_property::mutex_property;
};
class context_bound : public detail::context_property {
public:
  using detail::context_property::context_property;
};
}  // namespace property::image

template <typename DataT, int Dimensions, access_mode AccessMode, image_target AccessTarget = image_target::device>
class unsampled_image_accessor;
template <typename DataT, int Dimensions = 1,
          access_mode AccessMode = (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write)>
class host_unsampled_image_accessor;
template <typename DataT, int Dimensions, image_target AccessTarget = image_target::device>
class sampled_image_accessor;
template <typename DataT, int Dimensions = 1> class host_sampled_image_accessor;

namespace detail {

struct image_access;

// What both image classes are: the storage, its shape and its format.
template <int Dimensions, typename AllocatorT> class image_common {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "an image has 1, 2 or 3 dimensions (§4.7.3)");

public:
  range<Dimensions> get_range() const { return range_; }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>> range<Dimensions - 1> get_pitch() const {
    range<Dimensions - 1> pitch;
    for (int d = 0; d < Dimensions - 1; ++d) pitch[d] = layout_.pitch[d];
    return pitch;
  }
  // Texels, and bytes with the rows' and slices' padding (§4.7.3.1, Table 27).
  std::size_t size() const noexcept { return range_.size(); }
  std::size_t byte_size() const noexcept { return byte_size_; }
  AllocatorT get_allocator() const { return AllocatorT(); }

  template <typename Property> bool has_property() const noexcept { return props_.has_property<Property>(); }
  template <typename Property> Property get_property() const { return props_.get_property<Property>(); }

protected:
  image_common() = default;

  // `host` is used in place (written back to at destruction unless
  // `read_only`); `initial` is copied in. `pitch` is in bytes, 0 for the
  // default (§4.7.3: r1 * s per row, r1 * r2 * s per slice).
  void create(image_format format, const range<Dimensions> &r, const std::size_t *pitch, void *host,
              const void *initial, std::shared_ptr<void> keep_alive, bool read_only, const property_list &props) {
    if (!image_format_valid(format))
      throw exception(make_error_code(errc::invalid), "image: the image_format value " +
                                                          std::to_string(static_cast<int>(format)) +
                                                          " is not one of SYCL 2020's (§4.7.3.1)");
    range_ = r;
    props_ = props;
    layout_.format = format;
    const std::size_t texel = image_texel_bytes(format);
    for (int d = 0; d < Dimensions; ++d) layout_.range[d] = r[d];
    layout_.pitch[0] = r[0] * texel;
    layout_.pitch[1] = layout_.pitch[0] * (Dimensions > 1 ? r[1] : 1);
    if (pitch) {
      if (Dimensions > 1 && pitch[0] < r[0] * texel)
        throw exception(make_error_code(errc::invalid),
                        "image: the row pitch (" + std::to_string(pitch[0]) + " bytes) is less than a row of " +
                            std::to_string(r[0]) + " texels of " + std::to_string(texel) + " bytes");
      if (Dimensions > 1) layout_.pitch[0] = pitch[0];
      layout_.pitch[1] = layout_.pitch[0] * (Dimensions > 1 ? r[1] : 1);
      if (Dimensions > 2) {
        if (pitch[1] < layout_.pitch[0] * r[1])
          throw exception(make_error_code(errc::invalid),
                          "image: the slice pitch (" + std::to_string(pitch[1]) + " bytes) is less than " +
                              std::to_string(r[1]) + " rows of " + std::to_string(layout_.pitch[0]) + " bytes");
        layout_.pitch[1] = pitch[1];
      }
    }
    byte_size_ = Dimensions == 1 ? r[0] * texel : Dimensions == 2 ? layout_.pitch[0] * r[1] : layout_.pitch[1] * r[2];
    if (r.size() == 0) byte_size_ = 0;

    buffer_init init;
    init.element_size = 1;
    init.dimensions = 1;
    init.range[0] = byte_size_;
    init.host_storage = host;
    init.initial_data = initial;
    init.keep_alive = std::move(keep_alive);
    if (host && props.has_property<property::image::use_mutex>())
      init.final_mutex = props.get_property<property::image::use_mutex>().get_mutex_ptr();
    if (props.has_property<property::image::context_bound>())
      init.bound_context = props.get_property<property::image::context_bound>().get_context().impl();
    impl_ = make_buffer(init);
    if (read_only && host) buffer_set_write_back(*impl_, false);
    // An unsampled image's reads: nearest, at texel centres, zeros outside
    // (sampled_image describes its own sampler after this).
    describe({addressing_mode::clamp, coordinate_normalization_mode::unnormalized, filtering_mode::nearest},
             !read_only);
  }

  // The runtime keeps the shape, format and sampler with the storage, for
  // devices that read images on texture hardware.
  void describe(const image_sampler &sampler, bool writable) {
    image_sampling sampling;
    sampling.dimensions = Dimensions;
    sampling.format = static_cast<int>(layout_.format);
    sampling.addressing = static_cast<int>(sampler.addressing);
    sampling.filtering = static_cast<int>(sampler.filtering);
    sampling.normalized = sampler.coordinate == coordinate_normalization_mode::normalized;
    for (int d = 0; d < 3; ++d) sampling.range[d] = layout_.range[d];
    for (int d = 0; d < 2; ++d) sampling.pitch[d] = layout_.pitch[d];
    sampling.writable = writable;
    buffer_set_image_sampling(*impl_, sampling);
  }

  // §4.7.3.1 set_final_data: where the image's bytes go at destruction.
  template <typename Destination> void final_data(Destination destination) {
    if constexpr (std::is_same_v<Destination, std::nullptr_t>) buffer_set_final_data(*impl_, nullptr);
    else if constexpr (std::is_pointer_v<Destination>) {
      if (destination == nullptr) buffer_set_final_data(*impl_, nullptr);
      else buffer_set_final_data(*impl_, static_cast<void *>(const_cast<std::remove_cv_t<std::remove_pointer_t<Destination>> *>(destination)));
    } else {
      const std::size_t bytes = byte_size_;
      buffer_set_final_writer(*impl_, [destination, bytes](const void *data) mutable {
        if constexpr (is_weak_ptr<Destination>::value) {
          if (auto target = destination.lock()) std::memcpy(target.get(), data, bytes);
        } else {  // an output iterator of some element type: the bytes as such elements
          using E = typename std::iterator_traits<Destination>::value_type;
          using T = std::conditional_t<std::is_void_v<E>, unsigned char, E>;
          const T *first = static_cast<const T *>(data);
          for (std::size_t i = 0; i < bytes / sizeof(T); ++i) *destination++ = first[i];
        }
      });
    }
  }

  template <typename T> struct is_weak_ptr : std::false_type {};
  template <typename T> struct is_weak_ptr<std::weak_ptr<T>> : std::true_type {};

  friend struct image_access;
  std::shared_ptr<buffer_impl> impl_;
  range<Dimensions> range_;
  image_layout layout_;
  std::size_t byte_size_ = 0;
  property_list props_;
};

// What the image accessors need of an image.
struct image_access {
  template <typename Image> static buffer_impl *impl(const Image &image) { return image.impl_.get(); }
  template <typename Image> static image_layout layout(const Image &image) { return image.layout_; }
  template <typename Image> static const std::shared_ptr<buffer_impl> &storage(const Image &image) {
    return image.impl_;
  }
  template <typename Image> static image_sampler sampler(const Image &image) { return image.sampler_; }
  template <typename Handler> static void add_access(Handler &h, const buffer_access &access) { h.add_access(access); }
};

}  // namespace detail

template <int Dimensions = 1, typename AllocatorT = image_allocator>
class unsampled_image : public detail::image_common<Dimensions, AllocatorT> {
  using common = detail::image_common<Dimensions, AllocatorT>;
  using pitch_t = range<(Dimensions > 1 ? Dimensions - 1 : 1)>;

public:
  unsampled_image(image_format format, const range<Dimensions> &r, const property_list &props = {}) {
    this->create(format, r, nullptr, nullptr, nullptr, nullptr, false, props);
  }
  unsampled_image(image_format format, const range<Dimensions> &r, AllocatorT, const property_list &props = {})
      : unsampled_image(format, r, props) {}
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>>
  unsampled_image(image_format format, const range<Dimensions> &r, const pitch_t &pitch,
                  const property_list &props = {}) {
    this->create(format, r, pitch_bytes(pitch).v, nullptr, nullptr, nullptr, false, props);
  }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>>
  unsampled_image(image_format format, const range<Dimensions> &r, const pitch_t &pitch, AllocatorT,
                  const property_list &props = {})
      : unsampled_image(format, r, pitch, props) {}

  // The host memory is the image's host copy while the image lives and
  // receives the data at destruction (§4.7.3.1, §4.7.3.4).
  unsampled_image(void *host, image_format format, const range<Dimensions> &r, const property_list &props = {}) {
    this->create(format, r, nullptr, host, nullptr, nullptr, false, props);
  }
  unsampled_image(void *host, image_format format, const range<Dimensions> &r, AllocatorT,
                  const property_list &props = {})
      : unsampled_image(host, format, r, props) {}
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>>
  unsampled_image(void *host, image_format format, const range<Dimensions> &r, const pitch_t &pitch,
                  const property_list &props = {}) {
    this->create(format, r, pitch_bytes(pitch).v, host, nullptr, nullptr, false, props);
  }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>>
  unsampled_image(void *host, image_format format, const range<Dimensions> &r, const pitch_t &pitch, AllocatorT,
                  const property_list &props = {})
      : unsampled_image(host, format, r, pitch, props) {}

  // An empty shared_ptr: uninitialized memory, as without a host pointer.
  unsampled_image(std::shared_ptr<void> &host, image_format format, const range<Dimensions> &r,
                  const property_list &props = {}) {
    this->create(format, r, nullptr, host.get(), nullptr, host, false, props);
  }
  unsampled_image(std::shared_ptr<void> &host, image_format format, const range<Dimensions> &r, AllocatorT,
                  const property_list &props = {})
      : unsampled_image(host, format, r, props) {}
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>>
  unsampled_image(std::shared_ptr<void> &host, image_format format, const range<Dimensions> &r, const pitch_t &pitch,
                  const property_list &props = {}) {
    this->create(format, r, pitch_bytes(pitch).v, host.get(), nullptr, host, false, props);
  }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>>
  unsampled_image(std::shared_ptr<void> &host, image_format format, const range<Dimensions> &r, const pitch_t &pitch,
                  AllocatorT, const property_list &props = {})
      : unsampled_image(host, format, r, pitch, props) {}

  // Accessors (§4.7.3.1, Table 27); defined in image_accessor.hpp.
  template <typename DataT, access_mode Mode = (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write),
            image_target Targ = image_target::device>
  unsampled_image_accessor<DataT, Dimensions, Mode, Targ> get_access(handler &h, const property_list &props = {});
  template <typename DataT, access_mode Mode = (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write)>
  host_unsampled_image_accessor<DataT, Dimensions, Mode> get_host_access(const property_list &props = {});

  template <typename Destination = std::nullptr_t> void set_final_data(Destination destination = nullptr) {
    this->final_data(destination);
  }
  void set_write_back(bool flag = true) { detail::buffer_set_write_back(*this->impl_, flag); }

  friend bool operator==(const unsampled_image &a, const unsampled_image &b) { return a.impl_ == b.impl_; }
  friend bool operator!=(const unsampled_image &a, const unsampled_image &b) { return !(a == b); }

private:
  struct pitch_array {
    std::size_t v[2];
  };
  static pitch_array pitch_bytes(const pitch_t &pitch) {
    pitch_array a{{0, 0}};
    for (int d = 0; d < Dimensions - 1; ++d) a.v[d] = pitch[d];
    return a;
  }
  friend struct std::hash<unsampled_image>;
};

template <int Dimensions = 1, typename AllocatorT = image_allocator>
class sampled_image : public detail::image_common<Dimensions, AllocatorT> {
  using pitch_t = range<(Dimensions > 1 ? Dimensions - 1 : 1)>;

public:
  // The host data is only read: used in place (no write-back) and never
  // changed, since sampled images are read-only (§4.7.3.2). A null pointer
  // or an empty shared_ptr: uninitialized memory.
  sampled_image(const void *host, image_format format, image_sampler sampler, const range<Dimensions> &r,
                const property_list &props = {})
      : sampler_(sampler) {
    this->create(format, r, nullptr, const_cast<void *>(host), nullptr, nullptr, true, props);
    this->describe(sampler_, false);
  }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>>
  sampled_image(const void *host, image_format format, image_sampler sampler, const range<Dimensions> &r,
                const pitch_t &pitch, const property_list &props = {})
      : sampler_(sampler) {
    std::size_t bytes[2] = {0, 0};
    for (int d = 0; d < Dimensions - 1; ++d) bytes[d] = pitch[d];
    this->create(format, r, bytes, const_cast<void *>(host), nullptr, nullptr, true, props);
    this->describe(sampler_, false);
  }
  sampled_image(std::shared_ptr<const void> &host, image_format format, image_sampler sampler,
                const range<Dimensions> &r, const property_list &props = {})
      : sampler_(sampler) {
    this->create(format, r, nullptr, const_cast<void *>(host.get()), nullptr, std::const_pointer_cast<void>(host),
                 true, props);
    this->describe(sampler_, false);
  }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>>
  sampled_image(std::shared_ptr<const void> &host, image_format format, image_sampler sampler,
                const range<Dimensions> &r, const pitch_t &pitch, const property_list &props = {})
      : sampler_(sampler) {
    std::size_t bytes[2] = {0, 0};
    for (int d = 0; d < Dimensions - 1; ++d) bytes[d] = pitch[d];
    this->create(format, r, bytes, const_cast<void *>(host.get()), nullptr, std::const_pointer_cast<void>(host), true,
                 props);
    this->describe(sampler_, false);
  }

  // Accessors (§4.7.3.2, Table 29); defined in image_accessor.hpp.
  template <typename DataT, image_target Targ = image_target::device>
  sampled_image_accessor<DataT, Dimensions, Targ> get_access(handler &h, const property_list &props = {});
  template <typename DataT> host_sampled_image_accessor<DataT, Dimensions> get_host_access(const property_list &props = {});

  friend bool operator==(const sampled_image &a, const sampled_image &b) { return a.impl_ == b.impl_; }
  friend bool operator!=(const sampled_image &a, const sampled_image &b) { return !(a == b); }

private:
  friend struct detail::image_access;
  friend struct std::hash<sampled_image>;
  image_sampler sampler_;
};

// §4.7.3.3: the image properties belong to both image classes; §4.7.6.4.1:
// no_init to the unsampled image accessors.
template <int D, typename A> struct is_property_of<property::image::use_host_ptr, unsampled_image<D, A>>
    : std::true_type {};
template <int D, typename A> struct is_property_of<property::image::use_mutex, unsampled_image<D, A>> : std::true_type {
};
template <int D, typename A> struct is_property_of<property::image::context_bound, unsampled_image<D, A>>
    : std::true_type {};
template <int D, typename A> struct is_property_of<property::image::use_host_ptr, sampled_image<D, A>>
    : std::true_type {};
template <int D, typename A> struct is_property_of<property::image::use_mutex, sampled_image<D, A>> : std::true_type {};
template <int D, typename A> struct is_property_of<property::image::context_bound, sampled_image<D, A>>
    : std::true_type {};
template <typename T, int D, access_mode M, image_target Tg>
struct is_property_of<property::no_init, unsampled_image_accessor<T, D, M, Tg>> : std::true_type {};
template <typename T, int D, access_mode M>
struct is_property_of<property::no_init, host_unsampled_image_accessor<T, D, M>> : std::true_type {};

}  // namespace sycl

// §4.5.2: std::hash agrees with operator== (the storage).
namespace std {
template <int D, typename A> struct hash<sycl::unsampled_image<D, A>> {
  size_t operator()(const sycl::unsampled_image<D, A> &image) const noexcept {
    return hash<const void *>()(image.impl_.get());
  }
};
template <int D, typename A> struct hash<sycl::sampled_image<D, A>> {
  size_t operator()(const sycl::sampled_image<D, A> &image) const noexcept {
    return hash<const void *>()(image.impl_.get());
  }
};
}  // namespace std
