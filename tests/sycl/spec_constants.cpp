// Specialization constants without kernel bundles (SYCL 2020 §4.9.5):
// handler::set/get_specialization_constant, kernel_handler in single_task,
// range, nd_range and functor kernels, defaults, values overwritten within a
// command group and not leaking into the next one, constants of struct and
// floating types, and the errors of §4.9.5.2 and of OnePass's limits.
#include "check.h"

#include <sycl/sycl.hpp>

using onepass_test::check;
using onepass_test::checkArray;
using onepass_test::checkEqual;
using onepass_test::checkThrows;

namespace {
// No default constructor: a specialization constant's value type need not
// have one (the CTS's sc_class_with_memb).
struct coefficients {
  constexpr coefficients(float a_, float b_, int shift_) : a(a_), b(b_), shift(shift_) {}
  float a, b;
  int shift;
};
constexpr sycl::specialization_id<int> kWidth(16);
constexpr sycl::specialization_id<double> kFactor(0.5);
constexpr sycl::specialization_id<coefficients> kCoefficients(coefficients{1.0f, 2.0f, 3});
namespace other {
constexpr sycl::specialization_id<int> kWidth(-1);  // same name, another namespace: another constant
}
// Sixteen more, to reach OnePass's limit.
#define SPEC16(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#define DECLARE(N) constexpr sycl::specialization_id<long> kMany##N(N);
SPEC16(DECLARE)
#undef DECLARE
// Instances of one variable template of one value type: distinct constants
// (their mangled names differ).
template <int N> constexpr sycl::specialization_id<short> kTemplated(N);
template <typename T> constexpr sycl::specialization_id<T> kTyped(T(1));

struct functor_kernel {
  int *out;
  void operator()(sycl::id<1> i, sycl::kernel_handler kh) const {
    out[i] = kh.get_specialization_constant<kWidth>() * 10 + static_cast<int>(i[0]);
  }
};

void setMany(sycl::handler &h) {
#define SET(N) h.set_specialization_constant<kMany##N>(N);
  SPEC16(SET)
#undef SET
}
}  // namespace

int main() {
  sycl::queue q;
  int *out = sycl::malloc_shared<int>(64, q);
  double *real = sycl::malloc_shared<double>(4, q);

  // Set, overwritten, read on the host and in a range kernel.
  q.submit([&](sycl::handler &h) {
     checkEqual("handler::get_specialization_constant before any set (the default)", 16,
                h.get_specialization_constant<kWidth>());
     h.set_specialization_constant<kWidth>(5);
     h.set_specialization_constant<kWidth>(7);
     h.set_specialization_constant<kCoefficients>(coefficients{0.25f, 4.0f, 2});
     checkEqual("handler::get_specialization_constant after two sets", 7, h.get_specialization_constant<kWidth>());
     h.parallel_for(sycl::range<1>(8), [=](sycl::item<1> it, sycl::kernel_handler kh) {
       const coefficients c = kh.get_specialization_constant<kCoefficients>();
       out[it[0]] = kh.get_specialization_constant<kWidth>() * 1000 +
                    static_cast<int>(c.a * 4 + c.b) * 100 + c.shift * 10 +
                    (kh.get_specialization_constant<other::kWidth>() == -1);
       if (it[0] == 0) real[0] = kh.get_specialization_constant<kFactor>();
     });
   }).wait();
  checkArray("range kernel: set constants and defaults", 8, out, [](std::size_t) { return 7000 + 500 + 20 + 1; });
  checkEqual("a constant never set: its default", 0.5, real[0]);

  // A new command group starts from the defaults again; nd_range kernel.
  q.submit([&](sycl::handler &h) {
     h.set_specialization_constant<kFactor>(2.25);
     h.parallel_for(sycl::nd_range<1>(16, 4), [=](sycl::nd_item<1> it, sycl::kernel_handler kh) {
       out[it.get_global_id(0)] = kh.get_specialization_constant<kWidth>() + static_cast<int>(it.get_local_id(0));
       if (it.get_global_id(0) == 0) real[1] = kh.get_specialization_constant<kFactor>();
     });
   }).wait();
  checkArray("nd_range kernel in the next command group: defaults", 16, out,
             [](std::size_t i) { return 16 + static_cast<int>(i % 4); });
  checkEqual("nd_range kernel: a double constant", 2.25, real[1]);

  // single_task (a shortcut's command group has no constants set) and a functor.
  q.single_task([=](sycl::kernel_handler kh) { out[0] = kh.get_specialization_constant<kWidth>(); }).wait();
  checkEqual("queue::single_task with a kernel_handler: the default", 16, out[0]);
  q.submit([&](sycl::handler &h) {
     h.set_specialization_constant<kWidth>(9);
     h.parallel_for(sycl::range<1>(4), functor_kernel{out});
   }).wait();
  checkArray("functor kernel taking a kernel_handler", 4, out, [](std::size_t i) { return 90 + static_cast<int>(i); });

  // Sixteen constants fit; a seventeenth is OnePass's documented limit.
  q.submit([&](sycl::handler &h) {
     setMany(h);
     h.single_task([=](sycl::kernel_handler kh) {
       out[0] = static_cast<int>(kh.get_specialization_constant<kMany3>() + kh.get_specialization_constant<kMany15>());
     });
   }).wait();
  checkEqual("sixteen constants set", 18, out[0]);
  checkThrows("a seventeenth constant", sycl::errc::feature_not_supported, [&] {
    q.submit([&](sycl::handler &h) {
      setMany(h);
      h.set_specialization_constant<kWidth>(1);
      h.single_task([] {});
    });
  });

  // Instances of a variable template: apart when their value types differ,
  // refused (never mixed up) when they cannot be told apart.
  q.submit([&](sycl::handler &h) {
     h.set_specialization_constant<kTyped<int>>(40);
     h.set_specialization_constant<kTyped<long>>(2);
     h.single_task([=](sycl::kernel_handler kh) {
       out[0] = kh.get_specialization_constant<kTyped<int>>() +
                static_cast<int>(kh.get_specialization_constant<kTyped<long>>());
     });
   }).wait();
  checkEqual("kTyped<int> and kTyped<long> are two constants", 42, out[0]);
  q.submit([&](sycl::handler &h) {
     h.set_specialization_constant<kTemplated<1>>(10);
     h.set_specialization_constant<kTemplated<2>>(20);
     h.single_task([=](sycl::kernel_handler kh) {
       out[0] = kh.get_specialization_constant<kTemplated<1>>() * 100 + kh.get_specialization_constant<kTemplated<2>>() +
                kh.get_specialization_constant<kTemplated<3>>() * 10000;
     });
   }).wait();
  checkEqual("kTemplated<1>, <2> set in one command group, <3> its default: three constants", 31020, out[0]);

  // §4.9.5.2: not with a kernel bundle bound to the command group.
  auto bundle = sycl::get_kernel_bundle<sycl::bundle_state::executable>(q.get_context());
  checkThrows("set_specialization_constant after use_kernel_bundle", sycl::errc::invalid, [&] {
    q.submit([&](sycl::handler &h) {
      h.use_kernel_bundle(bundle);
      h.set_specialization_constant<kWidth>(1);
    });
  });
  check("specialization_id is neither copyable nor movable",
        !std::is_copy_constructible_v<sycl::specialization_id<int>> &&
            !std::is_move_constructible_v<sycl::specialization_id<int>>);

  sycl::free(out, q);
  sycl::free(real, q);
  return onepass_test::report();
}
