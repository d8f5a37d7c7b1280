// SYCL 2020 §4.7.6.13 unsampled image accessors and §4.7.6.14 sampled image
// accessors, in kernels and host tasks (unsampled_image_accessor,
// sampled_image_accessor) and on the host (host_unsampled_image_accessor,
// host_sampled_image_accessor).
//
// Like a buffer accessor (accessor.hpp), a device image accessor is a plain
// object in the kernel's captures: the image's layout, whose data pointer
// holds the image storage's token until the runtime replaces it, in its copy
// of the kernel object, with the data's address on the device that runs the
// kernel. Reads, writes and sampling are detail/image_texels.hpp's.
#pragma once

#include "accessor.hpp"
#include "handler.hpp"
#include "image.hpp"

#include <cstdint>
#include <memory>
#include <type_traits>

namespace sycl {

namespace detail {

// The requirement an image accessor registers: the whole image.
template <typename Image> buffer_access describe_image_access(const Image &image, access_mode mode, bool no_init,
                                                              bool on_host) {
  if (no_init && mode == access_mode::read)
    throw exception(make_error_code(errc::invalid),
                    "image accessor: the no_init property needs a mode that writes (§4.7.6.4.1)");
  buffer_access access;
  access.buffer = image_access::impl(image);
  access.mode = mode;
  access.no_init = no_init;
  access.on_host = on_host;
  access.dimensions = 1;
  access.range[0] = image.byte_size();
  access.token = buffer_token(*access.buffer);
  return access;
}

template <typename DataT, int Dimensions> constexpr void check_image_accessor() {
  static_assert(is_image_data_v<DataT>,
                "an image accessor's DataT is int4, uint4, float4 or half4, const or not (SYCL 2020 §4.7.6.1)");
  static_assert(Dimensions >= 1 && Dimensions <= 3, "an image accessor has 1, 2 or 3 dimensions");
}

template <typename Coord, int Dimensions> constexpr void check_unsampled_coord() {
  static_assert(is_image_coord_v<Coord, int, Dimensions>,
                "unsampled image coordinates are int (1 dimension), int2 (2) or int4 (3) (§4.7.6.13.1)");
}
template <typename Coord, int Dimensions> constexpr void check_sampled_coord() {
  static_assert(is_image_coord_v<Coord, float, Dimensions>,
                "sampled image coordinates are float (1 dimension), float2 (2) or float4 (3) (§4.7.6.14.1)");
}

inline std::size_t layout_size(const image_layout &layout) { return layout.range[0] * layout.range[1] * layout.range[2]; }

}  // namespace detail

// §4.7.6.13: in a kernel (image_target::device) or a host task.
template <typename DataT, int Dimensions, access_mode AccessMode, image_target AccessTarget>
class unsampled_image_accessor {
  static_assert(AccessMode == access_mode::read || AccessMode == access_mode::write,
                "unsampled_image_accessor supports access_mode::read and access_mode::write (§4.7.6.13)");
  static constexpr bool on_host = AccessTarget == image_target::host_task;
  using element = std::remove_const_t<DataT>;

public:
  using value_type = std::conditional_t<AccessMode == access_mode::read, const DataT, DataT>;
  using reference = value_type &;
  using const_reference = const DataT &;

  template <typename AllocatorT>
  unsampled_image_accessor(unsampled_image<Dimensions, AllocatorT> &image, handler &h, const property_list &props = {})
      : no_init_(props.has_property<property::no_init>()), identity_(detail::new_identity()) {
    detail::check_image_accessor<DataT, Dimensions>();
    access_ = detail::describe_image_access(image, AccessMode, no_init_, on_host);
    layout_ = detail::image_access::layout(image);
    if constexpr (on_host)
      layout_.data = static_cast<unsigned char *>(detail::buffer_host_data(*detail::image_access::impl(image)));
    else layout_.data = reinterpret_cast<unsigned char *>(access_.token);
    detail::image_access::add_access(h, access_);
  }

