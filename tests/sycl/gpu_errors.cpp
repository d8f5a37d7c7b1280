// GPU failures become clear SYCL errors, never hangs or silent wrong results,
// and the CPU device keeps working after them. Run as `sycl-gpu_errors MODE`:
//   no-driver   without libcuda.so.1: the GPU selector names the missing driver
//   old-driver  a driver too old for the device's PTX: errc::build at submit
//   no-libdevice  a kernel calling math functions when the CUDA toolkit's
//               libdevice is not there: errc::build naming libdevice and
//               ONEPASS_CUDA_PATH; kernels without math still run
//   oom         device memory exhausted: malloc_device returns null, a buffer
//               that does not fit is errc::memory_allocation
//   fault       a kernel faults on the device: an asynchronous errc::kernel
//               naming the kernel and the driver's error, at wait_and_throw
//   textures    sampled images on texture hardware: one CUDA array and one
//               texture object per image, of its format and sampler, made at
//               its first kernel, reused, freed with the image; samplers the
//               hardware lacks and oversized images stay in software
//   feeder      back-to-back commands whose driver calls the feeder thread
//               makes (ONEPASS_GPU_FEEDER): copies land in submission order,
//               dependencies between queues hold, every event completes, also
//               with several threads submitting at once
// CTest runs the modes against the fake driver of tests/fake_cuda (see
// tests/sycl/CMakeLists.txt); on a GPU machine, `oom` and `fault` also run
// against the real driver (scripts/device/run.sh).
#include "check.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

// The CPU device still computes correctly.
void checkCpuStillWorks() {
  sycl::queue cpu{sycl::cpu_selector_v};
  int *data = sycl::malloc_shared<int>(1024, cpu);
  cpu.parallel_for(sycl::range<1>(1024), [=](sycl::id<1> i) { data[i] = static_cast<int>(i[0]) * 3; }).wait();
  int wrong = 0;
  for (int i = 0; i < 1024; ++i) wrong += data[i] != i * 3;
  onepass_test::checkEqual("CPU results after the GPU failure, wrong values", 0, wrong);
  sycl::free(data, cpu);
}

void noDriver() {
  try {
    sycl::device gpu{sycl::gpu_selector_v};
    onepass_test::fail("the GPU selector", "no device", gpu.get_info<sycl::info::device::name>());
  } catch (const sycl::exception &e) {
    onepass_test::checkEqual("error code", sycl::errc::runtime, static_cast<sycl::errc>(e.code().value()));
    onepass_test::check("the message names the missing driver library: " + std::string(e.what()),
                        contains(e.what(), "libcuda.so.1"));
  }
}

void oldDriver() {
  sycl::queue gpu{sycl::gpu_selector_v};
  int *data = sycl::malloc_device<int>(16, gpu);
  try {
    gpu.parallel_for(sycl::range<1>(16), [=](sycl::id<1> i) { data[i] = 1; }).wait();
    onepass_test::fail("a kernel for a driver too old for it", "errc::build", "no exception");
  } catch (const sycl::exception &e) {
    std::string what = e.what();
    onepass_test::checkEqual("error code", sycl::errc::build, static_cast<sycl::errc>(e.code().value()));
    onepass_test::check("the message says the driver is too old and what is needed: " + what,
                        contains(what, "too old") && contains(what, "PTX ISA 7.8") && contains(what, "sm_90"));
  }
  sycl::free(data, gpu);
}

void noLibdevice() {
  sycl::queue gpu{sycl::gpu_selector_v};
  float *data = sycl::malloc_shared<float>(16, gpu);
  try {
    gpu.parallel_for(sycl::range<1>(16), [=](sycl::id<1> i) { data[i] = sycl::sin(float(i[0])); }).wait();
    onepass_test::fail("a math kernel without libdevice", "errc::build", "no exception");
  } catch (const sycl::exception &e) {
    std::string what = e.what();
    onepass_test::checkEqual("error code", sycl::errc::build, static_cast<sycl::errc>(e.code().value()));
    onepass_test::check("the message names libdevice, the call and the setting: " + what,
                        contains(what, "libdevice") && contains(what, "sinf") && contains(what, "ONEPASS_CUDA_PATH"));
  }
  onepass_test::checkNoThrow("a kernel without math", [&] {
    gpu.parallel_for(sycl::range<1>(16), [=](sycl::id<1> i) { data[i] = float(i[0]); }).wait();
  });
  sycl::free(data, gpu);
}

