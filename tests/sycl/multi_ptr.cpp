// sycl::multi_ptr (SYCL 2020 §4.7.7): member types and aliases, conversions
// between decorations, const, void and address spaces, pointer arithmetic
// and comparisons (in kernels and on the host), multi_ptrs from accessors,
// local_accessors and address_space_cast, accessor::get_multi_ptr, and the
// deprecated SYCL 1.2.1 (legacy) interface.
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <vector>

using onepass_test::check;
using onepass_test::checkArray;
using onepass_test::checkEqual;

namespace {

using sycl::access::address_space;
using sycl::access::decorated;

// Member types (§4.7.7.1).
using GlobalInt = sycl::raw_global_ptr<int>;
static_assert(std::is_same_v<GlobalInt, sycl::multi_ptr<int, address_space::global_space, decorated::no>>);
static_assert(std::is_same_v<sycl::decorated_local_ptr<float>,
                             sycl::multi_ptr<float, address_space::local_space, decorated::yes>>);
static_assert(std::is_same_v<sycl::raw_private_ptr<int>, sycl::private_ptr<int, decorated::no>>);
static_assert(std::is_same_v<sycl::raw_generic_ptr<int>, sycl::generic_ptr<int, decorated::no>>);
static_assert(std::is_same_v<sycl::decorated_generic_ptr<int>, sycl::generic_ptr<int, decorated::yes>>);
static_assert(std::is_same_v<sycl::decorated_private_ptr<int>, sycl::private_ptr<int, decorated::yes>>);
static_assert(std::is_same_v<sycl::decorated_global_ptr<int>, sycl::global_ptr<int, decorated::yes>>);
static_assert(std::is_same_v<sycl::raw_local_ptr<int>, sycl::local_ptr<int, decorated::no>>);
static_assert(std::is_same_v<sycl::global_ptr<int>, sycl::multi_ptr<int, address_space::global_space>>);
static_assert(
    std::is_same_v<sycl::constant_ptr<int>, sycl::multi_ptr<int, address_space::constant_space, decorated::legacy>>);
static_assert(!GlobalInt::is_decorated && sycl::decorated_global_ptr<int>::is_decorated);
static_assert(GlobalInt::address_space == address_space::global_space);
static_assert(sycl::raw_local_ptr<int>::address_space == address_space::local_space);
static_assert(std::is_same_v<GlobalInt::value_type, int> && std::is_same_v<GlobalInt::pointer, int *> &&
              std::is_same_v<GlobalInt::reference, int &> &&
              std::is_same_v<GlobalInt::difference_type, std::ptrdiff_t>);
static_assert(std::is_same_v<GlobalInt::iterator_category, std::random_access_iterator_tag>);
static_assert(std::is_same_v<sycl::remove_decoration_t<sycl::decorated_global_ptr<int>::pointer>, int *>);
static_assert(std::is_same_v<sycl::remove_decoration_t<sycl::decorated_global_ptr<int>::reference>, int &>);
static_assert(std::is_same_v<sycl::remove_decoration_t<const int *>, const int *>);
static_assert(sizeof(GlobalInt) == sizeof(int *) && std::is_trivially_copyable_v<GlobalInt>);

// multi_ptr<void> has no reference and no arithmetic (§4.7.7.1).
template <typename T, typename = void> struct has_reference : std::false_type {};
template <typename T> struct has_reference<T, std::void_t<typename T::reference>> : std::true_type {};
template <typename T, typename = void> struct has_increment : std::false_type {};
template <typename T> struct has_increment<T, std::void_t<decltype(++std::declval<T &>())>> : std::true_type {};
static_assert(has_reference<GlobalInt>::value && !has_reference<sycl::raw_global_ptr<void>>::value);
static_assert(has_increment<GlobalInt>::value && !has_increment<sycl::raw_global_ptr<const void>>::value);
static_assert(std::is_same_v<sycl::raw_global_ptr<void>::pointer, void *>);

// Conversions (Table 72): implicit to the other decoration, to const, to
// void; explicit from void and from generic to a named space; a generic
// pointer is assigned one of any space but constant.
static_assert(!std::is_convertible_v<int *, GlobalInt> && std::is_constructible_v<GlobalInt, int *>);
static_assert(std::is_convertible_v<GlobalInt, sycl::decorated_global_ptr<int>>);
static_assert(std::is_convertible_v<sycl::decorated_global_ptr<int>, GlobalInt>);
static_assert(std::is_convertible_v<GlobalInt, sycl::raw_global_ptr<const int>>);
static_assert(std::is_convertible_v<GlobalInt, sycl::decorated_global_ptr<const int>>);
static_assert(std::is_convertible_v<GlobalInt, sycl::raw_global_ptr<void>>);
static_assert(std::is_convertible_v<sycl::raw_global_ptr<const int>, sycl::raw_global_ptr<const void>>);
static_assert(!std::is_convertible_v<sycl::raw_global_ptr<const int>, GlobalInt>);
static_assert(std::is_convertible_v<sycl::raw_global_ptr<void>, sycl::raw_global_ptr<const void>>);
static_assert(!std::is_convertible_v<sycl::raw_global_ptr<void>, GlobalInt>);
static_assert(std::is_constructible_v<GlobalInt, sycl::raw_global_ptr<void>>);
static_assert(!std::is_convertible_v<sycl::raw_generic_ptr<int>, GlobalInt>);
static_assert(std::is_constructible_v<sycl::raw_local_ptr<const int>, sycl::raw_generic_ptr<int>>);
static_assert(std::is_assignable_v<sycl::raw_generic_ptr<int> &, sycl::raw_local_ptr<int>>);
static_assert(std::is_assignable_v<sycl::raw_generic_ptr<int> &, sycl::decorated_private_ptr<int>>);
static_assert(!std::is_assignable_v<GlobalInt &, sycl::raw_local_ptr<int>>);
static_assert(std::is_convertible_v<std::nullptr_t, GlobalInt>);

// What accessors give (§4.7.6.9, §4.7.6.11) and the deduction guides.
using ReadAccessor = sycl::accessor<int, 1, sycl::access_mode::read>;
using WriteAccessor = sycl::accessor<int, 1, sycl::access_mode::read_write>;
static_assert(std::is_same_v<decltype(std::declval<WriteAccessor>().get_multi_ptr<decorated::yes>()),
                             sycl::decorated_global_ptr<int>>);
static_assert(std::is_same_v<decltype(std::declval<ReadAccessor>().get_multi_ptr<decorated::no>()),
                             sycl::raw_global_ptr<const int>>);
static_assert(std::is_same_v<WriteAccessor::accessor_ptr<decorated::no>, GlobalInt>);
static_assert(std::is_same_v<decltype(std::declval<sycl::local_accessor<float, 2>>().get_multi_ptr<decorated::no>()),
                             sycl::raw_local_ptr<float>>);
static_assert(
    std::is_same_v<sycl::local_accessor<float, 1>::accessor_ptr<decorated::yes>, sycl::decorated_local_ptr<float>>);
static_assert(std::is_same_v<decltype(sycl::multi_ptr(std::declval<ReadAccessor>())), sycl::raw_global_ptr<const int>>);
static_assert(std::is_same_v<decltype(sycl::multi_ptr(std::declval<WriteAccessor>())), GlobalInt>);
static_assert(std::is_same_v<decltype(sycl::multi_ptr(std::declval<sycl::local_accessor<short, 1>>())),
                             sycl::raw_local_ptr<short>>);
static_assert(std::is_constructible_v<sycl::raw_generic_ptr<int>, WriteAccessor>);
static_assert(std::is_constructible_v<sycl::raw_global_ptr<const void>, ReadAccessor>);
static_assert(!std::is_constructible_v<GlobalInt, ReadAccessor>);  // would drop const
static_assert(!std::is_constructible_v<sycl::raw_local_ptr<int>, WriteAccessor>);

// Pointer arithmetic, element access and comparisons of a multi_ptr to
// data[0..7] (data[i] == 10 * i), in kernels and on the host alike.
constexpr std::size_t kArithmeticResults = 24;
template <typename Ptr> void arithmetic(Ptr p, int *out) {
  std::size_t k = 0;
  Ptr q = p;
  out[k++] = *q, out[k++] = q[3], out[k++] = *(q + 2), out[k++] = *(q + 5 - 1);
  ++q;
  out[k++] = *q;
  out[k++] = *q++, out[k++] = *q;
  --q;
  out[k++] = *q;
  out[k++] = *q--, out[k++] = *q;
  q += 6;
  out[k++] = *q;
  q -= 4;
  out[k++] = *q, out[k++] = static_cast<int>(q - p);
  out[k++] = p<q, out[k++] = p> q, out[k++] = p <= p, out[k++] = q >= p, out[k++] = p == q, out[k++] = p != q;
  out[k++] = p != nullptr, out[k++] = nullptr == p, out[k++] = nullptr < p || p > nullptr;
  q[1] = 7;  // writes data[3]
  *q.get() += 1;
  out[k++] = p.get_raw()[3] + p.get_decorated()[2];
  Ptr none = nullptr;
  out[k++] = none == nullptr && none.get() == nullptr;
}
const int kArithmeticExpected[kArithmeticResults] = {0, 30, 20, 40, 10, 10, 20, 10, 10, 0, 60, 20,
                                                     2, 1,  0,  1,  1,  0,  1,  1,  0,  1, 28, 1};

void pointerArithmetic(sycl::queue &q) {
  int *data = sycl::malloc_shared<int>(8, q);
  int *device = sycl::malloc_shared<int>(kArithmeticResults, q);
  for (int i = 0; i < 8; ++i) data[i] = 10 * i;
  q.single_task([=] {
     arithmetic(sycl::address_space_cast<address_space::global_space, decorated::no>(data), device);
   }).wait();
  checkArray("raw_global_ptr arithmetic in a kernel", kArithmeticResults, device,
             [](std::size_t i) { return kArithmeticExpected[i]; });
  for (int i = 0; i < 8; ++i) data[i] = 10 * i;
  q.single_task([=] {
     arithmetic(sycl::address_space_cast<address_space::generic_space, decorated::yes>(data), device);
   }).wait();
  checkArray("decorated_generic_ptr arithmetic in a kernel", kArithmeticResults, device,
             [](std::size_t i) { return kArithmeticExpected[i]; });

  std::vector<int> hostData(8), host(kArithmeticResults);
  for (int i = 0; i < 8; ++i) hostData[i] = 10 * i;
  arithmetic(sycl::decorated_global_ptr<int>(hostData.data()), host.data());
  checkArray("decorated_global_ptr arithmetic on the host", kArithmeticResults, host.data(),
             [](std::size_t i) { return kArithmeticExpected[i]; });
  sycl::free(data, q);
  sycl::free(device, q);
}

// Buffer accessors: get_multi_ptr, the constructor and deduction guide, and
// conversions of the result, in a kernel.
void fromAccessors(sycl::queue &q) {
  const std::size_t n = 64;
  std::vector<int> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>(i) * 3;
  sycl::buffer<int> in(values.data(), sycl::range<1>(n));
  sycl::buffer<int> out{sycl::range<1>(n)};
  sycl::buffer<int> facts{sycl::range<1>(8)};
  q.submit([&](sycl::handler &h) {
    sycl::accessor a(in, h, sycl::read_only);
    sycl::accessor r(out, h, sycl::write_only, sycl::no_init);
    sycl::accessor ranged(in, h, sycl::range<1>(8), sycl::id<1>(16), sycl::read_only);
    sycl::accessor f(facts, h, sycl::write_only, sycl::no_init);
    h.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
      sycl::raw_global_ptr<const int> source = a.get_multi_ptr<decorated::no>();
      sycl::decorated_global_ptr<int> target = r.get_multi_ptr<decorated::yes>();
      sycl::multi_ptr deduced(r);  // raw_global_ptr<int>
      target[i] = source[i] + 1;
      deduced[i] += 100;
      if (i[0] == 0) {
        sycl::raw_global_ptr<const void> untyped = source;
        sycl::raw_global_ptr<const int> typed(untyped);
        sycl::raw_generic_ptr<const int> generic(a);
        f[0] = typed[5];
        f[1] = generic[6];
        // A ranged accessor's multi_ptr is the start of the buffer (§4.7.6.9).
        f[2] = ranged.get_multi_ptr<decorated::no>()[2];
        f[3] = &ranged[0] == ranged.get_multi_ptr<decorated::yes>().get() + 16;
        sycl::raw_global_ptr<int> converted = target;  // to the undecorated one
        f[4] = converted == deduced;
        target.prefetch(4);
        f[5] = *a.get_multi_ptr();  // decorated::no by default (an extension)
      }
    });
  });
  std::vector<int> got = onepass_test::contents(out);
  checkArray("accessor get_multi_ptr: out[i] = in[i] + 1 + 100", n, got.data(),
             [](std::size_t i) { return static_cast<int>(i) * 3 + 101; });
  std::vector<int> f = onepass_test::contents(facts);
  checkEqual("raw_global_ptr<const void> round trip", 15, f[0]);
  checkEqual("raw_generic_ptr from an accessor", 18, f[1]);
  checkEqual("ranged accessor: get_multi_ptr()[2] is the buffer's element 2", 6, f[2]);
  checkEqual("ranged accessor: &a[0] == get_multi_ptr().get() + offset", 1, f[3]);
  checkEqual("decorated and undecorated multi_ptrs of one accessor are equal", 1, f[4]);
  checkEqual("get_multi_ptr() without arguments", 0, f[5]);
}

