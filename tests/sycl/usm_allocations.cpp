// Every allocation form of SYCL 2020 §4.8.3 (typed and untyped, with and
// without alignment, queue or device + context, with a property_list), the
// errors the spec names for them, and usm_allocator (§4.8.3.1) with
// std::vector. usm.cpp covers the common forms, copies and fills.
#include "check.h"

#include <sycl/sycl.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using onepass_test::check;
using onepass_test::checkArray;
using onepass_test::checkEqual;
using onepass_test::checkThrows;

namespace {

struct alignas(32) wide {
  int values[3];
};

bool alignedTo(const void *pointer, std::size_t alignment) {
  return reinterpret_cast<std::uintptr_t>(pointer) % alignment == 0;
}

// The allocation is of `kind` in `ctx`, `alignment`-aligned, and a kernel can
// write all `n` ints of it (read back with memcpy).
void checkAllocation(sycl::queue &q, const std::string &what, void *memory, sycl::usm::alloc kind,
                     std::size_t alignment, std::size_t n) {
  if (!check(what + ": allocated", memory != nullptr)) return;
  checkEqual(what + ": pointer type", kind, sycl::get_pointer_type(memory, q.get_context()));
  check(what + ": aligned to " + std::to_string(alignment), alignedTo(memory, alignment));
  int *p = static_cast<int *>(memory);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { p[i] = static_cast<int>(i[0]) * 5 + 1; }).wait();
  std::vector<int> back(n);
  q.memcpy(back.data(), p, n * sizeof(int)).wait();
  checkArray(what + ": written by a kernel", n, back.data(), [](std::size_t i) { return static_cast<int>(i) * 5 + 1; });
  sycl::free(memory, q);
}

void allocationForms(sycl::queue &q) {
  const std::size_t n = 300, bytes = n * sizeof(int), a = 128;
  const sycl::device dev = q.get_device();
  const sycl::context ctx = q.get_context();
  const sycl::property_list none{};
  using sycl::usm::alloc;

  // §4.8.3.2 device.
  checkAllocation(q, "aligned_alloc_device(a, bytes, dev, ctx)", sycl::aligned_alloc_device(a, bytes, dev, ctx),
                  alloc::device, a, n);
  checkAllocation(q, "aligned_alloc_device<int>(a, n, dev, ctx, props)",
                  sycl::aligned_alloc_device<int>(a, n, dev, ctx, none), alloc::device, a, n);
  checkAllocation(q, "aligned_alloc_device<int>(a, n, q)", sycl::aligned_alloc_device<int>(a, n, q), alloc::device, a,
                  n);
  checkAllocation(q, "malloc_device(bytes, q, props)", sycl::malloc_device(bytes, q, none), alloc::device, 4, n);
  // §4.8.3.3 host.
  checkAllocation(q, "aligned_alloc_host(a, bytes, ctx)", sycl::aligned_alloc_host(a, bytes, ctx), alloc::host, a, n);
  checkAllocation(q, "aligned_alloc_host<int>(a, n, ctx, props)", sycl::aligned_alloc_host<int>(a, n, ctx, none),
                  alloc::host, a, n);
  checkAllocation(q, "aligned_alloc_host<int>(a, n, q)", sycl::aligned_alloc_host<int>(a, n, q), alloc::host, a, n);
  checkAllocation(q, "malloc_host<int>(n, ctx, props)", sycl::malloc_host<int>(n, ctx, none), alloc::host, 4, n);
  // §4.8.3.4 shared.
  checkAllocation(q, "aligned_alloc_shared(a, bytes, dev, ctx)", sycl::aligned_alloc_shared(a, bytes, dev, ctx),
                  alloc::shared, a, n);
  checkAllocation(q, "aligned_alloc_shared<int>(a, n, dev, ctx)", sycl::aligned_alloc_shared<int>(a, n, dev, ctx),
                  alloc::shared, a, n);
  checkAllocation(q, "aligned_alloc_shared<int>(a, n, q, props)", sycl::aligned_alloc_shared<int>(a, n, q, none),
                  alloc::shared, a, n);
  // §4.8.3.5 parameterized.
  checkAllocation(q, "malloc<int>(n, dev, ctx, shared)", sycl::malloc<int>(n, dev, ctx, alloc::shared), alloc::shared,
                  4, n);
  checkAllocation(q, "malloc<int>(n, q, host, props)", sycl::malloc<int>(n, q, alloc::host, none), alloc::host, 4, n);
  checkAllocation(q, "aligned_alloc<int>(a, n, dev, ctx, device)",
                  sycl::aligned_alloc<int>(a, n, dev, ctx, alloc::device), alloc::device, a, n);
  checkAllocation(q, "aligned_alloc<int>(a, n, q, host)", sycl::aligned_alloc<int>(a, n, q, alloc::host), alloc::host,
                  a, n);
  checkAllocation(q, "aligned_alloc(a, bytes, q, shared, props)", sycl::aligned_alloc(a, bytes, q, alloc::shared, none),
                  alloc::shared, a, n);

  // Table 80: a typed aligned allocation is aligned for T even when asked for less.
  wide *w = sycl::aligned_alloc_shared<wide>(4, 7, q);
  check("aligned_alloc_shared<alignas(32) T>(4, ...) is aligned to 32", w && alignedTo(w, 32));
  sycl::free(w, q);
  // An alignment that is not a power of two is not supported: nullptr (§4.8.3).
  checkEqual("aligned_alloc_device(3, ...) returns nullptr", true, sycl::aligned_alloc_device(3, 64, q) == nullptr);
  checkEqual("aligned_alloc_host<int>(24, ...) returns nullptr", true,
             sycl::aligned_alloc_host<int>(24, 4, q) == nullptr);
  // An element count whose byte size overflows fails: nullptr.
  checkEqual("malloc_shared<int>(SIZE_MAX / 2, q) returns nullptr", true,
             sycl::malloc_shared<int>(SIZE_MAX / 2, q) == nullptr);
}