void outOfMemory() {
  sycl::queue gpu{sycl::gpu_selector_v};
  const uint64_t total = gpu.get_device().get_info<sycl::info::device::global_mem_size>();
  // More than the device has: null, as SYCL 2020 §4.8.3 says.
  void *tooMuch = sycl::malloc_device(total + (uint64_t(1) << 30), gpu);
  onepass_test::check("malloc_device of more than the device memory returns null", tooMuch == nullptr);
  // A buffer that cannot get device memory: a synchronous error at submit.
  try {
    sycl::buffer<char, 1> huge{sycl::range<1>(total + (uint64_t(1) << 30))};
    gpu.submit([&](sycl::handler &h) {
      sycl::accessor a{huge, h, sycl::write_only, sycl::no_init};
      h.single_task([=] { a[0] = 1; });
    });
    gpu.wait();
    onepass_test::fail("a buffer larger than the device memory", "errc::memory_allocation", "no exception");
  } catch (const sycl::exception &e) {
    onepass_test::checkEqual("error code", sycl::errc::memory_allocation, static_cast<sycl::errc>(e.code().value()));
    onepass_test::check("the message names the device and the size: " + std::string(e.what()),
                        contains(e.what(), "bytes") && contains(e.what(), "device"));
  }
  // Memory that fits still works after the failures.
  int *fits = sycl::malloc_device<int>(1024, gpu);
  onepass_test::check("a small allocation still succeeds", fits != nullptr);
  int host[4] = {1, 2, 3, 4}, back[4] = {};
  gpu.memcpy(fits, host, sizeof host).wait();
  gpu.memcpy(back, fits, sizeof back).wait();
  onepass_test::check("a copy through the device after the failures", std::memcmp(host, back, sizeof host) == 0);
  sycl::free(fits, gpu);
}

void fault() {
  int errors = 0;
  std::string messages;
  sycl::queue gpu{sycl::gpu_selector_v, [&](sycl::exception_list list) {
                    for (const std::exception_ptr &error : list) {
                      try {
                        std::rethrow_exception(error);
                      } catch (const sycl::exception &e) {
                        ++errors;
                        messages += std::string(e.what()) + "\n";
                        onepass_test::checkEqual("asynchronous error code", sycl::errc::kernel,
                                                 static_cast<sycl::errc>(e.code().value()));
                      }
                    }
                  }};
  // A write through a null pointer faults on a real GPU (the fake driver is
  // told which launch faults instead).
  int *nowhere = nullptr;
  gpu.single_task([=] { *nowhere = 1; });
  gpu.wait_and_throw();
  onepass_test::checkEqual("asynchronous errors delivered", 1, errors);
  onepass_test::check("the error names the device's complaint: " + messages,
                      contains(messages, "CUDA_ERROR_ILLEGAL_ADDRESS") ||
                          contains(messages, "CUDA_ERROR_LAUNCH_FAILED"));
  onepass_test::check("the error names the kernel's source line: " + messages, contains(messages, "gpu_errors.cpp:"));
}