// local_accessor's multi_ptrs, generic pointers assigned a local one and
// cast back, and private pointers to a work-item's own variables.
void localAndPrivate(sycl::queue &q) {
  constexpr std::size_t kGroup = 32;
  const std::size_t n = 8 * kGroup;
  int *out = sycl::malloc_shared<int>(n, q);
  int *checks = sycl::malloc_shared<int>(n, q);
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> scratch(sycl::range<1>(kGroup), h);
    h.parallel_for(sycl::nd_range<1>(n, kGroup), [=](sycl::nd_item<1> it) {
      const std::size_t local = it.get_local_id(0);
      sycl::raw_local_ptr<int> mine = scratch.get_multi_ptr<decorated::no>();
      sycl::multi_ptr fromAccessor(scratch);  // raw_local_ptr<int>
      mine[local] = static_cast<int>(it.get_global_id(0));
      it.barrier(sycl::access::fence_space::local_space);
      // The neighbour's value, through a generic pointer to local memory.
      sycl::raw_generic_ptr<int> generic;
      generic = fromAccessor;
      sycl::raw_local_ptr<const int> back(generic);
      out[it.get_global_id(0)] = back[(local + 1) % kGroup];

      int privateValue = static_cast<int>(local) * 2;
      auto priv = sycl::address_space_cast<address_space::private_space, decorated::yes>(&privateValue);
      *priv += 1;
      sycl::decorated_generic_ptr<int> genericPrivate;
      genericPrivate = priv;
      sycl::raw_private_ptr<int> privAgain(genericPrivate);
      checks[it.get_global_id(0)] =
          *privAgain + (mine.get() == scratch.get_multi_ptr<decorated::yes>().get() ? 1000 : 0);
    });
  });
  q.wait();
  checkArray("local_accessor multi_ptrs: each work-item reads its neighbour's value", n, out,
             [&](std::size_t i) { return static_cast<int>(i - i % kGroup + (i % kGroup + 1) % kGroup); });
  checkArray("private_ptr through address_space_cast and a generic_ptr", n, checks,
             [&](std::size_t i) { return static_cast<int>(i % kGroup) * 2 + 1 + 1000; });
  sycl::free(out, q);
  sycl::free(checks, q);
}