void allocationErrors(sycl::queue &q) {
  checkThrows("malloc(bytes, q, usm::alloc::unknown)", sycl::errc::invalid,
              [&] { sycl::malloc(64, q, sycl::usm::alloc::unknown); });
  // A device outside the context (§4.8.3.2): only where there are two devices.
  std::vector<sycl::device> all = sycl::device::get_devices();
  for (const sycl::device &other : all) {
    if (other == q.get_device()) continue;
    sycl::context onlyOther(other);
    checkThrows("malloc_device with a device not in the context", sycl::errc::invalid,
                [&] { sycl::malloc_device(64, q.get_device(), onlyOther); });
    checkThrows("aligned_alloc_shared<int> with a device not in the context", sycl::errc::invalid,
                [&] { sycl::aligned_alloc_shared<int>(64, 4, q.get_device(), onlyOther); });
    checkThrows("usm_allocator with a device not in the context", sycl::errc::invalid,
                [&] { sycl::usm_allocator<int, sycl::usm::alloc::shared> allocator(onlyOther, q.get_device()); });
    // A host allocation ignores the device (§4.8.3.5).
    void *host = sycl::malloc(64, q.get_device(), onlyOther, sycl::usm::alloc::host);
    checkEqual("malloc(host) with a device not in the context: a host allocation of the context",
               sycl::usm::alloc::host, sycl::get_pointer_type(host, onlyOther));
    sycl::free(host, onlyOther);
    break;
  }
}

void allocators(sycl::queue &q) {
  using shared_ints = sycl::usm_allocator<int, sycl::usm::alloc::shared>;
  using host_ints_64 = sycl::usm_allocator<int, sycl::usm::alloc::host, 64>;

  // std::vector in shared memory, written by a kernel through its data().
  std::vector<int, shared_ints> shared(1000, 7, shared_ints(q));
  checkEqual("vector<usm_allocator<shared>>: pointer type", sycl::usm::alloc::shared,
             sycl::get_pointer_type(shared.data(), q.get_context()));
  int *data = shared.data();
  q.parallel_for(sycl::range<1>(shared.size()), [=](sycl::id<1> i) { data[i] += static_cast<int>(i[0]); }).wait();
  checkArray("vector<usm_allocator<shared>> written by a kernel", shared.size(), shared.data(),
             [](std::size_t i) { return 7 + static_cast<int>(i); });
  shared.resize(5000, 1);  // reallocates through the allocator
  checkEqual("vector<usm_allocator<shared>> after resize", 1 + 7 + 999, shared[999] + shared[4999]);

  // Host memory, with the allocator's alignment, through the (context, device) constructor.
  std::vector<int, host_ints_64> host(host_ints_64(q.get_context(), q.get_device()));
  for (int i = 0; i < 100; ++i) host.push_back(i);
  checkEqual("vector<usm_allocator<host, 64>>: pointer type", sycl::usm::alloc::host,
             sycl::get_pointer_type(host.data(), q.get_context()));
  check("vector<usm_allocator<host, 64>>: aligned to 64", alignedTo(host.data(), 64));
  const int *hostData = host.data();
  int *sum = sycl::malloc_shared<int>(1, q);
  q.single_task([=] {
     int total = 0;
     for (int i = 0; i < 100; ++i) total += hostData[i];
     *sum = total;
   }).wait();
  checkEqual("a kernel reads vector<usm_allocator<host>>", 4950, *sum);
  sycl::free(sum, q);

  // Rebinding keeps the kind and the alignment; equality is kind, alignment,
  // context and device (§4.8.3.1).
  using rebound = std::allocator_traits<host_ints_64>::rebind_alloc<double>;
  static_assert(std::is_same_v<rebound, sycl::usm_allocator<double, sycl::usm::alloc::host, 64>>);
  host_ints_64 ints(q);
  rebound doubles(ints);
  double *d = doubles.allocate(3);
  check("rebound allocator keeps the alignment", alignedTo(d, 64));
  doubles.deallocate(d, 3);
  checkEqual("allocator == its rebound copy", true, ints == doubles);
  checkEqual("allocators of different kinds differ", true,
             ints != sycl::usm_allocator<int, sycl::usm::alloc::shared, 64>(q));
  checkEqual("allocators of different alignments differ", true,
             ints != sycl::usm_allocator<int, sycl::usm::alloc::host>(q));
  sycl::context own(q.get_device());
  checkEqual("allocators of different contexts differ", true, ints != host_ints_64(own, q.get_device()));
  shared_ints source(q);
  shared_ints moved(std::move(source));
  shared_ints assigned(q.get_context(), q.get_device());
  assigned = moved;
  checkEqual("copy-assigned allocator is equal", true, assigned == moved);

  // Properties (§4.5.4.3): the ones it was constructed with.
  shared_ints withProperty(q, sycl::property_list{sycl::property::queue::in_order{}});
  checkEqual("has_property of a given property", true, withProperty.has_property<sycl::property::queue::in_order>());
  checkEqual("has_property of another property", false,
             withProperty.has_property<sycl::property::queue::enable_profiling>());
  checkThrows("get_property of an absent property", sycl::errc::invalid,
              [&] { withProperty.get_property<sycl::property::queue::enable_profiling>(); });
}

}  // namespace

int main() {
  sycl::queue q;
  onepass_test::runPart("allocation forms", [&] { allocationForms(q); });
  onepass_test::runPart("allocation errors", [&] { allocationErrors(q); });
  onepass_test::runPart("usm_allocator", [&] { allocators(q); });
  return onepass_test::report();
}