// Copies are real with the fake driver too: a chain of copies into one
// place, of which the last must win, shows the order the driver got them in.
void feeder() {
  sycl::queue first{sycl::gpu_selector_v, sycl::property::queue::in_order()};
  sycl::queue second{first.get_context(), first.get_device(),
                     sycl::property_list{sycl::property::queue::in_order(), sycl::property::queue::enable_profiling()}};
  constexpr int kCopies = 3000;
  std::vector<int> values(kCopies);
  for (int i = 0; i < kCopies; ++i) values[i] = i * 7 + 1;
  int *slot = sycl::malloc_device<int>(2, first);
  int *counter = sycl::malloc_device<int>(1, first);
  first.memset(slot, 0, 2 * sizeof(int));
  std::vector<sycl::event> kernels;
  for (int i = 0; i < kCopies; ++i) {
    first.memcpy(slot, &values[i], sizeof(int));
    kernels.push_back(first.parallel_for(sycl::range<1>(1), [=](sycl::id<1>) { counter[0] = 1; }));
  }
  // The other queue copies the first's result once it is there: a dependency
  // between two streams while the feeder holds the first's calls.
  sycl::event after = second.memcpy(slot + 1, slot, sizeof(int), kernels.back());
  std::vector<sycl::event> timed;
  for (int i = 0; i < 200; ++i)
    timed.push_back(second.parallel_for(sycl::range<1>(1), [=](sycl::id<1>) { counter[0] = 2; }));
  int back[2] = {};
  second.memcpy(back, slot, sizeof back).wait();
  first.wait();
  onepass_test::checkEqual("the last of the back-to-back copies", values.back(), back[0]);
  onepass_test::checkEqual("the copy that waited for the other queue", values.back(), back[1]);
  int incomplete = 0;
  for (const sycl::event &e : kernels)
    incomplete +=
        e.get_info<sycl::info::event::command_execution_status>() != sycl::info::event_command_status::complete;
  incomplete +=
      after.get_info<sycl::info::event::command_execution_status>() != sycl::info::event_command_status::complete;
  onepass_test::checkEqual("events not complete after the waits", 0, incomplete);
  int unordered = 0;
  uint64_t previousEnd = 0;
  for (const sycl::event &e : timed) {
    const uint64_t start = e.get_profiling_info<sycl::info::event_profiling::command_start>();
    const uint64_t end = e.get_profiling_info<sycl::info::event_profiling::command_end>();
    unordered += start > end || start < previousEnd;
    previousEnd = end;
  }
  onepass_test::checkEqual("profiled commands out of order", 0, unordered);
  sycl::free(slot, first);

  // Several threads feeding the device at once: each through its own
  // in-order queue, and all through one shared out-of-order queue whose
  // commands each thread chains by events.
  constexpr int kThreads = 4, kEach = 800;
  sycl::queue shared{first.get_context(), first.get_device()};
  int *slots = sycl::malloc_device<int>(2 * kThreads, first);
  std::vector<std::vector<int>> sources(kThreads, std::vector<int>(kEach));
  std::vector<int> results(2 * kThreads, -1);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      sycl::queue own{first.get_context(), first.get_device(), sycl::property::queue::in_order()};
      sycl::event chained;
      for (int i = 0; i < kEach; ++i) {
        sources[t][i] = t * 100000 + i;
        own.memcpy(slots + 2 * t, &sources[t][i], sizeof(int));
        own.parallel_for(sycl::range<1>(1), [=](sycl::id<1>) { counter[0] = t; });
        chained = i == 0 ? shared.memcpy(slots + 2 * t + 1, &sources[t][i], sizeof(int))
                         : shared.memcpy(slots + 2 * t + 1, &sources[t][i], sizeof(int), chained);
      }
      own.memcpy(&results[2 * t], slots + 2 * t, sizeof(int)).wait();
      shared.memcpy(&results[2 * t + 1], slots + 2 * t + 1, sizeof(int), chained).wait();
    });
  for (std::thread &thread : threads) thread.join();
  int lost = 0;
  for (int t = 0; t < kThreads; ++t)
    lost += results[2 * t] != t * 100000 + kEach - 1 || results[2 * t + 1] != t * 100000 + kEach - 1;
  onepass_test::checkEqual("threads whose last copy did not land last", 0, lost);
  sycl::free(slots, first);
  sycl::free(counter, first);
}

// A kernel's own limits (kernel_limits: cuFuncGetAttribute) cap what
// kernel::get_info reports: the fake driver gives kernels 640 threads per
// block (FAKE_CUDA_KERNEL_THREADS) and 16 bytes of local memory.
class LimitedKernel;
void kernelLimits() {
  sycl::queue q{sycl::gpu_selector_v};
  int *out = sycl::malloc_device<int>(1, q);
  auto bundle = sycl::get_kernel_bundle<LimitedKernel, sycl::bundle_state::executable>(q.get_context());
  sycl::kernel k = bundle.get_kernel<LimitedKernel>();
  onepass_test::checkEqual("work_group_size from the driver", std::size_t(640),
                           k.get_info<sycl::info::kernel_device_specific::work_group_size>(q.get_device()));
  onepass_test::checkEqual("private_mem_size from the driver", std::size_t(16),
                           k.get_info<sycl::info::kernel_device_specific::private_mem_size>(q.get_device()));
  q.submit([&](sycl::handler &h) {
     h.use_kernel_bundle(bundle);
     h.single_task<LimitedKernel>([=] { *out = 1; });
   }).wait();
  // A hierarchical kernel whose work-groups are larger than the kernel takes
  // (the fake driver refuses blocks above 640 threads) runs each group on
  // one work-item instead of failing; groups it takes run at their size.
  for (std::size_t size : {std::size_t(1000), std::size_t(512)})
    onepass_test::checkNoThrow("hierarchical groups of " + std::to_string(size) + " on a kernel of 640 threads", [&] {
      q.submit([&](sycl::handler &h) {
         h.parallel_for_work_group(sycl::range<1>(2), sycl::range<1>(size), [=](sycl::group<1> g) {
           g.parallel_for_work_item([&](sycl::h_item<1> it) { out[0] = static_cast<int>(it.get_global_id(0)); });
         });
       }).wait();
    });
  sycl::free(out, q);
}

