// Kernel identifiers, kernel bundles and the kernel class (SYCL 2020 §4.11,
// §4.9.4.4): names registered by the kernel invocations, bundles built ahead
// of launches, launches from a bundle, input and object bundles with
// compile/link/build and specialization constants set on them, kernel
// queries, and the errors the specification names.
#include "check.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <unordered_set>
#include <vector>

using onepass_test::check;
using onepass_test::checkEqual;
using onepass_test::checkThrows;

class AddOne;
class Scale;
class Fixed;
class NotAKernel;
class Unlaunched;
class OtherContext;
class ReadsConstants;

constexpr sycl::specialization_id<int> kOffset(1);
constexpr sycl::specialization_id<float> kGain(1.0f);
constexpr sycl::specialization_id<int> kUnread(5);  // set on bundles, read by no kernel

// Input and object bundles, compile/link/build, and specialization constants
// set on an input bundle (§4.11.11, §4.11.12.2, §4.9.5.2).
void statesAndConstants(sycl::queue &q, int *out) {
  const sycl::context ctx = q.get_context();
  const sycl::kernel_id id = sycl::get_kernel_id<ReadsConstants>();
  auto input = sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, {q.get_device()}, {id});
  // §4.11.12.2: a bundle "uses" the constants its kernels read, set or not.
  check("an input bundle holds the kernel", input.has_kernel(id));
  check("its kernel reads specialization constants",
        input.contains_specialization_constants() && input.native_specialization_constant());
  check("the bundle uses kOffset and kGain, which its kernel reads",
        input.has_specialization_constant<kOffset>() && input.has_specialization_constant<kGain>());
  checkEqual("a constant's default in a bundle", 1, input.get_specialization_constant<kOffset>());
  input.set_specialization_constant<kOffset>(40);
  input.set_specialization_constant<kGain>(2.5f);
  input.set_specialization_constant<kUnread>(9);
  check("a constant set on the bundle that no kernel reads is not used", !input.has_specialization_constant<kUnread>());
  checkEqual("its value is kept all the same", 9, input.get_specialization_constant<kUnread>());
  auto plain =
      sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, {q.get_device()}, {sycl::get_kernel_id<AddOne>()});
  check("a bundle whose kernels read no constants contains none", !plain.contains_specialization_constants() &&
                                                                      !plain.native_specialization_constant() &&
                                                                      !plain.has_specialization_constant<kOffset>());
  checkEqual("get_specialization_constant of the bundle", 40, input.get_specialization_constant<kOffset>());
  auto object = sycl::compile(input);
  auto executable = sycl::link(object);
  auto built = sycl::build(input);
  checkEqual("the constants travel through compile and link", 40, executable.get_specialization_constant<kOffset>());
  check("link and build give executable bundles with the kernel", executable.has_kernel(id) && built.has_kernel(id));
  for (int round = 0; round < 2; ++round) {
    q.submit([&](sycl::handler &h) {
       h.use_kernel_bundle(round == 0 ? executable : built);
       checkThrows("handler::set_specialization_constant with a bundle", sycl::errc::invalid,
                   [&] { h.set_specialization_constant<kOffset>(1); });
       h.single_task<ReadsConstants>([=](sycl::kernel_handler kh) {
         out[round] = kh.get_specialization_constant<kOffset>() +
                      static_cast<int>(kh.get_specialization_constant<kGain>() * 4.0f);
       });
     }).wait();
  }
  // The other order (§4.9.4.4): a bundle after the handler's own constants.
  q.submit([&](sycl::handler &h) {
     h.set_specialization_constant<kOffset>(1);
     checkThrows("handler::use_kernel_bundle after set_specialization_constant", sycl::errc::invalid,
                 [&] { h.use_kernel_bundle(executable); });
     h.single_task<ReadsConstants>(
         [=](sycl::kernel_handler kh) { out[2] = kh.get_specialization_constant<kOffset>(); });
   }).wait();
  checkEqual("that command group's kernel takes the handler's value", 1, out[2]);
  checkEqual("a kernel of the linked bundle reads the bundle's constants", 50, out[0]);
  checkEqual("a kernel of the built bundle reads them", 50, out[1]);
  // The bundle's values are fixed once built: a later set on the input bundle
  // changes only bundles made after it.
  input.set_specialization_constant<kOffset>(7);
  checkEqual("a built bundle keeps its values", 40, built.get_specialization_constant<kOffset>());
  checkEqual("a new build takes the new value", 7, sycl::build(input).get_specialization_constant<kOffset>());
  auto joined = sycl::join(std::vector<sycl::kernel_bundle<sycl::bundle_state::input>>{
      sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx, {q.get_device()}, {id}), input});
  checkEqual("join takes the bundles' constants", 7, joined.get_specialization_constant<kOffset>());
  // device_image: common reference semantics.
  auto again = sycl::build(input);
  check("the same kernel's image for the same devices compares equal", *built.begin() == *again.begin());
  std::unordered_set<sycl::device_image<sycl::bundle_state::executable>> images(built.begin(), built.end());
  images.insert(again.begin(), again.end());
  checkEqual("equal images hash alike", std::size_t(1), images.size());
}