  // §4.7.6.13.2: read accessors of DataT and const DataT convert to each other.
  template <typename OtherT, access_mode M = AccessMode,
            typename = std::enable_if_t<M == access_mode::read && !std::is_same_v<OtherT, DataT> &&
                                        std::is_same_v<std::remove_const_t<OtherT>, element>>>
  unsampled_image_accessor(const unsampled_image_accessor<OtherT, Dimensions, AccessMode, AccessTarget> &other)
      : layout_(other.layout_), access_(other.access_), no_init_(other.no_init_), identity_(other.identity_) {}

  std::size_t size() const noexcept { return detail::layout_size(layout_); }

  template <typename CoordT, access_mode M = AccessMode, typename = std::enable_if_t<M == access_mode::read>>
  element read(const CoordT &coords) const noexcept {
    detail::check_unsampled_coord<CoordT, Dimensions>();
    return detail::image_read<element, Dimensions>(layout_, coords);
  }
  template <typename CoordT, access_mode M = AccessMode, typename = std::enable_if_t<M == access_mode::write>>
  void write(const CoordT &coords, const element &color) const {
    detail::check_unsampled_coord<CoordT, Dimensions>();
    detail::image_write<element, Dimensions>(layout_, coords, color);
  }

  template <typename Property> bool has_property() const noexcept {
    return detail::accessor_has_property<Property>(no_init_);
  }
  template <typename Property> Property get_property() const {
    return detail::accessor_get_property<Property>(no_init_, "unsampled_image_accessor");
  }

