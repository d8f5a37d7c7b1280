// SYCL 2020 §4.7.3 images and §4.7.6.13–14 image accessors: the names only.
// OnePass has no image support yet (issue 17; aspect::image is false on every
// device): the class templates are declared so that code naming them (a
// type list, a trait such as is_property_of) compiles, and constructing one
// is a compile error that says so. The image properties
// (§4.7.3.3) are complete: they carry what the specification says they carry.
#pragma once

#include "access.hpp"
#include "context.hpp"
#include "detail/memory_properties.hpp"
#include "detail/std_parts.hpp"
#include "property_list.hpp"

#include <cstddef>
#include <memory>
#include <type_traits>

namespace sycl {

// §4.7.1.1: the default allocator of images (host memory, in bytes).
using image_allocator = std::allocator<std::byte>;

// §4.7.3.1 / §4.7.3.2: the data layout of an image's texels.
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

namespace detail {
template <typename...> inline constexpr bool images_unsupported = false;
// Complete classes (argument-dependent lookup through a type list needs them
// complete) whose every constructor is a compile error.
#define ONEPASS_NO_IMAGES(what)                                                                                        \
public:                                                                                                                \
  template <typename... Args> what(Args &&...) {                                                                       \
    static_assert(detail::images_unsupported<Args...>,                                                                 \
                  "OnePass does not support images yet (" #what                                                        \
                  " needs aspect::image, which no OnePass device has; issue 17)");                                     \
  }
}  // namespace detail

template <int Dimensions = 1, typename AllocatorT = image_allocator> class unsampled_image {
  ONEPASS_NO_IMAGES(unsampled_image)
};
template <int Dimensions = 1, typename AllocatorT = image_allocator> class sampled_image {
  ONEPASS_NO_IMAGES(sampled_image)
};
template <typename DataT, int Dimensions, access_mode AccessMode, image_target AccessTarget = image_target::device>
class unsampled_image_accessor {
  ONEPASS_NO_IMAGES(unsampled_image_accessor)
};
template <typename DataT, int Dimensions = 1,
          access_mode AccessMode = (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write)>
class host_unsampled_image_accessor {
  ONEPASS_NO_IMAGES(host_unsampled_image_accessor)
};
template <typename DataT, int Dimensions, image_target AccessTarget = image_target::device>
class sampled_image_accessor {
  ONEPASS_NO_IMAGES(sampled_image_accessor)
};
template <typename DataT, int Dimensions = 1> class host_sampled_image_accessor {
  ONEPASS_NO_IMAGES(host_sampled_image_accessor)
};
#undef ONEPASS_NO_IMAGES

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