// Memory freed while kernels submitted before still use it, without a wait
// (against §4.8.3.6, but what CUDA tolerates: cuMemFree waits for the
// device): sycl::free hands the submitted commands to the driver first. The
// fake driver (FAKE_CUDA_LAUNCH_AFTER_FREE=fault) faults a launch that comes
// after a device allocation was freed, as a kernel reading freed memory
// does; launches take 20 us each, so the feeder is far behind the submitter.
void freePending() {
  sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::in_order()};
  sycl::queue other{q.get_context(), q.get_device()};
  constexpr int n = 16384, kernels = 2000;
  float *a = sycl::malloc_device<float>(n, q), *b = sycl::malloc_device<float>(n, q),
        *c = sycl::malloc_device<float>(n, q);
  for (int k = 0; k < kernels; ++k)
    q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
      const std::size_t i = it.get_global_id(0);
      c[i] = a[i] + b[i];
    });
  other.wait();  // (not the queue the kernels are on)
  sycl::free(a, q);
  sycl::free(b, q);
  sycl::free(c, q);
  bool failed = false;
  try {
    q.wait_and_throw();
  } catch (const sycl::exception &e) {
    failed = true;
    std::printf("asynchronous error: %s\n", e.what());
  }
  onepass_test::check("kernels submitted before sycl::free ran before the memory was freed", !failed);
}

// A fault while many launches are still on their way to the driver (issue
// 21: the process must report it and finish, its teardown never crash). The
// tenth kernel writes through a null pointer (on the fake driver, the tenth
// launch faults: FAKE_CUDA_FAULT_LAUNCH=10); the ones after it fail too, as
// every call does on a real context after a fault.
void faultPending() {
  int reported = 0;
  sycl::queue q{sycl::gpu_selector_v, [&](sycl::exception_list list) { reported += static_cast<int>(list.size()); },
                sycl::property::queue::in_order()};
  constexpr int n = 16384;
  float *data = sycl::malloc_device<float>(n, q);
  for (int k = 0; k < 2000; ++k) {
    float *target = k == 9 ? nullptr : data;
    q.parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) { target[it.get_global_id(0)] += 1; });
  }
  q.wait_and_throw();
  onepass_test::check("the fault is reported", reported >= 1);
  sycl::free(data, q);  // (on a faulted context: the driver's error is a warning, not a crash)
}

// The fake driver's texture counts (tests/fake_cuda): textures made, live,
// arrays made, live, copies into arrays, then the last texture's address
// mode, filter, flags, array format, width, height, depth (pitched memory:
// row pitch), border nonzero, resource type (0 array, 3 pitched memory).
struct TextureCounts {
  long v[14] = {};
};
TextureCounts textureCounts() {
  TextureCounts counts;
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto read = driver ? reinterpret_cast<void (*)(long *)>(dlsym(driver, "fake_cuda_textures")) : nullptr;
  if (!read) onepass_test::fail("the fake driver's fake_cuda_textures", "a function", "none");
  else read(counts.v);
  return counts;
}

template <int D, typename Image> void sampleOnce(sycl::queue &q, Image &image, sycl::buffer<float> &out) {
  q.submit([&](sycl::handler &h) {
     sycl::sampled_image_accessor<sycl::float4, D> in(image, h);
     sycl::accessor o(out, h, sycl::write_only);
     h.single_task([=] {
       if constexpr (D == 1) o[0] = in.read(0.5f).x();
       else if constexpr (D == 2) o[0] = in.read(sycl::float2{0.5f, 0.5f}).x();
       else o[0] = in.read(sycl::float4{0.5f, 0.5f, 0.5f, 0.0f}).x();
     });
   }).wait();
}