// The deprecated SYCL 1.2.1 interface: global_ptr<T> (decorated::legacy)
// converts from and to T*, local_accessor::get_pointer gives a local_ptr.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
void legacy(sycl::queue &q) {
  static_assert(std::is_same_v<sycl::global_ptr<int>::element_type, int>);
  static_assert(std::is_trivially_copyable_v<sycl::global_ptr<int>>);
  static_assert(std::is_same_v<sycl::global_ptr<int>::pointer_t, int *>);
  static_assert(std::is_same_v<sycl::global_ptr<int>::const_pointer_t, const int *>);
  static_assert(std::is_same_v<sycl::global_ptr<int>::reference_t, int &>);
  static_assert(std::is_convertible_v<int *, sycl::global_ptr<int>> &&
                std::is_convertible_v<sycl::global_ptr<int>, int *>);
  static_assert(std::is_convertible_v<sycl::global_ptr<int>, sycl::global_ptr<const int>>);
  static_assert(std::is_convertible_v<sycl::global_ptr<int>, sycl::global_ptr<void>>);
  static_assert(!std::is_convertible_v<sycl::global_ptr<void>, sycl::global_ptr<int>>);
  static_assert(
      std::is_same_v<decltype(std::declval<sycl::local_accessor<int, 1>>().get_pointer()), sycl::local_ptr<int>>);

  constexpr std::size_t kGroup = 16;
  int *data = sycl::malloc_shared<int>(kGroup, q);
  int *out = sycl::malloc_shared<int>(4, q);
  for (std::size_t i = 0; i < kGroup; ++i) data[i] = static_cast<int>(i);
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> scratch(sycl::range<1>(kGroup), h);
    h.parallel_for(sycl::nd_range<1>(kGroup, kGroup), [=](sycl::nd_item<1> it) {
      const std::size_t i = it.get_local_id(0);
      sycl::local_ptr<int> local = scratch.get_pointer();
      local[i] = data[i] * 2;
      it.barrier(sycl::access::fence_space::local_space);
      if (i == 0) {
        sycl::global_ptr<int> global = data;  // implicit from int*
        global += 3;
        int *raw = global;  // implicit to int*
        sycl::global_ptr<const int> readOnly = global;
        sycl::global_ptr<void> untyped = global;
        sycl::global_ptr<int> typed = static_cast<sycl::global_ptr<int>>(untyped);
        out[0] = *raw + *(readOnly + 1) + typed.get()[2];  // 3 + 4 + 5
        out[1] = local[kGroup - 1] + *(local + 1);         // 30 + 2
        auto made = sycl::make_ptr<int, address_space::global_space>(data);
        out[2] = made.get_raw() == data && made.get_decorated() == data;
        global.prefetch(2);
        out[3] = sycl::multi_ptr<int, address_space::local_space>(scratch).get() == local.get();
      }
    });
  });
  q.wait();
  checkArray("legacy global_ptr and local_ptr in a kernel", 4, out, [](std::size_t i) {
    const int expected[] = {12, 32, 1, 1};
    return expected[i];
  });
  sycl::free(data, q);
  sycl::free(out, q);
}
#pragma clang diagnostic pop

}  // namespace

int main() {
  sycl::queue q;
  onepass_test::runPart("pointer arithmetic", [&] { pointerArithmetic(q); });
  onepass_test::runPart("from accessors", [&] { fromAccessors(q); });
  onepass_test::runPart("local and private", [&] { localAndPrivate(q); });
  onepass_test::runPart("legacy interface", [&] { legacy(q); });
  return onepass_test::report();
}
