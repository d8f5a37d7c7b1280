// The bytes of sycl::half values written in kernels (SYCL 2020 §4.14.1): a
// half stored to memory aligned to less than 2 bytes, its bit_cast bits stored
// unaligned, and those bits cut into bytes by hand must all hold the value's
// IEEE binary16 encoding. On the H100 the low byte came out wrong (LLVM's PTX
// stored it with st.b8 straight from the f16 conversion's register), until the
// PTX translator passed half bits through a mov it cannot see through.
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstdint>
#include <cstring>
#include <string>

int main() {
  sycl::queue q;
  std::printf("device: %s\n", q.get_device().get_info<sycl::info::device::name>().c_str());
  constexpr int n = 64;
  unsigned char *bytes = sycl::malloc_shared<unsigned char>(8 * n + 8, q);
  sycl::half *halves = sycl::malloc_shared<sycl::half>(n, q);
  float *values = sycl::malloc_shared<float>(n, q);
  for (int i = 0; i < n; ++i) values[i] = (i % 2 ? -1.0f : 1.0f) * float(i + 1) / 7.0f * (i % 5 == 0 ? 1e-5f : 1.0f);
  std::memset(bytes, 0xAB, 8 * n + 8);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> id) {
     const int i = int(id[0]);
     const sycl::half h = values[i];
     std::memcpy(bytes + 1 + 2 * i, &h, 2);  // a half stored unaligned
     const std::uint16_t bits = sycl::bit_cast<std::uint16_t>(h);
     std::memcpy(bytes + 2 * n + 3 + 2 * i, &bits, 2);  // its bits stored unaligned
     bytes[4 * n + 6 + 2 * i] = static_cast<unsigned char>(bits);  // its bytes by hand
     bytes[4 * n + 6 + 2 * i + 1] = static_cast<unsigned char>(bits >> 8);
     halves[i] = h;  // aligned
   }).wait();
  for (int i = 0; i < n; ++i) {
    const sycl::half expected(values[i]);
    std::uint16_t e, aligned;
    std::memcpy(&e, &expected, 2);
    std::memcpy(&aligned, &halves[i], 2);
    const auto at = [&](int offset) { return std::uint16_t(bytes[offset] | bytes[offset + 1] << 8); };
    const std::string what = "half " + std::to_string(i) + " (" + std::to_string(values[i]) + ")";
    onepass_test::checkEqual(what + " stored unaligned", e, at(1 + 2 * i));
    onepass_test::checkEqual(what + " bit_cast, stored unaligned", e, at(2 * n + 3 + 2 * i));
    onepass_test::checkEqual(what + " bytes by hand", e, at(4 * n + 6 + 2 * i));
    onepass_test::checkEqual(what + " stored aligned", e, aligned);
  }
  sycl::free(bytes, q);
  sycl::free(halves, q);
  sycl::free(values, q);
  return onepass_test::report();
}
