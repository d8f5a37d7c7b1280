// SYCL 2020 §4.7.6.11 local_accessor: work-group local memory for an nd_range
// kernel. Each work-group gets its own copy, uninitialized. The handler lays
// out the local accessors of a command group one after the other in the
// group's local memory; an accessor holds only its range and its offset
// there, so it is trivially copyable and needs no runtime fix-up: in a
// kernel, its data is __onepass_local_memory() + offset.
#pragma once

#include "accessor.hpp"
#include "detail/accessor_interface.hpp"
#include "detail/builtins.hpp"
#include "detail/std_parts.hpp"
#include "handler.hpp"
#include "multi_ptr.hpp"
#include "property_list.hpp"
#include "range.hpp"

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace sycl {

template <typename DataT, int Dimensions = 1> class ONEPASS_LAUNCH_CONSTANTS("range_", "offset_") ONEPASS_LOCAL_ACCESSOR local_accessor {
  static_assert(Dimensions >= 0 && Dimensions <= 3, "a local_accessor has 0 to 3 dimensions");
  static_assert(alignof(DataT) <= ONEPASS_ABI_LOCAL_MEMORY_ALIGNMENT,
                "local memory is aligned to 128 bytes: DataT may not need more");
  static constexpr int kViewDimensions = detail::view_dimensions<Dimensions>;

public:
  using value_type = DataT;
  using reference = DataT &;
  using const_reference = const DataT &;
  template <access::decorated IsDecorated> using accessor_ptr =
      multi_ptr<value_type, access::address_space::local_space, IsDecorated>;
  using iterator = DataT *;  // local memory is contiguous
  using const_iterator = const DataT *;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;
  using difference_type = std::ptrdiff_t;
  using size_type = std::size_t;

  local_accessor() = default;  // empty: no memory
  template <int D = Dimensions, typename = std::enable_if_t<D == 0>>
  local_accessor(handler &cgh, const property_list & = {})
      : offset_(cgh.reserve_local_memory(sizeof(DataT), alignof(DataT))), identity_(detail::new_identity()) {
    range_[0] = 1;
  }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 0)>>
  local_accessor(range<Dimensions> allocation_size, handler &cgh, const property_list & = {})
      : offset_(cgh.reserve_local_memory(allocation_size.size() * sizeof(DataT), alignof(DataT))),
        identity_(detail::new_identity()) {
    for (int d = 0; d < Dimensions; ++d) range_[d] = allocation_size[d];
  }

  // §4.7.6.11.2: the read-write form converts to the read-only one (const
  // DataT); the result is a copy (equal to `other`).
  template <typename OtherT,
            typename = std::enable_if_t<std::is_const_v<DataT> && std::is_same_v<OtherT, std::remove_const_t<DataT>>>>
  local_accessor(const local_accessor<OtherT, Dimensions> &other)
      : range_(other.range_), offset_(other.offset_), identity_(other.identity_) {}

  void swap(local_accessor &other) {
    std::swap(range_, other.range_);
    std::swap(offset_, other.offset_);
    std::swap(identity_, other.identity_);
  }
  size_type byte_size() const noexcept { return size() * sizeof(DataT); }
  size_type size() const noexcept { return range_.size(); }
  size_type max_size() const noexcept { return size(); }
  bool empty() const noexcept { return size() == 0; }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 0)>> range<Dimensions> get_range() const {
    return range_;
  }

  // Element access, in kernels only.
  template <int D = Dimensions, typename = std::enable_if_t<D == 0>> operator reference() const { return *data(); }
  template <int D = Dimensions, typename = std::enable_if_t<D == 0 && !std::is_const_v<DataT>>>
  const local_accessor &operator=(const value_type &value) const {
    *data() = value;
    return *this;
  }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 0)>> reference operator[](id<Dimensions> index) const {
    return data()[detail::linearize<Dimensions>(index, range_)];
  }
  template <int D = Dimensions, typename = std::enable_if_t<D == 1>> reference operator[](std::size_t index) const {
    return data()[index];
  }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>> auto operator[](std::size_t index) const {
    id<Dimensions> first;
    first[0] = index;
    return detail::accessor_subscript<DataT, Dimensions, 1>(view(), first);
  }

  // The start of the work-group's copy, in a kernel (Table 60). get_pointer
  // is deprecated and returns the SYCL 1.2.1 (legacy) local_ptr.
  template <access::decorated IsDecorated> accessor_ptr<IsDecorated> get_multi_ptr() const noexcept {
    return accessor_ptr<IsDecorated>(data());
  }
  [[deprecated("use local_accessor::get_multi_ptr (SYCL 2020)")]] local_ptr<value_type> get_pointer() const noexcept {
    return local_ptr<value_type>(data());
  }
  iterator begin() const noexcept { return data(); }
  iterator end() const noexcept { return data() + size(); }
  const_iterator cbegin() const noexcept { return data(); }
  const_iterator cend() const noexcept { return data() + size(); }
  reverse_iterator rbegin() const noexcept { return reverse_iterator(end()); }
  reverse_iterator rend() const noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator crbegin() const noexcept { return const_reverse_iterator(cend()); }
  const_reverse_iterator crend() const noexcept { return const_reverse_iterator(cbegin()); }

  // §4.5.2: equal exactly when one is a copy of the other.
  friend bool operator==(const local_accessor &a, const local_accessor &b) { return a.identity_ == b.identity_; }
  friend bool operator!=(const local_accessor &a, const local_accessor &b) { return !(a == b); }

  // §4.5.4.3: SYCL 2020 defines no property of local accessors.
  template <typename Property> bool has_property() const noexcept { return false; }
  template <typename Property> Property get_property() const {
    return detail::accessor_get_property<Property>(false, "local_accessor");
  }