struct ScaleKernel {
  float *data;
  float factor;
  void operator()(sycl::id<1> i) const { data[i] *= factor; }
};

void unlaunched(sycl::queue &q, int *data) {
  // Compiled, never called: its name is still registered (at program start).
  q.single_task<Unlaunched>([=] { *data = 7; });
}

int main(int argc, char **) {
  sycl::queue q;
  sycl::context ctx = q.get_context();
  sycl::device dev = q.get_device();
  constexpr std::size_t n = 256;
  float *data = sycl::malloc_shared<float>(n, q);
  for (std::size_t i = 0; i < n; ++i) data[i] = float(i);

  // Identifiers of named kernels, before any launch.
  sycl::kernel_id addId = sycl::get_kernel_id<AddOne>();
  sycl::kernel_id scaleId = sycl::get_kernel_id<Scale>();
  check("kernel ids of different kernels differ", addId != scaleId);
  check("the same name gives the same id", addId == sycl::get_kernel_id<AddOne>());
  check("a kernel id has a name naming the kernel", std::string(addId.get_name()).find("AddOne") != std::string::npos);
  check("a kernel never launched has an id too", sycl::get_kernel_id<Unlaunched>() != addId);
  std::vector<sycl::kernel_id> all = sycl::get_kernel_ids();
  check("get_kernel_ids lists AddOne", std::find(all.begin(), all.end(), addId) != all.end());
  check("get_kernel_ids lists Scale", std::find(all.begin(), all.end(), scaleId) != all.end());
  std::unordered_set<sycl::kernel_id> hashed(all.begin(), all.end());
  checkEqual("kernel ids hash as they compare", all.size(), hashed.size());
  checkThrows("get_kernel_id of a name no kernel uses", sycl::errc::invalid, [] { sycl::get_kernel_id<NotAKernel>(); });
  check("is_compatible with the queue's device", sycl::is_compatible<AddOne>(dev));

  // An executable bundle of one kernel, built now.
  auto bundle = sycl::get_kernel_bundle<AddOne, sycl::bundle_state::executable>(ctx);
  check("the bundle is not empty", !bundle.empty());
  check("the bundle has AddOne", bundle.has_kernel(addId));
  check("the bundle has AddOne by name", bundle.has_kernel<AddOne>());
  check("the bundle has AddOne for the device", bundle.has_kernel(addId, dev));
  check("the bundle lacks Scale", !bundle.has_kernel(scaleId));
  check("the bundle's context", bundle.get_context() == ctx);
  checkEqual("the bundle's devices", ctx.get_devices().size(), bundle.get_devices().size());
  checkEqual("the bundle's kernel ids", std::size_t(1), bundle.get_kernel_ids().size());
  std::size_t images = 0;
  for (const auto &image : bundle) {
    ++images;
    check("its device image holds AddOne", image.has_kernel(addId) && image.has_kernel(addId, dev));
  }
  checkEqual("one device image per kernel", std::size_t(1), images);
  check("the same request gives an equal bundle",
        bundle == sycl::get_kernel_bundle<AddOne, sycl::bundle_state::executable>(ctx));

  sycl::kernel k = bundle.get_kernel(addId);
  check("get_kernel<Name> gives the same kernel", k == bundle.get_kernel<AddOne>());
  check("the kernel's context", k.get_context() == ctx);
  check("the kernel's bundle", k.get_kernel_bundle() == bundle);
  check("the kernel's backend", k.get_backend() == dev.get_backend());
  checkThrows("get_kernel of a kernel not in the bundle", sycl::errc::invalid, [&] { bundle.get_kernel(scaleId); });

  // Queries (§4.11.13.2).
  const std::size_t wg = k.get_info<sycl::info::kernel_device_specific::work_group_size>(dev);
  check("work_group_size is positive and at most the device's",
        wg > 0 && wg <= dev.get_info<sycl::info::device::max_work_group_size>());
  check("no compile_work_group_size without the attribute",
        k.get_info<sycl::info::kernel_device_specific::compile_work_group_size>(dev) == sycl::range<3>(0, 0, 0));
  const auto sgMax = k.get_info<sycl::info::kernel_device_specific::max_sub_group_size>(dev);
  const auto sizes = dev.get_info<sycl::info::device::sub_group_sizes>();
  check("max_sub_group_size is one of the device's", std::find(sizes.begin(), sizes.end(), sgMax) != sizes.end());
  checkEqual("compile_sub_group_size without the attribute", 0u,
             k.get_info<sycl::info::kernel_device_specific::compile_sub_group_size>(dev));
  const auto preferred = k.get_info<sycl::info::kernel_device_specific::preferred_work_group_size_multiple>(dev);
  check("preferred multiple within work_group_size", preferred >= 1 && preferred <= wg);
  check("max_num_sub_groups covers work_group_size",
        std::size_t(k.get_info<sycl::info::kernel_device_specific::max_num_sub_groups>(dev)) * sgMax >= wg);
  checkEqual("attributes of a kernel without any", std::string(), k.get_info<sycl::info::kernel::attributes>());
  checkThrows("info::kernel::num_args", sycl::errc::invalid, [&] { k.get_info<sycl::info::kernel::num_args>(); });
  checkThrows("global_work_size", sycl::errc::invalid,
              [&] { k.get_info<sycl::info::kernel_device_specific::global_work_size>(dev); });

  // A kernel with [[sycl::reqd_work_group_size]]: its attributes and sizes.
  auto fixedBundle = sycl::get_kernel_bundle<Fixed, sycl::bundle_state::executable>(ctx);
  sycl::kernel fixed = fixedBundle.get_kernel<Fixed>();
  checkEqual("attributes of a kernel with reqd_work_group_size", std::string("reqd_work_group_size(8,4)"),
             fixed.get_info<sycl::info::kernel::attributes>());
  check("compile_work_group_size of reqd_work_group_size(8,4)",
        fixed.get_info<sycl::info::kernel_device_specific::compile_work_group_size>(dev) == sycl::range<3>(8, 4, 1));
  checkEqual("work_group_size of reqd_work_group_size(8,4)", std::size_t(32),
             fixed.get_info<sycl::info::kernel_device_specific::work_group_size>(dev));

  // Launching from the bundle: runs its binary.
  q.submit([&](sycl::handler &h) {
     h.use_kernel_bundle(bundle);
     h.parallel_for<AddOne>(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] += 1.0f; });
   }).wait();
  bool added = true;
  for (std::size_t i = 0; i < n; ++i) added = added && data[i] == float(i) + 1.0f;
  check("a launch from the bundle computes", added);
  checkThrows("a kernel not in the bundle the command group uses", sycl::errc::kernel_not_supported, [&] {
    q.submit([&](sycl::handler &h) {
      h.use_kernel_bundle(bundle);
      h.parallel_for<Scale>(sycl::range<1>(n), ScaleKernel{data, 2.0f});
    });
  });
  // The same kernel without the bundle, and a bundle of every kernel.
  q.parallel_for<Scale>(sycl::range<1>(n), ScaleKernel{data, 2.0f}).wait();
  check("Scale ran", data[3] == 8.0f);
  auto everything = sycl::get_kernel_bundle<sycl::bundle_state::executable>(ctx);
  check("a bundle of every kernel has AddOne and Scale",
        everything.has_kernel(addId) && everything.has_kernel(scaleId) && everything.has_kernel<Unlaunched>());
  q.submit([&](sycl::handler &h) {
     h.use_kernel_bundle(everything);
     h.parallel_for<Scale>(sycl::range<1>(n), ScaleKernel{data, 0.5f});
   }).wait();
  check("a launch from the bundle of every kernel", data[3] == 4.0f);
  auto joined = sycl::join(std::vector<sycl::kernel_bundle<sycl::bundle_state::executable>>{
      bundle, sycl::get_kernel_bundle<Scale, sycl::bundle_state::executable>(ctx)});
  check("a joined bundle has both kernels", joined.has_kernel(addId) && joined.has_kernel(scaleId));
  check("has_kernel_bundle<executable> for AddOne",
        sycl::has_kernel_bundle<AddOne, sycl::bundle_state::executable>(ctx));
  check("input bundles exist (the JIT is an online compiler)",
        sycl::has_kernel_bundle<AddOne, sycl::bundle_state::input>(ctx) && dev.has(sycl::aspect::online_compiler) &&
            dev.has(sycl::aspect::online_linker));

  // Errors (§4.11.7, §4.9.4.4).
  checkThrows("get_kernel_bundle with no devices", sycl::errc::invalid,
              [&] { sycl::get_kernel_bundle<sycl::bundle_state::executable>(ctx, std::vector<sycl::device>{}); });
  checkThrows("build for no devices", sycl::errc::invalid, [&] {
    (void)sycl::build(sycl::get_kernel_bundle<sycl::bundle_state::input>(ctx), std::vector<sycl::device>{});
  });
  check("join of no bundles: an empty bundle",
        sycl::join(std::vector<sycl::kernel_bundle<sycl::bundle_state::input>>{}).empty());
  checkThrows("link of no bundles", sycl::errc::invalid,
              [&] { (void)sycl::link(std::vector<sycl::kernel_bundle<sycl::bundle_state::object>>{}); });
  sycl::context other(dev);
  checkThrows("use_kernel_bundle of another context", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.use_kernel_bundle(sycl::get_kernel_bundle<OtherContext, sycl::bundle_state::executable>(other));
      h.parallel_for<OtherContext>(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] += 1.0f; });
    });
  });

  {
    int *out = sycl::malloc_shared<int>(3, q);
    statesAndConstants(q, out);
    sycl::free(out, q);
  }
  if (argc > 1) unlaunched(q, nullptr);  // referenced, never run
  q.parallel_for<Fixed>(sycl::nd_range<2>({8, 4}, {8, 4}), [=](sycl::nd_item<2> it) [[sycl::reqd_work_group_size(8,
                                                                                                                 4)]] {
     data[it.get_global_linear_id()] = 1.0f;
   }).wait();
  sycl::free(data, q);
  return onepass_test::report();
}
