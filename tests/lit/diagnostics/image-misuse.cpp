// Images (SYCL 2020 §4.7.3, §4.7.6.13-14): the property traits answer as
// §4.7.3.3 and §4.7.6.4.1 say, and misuses of the image accessors are
// compile errors that say what is allowed.
// RUN: %onepass -fsycl-sscp -fsyntax-only -DVALID %s
// RUN: not %onepass -fsycl-sscp -fsyntax-only -DDATA_TYPE %s 2>&1 | FileCheck %s --check-prefix=DATA
// RUN: not %onepass -fsycl-sscp -fsyntax-only -DCOORDS %s 2>&1 | FileCheck %s --check-prefix=COORDS
// RUN: not %onepass -fsycl-sscp -fsyntax-only -DSAMPLED_COORDS %s 2>&1 | FileCheck %s --check-prefix=SAMPLED
// RUN: not %onepass -fsycl-sscp -fsyntax-only -DMODE %s 2>&1 | FileCheck %s --check-prefix=MODE

#include <sycl/sycl.hpp>

static_assert(sycl::is_property_of_v<sycl::property::image::use_host_ptr, sycl::unsampled_image<2>>);
static_assert(sycl::is_property_of_v<sycl::property::image::use_mutex, sycl::sampled_image<>>);
static_assert(sycl::is_property_of_v<sycl::property::image::context_bound, sycl::sampled_image<3>>);
static_assert(!sycl::is_property_of_v<sycl::property::buffer::use_host_ptr, sycl::unsampled_image<>>);
static_assert(!sycl::is_property_of_v<sycl::property::image::use_host_ptr, sycl::buffer<int>>);
static_assert(sycl::is_property_of_v<sycl::property::no_init,
                                     sycl::unsampled_image_accessor<sycl::int4, 1, sycl::access_mode::read>>);
static_assert(sycl::is_property_of_v<sycl::property::no_init, sycl::host_unsampled_image_accessor<sycl::int4, 1>>);
static_assert(!sycl::is_property_of_v<sycl::property::no_init, sycl::sampled_image_accessor<sycl::int4, 1>>);
static_assert(sycl::is_property_v<sycl::property::image::use_mutex>);
static_assert(std::is_same_v<sycl::unsampled_image_accessor<sycl::float4, 2, sycl::access_mode::read>::value_type,
                             const sycl::float4>);
static_assert(std::is_same_v<sycl::host_unsampled_image_accessor<sycl::uint4, 3>::value_type, sycl::uint4>);
static_assert(std::is_same_v<sycl::sampled_image_accessor<sycl::half4, 1>::value_type, const sycl::half4>);

int main() {
  std::mutex m;
  sycl::property::image::use_mutex prop(m);
  if (prop.get_mutex_ptr() != &m) return 1;
  sycl::unsampled_image<2> image(sycl::image_format::r8g8b8a8_unorm, sycl::range<2>(4, 4));
  sycl::sampled_image<1> sampled(nullptr, sycl::image_format::r32g32b32a32_sfloat,
                                 {sycl::addressing_mode::clamp, sycl::coordinate_normalization_mode::unnormalized,
                                  sycl::filtering_mode::nearest},
                                 sycl::range<1>(4));
#ifdef DATA_TYPE
  // DATA: error: static assertion failed {{.*}}an image accessor's DataT is int4, uint4, float4 or half4
  sycl::host_unsampled_image_accessor<sycl::int2, 2> bad(image);
#endif
#ifdef COORDS
  // COORDS: error: static assertion failed {{.*}}unsampled image coordinates are int (1 dimension), int2 (2) or int4 (3)
  sycl::host_unsampled_image_accessor<sycl::float4, 2> host(image);
  (void)host.read(sycl::float2(0.5f, 0.5f));
#endif
#ifdef SAMPLED_COORDS
  // SAMPLED: error: static assertion failed {{.*}}sampled image coordinates are float (1 dimension), float2 (2) or float4 (3)
  sycl::host_sampled_image_accessor<sycl::float4, 1> host(sampled);
  (void)host.read(1);
#endif
#ifdef MODE
  // MODE: error: static assertion failed {{.*}}unsampled_image_accessor supports access_mode::read and access_mode::write
  sycl::queue q;
  q.submit([&](sycl::handler &h) {
    sycl::unsampled_image_accessor<sycl::float4, 2, sycl::access_mode::read_write> acc(image, h);
  });
#endif
  return 0;
}