protected:  // the deprecated target::local accessors below use data() and view()
  DataT *data() const noexcept {
    return reinterpret_cast<DataT *>(static_cast<char *>(__onepass_local_memory()) + offset_);
  }
  detail::accessor_view<DataT, kViewDimensions> view() const noexcept {
    return {data(), range_, id<kViewDimensions>(), range_};
  }

  friend struct std::hash<local_accessor>;
  template <typename, int> friend class local_accessor;

  range<kViewDimensions> range_{};
  std::size_t offset_ = 0;  // in the work-group's local memory
  std::uint64_t identity_ = 0;
};

// Deprecated in SYCL 2020 (§4.7.6.11): an accessor of target::local is a
// local_accessor under another name (its access mode is read_write or atomic
// in SYCL 1.2.1; both give read-write local memory here).
template <typename DataT, int Dimensions, access_mode AccessMode, access::placeholder IsPlaceholder>
class accessor<DataT, Dimensions, AccessMode, target::local, IsPlaceholder> : public local_accessor<DataT, Dimensions> {
public:
  using local_accessor<DataT, Dimensions>::local_accessor;
  std::size_t get_size() const noexcept { return this->byte_size(); }  // SYCL 1.2.1
  std::size_t get_count() const noexcept { return this->size(); }      // SYCL 1.2.1
};

// ... whose elements, in access_mode::atomic, are sycl::atomic objects in
// local memory (§4.7.6.9.4.9, deprecated).
template <typename DataT, int Dimensions, access::placeholder IsPlaceholder>
class accessor<DataT, Dimensions, access_mode::atomic, target::local, IsPlaceholder>
    : public accessor<DataT, Dimensions, access_mode::read_write, target::local, IsPlaceholder> {
  using base = accessor<DataT, Dimensions, access_mode::read_write, target::local, IsPlaceholder>;
  using element = detail::atomic_element<access::address_space::local_space>;

public:
  using base::base;

  template <int D = Dimensions, typename = std::enable_if_t<D == 0>>
  operator atomic<DataT, access::address_space::local_space>() const {
    return element::get(*this->data());
  }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 0)>>
  atomic<DataT, access::address_space::local_space> operator[](id<Dimensions> index) const {
    return element::get(this->view().at(index));
  }
  template <int D = Dimensions, typename = std::enable_if_t<D == 1>>
  atomic<DataT, access::address_space::local_space> operator[](std::size_t index) const {
    return element::get(this->data()[index]);
  }
  template <int D = Dimensions, typename = std::enable_if_t<(D > 1)>> auto operator[](std::size_t index) const {
    id<Dimensions> first;
    first[0] = index;
    return detail::accessor_subscript<DataT, Dimensions, 1, element>(this->view(), first);
  }
};

}  // namespace sycl

template <typename DataT, int Dimensions> struct std::hash<sycl::local_accessor<DataT, Dimensions>> {
  size_t operator()(const sycl::local_accessor<DataT, Dimensions> &a) const noexcept {
    return hash<std::uint64_t>()(a.identity_);
  }
};