void textures() {
  using sycl::addressing_mode, sycl::filtering_mode, sycl::image_format;
  const auto norm = sycl::coordinate_normalization_mode::normalized;
  const auto unnorm = sycl::coordinate_normalization_mode::unnormalized;
  sycl::queue q{sycl::gpu_selector_v};
  sycl::buffer<float> out(1);
  std::vector<float> texels(4 * 8 * 4, 0.25f);
  {
    sycl::sampled_image<2> image(texels.data(), image_format::r32g32b32a32_sfloat,
                                 {addressing_mode::clamp, norm, filtering_mode::linear}, sycl::range<2>(8, 4));
    sampleOnce<2>(q, image, out);
    sampleOnce<2>(q, image, out);  // the same texture
    const TextureCounts c = textureCounts();
    onepass_test::checkEqual("textures made for one image used twice", 1L, c.v[0]);
    onepass_test::checkEqual("textures live while the image is", 1L, c.v[1]);
    onepass_test::checkEqual("arrays made", 1L, c.v[2]);
    onepass_test::checkEqual("copies into the array", 1L, c.v[4]);
    onepass_test::checkEqual("clamp: border address mode", 3L, c.v[5]);
    onepass_test::checkEqual("linear filter", 1L, c.v[6]);
    onepass_test::checkEqual("normalized coordinates, read as floats", 2L, c.v[7]);
    onepass_test::checkEqual("float array format", 0x20L, c.v[8]);
    onepass_test::checkEqual("array width", 8L, c.v[9]);
    onepass_test::checkEqual("array height", 4L, c.v[10]);
    onepass_test::checkEqual("a 2-D array has no depth", 0L, c.v[11]);
    onepass_test::checkEqual("the border is zeros", 0L, c.v[12]);
  }
  TextureCounts c = textureCounts();
  onepass_test::checkEqual("textures live after the image's end", 0L, c.v[1]);
  onepass_test::checkEqual("arrays live after the image's end", 0L, c.v[3]);
  {
    // Integers are read nearest even with a linear sampler; the slice pitch
    // (40 bytes) is no whole number of rows (16), so each slice is a copy.
    std::vector<unsigned char> bytes(80, 7);
    sycl::sampled_image<3> image(bytes.data(), image_format::r8g8b8a8_sint,
                                 {addressing_mode::clamp_to_edge, unnorm, filtering_mode::linear},
                                 sycl::range<3>(3, 2, 2), sycl::range<2>(16, 40));
    sampleOnce<3>(q, image, out);
    c = textureCounts();
    onepass_test::checkEqual("a second image's texture", 2L, c.v[0]);
    onepass_test::checkEqual("one copy per slice", 3L, c.v[4]);
    onepass_test::checkEqual("clamp_to_edge: clamp address mode", 1L, c.v[5]);
    onepass_test::checkEqual("integers: point filter", 0L, c.v[6]);
    onepass_test::checkEqual("unnormalized coordinates, read as integers", 1L, c.v[7]);
    onepass_test::checkEqual("signed 8-bit array format", 0x08L, c.v[8]);
    onepass_test::checkEqual("array depth", 2L, c.v[11]);
  }
  {
    // repeat of unnormalized coordinates (undefined by SYCL; OnePass's
    // software sampler normalizes them), and an image wider than the
    // device's textures (FAKE_CUDA_TEXTURE_MAX): sampled in software.
    std::vector<float> row(4 * 8, 1.0f);
    sycl::sampled_image<1> repeat(row.data(), image_format::r32g32b32a32_sfloat,
                                  {addressing_mode::repeat, unnorm, filtering_mode::nearest}, sycl::range<1>(8));
    sampleOnce<1>(q, repeat, out);
    std::vector<float> wide(4 * 20000, 1.0f);
    sycl::sampled_image<1> large(wide.data(), image_format::r32g32b32a32_sfloat,
                                 {addressing_mode::clamp_to_edge, norm, filtering_mode::nearest},
                                 sycl::range<1>(20000));
    sampleOnce<1>(q, large, out);
    onepass_test::checkEqual("no texture for repeat of unnormalized coordinates or a too wide image", 2L,
                             textureCounts().v[0]);
  }
  {
    // Unsampled images: a texture of the allocation itself (no array, no
    // copy), nearest, zeros outside, bound only to kernels that do not
    // write the image; 3-D images and rows the driver's pitch alignment (32
    // bytes) does not divide are read in software.
    sycl::unsampled_image<2> image(image_format::r8g8b8a8_unorm, sycl::range<2>(16, 4));
    auto readOnce = [&](bool alsoWrite) {
      q.submit([&](sycl::handler &h) {
         sycl::unsampled_image_accessor<sycl::float4, 2, sycl::access_mode::read> in(image, h);
         sycl::accessor o(out, h, sycl::write_only);
         if (alsoWrite) {
           sycl::unsampled_image_accessor<sycl::float4, 2, sycl::access_mode::write> w(image, h);
           h.single_task([=] {
             w.write(sycl::int2{1, 1}, sycl::float4{1, 1, 1, 1});
             o[0] = in.read(sycl::int2{1, 1}).x();
           });
         } else {
           h.single_task([=] { o[0] = in.read(sycl::int2{1, 1}).x(); });
         }
       }).wait();
    };
    readOnce(true);
    onepass_test::checkEqual("no texture for a kernel that writes the unsampled image it reads", 2L,
                             textureCounts().v[0]);
    readOnce(false);
    readOnce(false);
    c = textureCounts();
    onepass_test::checkEqual("one texture for an unsampled image read twice", 3L, c.v[0]);
    onepass_test::checkEqual("no array for an unsampled image", 2L, c.v[2]);
    onepass_test::checkEqual("unsampled: border address mode (zeros outside)", 3L, c.v[5]);
    onepass_test::checkEqual("unsampled: point filter", 0L, c.v[6]);
    onepass_test::checkEqual("unsampled unorm: read as floats, unnormalized coordinates", 0L, c.v[7]);
    onepass_test::checkEqual("unsampled: unsigned 8-bit format", 0x01L, c.v[8]);
    onepass_test::checkEqual("unsampled: width", 16L, c.v[9]);
    onepass_test::checkEqual("unsampled: height", 4L, c.v[10]);
    onepass_test::checkEqual("unsampled: row pitch", 64L, c.v[11]);
    onepass_test::checkEqual("unsampled: pitched device memory", 3L, c.v[13]);
    sycl::unsampled_image<2> narrow(image_format::r32g32b32a32_sfloat, sycl::range<2>(5, 2));  // rows of 80 bytes
    sycl::unsampled_image<3> volume(image_format::r32g32b32a32_sfloat, sycl::range<3>(4, 2, 2));
    q.submit([&](sycl::handler &h) {
       sycl::unsampled_image_accessor<sycl::float4, 2, sycl::access_mode::read> a(narrow, h);
       sycl::unsampled_image_accessor<sycl::float4, 3, sycl::access_mode::read> b(volume, h);
       sycl::accessor o(out, h, sycl::write_only);
       h.single_task([=] { o[0] = a.read(sycl::int2{0, 0}).x() + b.read(sycl::int4{0, 0, 0, 0}).x(); });
     }).wait();
    onepass_test::checkEqual("no texture for unaligned rows or a 3-D unsampled image", 3L, textureCounts().v[0]);
  }
  onepass_test::checkEqual("textures live after the unsampled image's end", 0L, textureCounts().v[1]);
}

}  // namespace

int main(int argc, char **argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "no-driver") noDriver();
  else if (mode == "old-driver") oldDriver();
  else if (mode == "no-libdevice") noLibdevice();
  else if (mode == "oom") outOfMemory();
  else if (mode == "fault") fault();
  else if (mode == "feeder" || mode == "feeder-back-to-back") feeder();  // (ctest sets the feeder up per name)
  else if (mode == "kernel-limits") kernelLimits();
  else if (mode == "free-pending") freePending();
  else if (mode == "fault-pending") faultPending();
  else if (mode == "textures") textures();
  else {
    std::fprintf(
        stderr,
        "usage: %s no-driver|old-driver|no-libdevice|oom|fault|feeder|kernel-limits|free-pending|fault-pending|"
        "textures\n",
        argv[0]);
    return 2;
  }
  checkCpuStillWorks();
  return onepass_test::report();
}
