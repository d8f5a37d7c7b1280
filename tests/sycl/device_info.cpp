// Platforms, devices and device selectors (SYCL 2020 §4.6.1, §4.6.2, §4.6.4):
// the CPU device is found and described, selectors pick it, and a selector
// that matches no device makes the queue constructor throw errc::runtime.
#include "check.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using onepass_test::check;
using onepass_test::checkEqual;
using onepass_test::checkThrows;

namespace {

template <typename T> bool contains(const std::vector<T> &values, T value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// Runs a kernel on `q` and checks its result.
void checkQueueRuns(const std::string &what, sycl::queue &q) {
  int *x = sycl::malloc_shared<int>(1, q);
  *x = 0;
  q.single_task([=] { *x = 321; }).wait();
  checkEqual(what + ": kernel result", 321, *x);
  sycl::free(x, q);
}

void platforms() {
  std::vector<sycl::platform> all = sycl::platform::get_platforms();
  if (!check("get_platforms() is not empty", !all.empty())) return;
  for (const sycl::platform &p : all) {
    const std::string name = p.get_info<sycl::info::platform::name>();
    std::printf("platform: %s (%s), version %s\n", name.c_str(), p.get_info<sycl::info::platform::vendor>().c_str(),
                p.get_info<sycl::info::platform::version>().c_str());
    check("platform name is not empty", !name.empty());
    check("platform vendor is not empty", !p.get_info<sycl::info::platform::vendor>().empty());
    for (const sycl::device &d : p.get_devices())
      checkEqual("a device's platform is the platform listing it", true, d.get_platform() == p);
  }
  checkEqual("the default platform is among get_platforms()", true,
             std::find(all.begin(), all.end(), sycl::platform()) != all.end());
}

void cpuDevice() {
  std::vector<sycl::device> cpus = sycl::device::get_devices(sycl::info::device_type::cpu);
  if (!check("device::get_devices(cpu) is not empty", !cpus.empty())) return;
  const sycl::device &cpu = cpus.front();
  const std::string name = cpu.get_info<sycl::info::device::name>();
  std::printf("CPU device: %s\n", name.c_str());
  check("is_cpu()", cpu.is_cpu());
  check("not is_gpu()", !cpu.is_gpu());
  check("not is_accelerator()", !cpu.is_accelerator());
  checkEqual("device_type", static_cast<unsigned>(sycl::info::device_type::cpu),
             static_cast<unsigned>(cpu.get_info<sycl::info::device::device_type>()));
  check("name is not empty", !name.empty());
  check("vendor is not empty", !cpu.get_info<sycl::info::device::vendor>().empty());
  check("version is not empty", !cpu.get_info<sycl::info::device::version>().empty());
  check("driver_version is not empty", !cpu.get_info<sycl::info::device::driver_version>().empty());
  check("max_compute_units > 0", cpu.get_info<sycl::info::device::max_compute_units>() > 0);
  check("global_mem_size > 0", cpu.get_info<sycl::info::device::global_mem_size>() > 0);
  check("max_mem_alloc_size > 0", cpu.get_info<sycl::info::device::max_mem_alloc_size>() > 0);
  check("max_mem_alloc_size <= global_mem_size",
        cpu.get_info<sycl::info::device::max_mem_alloc_size>() <= cpu.get_info<sycl::info::device::global_mem_size>());
  check("max_work_group_size > 0", cpu.get_info<sycl::info::device::max_work_group_size>() > 0);
  checkEqual("max_work_item_dimensions", 3u, cpu.get_info<sycl::info::device::max_work_item_dimensions>());
  checkEqual("is_available", true, cpu.get_info<sycl::info::device::is_available>());
  check("has(aspect::cpu)", cpu.has(sycl::aspect::cpu));
  check("not has(aspect::gpu)", !cpu.has(sycl::aspect::gpu));
  check("has(aspect::usm_device_allocations)", cpu.has(sycl::aspect::usm_device_allocations));
  // (An OpenCL CPU device, chosen when ONEPASS_DEVICE_SELECTOR leaves only
  // it, claims no fp16 yet.)
  if (cpu.get_backend() == sycl::backend::ext_onepass_cpu)
    check("has(aspect::fp16): sycl::half runs on the CPU device", cpu.has(sycl::aspect::fp16));
  check("info::device::is_compiler_available (the JIT)", cpu.get_info<sycl::info::device::is_compiler_available>());
  check("info::device::is_linker_available", cpu.get_info<sycl::info::device::is_linker_available>());
  std::vector<sycl::aspect> aspects = cpu.get_info<sycl::info::device::aspects>();
  check("info::device::aspects lists aspect::cpu", contains(aspects, sycl::aspect::cpu));
  check("info::device::aspects lists aspect::usm_device_allocations",
        contains(aspects, sycl::aspect::usm_device_allocations));
  checkEqual("the device's backend is its platform's", true, cpu.get_backend() == cpu.get_platform().get_backend());
  checkEqual("info::device::platform is get_platform()", true,
             cpu.get_info<sycl::info::device::platform>() == cpu.get_platform());
}

// The rest of Table 4.6.4.2, on every device: values the spec constrains.
void allDescriptors() {
  namespace d = sycl::info::device;
  for (const sycl::device &dev : sycl::device::get_devices()) {
    const std::string n = dev.get_info<d::name>() + ": ";
    const bool gpu = dev.is_gpu();
    checkEqual(n + "preferred_vector_width_float", 1u, dev.get_info<d::preferred_vector_width_float>());
    const std::uint32_t nativeChar = dev.get_info<d::native_vector_width_char>();
    // GPUs: scalar lanes; the CPU: its widest vector register's lanes.
    checkEqual(n + "native_vector_width_int", gpu ? 1u : nativeChar / 4, dev.get_info<d::native_vector_width_int>());
    checkEqual(n + "native_vector_width_double (fp64)", dev.has(sycl::aspect::fp64) ? (gpu ? 1u : nativeChar / 8) : 0u,
               dev.get_info<d::native_vector_width_double>());
    checkEqual(n + "native_vector_width_long_long (not SYCL 2020; the CTS asks)", gpu ? 1u : nativeChar / 8,
               dev.get_info<d::native_vector_width_long_long>());
    checkEqual(n + "preferred_vector_width_long_long", 1u, dev.get_info<d::preferred_vector_width_long_long>());
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    check(n + "has_extension (deprecated): OnePass lists none", !dev.has_extension("cl_khr_fp64") &&
                                                                    dev.get_info<d::extensions>().empty());
#pragma clang diagnostic pop
    if (gpu) checkEqual(n + "native_vector_width_char", 1u, nativeChar);
    else check(n + "native_vector_width_char: 16, 32 or 64 bytes", nativeChar == 16 || nativeChar == 32 || nativeChar == 64);
    const std::uint32_t groups = dev.get_info<d::max_num_sub_groups>();
    check(n + "max_num_sub_groups * smallest sub-group size covers max_work_group_size",
          groups * dev.get_info<d::sub_group_sizes>().front() >= dev.get_info<d::max_work_group_size>());
    // Images (every device has aspect::image): at least §4.6.4.2's minimums.
    check(n + "aspect::image", dev.has(sycl::aspect::image));
    checkEqual(n + "image_support agrees with aspect::image", true, dev.get_info<d::image_support>());
    check(n + "max_samplers >= 16", dev.get_info<d::max_samplers>() >= 16u);
    check(n + "max_read_image_args >= 128", dev.get_info<d::max_read_image_args>() >= 128u);
    check(n + "max_write_image_args >= 8", dev.get_info<d::max_write_image_args>() >= 8u);
    check(n + "image2d_max_width/height >= 8192", dev.get_info<d::image2d_max_width>() >= 8192 &&
                                                      dev.get_info<d::image2d_max_height>() >= 8192);
    check(n + "image3d_max_width/height/depth >= 2048", dev.get_info<d::image3d_max_width>() >= 2048 &&
                                                            dev.get_info<d::image3d_max_height>() >= 2048 &&
                                                            dev.get_info<d::image3d_max_depth>() >= 2048);
    check(n + "max_parameter_size >= 1024 (§4.6.4.2 minimum)", dev.get_info<d::max_parameter_size>() >= 1024);
    const auto single = dev.get_info<d::single_fp_config>();
    check(n + "single_fp_config has round_to_nearest and inf_nan (§4.6.4.2 minimum)",
          contains(single, sycl::info::fp_config::round_to_nearest) && contains(single, sycl::info::fp_config::inf_nan));
    checkEqual(n + "double_fp_config empty exactly without fp64", !dev.has(sycl::aspect::fp64),
               dev.get_info<d::double_fp_config>().empty());
    checkEqual(n + "half_fp_config empty exactly without fp16", !dev.has(sycl::aspect::fp16),
               dev.get_info<d::half_fp_config>().empty());
    checkEqual(n + "global_mem_cache_type", static_cast<int>(sycl::info::global_mem_cache_type::read_write),
               static_cast<int>(dev.get_info<d::global_mem_cache_type>()));
    check(n + "global_mem_cache_size > 0", dev.get_info<d::global_mem_cache_size>() > 0);
    checkEqual(n + "local_mem_type", static_cast<int>(gpu ? sycl::info::local_mem_type::local
                                                          : sycl::info::local_mem_type::global),
               static_cast<int>(dev.get_info<d::local_mem_type>()));
    checkEqual(n + "host_unified_memory", !gpu, dev.get_info<d::host_unified_memory>());
    checkEqual(n + "is_endian_little", true, dev.get_info<d::is_endian_little>());
    checkEqual(n + "profiling_timer_resolution (ns)", std::size_t(1), dev.get_info<d::profiling_timer_resolution>());
    checkEqual(n + "execution_capabilities", std::size_t(1), dev.get_info<d::execution_capabilities>().size());
    checkEqual(n + "queue_profiling agrees with the aspect", dev.has(sycl::aspect::queue_profiling),
               dev.get_info<d::queue_profiling>());
    checkEqual(n + "built_in_kernel_ids", std::size_t(0), dev.get_info<d::built_in_kernel_ids>().size());
    checkEqual(n + "profile", std::string("FULL_PROFILE"), dev.get_info<d::profile>());
    check(n + "printf_buffer_size > 0", dev.get_info<d::printf_buffer_size>() > 0);
    // §4.6.4.2: no OnePass device can be partitioned.
    checkEqual(n + "partition_max_sub_devices", 0u, dev.get_info<d::partition_max_sub_devices>());
    checkEqual(n + "partition_properties", std::size_t(0), dev.get_info<d::partition_properties>().size());
    checkEqual(n + "partition_affinity_domains", std::size_t(0), dev.get_info<d::partition_affinity_domains>().size());
    checkEqual(n + "partition_type_property", static_cast<int>(sycl::info::partition_property::no_partition),
               static_cast<int>(dev.get_info<d::partition_type_property>()));
    checkEqual(n + "partition_type_affinity_domain",
               static_cast<int>(sycl::info::partition_affinity_domain::not_applicable),
               static_cast<int>(dev.get_info<d::partition_type_affinity_domain>()));
    checkThrows(n + "parent_device of a root device", sycl::errc::invalid,
                [&] { dev.get_info<d::parent_device>(); });
    checkThrows(n + "create_sub_devices<partition_equally>", sycl::errc::feature_not_supported,
                [&] { dev.create_sub_devices<sycl::info::partition_property::partition_equally>(1); });
    checkThrows(n + "create_sub_devices<partition_by_counts>", sycl::errc::feature_not_supported,
                [&] { dev.create_sub_devices<sycl::info::partition_property::partition_by_counts>({1, 1}); });
    checkThrows(n + "create_sub_devices<partition_by_affinity_domain>", sycl::errc::feature_not_supported, [&] {
      dev.create_sub_devices<sycl::info::partition_property::partition_by_affinity_domain>(
          sycl::info::partition_affinity_domain::next_partitionable);
    });
  }
}

void selectors() {
  sycl::queue cpuQueue(sycl::cpu_selector_v);
  std::printf("queue(cpu_selector_v) runs on: %s\n",
              cpuQueue.get_device().get_info<sycl::info::device::name>().c_str());
  check("queue(cpu_selector_v) device is_cpu()", cpuQueue.get_device().is_cpu());
  checkEqual("queue::get_info<info::queue::device>()", true,
             cpuQueue.get_info<sycl::info::queue::device>() == cpuQueue.get_device());
  std::vector<sycl::device> contextDevices = cpuQueue.get_context().get_devices();
  checkEqual("the queue's context holds its device", true,
             std::find(contextDevices.begin(), contextDevices.end(), cpuQueue.get_device()) != contextDevices.end());
  checkQueueRuns("queue(cpu_selector_v)", cpuQueue);

  sycl::queue defaultQueue(sycl::default_selector_v);
  checkQueueRuns("queue(default_selector_v)", defaultQueue);
  checkEqual("device(default_selector_v) is the default device", true,
             sycl::device(sycl::default_selector_v) == sycl::device());

  sycl::queue aspectQueue(sycl::aspect_selector(sycl::aspect::cpu, sycl::aspect::usm_shared_allocations));
  check("queue(aspect_selector(cpu, usm_shared_allocations)) is on a CPU", aspectQueue.get_device().is_cpu());
  checkQueueRuns("queue(aspect_selector(cpu))", aspectQueue);

  // A user-written selector: any callable returning a score.
  sycl::queue customQueue([](const sycl::device &d) { return d.is_cpu() ? 5 : -1; });
  check("queue(custom selector) is on a CPU", customQueue.get_device().is_cpu());

  if (sycl::device::get_devices(sycl::info::device_type::gpu).empty()) {
    checkThrows("queue(gpu_selector_v) without a GPU", sycl::errc::runtime,
                [] { sycl::queue gpuQueue(sycl::gpu_selector_v); });
    checkThrows("device(aspect_selector(aspect::gpu)) without a GPU", sycl::errc::runtime,
                [] { sycl::device gpu(sycl::aspect_selector(sycl::aspect::gpu)); });
    checkThrows("queue(selector rejecting every device)", sycl::errc::runtime,
                [] { sycl::queue none([](const sycl::device &) { return -1; }); });
  } else {
    sycl::queue gpuQueue(sycl::gpu_selector_v);
    check("queue(gpu_selector_v) device is_gpu()", gpuQueue.get_device().is_gpu());
  }
}

}  // namespace

int main() {
  onepass_test::runPart("platforms", [] { platforms(); });
  onepass_test::runPart("CPU device", [] { cpuDevice(); });
  onepass_test::runPart("selectors", [] { selectors(); });
  onepass_test::runPart("every descriptor of Table 4.6.4.2", [] { allDescriptors(); });
  // §4.6.2: a platform has an aspect when all its devices have it.
  for (const sycl::platform &p : sycl::platform::get_platforms()) {
    bool all = true;
    for (const sycl::device &d : p.get_devices()) all = all && d.has(sycl::aspect::fp64);
    onepass_test::checkEqual("platform::has(fp64) of " + p.get_info<sycl::info::platform::name>(), all,
                             p.has(sycl::aspect::fp64));
    onepass_test::check("platform::has(custom) is false", !p.has(sycl::aspect::custom));
  }
  {
    // §4.6.3: context constructors with properties, and context info.
    sycl::context plain{sycl::property_list{}};
    int handled = 0;
    sycl::context withHandler(
        sycl::device(), [&](sycl::exception_list l) { handled += int(l.size()); }, sycl::property_list{});
    check("context(property_list) has no in_order property", !plain.has_property<sycl::property::queue::in_order>());
    checkThrows("context::get_property of an absent property", sycl::errc::invalid,
                [&] { plain.get_property<sycl::property::queue::in_order>(); });
    check("info::context::platform", plain.get_info<sycl::info::context::platform>() == plain.get_platform());
    checkEqual("info::context::devices", std::size_t(1), withHandler.get_info<sycl::info::context::devices>().size());
    const auto orders = plain.get_info<sycl::info::context::atomic_memory_order_capabilities>();
    check("a context's atomic orders include seq_cst",
          std::find(orders.begin(), orders.end(), sycl::memory_order::seq_cst) != orders.end());
    const auto scopes = plain.get_info<sycl::info::context::atomic_fence_scope_capabilities>();
    checkEqual("a context's fence scopes: all five", std::size_t(5), scopes.size());
    const auto deviceOrders = sycl::device().get_info<sycl::info::device::atomic_memory_order_capabilities>();
    checkEqual("a device's atomic orders: all five", std::size_t(5), deviceOrders.size());
    // §4.6.1.1 aspect_selector with a deny list, and its template form.
    sycl::device cpu(sycl::aspect_selector({sycl::aspect::cpu}, {sycl::aspect::gpu}));
    check("aspect_selector(required, denied)", cpu.is_cpu());
    checkThrows("aspect_selector denying what every device has", sycl::errc::runtime,
                [] { sycl::device none(sycl::aspect_selector({}, {sycl::aspect::usm_device_allocations})); });
    check("aspect_selector<aspect::cpu>()", sycl::device(sycl::aspect_selector<sycl::aspect::cpu>()).is_cpu());
    static_assert(sycl::any_device_has_v<sycl::aspect::gpu> && !sycl::any_device_has_v<sycl::aspect::custom>);
    static_assert(sycl::all_devices_have_v<sycl::aspect::usm_shared_allocations> &&
                  !sycl::all_devices_have_v<sycl::aspect::cpu>);
  }
  static_assert(std::is_same_v<sycl::item<2>, sycl::item<2, true>>, "§4.9.1.4: WithOffset defaults to true");
  for (const sycl::platform &p : sycl::platform::get_platforms()) {
    const auto automatic = p.get_devices(sycl::info::device_type::automatic);
    checkEqual("platform::get_devices(automatic): one device", std::size_t(1), automatic.size());
  }
  {
    sycl::platform p;
    sycl::context overPlatform(p);
    checkEqual("context(platform) has the platform's devices", p.get_devices().size(),
               overPlatform.get_devices().size());
  }
  return onepass_test::report();
}