  // §4.5.2: equal exactly when one is a copy of the other.
  friend bool operator==(const unsampled_image_accessor &a, const unsampled_image_accessor &b) {
    return a.identity_ == b.identity_;
  }
  friend bool operator!=(const unsampled_image_accessor &a, const unsampled_image_accessor &b) { return !(a == b); }

private:
  template <typename, int, access_mode, image_target> friend class unsampled_image_accessor;
  friend struct std::hash<unsampled_image_accessor>;
  detail::image_layout layout_;
  detail::buffer_access access_;  // host side only
  bool no_init_ = false;
  std::uint64_t identity_ = 0;
};

// §4.7.6.13: on the host, immediately (waits for the commands that use the image).
template <typename DataT, int Dimensions, access_mode AccessMode> class host_unsampled_image_accessor {
  static_assert(AccessMode == access_mode::read || AccessMode == access_mode::write ||
                    AccessMode == access_mode::read_write,
                "host_unsampled_image_accessor supports access_mode::read, write and read_write (§4.7.6.13)");
  using element = std::remove_const_t<DataT>;

public:
  using value_type = std::conditional_t<AccessMode == access_mode::read, const DataT, DataT>;
  using reference = value_type &;
  using const_reference = const DataT &;

  template <typename AllocatorT>
  host_unsampled_image_accessor(unsampled_image<Dimensions, AllocatorT> &image, const property_list &props = {})
      : no_init_(props.has_property<property::no_init>()), identity_(detail::new_identity()) {
    detail::check_image_accessor<DataT, Dimensions>();
    detail::host_access held =
        detail::buffer_acquire_host(detail::describe_image_access(image, AccessMode, no_init_, true));
    hold_ = held.hold;
    layout_ = detail::image_access::layout(image);
    layout_.data = static_cast<unsigned char *>(held.data);
  }

  template <typename OtherT, access_mode M = AccessMode,
            typename = std::enable_if_t<M == access_mode::read && !std::is_same_v<OtherT, DataT> &&
                                        std::is_same_v<std::remove_const_t<OtherT>, element>>>
  host_unsampled_image_accessor(const host_unsampled_image_accessor<OtherT, Dimensions, AccessMode> &other)
      : layout_(other.layout_), hold_(other.hold_), no_init_(other.no_init_), identity_(other.identity_) {}

  std::size_t size() const noexcept { return detail::layout_size(layout_); }

  template <typename CoordT, access_mode M = AccessMode, typename = std::enable_if_t<M != access_mode::write>>
  element read(const CoordT &coords) const noexcept {
    detail::check_unsampled_coord<CoordT, Dimensions>();
    return detail::image_read<element, Dimensions>(layout_, coords);
  }
  template <typename CoordT, access_mode M = AccessMode, typename = std::enable_if_t<M != access_mode::read>>
  void write(const CoordT &coords, const element &color) const {
    detail::check_unsampled_coord<CoordT, Dimensions>();
    detail::image_write<element, Dimensions>(layout_, coords, color);
  }

  template <typename Property> bool has_property() const noexcept {
    return detail::accessor_has_property<Property>(no_init_);
  }
  template <typename Property> Property get_property() const {
    return detail::accessor_get_property<Property>(no_init_, "host_unsampled_image_accessor");
  }

  friend bool operator==(const host_unsampled_image_accessor &a, const host_unsampled_image_accessor &b) {
    return a.identity_ == b.identity_;
  }
  friend bool operator!=(const host_unsampled_image_accessor &a, const host_unsampled_image_accessor &b) {
    return !(a == b);
  }

private:
  template <typename, int, access_mode> friend class host_unsampled_image_accessor;
  friend struct std::hash<host_unsampled_image_accessor>;
  detail::image_layout layout_;
  std::shared_ptr<void> hold_;  // the last copy's destruction releases the image
  bool no_init_ = false;
  std::uint64_t identity_ = 0;
};

// §4.7.6.14: in a kernel or a host task; always read-only.
template <typename DataT, int Dimensions, image_target AccessTarget> class sampled_image_accessor {
  static constexpr bool on_host = AccessTarget == image_target::host_task;
  using element = std::remove_const_t<DataT>;

public:
  using value_type = const DataT;
  using reference = const DataT &;
  using const_reference = const DataT &;

  template <typename AllocatorT>
  sampled_image_accessor(sampled_image<Dimensions, AllocatorT> &image, handler &h, const property_list &props = {})
      : sampler_(detail::image_access::sampler(image)), identity_(detail::new_identity()) {
    detail::check_image_accessor<DataT, Dimensions>();
    (void)props;
    access_ = detail::describe_image_access(image, access_mode::read, false, on_host);
    layout_ = detail::image_access::layout(image);
    if constexpr (on_host)
      layout_.data = static_cast<unsigned char *>(detail::buffer_host_data(*detail::image_access::impl(image)));
    else layout_.data = reinterpret_cast<unsigned char *>(access_.token);
    detail::image_access::add_access(h, access_);
  }

  // §4.7.6.14.2: accessors of DataT and const DataT convert to each other.
  template <typename OtherT, typename = std::enable_if_t<!std::is_same_v<OtherT, DataT> &&
                                                         std::is_same_v<std::remove_const_t<OtherT>, element>>>
  sampled_image_accessor(const sampled_image_accessor<OtherT, Dimensions, AccessTarget> &other)
      : layout_(other.layout_), sampler_(other.sampler_), access_(other.access_), identity_(other.identity_) {}

  std::size_t size() const noexcept { return detail::layout_size(layout_); }

  template <typename CoordT> element read(const CoordT &coords) const noexcept {
    detail::check_sampled_coord<CoordT, Dimensions>();
    return detail::image_sample<element, Dimensions>(layout_, sampler_, coords);
  }

  template <typename Property> bool has_property() const noexcept { return false; }
  template <typename Property> Property get_property() const {
    return detail::accessor_get_property<Property>(false, "sampled_image_accessor");
  }

  friend bool operator==(const sampled_image_accessor &a, const sampled_image_accessor &b) {
    return a.identity_ == b.identity_;
  }
  friend bool operator!=(const sampled_image_accessor &a, const sampled_image_accessor &b) { return !(a == b); }

private:
  template <typename, int, image_target> friend class sampled_image_accessor;
  friend struct std::hash<sampled_image_accessor>;
  detail::image_layout layout_;
  image_sampler sampler_;
  detail::buffer_access access_;  // host side only
  std::uint64_t identity_ = 0;
};

// §4.7.6.14: on the host, immediately.
template <typename DataT, int Dimensions> class host_sampled_image_accessor {
  using element = std::remove_const_t<DataT>;

public:
  using value_type = const DataT;
  using reference = const DataT &;
  using const_reference = const DataT &;

  template <typename AllocatorT>
  host_sampled_image_accessor(sampled_image<Dimensions, AllocatorT> &image, const property_list &props = {})
      : sampler_(detail::image_access::sampler(image)), identity_(detail::new_identity()) {
    detail::check_image_accessor<DataT, Dimensions>();
    (void)props;
    detail::host_access held =
        detail::buffer_acquire_host(detail::describe_image_access(image, access_mode::read, false, true));
    hold_ = held.hold;
    layout_ = detail::image_access::layout(image);
    layout_.data = static_cast<unsigned char *>(held.data);
  }

  template <typename OtherT, typename = std::enable_if_t<!std::is_same_v<OtherT, DataT> &&
                                                         std::is_same_v<std::remove_const_t<OtherT>, element>>>
  host_sampled_image_accessor(const host_sampled_image_accessor<OtherT, Dimensions> &other)
      : layout_(other.layout_), sampler_(other.sampler_), hold_(other.hold_), identity_(other.identity_) {}

  std::size_t size() const noexcept { return detail::layout_size(layout_); }

  template <typename CoordT> element read(const CoordT &coords) const noexcept {
    detail::check_sampled_coord<CoordT, Dimensions>();
    return detail::image_sample<element, Dimensions>(layout_, sampler_, coords);
  }

  template <typename Property> bool has_property() const noexcept { return false; }
  template <typename Property> Property get_property() const {
    return detail::accessor_get_property<Property>(false, "host_sampled_image_accessor");
  }

  friend bool operator==(const host_sampled_image_accessor &a, const host_sampled_image_accessor &b) {
    return a.identity_ == b.identity_;
  }
  friend bool operator!=(const host_sampled_image_accessor &a, const host_sampled_image_accessor &b) {
    return !(a == b);
  }

private:
  template <typename, int> friend class host_sampled_image_accessor;
  friend struct std::hash<host_sampled_image_accessor>;
  detail::image_layout layout_;
  image_sampler sampler_;
  std::shared_ptr<void> hold_;
  std::uint64_t identity_ = 0;
};

// The images' accessor factories (§4.7.3.1 Table 27, §4.7.3.2 Table 29).
template <int D, typename A>
template <typename DataT, access_mode Mode, image_target Targ>
unsampled_image_accessor<DataT, D, Mode, Targ> unsampled_image<D, A>::get_access(handler &h,
                                                                                 const property_list &props) {
  return unsampled_image_accessor<DataT, D, Mode, Targ>(*this, h, props);
}
template <int D, typename A>
template <typename DataT, access_mode Mode>
host_unsampled_image_accessor<DataT, D, Mode> unsampled_image<D, A>::get_host_access(const property_list &props) {
  return host_unsampled_image_accessor<DataT, D, Mode>(*this, props);
}
template <int D, typename A>
template <typename DataT, image_target Targ>
sampled_image_accessor<DataT, D, Targ> sampled_image<D, A>::get_access(handler &h, const property_list &props) {
  return sampled_image_accessor<DataT, D, Targ>(*this, h, props);
}
template <int D, typename A>
template <typename DataT>
host_sampled_image_accessor<DataT, D> sampled_image<D, A>::get_host_access(const property_list &props) {
  return host_sampled_image_accessor<DataT, D>(*this, props);
}

}  // namespace sycl

// §4.5.2: std::hash agrees with operator== (the identity).
namespace std {
template <typename T, int D, sycl::access_mode M, sycl::image_target Tg>
struct hash<sycl::unsampled_image_accessor<T, D, M, Tg>> {
  size_t operator()(const sycl::unsampled_image_accessor<T, D, M, Tg> &a) const noexcept {
    return hash<uint64_t>()(a.identity_);
  }
};
template <typename T, int D, sycl::access_mode M> struct hash<sycl::host_unsampled_image_accessor<T, D, M>> {
  size_t operator()(const sycl::host_unsampled_image_accessor<T, D, M> &a) const noexcept {
    return hash<uint64_t>()(a.identity_);
  }
};
template <typename T, int D, sycl::image_target Tg> struct hash<sycl::sampled_image_accessor<T, D, Tg>> {
  size_t operator()(const sycl::sampled_image_accessor<T, D, Tg> &a) const noexcept {
    return hash<uint64_t>()(a.identity_);
  }
};
template <typename T, int D> struct hash<sycl::host_sampled_image_accessor<T, D>> {
  size_t operator()(const sycl::host_sampled_image_accessor<T, D> &a) const noexcept {
    return hash<uint64_t>()(a.identity_);
  }
};
}  // namespace std
