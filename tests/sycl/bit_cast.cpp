// sycl::bit_cast (SYCL 2020 §3.9.2, C++20's std::bit_cast pre-adopted): the
// same bits read as another type, in constant expressions, on the host and
// in kernels, for scalars, half and vec.
#include "check.h"

#include <cstdint>
#include <cstring>

namespace {

static_assert(sycl::bit_cast<std::uint32_t>(1.0f) == 0x3f800000u);
static_assert(sycl::bit_cast<double>(0x4000000000000000ull) == 2.0);
static_assert(sycl::bit_cast<std::uint16_t>(sycl::half(-2.0f)) == 0xc000u);

template <typename To, typename From, typename = void> struct can_bit_cast : std::false_type {};
template <typename To, typename From>
struct can_bit_cast<To, From, std::void_t<decltype(sycl::bit_cast<To>(std::declval<From>()))>> : std::true_type {};
static_assert(!can_bit_cast<std::uint64_t, float>::value, "sizes must match");
static_assert(can_bit_cast<sycl::vec<float, 4>, sycl::vec<std::int32_t, 4>>::value);

}  // namespace

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  std::uint64_t *out = sycl::malloc_shared<std::uint64_t>(6, q);
  float *in = sycl::malloc_shared<float>(1, q);
  in[0] = -0.15625f;
  q.single_task([=] {
     out[0] = sycl::bit_cast<std::uint32_t>(in[0]);
     out[1] = sycl::bit_cast<std::uint64_t>(double(in[0]));
     out[2] = sycl::bit_cast<std::uint16_t>(sycl::half(in[0]));
     out[3] = std::uint64_t(std::int64_t(sycl::bit_cast<std::int32_t>(in[0] * 2.0f)));
     const sycl::vec<std::uint32_t, 2> v =
         sycl::bit_cast<sycl::vec<std::uint32_t, 2>>(sycl::vec<float, 2>(in[0], 1.0f));
     out[4] = v[0];
     out[5] = v[1];
   }).wait();
  std::uint32_t floatBits;
  std::memcpy(&floatBits, in, 4);
  const double widened = double(in[0]);
  std::uint64_t doubleBits, doubledBits;
  std::memcpy(&doubleBits, &widened, 8);
  const float doubled = in[0] * 2.0f;
  std::uint32_t doubledFloatBits;
  std::memcpy(&doubledFloatBits, &doubled, 4);
  doubledBits = std::uint64_t(std::int64_t(std::int32_t(doubledFloatBits)));
  const std::uint64_t expected[6] = {floatBits, doubleBits, 0xb100u, doubledBits, floatBits, 0x3f800000u};
  onepass_test::checkArray("bit_cast in a kernel", 6, out, [&](std::size_t i) { return expected[i]; });
  sycl::free(out, q);
  sycl::free(in, q);
  return onepass_test::report();
}
