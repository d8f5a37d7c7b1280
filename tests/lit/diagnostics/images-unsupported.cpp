// OnePass has no images yet (issue 17): the image classes and properties can
// be named (type lists, property traits compile and answer as SYCL 2020
// §4.7.3.3 and §4.7.6.4.1 say), but constructing an image is a compile error
// that says images are unsupported.
// RUN: %onepass -fsycl-sscp -fsyntax-only -DNAMES_ONLY %s
// RUN: not %onepass -fsycl-sscp -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:

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

int main() {
  std::mutex m;
  sycl::property::image::use_mutex prop(m);
  if (prop.get_mutex_ptr() != &m) return 1;
#ifndef NAMES_ONLY
  // CHECK: error: static assertion failed {{.*}}OnePass does not support images yet (unsampled_image needs aspect::image, which no OnePass device has; issue 17)
  sycl::unsampled_image<2> image;
#endif
  return 0;
}
