// SYCL 2020 §4.8.3.1 usm_allocator: a C++ Allocator making host or shared USM
// allocations, for standard containers (std::vector<T, usm_allocator<...>>).
#pragma once

#include "usm.hpp"

#include <new>
#include <type_traits>

namespace sycl {

template <typename T, usm::alloc AllocKind, std::size_t Alignment = 0> class usm_allocator {
  // §4.8.3.1: no device kind, as an Allocator's memory must be accessible on
  // the host (containers construct their elements there).
  static_assert(AllocKind == usm::alloc::host || AllocKind == usm::alloc::shared,
                "usm_allocator: AllocKind must be usm::alloc::host or usm::alloc::shared (SYCL 2020 §4.8.3.1)");

public:
  using value_type = T;
  using propagate_on_container_copy_assignment = std::true_type;
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_swap = std::true_type;

  // The alignment stays with the allocator when it is rebound.
  template <typename U> struct rebind { typedef usm_allocator<U, AllocKind, Alignment> other; };

  usm_allocator() = delete;
  // Table 81. A host allocator ignores the device for allocating, but checks
  // it like the allocation functions do (errc::invalid outside the context).
  usm_allocator(const context &syclContext, const device &syclDevice, const property_list &propList = {})
      : context_(syclContext), device_(syclDevice), properties_(propList) {
    check_constructible();
  }
  usm_allocator(const queue &syclQueue, const property_list &propList = {})
      : usm_allocator(syclQueue.get_context(), syclQueue.get_device(), propList) {}
  usm_allocator(const usm_allocator &other) = default;
  usm_allocator(usm_allocator &&other) noexcept = default;
  usm_allocator &operator=(const usm_allocator &other) = default;
  usm_allocator &operator=(usm_allocator &&other) = default;
  template <class U> usm_allocator(const usm_allocator<U, AllocKind, Alignment> &other) noexcept
      : context_(other.context_), device_(other.device_), properties_(other.properties_) {}

  // Allocator requirements: failure throws (a container cannot take nullptr);
  // SYCL's error for it is errc::memory_allocation.
  T *allocate(std::size_t count) {
    T *pointer = sycl::aligned_alloc<T>(Alignment, count, device_, context_, AllocKind);
    if (!pointer && count > 0)
      throw exception(make_error_code(errc::memory_allocation),
                      "usm_allocator::allocate: could not allocate " + std::to_string(count) + " elements");
    return pointer;
  }
  void deallocate(T *pointer, std::size_t) {
    if (pointer) sycl::free(pointer, context_);
  }

  // §4.5.4.3: the properties it was constructed with.
  template <typename Property> bool has_property() const noexcept { return properties_.has_property<Property>(); }
  template <typename Property> Property get_property() const { return properties_.get_property<Property>(); }

  // Equal only with the same kind, alignment, context and device.
  template <class U, usm::alloc AllocKindU, std::size_t AlignmentU>
  friend bool operator==(const usm_allocator &a, const usm_allocator<U, AllocKindU, AlignmentU> &b) {
    return AllocKind == AllocKindU && Alignment == AlignmentU && a.same_place(b);
  }
  template <class U, usm::alloc AllocKindU, std::size_t AlignmentU>
  friend bool operator!=(const usm_allocator &a, const usm_allocator<U, AllocKindU, AlignmentU> &b) {
    return !(a == b);
  }

private:
  template <typename, usm::alloc, std::size_t> friend class usm_allocator;

  // The same context and device (a member: every usm_allocator is a friend).
  template <class Other> bool same_place(const Other &other) const {
    return context_ == other.context_ && device_ == other.device_;
  }

  void check_constructible() const {
    if (AllocKind == usm::alloc::shared && !device_.has(aspect::usm_shared_allocations))
      throw exception(make_error_code(errc::feature_not_supported),
                      "usm_allocator: the device does not have aspect::usm_shared_allocations");
    bool anyHost = false, inContext = false;
    for (const device &d : context_.get_devices()) {
      anyHost |= d.has(aspect::usm_host_allocations);
      inContext |= d == device_;
    }
    if (AllocKind == usm::alloc::host && !anyHost)
      throw exception(make_error_code(errc::feature_not_supported),
                      "usm_allocator: no device of the context has aspect::usm_host_allocations");
    if (!inContext)
      throw exception(make_error_code(errc::invalid), "usm_allocator: the device is not part of the context");
  }

  context context_;
  device device_;
  property_list properties_;
};

}  // namespace sycl
