// SYCL 2020 §4.7.6 accessors of buffers: `accessor` (in kernels and host
// tasks, §4.7.6.9), `host_accessor` (on the host, §4.7.6.10) and the
// deprecated `accessor` of target::host_buffer (§4.7.6.9.4.6).
//
// A device accessor is a plain object in the kernel's captures: a data
// pointer, the (sub-)buffer's range for linearization, and the accessed box.
// Until the kernel runs, its data pointer holds the buffer's token; the
// runtime replaces it, in its copy of the kernel object, with the data's
// address on the device that runs the kernel.
#pragma once

#include "access.hpp"
#include "atomic.hpp"
#include "buffer.hpp"
#include "detail/accessor_interface.hpp"
#include "detail/reference_semantics.hpp"
#include "detail/std_parts.hpp"
#include "handler.hpp"
#include "multi_ptr.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

namespace sycl {

namespace detail {

constexpr access_mode canonical_mode(access_mode mode) {
  return mode == access_mode::discard_write        ? access_mode::write
         : mode == access_mode::discard_read_write ? access_mode::read_write
                                                   : mode;
}

// A 0-dimensional accessor's range in its 1-D buffer: the first element, or
// none in a buffer of none (then the accessor is empty, like a default
// constructed one: §4.7.6.9.1's empty() and size queries).
template <typename Buffer> range<1> zero_dim_range(const Buffer &buf) {
  return range<1>(buf.get_range()[0] == 0 ? 0 : 1);
}

// The box an access covers in the storage's shape, and its checks (§4.7.6.9.1:
// errc::invalid when offset + range exceed the buffer).
template <typename Buffer, int D> buffer_access describe_access(const Buffer &buf, access_mode mode, bool no_init,
                                                                bool on_host, const range<D> &access_range,
                                                                const id<D> &access_offset) {
  using view = buffer_view_access<Buffer>;
  for (int d = 0; d < D; ++d)
    if (access_offset[d] + access_range[d] > buf.get_range()[d])
      throw exception(make_error_code(errc::invalid),
                      "accessor: offset " + std::to_string(access_offset[d]) + " + range " +
                          std::to_string(access_range[d]) + " exceed the buffer's range " +
                          std::to_string(buf.get_range()[d]) + " in dimension " + std::to_string(d));
  if (no_init && mode == access_mode::read)
    throw exception(make_error_code(errc::invalid),
                    "accessor: the no_init property needs a mode that writes (a read-only access of data "
                    "that is not initialized cannot be meaningful)");
  buffer_access access;
  access.buffer = view::impl(buf);
  access.mode = canonical_mode(mode);
  access.no_init = no_init || mode == access_mode::discard_write || mode == access_mode::discard_read_write;
  access.on_host = on_host;
  access.token = buffer_token(*access.buffer) + view::byte_offset(buf);
  if (view::whole(buf)) {
    access.dimensions = 1;
    access.offset[0] = 0;
    access.range[0] = ~std::size_t(0);  // the whole storage
  } else {
    access.dimensions = D;
    for (int d = 0; d < D; ++d) {
      access.offset[d] = view::impl_offset(buf)[d] + access_offset[d];
      access.range[d] = access_range[d];
    }
  }
  return access;
}

// Waits until the box [o, o + r) of `buf` is current on the host and points
// `view` at the host's copy (host_accessor and the target::host_buffer
// accessor). The buffer stays held for the access until the returned hold is
// released.
template <typename T, int D, typename Buffer>
std::shared_ptr<void> acquire_on_host(Buffer &buf, access_mode mode, const property_list &props, const range<D> &r,
                                      const id<D> &o, accessor_view<T, D> &view) {
  static_assert(sizeof(typename Buffer::value_type) == sizeof(T),
                "the accessor's element type differs from the buffer's");
  buffer_access access = describe_access(buf, mode, props.has_property<property::no_init>(), true, r, o);
  host_access held = buffer_acquire_host(access);
  view.extent = buf.get_range();
  view.offset = o;
  view.access_range = r;
  view.point_at(reinterpret_cast<T *>(static_cast<char *>(held.data) + buffer_view_access<Buffer>::byte_offset(buf)));
  return held.hold;
}

// §4.7.6.9.3, §4.7.6.10.3: an accessor of mode From (elements FromT) converts
// to one of mode To (elements ToT), all else equal, when the result is
// read-only: read_write -> read, or between the read-only forms (read of T
// and of const T, both ways: "an implicit conversion between any of these").
template <typename ToT, access_mode To, typename FromT, access_mode From> inline constexpr bool converts_to_read_only =
    To == access_mode::read && (From == access_mode::read_write || From == access_mode::read) &&
    !(From == access_mode::read &&
      std::is_same_v<FromT, ToT>)&&std::is_same_v<std::remove_const_t<FromT>, std::remove_const_t<ToT>>;

// §4.7.6.9.4.9: the elements of an access_mode::atomic accessor are
// sycl::atomic objects (deprecated).
template <access_mode Mode> using accessor_element_t =
    std::conditional_t<Mode == access_mode::atomic, atomic_element<access::address_space::global_space>, plain_element>;

template <typename DataT, access_mode Mode> using accessor_value_t =
    std::conditional_t<Mode == access_mode::read, const DataT, DataT>;

// The property interface of buffer and image accessors (§4.5.4.3): no_init is their
// one property (a deprecated discard_* mode implies it).
template <typename Property> bool accessor_has_property(bool no_init) {
  return std::is_same_v<Property, property::no_init> && no_init;
}
template <typename Property> Property accessor_get_property(bool no_init, const char *what) {
  if constexpr (std::is_same_v<Property, property::no_init>)
    if (no_init) return Property{};
  throw exception(make_error_code(errc::invalid),
                  std::string(what) + "::get_property: the accessor was not constructed with this property");
}

}  // namespace detail

template <typename DataT, int Dimensions = 1,
          access_mode AccessMode = (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write),
          target AccessTarget = target::device, access::placeholder IsPlaceholder = access::placeholder::false_t>
class accessor : public detail::accessor_interface<accessor<DataT, Dimensions, AccessMode, AccessTarget, IsPlaceholder>,
                                                   detail::accessor_value_t<DataT, AccessMode>, Dimensions,
                                                   detail::accessor_element_t<AccessMode>> {
  static_assert(Dimensions >= 0 && Dimensions <= 3, "a buffer accessor has 0 to 3 dimensions");
  static_assert(!detail::is_image_target(AccessTarget),
                "target::image, host_image and image_array accessors are SYCL 1.2.1 (removed by SYCL 2020); "
                "use unsampled_image_accessor or sampled_image_accessor");
  static_assert(AccessTarget == target::device || AccessTarget == target::host_task ||
                    AccessTarget == target::constant_buffer || detail::is_image_target(AccessTarget),
                "use local_accessor for local memory and host_accessor on the host");
  static constexpr bool on_host = AccessTarget == target::host_task;
  static constexpr int view_dims = detail::view_dimensions<Dimensions>;
  using interface = detail::accessor_interface<accessor, detail::accessor_value_t<DataT, AccessMode>, Dimensions,
                                               detail::accessor_element_t<AccessMode>>;

public:
  // iterator, const_iterator, their reverse_iterators, difference_type and
  // size_type come from detail::accessor_common.
  using value_type = detail::accessor_value_t<DataT, AccessMode>;
  using reference = value_type &;
  using const_reference = const DataT &;
  // §4.7.6.9, Table 37: what get_multi_ptr returns (unspecified for
  // host_task; the deprecated constant_buffer's points into constant_space).
  template <access::decorated IsDecorated> using accessor_ptr =
      multi_ptr<value_type,
                AccessTarget == target::constant_buffer ? access::address_space::constant_space
                                                        : access::address_space::global_space,
                IsDecorated>;

  // An empty accessor (§4.7.6.9.1).
  accessor() = default;

  // 0-dimensional: the first element of a 1-D buffer (§4.7.6.9), a
  // placeholder or bound to the command group of `h`.
  template <typename T, typename A, int D = Dimensions, typename = std::enable_if_t<D == 0>>
  accessor(buffer<T, 1, A> &buf, const property_list &props = {})
      : accessor(buf, nullptr, detail::zero_dim_range(buf), id<1>(), props) {}
  template <typename T, typename A, int D = Dimensions, typename = std::enable_if_t<D == 0>>
  accessor(buffer<T, 1, A> &buf, handler &h, const property_list &props = {})
      : accessor(buf, &h, detail::zero_dim_range(buf), id<1>(), props) {}

  // Placeholders: bound to a command group later, by handler::require.
  template <typename T, typename A> accessor(buffer<T, Dimensions, A> &buf, const property_list &props = {})
      : accessor(buf, nullptr, buf.get_range(), {}, props) {}
  template <typename T, typename A, access_mode M, target Tg>
  accessor(buffer<T, Dimensions, A> &buf, detail::access_tag<M, Tg>, const property_list &props = {})
      : accessor(buf, nullptr, buf.get_range(), {}, props) {}
  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &buf, range<Dimensions> r, const property_list &props = {})
      : accessor(buf, nullptr, r, {}, props) {}
  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &buf, range<Dimensions> r, id<Dimensions> o, const property_list &props = {})
      : accessor(buf, nullptr, r, o, props) {}
  template <typename T, typename A, access_mode M, target Tg>
  accessor(buffer<T, Dimensions, A> &buf, range<Dimensions> r, detail::access_tag<M, Tg>,
           const property_list &props = {})
      : accessor(buf, nullptr, r, {}, props) {}
  template <typename T, typename A, access_mode M, target Tg>
  accessor(buffer<T, Dimensions, A> &buf, range<Dimensions> r, id<Dimensions> o, detail::access_tag<M, Tg>,
           const property_list &props = {})
      : accessor(buf, nullptr, r, o, props) {}

  // Bound to the command group of `h`.
  template <typename T, typename A> accessor(buffer<T, Dimensions, A> &buf, handler &h, const property_list &props = {})
      : accessor(buf, &h, buf.get_range(), {}, props) {}
  template <typename T, typename A, access_mode M, target Tg>
  accessor(buffer<T, Dimensions, A> &buf, handler &h, detail::access_tag<M, Tg>, const property_list &props = {})
      : accessor(buf, &h, buf.get_range(), {}, props) {}
  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &buf, handler &h, range<Dimensions> r, const property_list &props = {})
      : accessor(buf, &h, r, {}, props) {}
  template <typename T, typename A> accessor(buffer<T, Dimensions, A> &buf, handler &h, range<Dimensions> r,
                                             id<Dimensions> o, const property_list &props = {})
      : accessor(buf, &h, r, o, props) {}
  template <typename T, typename A, access_mode M, target Tg>
  accessor(buffer<T, Dimensions, A> &buf, handler &h, range<Dimensions> r, detail::access_tag<M, Tg>,
           const property_list &props = {})
      : accessor(buf, &h, r, {}, props) {}
  template <typename T, typename A, access_mode M, target Tg>
  accessor(buffer<T, Dimensions, A> &buf, handler &h, range<Dimensions> r, id<Dimensions> o, detail::access_tag<M, Tg>,
           const property_list &props = {})
      : accessor(buf, &h, r, o, props) {}

  // §4.7.6.9.3: a read_write accessor converts to the read-only ones, and a
  // read accessor of T to one of const T. The result is a copy of `other`.
  template <typename OtherT, access_mode OtherMode, access::placeholder OtherP,
            typename = std::enable_if_t<detail::converts_to_read_only<DataT, AccessMode, OtherT, OtherMode>>>
  accessor(const accessor<OtherT, Dimensions, OtherMode, AccessTarget, OtherP> &other)
      : view_(detail::view_cast<value_type>(other.view_)), buffer_(other.buffer_), access_(other.access_),
        placeholder_(other.placeholder_), identity_(other.identity_) {}

  // 0-D: assigning a value writes the element (unless read-only).
  using interface::operator=;

  bool is_placeholder() const { return placeholder_; }
  std::size_t get_size() const { return this->byte_size(); }  // deprecated
  std::size_t get_count() const { return this->size(); }      // deprecated
  // The start of the (sub-)buffer, also for ranged accessors (§4.7.6.9,
  // Table 39; deprecated: use get_multi_ptr): a global_ptr (SYCL 1.2.1's
  // decorated::legacy multi_ptr, which converts to and compares with raw
  // pointers) for target::device, a constant_ptr<DataT> for the deprecated
  // constant_buffer target, a raw pointer for host_task.
  auto get_pointer() const noexcept {
    if constexpr (AccessTarget == target::device) return global_ptr<value_type>(view_.start());
    else if constexpr (AccessTarget == target::constant_buffer)
      return constant_ptr<DataT>(const_cast<std::remove_const_t<DataT> *>(view_.start()));
    else return view_.start();
  }
  // The start of the (sub-)buffer, also for ranged accessors; device
  // accessors only (§4.7.6.9, Table 39). IsDecorated defaults to no, an
  // OnePass extension: get_multi_ptr() without arguments, as before.
  template <access::decorated IsDecorated = access::decorated::no, target T = AccessTarget,
            typename = std::enable_if_t<T == target::device>>
  accessor_ptr<IsDecorated> get_multi_ptr() const noexcept {
    return accessor_ptr<IsDecorated>(view_.start());
  }

  void swap(accessor &other) {
    accessor copy = *this;
    *this = other;
    other = copy;
  }

  // §4.5.2: equal exactly when one is a copy of the other (on the host and
  // in kernels).
  friend bool operator==(const accessor &a, const accessor &b) { return a.identity_ == b.identity_; }
  friend bool operator!=(const accessor &a, const accessor &b) { return !(a == b); }

  // §4.5.4.3 (host only: a kernel has no property list to ask).
  template <typename Property> bool has_property() const noexcept {
    return detail::accessor_has_property<Property>(access_.no_init);
  }
  template <typename Property> Property get_property() const {
    return detail::accessor_get_property<Property>(access_.no_init, "accessor");
  }

private:
  friend class handler;
  friend class interop_handle;
  friend struct std::hash<accessor>;
  template <typename, typename, int> friend class detail::accessor_common;
  template <typename, int, access_mode, target, access::placeholder> friend class accessor;

  template <typename Buffer>
  accessor(Buffer &buf, handler *h, range<view_dims> r, id<view_dims> o, const property_list &props)
      : buffer_(detail::buffer_view_access<Buffer>::impl(buf)), placeholder_(h == nullptr),
        identity_(detail::new_identity()) {
    static_assert(sizeof(typename Buffer::value_type) == sizeof(DataT),
                  "the accessor's element type differs from the buffer's");
    access_ = detail::describe_access(buf, AccessMode, props.has_property<property::no_init>(), on_host, r, o);
    view_.extent = buf.get_range();
    view_.offset = o;
    view_.access_range = r;
    // (A device accessor's data is a token the runtime replaces by the
    // address in the kernel's copy: the box's offset moves its low bits.)
    if constexpr (on_host)
      view_.point_at(reinterpret_cast<value_type *>(static_cast<char *>(detail::buffer_host_data(*buffer_)) +
                                                    detail::buffer_view_access<Buffer>::byte_offset(buf)));
    else view_.data = reinterpret_cast<value_type *>(access_.token + view_.offset_elements() * sizeof(value_type));
    if (h) h->add_access(access_);
  }

  detail::accessor_view<value_type, view_dims> view_;
  detail::buffer_impl *buffer_ = nullptr;  // host side only
  detail::buffer_access access_;           // host side only: the requirement handler::require registers
  bool placeholder_ = false;
  std::uint64_t identity_ = 0;
};

// Deduction guides (§4.7.6.9.2). A 0-dimensional accessor is never deduced:
// a 1-D buffer gives a 1-D accessor.
template <typename T, int D, typename A> accessor(buffer<T, D, A> &)
    -> accessor<T, D, access_mode::read_write, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, const property_list &)
    -> accessor<T, D, access_mode::read_write, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A> &, detail::access_tag<M, Tg>) -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A> &, detail::access_tag<M, Tg>, const property_list &)
    -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, handler &)
    -> accessor<T, D, access_mode::read_write, target::device>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, handler &, const property_list &)
    -> accessor<T, D, access_mode::read_write, target::device>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A> &, handler &, detail::access_tag<M, Tg>) -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A> &, handler &, detail::access_tag<M, Tg>, const property_list &) -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, handler &, range<D>)
    -> accessor<T, D, access_mode::read_write, target::device>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, handler &, range<D>, const property_list &)
    -> accessor<T, D, access_mode::read_write, target::device>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, handler &, range<D>, id<D>)
    -> accessor<T, D, access_mode::read_write, target::device>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, handler &, range<D>, id<D>, const property_list &)
    -> accessor<T, D, access_mode::read_write, target::device>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A> &, handler &, range<D>, detail::access_tag<M, Tg>) -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A> &, handler &, range<D>, detail::access_tag<M, Tg>, const property_list &)
    -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A> &, handler &, range<D>, id<D>, detail::access_tag<M, Tg>) -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A> &, handler &, range<D>, id<D>, detail::access_tag<M, Tg>, const property_list &)
    -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A> &, range<D>, detail::access_tag<M, Tg>) -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A> &, range<D>, id<D>, detail::access_tag<M, Tg>)
    -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A> &, range<D>, detail::access_tag<M, Tg>, const property_list &)
    -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg>
accessor(buffer<T, D, A> &, range<D>, id<D>, detail::access_tag<M, Tg>, const property_list &)
    -> accessor<T, D, M, Tg, access::placeholder::true_t>;

template <typename DataT, int Dimensions = 1,
          access_mode AccessMode = (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write)>
class host_accessor : public detail::accessor_interface<host_accessor<DataT, Dimensions, AccessMode>,
                                                        detail::accessor_value_t<DataT, AccessMode>, Dimensions> {
  static_assert(Dimensions >= 0 && Dimensions <= 3, "a host_accessor has 0 to 3 dimensions");
  static_assert(AccessMode == access_mode::read || AccessMode == access_mode::write ||
                    AccessMode == access_mode::read_write,
                "host_accessor supports access_mode::read, write and read_write (§4.7.6.10)");
  static constexpr int view_dims = detail::view_dimensions<Dimensions>;
  using interface = detail::accessor_interface<host_accessor, detail::accessor_value_t<DataT, AccessMode>, Dimensions>;

public:
  // iterator, const_iterator, their reverse_iterators, difference_type and
  // size_type come from detail::accessor_common.
  using value_type = detail::accessor_value_t<DataT, AccessMode>;
  using reference = value_type &;
  using const_reference = const DataT &;

  host_accessor() = default;
  // 0-dimensional: the first element of a 1-D buffer (§4.7.6.10).
  template <typename T, typename A, int D = Dimensions, typename = std::enable_if_t<D == 0>>
  host_accessor(buffer<T, 1, A> &buf, const property_list &props = {})
      : host_accessor(buf, detail::zero_dim_range(buf), id<1>(), props, 0) {}

  template <typename T, typename A> host_accessor(buffer<T, Dimensions, A> &buf, const property_list &props = {})
      : host_accessor(buf, buf.get_range(), id<Dimensions>(), props, 0) {}
  template <typename T, typename A, access_mode M>
  host_accessor(buffer<T, Dimensions, A> &buf, detail::access_tag<M, target::device>, const property_list &props = {})
      : host_accessor(buf, buf.get_range(), id<Dimensions>(), props, 0) {}
  template <typename T, typename A>
  host_accessor(buffer<T, Dimensions, A> &buf, range<Dimensions> r, const property_list &props = {})
      : host_accessor(buf, r, id<Dimensions>(), props, 0) {}
  template <typename T, typename A>
  host_accessor(buffer<T, Dimensions, A> &buf, range<Dimensions> r, id<Dimensions> o, const property_list &props = {})
      : host_accessor(buf, r, o, props, 0) {}
  template <typename T, typename A, access_mode M>
  host_accessor(buffer<T, Dimensions, A> &buf, range<Dimensions> r, detail::access_tag<M, target::device>,
                const property_list &props = {})
      : host_accessor(buf, r, id<Dimensions>(), props, 0) {}
  template <typename T, typename A, access_mode M>
  host_accessor(buffer<T, Dimensions, A> &buf, range<Dimensions> r, id<Dimensions> o,
                detail::access_tag<M, target::device>, const property_list &props = {})
      : host_accessor(buf, r, o, props, 0) {}

  // §4.7.6.10.3: a read_write host_accessor converts to the read-only ones,
  // and a read one of T to one of const T. The result is a copy of `other`.
  template <typename OtherT, access_mode OtherMode,
            typename = std::enable_if_t<detail::converts_to_read_only<DataT, AccessMode, OtherT, OtherMode>>>
  host_accessor(const host_accessor<OtherT, Dimensions, OtherMode> &other)
      : view_(detail::view_cast<value_type>(other.view_)), hold_(other.hold_), identity_(other.identity_) {}

  // 0-D: assigning a value writes the element (unless read-only).
  using interface::operator=;

  void swap(host_accessor &other) { std::swap(*this, other); }

  // §4.5.2: equal exactly when one is a copy of the other.
  friend bool operator==(const host_accessor &a, const host_accessor &b) { return a.identity_ == b.identity_; }
  friend bool operator!=(const host_accessor &a, const host_accessor &b) { return !(a == b); }

  template <typename Property> bool has_property() const noexcept {
    return detail::accessor_has_property<Property>(no_init_);
  }
  template <typename Property> Property get_property() const {
    return detail::accessor_get_property<Property>(no_init_, "host_accessor");
  }

private:
  friend struct std::hash<host_accessor>;
  template <typename, typename, int> friend class detail::accessor_common;
  template <typename, int, access_mode> friend class host_accessor;

  template <typename Buffer>
  host_accessor(Buffer &buf, range<view_dims> r, id<view_dims> o, const property_list &props, int)
      : no_init_(props.has_property<property::no_init>()), identity_(detail::new_identity()) {
    hold_ = detail::acquire_on_host(buf, AccessMode, props, r, o, view_);
  }

  detail::accessor_view<value_type, view_dims> view_;
  std::shared_ptr<void> hold_;  // the last copy's destruction releases the buffer
  bool no_init_ = false;
  std::uint64_t identity_ = 0;
};

// Deduction guides (§4.7.6.10.2). A 0-dimensional host_accessor is never
// deduced: a 1-D buffer gives a 1-D host_accessor.
template <typename T, int D, typename A> host_accessor(buffer<T, D, A> &)
    -> host_accessor<T, D, access_mode::read_write>;
template <typename T, int D, typename A> host_accessor(buffer<T, D, A> &, const property_list &)
    -> host_accessor<T, D, access_mode::read_write>;
template <typename T, int D, typename A, access_mode M>
host_accessor(buffer<T, D, A> &, detail::access_tag<M, target::device>) -> host_accessor<T, D, M>;
template <typename T, int D, typename A, access_mode M>
host_accessor(buffer<T, D, A> &, detail::access_tag<M, target::device>, const property_list &)
    -> host_accessor<T, D, M>;
template <typename T, int D, typename A> host_accessor(buffer<T, D, A> &, range<D>)
    -> host_accessor<T, D, access_mode::read_write>;
template <typename T, int D, typename A> host_accessor(buffer<T, D, A> &, range<D>, id<D>)
    -> host_accessor<T, D, access_mode::read_write>;
template <typename T, int D, typename A, access_mode M>
host_accessor(buffer<T, D, A> &, range<D>, detail::access_tag<M, target::device>) -> host_accessor<T, D, M>;
template <typename T, int D, typename A, access_mode M>
host_accessor(buffer<T, D, A> &, range<D>, id<D>, detail::access_tag<M, target::device>) -> host_accessor<T, D, M>;
template <typename T, int D, typename A, access_mode M>
host_accessor(buffer<T, D, A> &, range<D>, detail::access_tag<M, target::device>, const property_list &)
    -> host_accessor<T, D, M>;
template <typename T, int D, typename A, access_mode M>
host_accessor(buffer<T, D, A> &, range<D>, id<D>, detail::access_tag<M, target::device>, const property_list &)
    -> host_accessor<T, D, M>;

// The target::host_buffer specialization names a deprecated enumerator; users
// who name it are warned, this header is not.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// §4.7.6.9.4.6, deprecated in SYCL 2020: an accessor of target::host_buffer
// is a host_accessor under another name. Its constructors wait until the data
// is current on the host, and the buffer stays held until its last copy is
// destroyed. It is never a placeholder.
template <typename DataT, int Dimensions, access_mode AccessMode, access::placeholder IsPlaceholder>
class accessor<DataT, Dimensions, AccessMode, target::host_buffer, IsPlaceholder>
    : public detail::accessor_interface<accessor<DataT, Dimensions, AccessMode, target::host_buffer, IsPlaceholder>,
                                        detail::accessor_value_t<DataT, AccessMode>, Dimensions> {
  static_assert(Dimensions >= 0 && Dimensions <= 3, "a buffer accessor has 0 to 3 dimensions");
  static_assert(AccessMode != access_mode::atomic, "target::host_buffer does not support access_mode::atomic");
  static constexpr int view_dims = detail::view_dimensions<Dimensions>;
  using interface = detail::accessor_interface<accessor, detail::accessor_value_t<DataT, AccessMode>, Dimensions>;

public:
  using value_type = detail::accessor_value_t<DataT, AccessMode>;
  using reference = value_type &;
  using const_reference = const DataT &;

  template <typename T, typename A, int D = Dimensions, typename = std::enable_if_t<D == 0>>
  accessor(buffer<T, 1, A> &buf, const property_list &props = {}) : accessor(buf, range<1>(1), id<1>(), props, 0) {}
  template <typename T, typename A> accessor(buffer<T, Dimensions, A> &buf, const property_list &props = {})
      : accessor(buf, buf.get_range(), id<Dimensions>(), props, 0) {}
  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &buf, range<Dimensions> r, const property_list &props = {})
      : accessor(buf, r, id<Dimensions>(), props, 0) {}
  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &buf, range<Dimensions> r, id<Dimensions> o, const property_list &props = {})
      : accessor(buf, r, o, props, 0) {}

  // 0-D: assigning a value writes the element (unless read-only).
  using interface::operator=;

  bool is_placeholder() const { return false; }
  std::size_t get_size() const noexcept { return this->byte_size(); }
  std::size_t get_count() const noexcept { return this->size(); }

  friend bool operator==(const accessor &a, const accessor &b) { return a.identity_ == b.identity_; }
  friend bool operator!=(const accessor &a, const accessor &b) { return !(a == b); }

private:
  friend struct std::hash<accessor>;
  template <typename, typename, int> friend class detail::accessor_common;

  template <typename Buffer> accessor(Buffer &buf, range<view_dims> r, id<view_dims> o, const property_list &props, int)
      : identity_(detail::new_identity()) {
    hold_ = detail::acquire_on_host(buf, AccessMode, props, r, o, view_);
  }

  detail::accessor_view<value_type, view_dims> view_;
  std::shared_ptr<void> hold_;  // the last copy's destruction releases the buffer
  std::uint64_t identity_ = 0;
};

#pragma GCC diagnostic pop

// buffer's accessor members (§4.7.2.2).
template <typename T, int D, typename A> template <typename First, typename... Rest>
auto buffer<T, D, A>::get_access(First &first, Rest... rest) {
  return accessor{*this, first, rest...};
}
template <typename T, int D, typename A> template <typename First, typename... Rest>
auto buffer<T, D, A>::get_host_access(First first, Rest... rest) {
  return host_accessor{*this, first, rest...};
}
template <typename T, int D, typename A> template <access_mode Mode, target Target>
accessor<T, D, Mode, Target, access::placeholder::false_t> buffer<T, D, A>::get_access(handler &h) {
  return accessor<T, D, Mode, Target, access::placeholder::false_t>(*this, h);
}
template <typename T, int D, typename A> template <access_mode Mode, target Target>
accessor<T, D, Mode, Target, access::placeholder::false_t>
buffer<T, D, A>::get_access(handler &h, range<D> access_range, id<D> access_offset) {
  return accessor<T, D, Mode, Target, access::placeholder::false_t>(*this, h, access_range, access_offset);
}
template <typename T, int D, typename A> template <access_mode Mode>
host_accessor<T, D, Mode> buffer<T, D, A>::get_host_access() {
  return host_accessor<T, D, Mode>(*this);
}
template <typename T, int D, typename A> template <access_mode Mode>
host_accessor<T, D, Mode> buffer<T, D, A>::get_host_access(range<D> access_range, id<D> access_offset) {
  return host_accessor<T, D, Mode>(*this, access_range, access_offset);
}

// Deprecated in SYCL 2020: host accessors as accessors of target::host_buffer.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
template <typename T, int D, typename A> template <access_mode Mode>
accessor<T, D, Mode, target::host_buffer, access::placeholder::false_t> buffer<T, D, A>::get_access() {
  return accessor<T, D, Mode, target::host_buffer, access::placeholder::false_t>(*this);
}
template <typename T, int D, typename A> template <access_mode Mode>
accessor<T, D, Mode, target::host_buffer, access::placeholder::false_t>
buffer<T, D, A>::get_access(range<D> access_range, id<D> access_offset) {
  return accessor<T, D, Mode, target::host_buffer, access::placeholder::false_t>(*this, access_range, access_offset);
}
#pragma GCC diagnostic pop

// handler members that take accessors (§4.9.4.1, §4.9.4.3).
template <typename Accessor> detail::region_side handler::accessor_side(const Accessor &acc) {
  if (!acc.buffer_) throw exception(make_error_code(errc::invalid), "an empty accessor was given to a copy or fill");
  static_assert(!Accessor::on_host, "explicit copies take accessors of target::device");
  if (!has_access(acc.access_)) add_access(acc.access_);
  detail::region_side side;
  side.token = acc.access_.token;
  constexpr int D = decltype(acc.view_.extent)::dimensions;
  for (int d = 0; d < D; ++d) {
    side.extent[3 - D + d] = acc.view_.extent[d];
    side.offset[3 - D + d] = acc.view_.offset[d];
    side.range[3 - D + d] = acc.view_.access_range[d];
  }
  return side;
}

namespace detail {
inline region_side pointer_side(const void *pointer, std::size_t count) {
  region_side side;
  side.pointer = const_cast<void *>(pointer);
  side.extent[2] = side.range[2] = count;
  return side;
}
}  // namespace detail

template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt, access::placeholder SrcPh, typename DestT>
void handler::copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, SrcPh> src, DestT *dest) {
  static_assert(sizeof(SrcT) == sizeof(DestT), "copy: the element types differ in size");
  begin_command(detail::command_kind::copy_region);
  desc_.element_bytes = sizeof(SrcT);
  desc_.region_source = accessor_side(src);
  desc_.region_destination = detail::pointer_side(dest, src.size());
}
template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt, access::placeholder SrcPh, typename DestT>
void handler::copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, SrcPh> src, std::shared_ptr<DestT> dest) {
  copy(src, dest.get());
  desc_.keep_alive = dest;
}
template <typename SrcT, typename DestT, int DestDim, access_mode DestMode, target DestTgt, access::placeholder DestPh>
void handler::copy(const SrcT *src, accessor<DestT, DestDim, DestMode, DestTgt, DestPh> dest) {
  static_assert(sizeof(SrcT) == sizeof(DestT), "copy: the element types differ in size");
  static_assert(DestMode != access_mode::read, "copy: the destination accessor is read-only");
  begin_command(detail::command_kind::copy_region);
  desc_.element_bytes = sizeof(DestT);
  desc_.region_destination = accessor_side(dest);
  desc_.region_source = detail::pointer_side(src, dest.size());
}
template <typename SrcT, typename DestT, int DestDim, access_mode DestMode, target DestTgt, access::placeholder DestPh>
void handler::copy(std::shared_ptr<SrcT> src, accessor<DestT, DestDim, DestMode, DestTgt, DestPh> dest) {
  copy(static_cast<const SrcT *>(src.get()), dest);
  desc_.keep_alive = src;
}
template <typename SrcT, int SrcDim, access_mode SrcMode, target SrcTgt, access::placeholder SrcPh, typename DestT,
          int DestDim, access_mode DestMode, target DestTgt, access::placeholder DestPh>
void handler::copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, SrcPh> src,
                   accessor<DestT, DestDim, DestMode, DestTgt, DestPh> dest) {
  static_assert(sizeof(SrcT) == sizeof(DestT), "copy: the element types differ in size");
  static_assert(DestMode != access_mode::read, "copy: the destination accessor is read-only");
  if (dest.size() < src.size())
    throw exception(make_error_code(errc::invalid),
                    "copy: the destination accessor has " + std::to_string(dest.size()) +
                        " elements, fewer than the source's " + std::to_string(src.size()));
  begin_command(detail::command_kind::copy_region);
  desc_.element_bytes = sizeof(SrcT);
  desc_.region_source = accessor_side(src);
  desc_.region_destination = accessor_side(dest);
}
template <typename T, int Dim, access_mode Mode, target Tgt, access::placeholder Ph>
void handler::update_host(accessor<T, Dim, Mode, Tgt, Ph> acc) {
  if (!acc.buffer_) throw exception(make_error_code(errc::invalid), "update_host: the accessor is empty");
  begin_command(detail::command_kind::none);
  // The accessor's own requirement (made on the device) would move data there
  // for nothing: update_host only reads on the host.
  auto &list = desc_.accesses;
  list.erase(std::remove_if(list.begin(), list.end(),
                            [&](const detail::buffer_access &a) { return detail::same_access(a, acc.access_); }),
             list.end());
  detail::buffer_access access = acc.access_;
  access.mode = access_mode::read;  // only brings the host's copy up to date
  access.no_init = false;
  access.on_host = true;
  add_access(access);
}
template <typename T, int Dim, access_mode Mode, target Tgt, access::placeholder Ph>
void handler::fill(accessor<T, Dim, Mode, Tgt, Ph> dest, const T &src) {
  static_assert(Mode != access_mode::read, "fill: the accessor is read-only");
  begin_command(detail::command_kind::fill_region);
  desc_.element_bytes = sizeof(T);
  desc_.region_destination = accessor_side(dest);
  desc_.pattern.resize(sizeof(T));
  std::memcpy(desc_.pattern.data(), &src, sizeof(T));
}

// A host task's closure may hold accessors of target::device, whose data
// pointers are tokens (runtime_api.hpp, buffer_token). Their accesses become
// host accesses, and each pointer-sized word of the closure that is a token of
// one of the command group's buffers becomes the address in the host's copy.
// (A token has 0xF in its top four bits and the buffer's id below: no host
// pointer has that form, and an integer would have to match a live buffer's
// id exactly.)
inline void handler::bind_host_task_accessors(void *closure, std::size_t bytes) {
  bool any_device = false;
  for (detail::buffer_access &a : desc_.accesses)
    if (!a.on_host) a.on_host = any_device = true;
  if (any_device) detail::host_task_bind_tokens(closure, bytes, desc_.accesses);
}

template <typename T, int D, access_mode M, target Tg, access::placeholder P>
void handler::require(accessor<T, D, M, Tg, P> acc) {
  // §4.9.4.1: no effect unless acc is a placeholder not yet registered.
  if (acc.placeholder_ && acc.buffer_ && !has_access(acc.access_)) add_access(acc.access_);
}

// §4.7.6.10 / §4.7.6.11: no_init constructs accessors and host accessors.
template <typename T, int D, access_mode M, target Tg, access::placeholder P>
struct is_property_of<property::no_init, accessor<T, D, M, Tg, P>> : std::true_type {};
template <typename T, int D, access_mode M> struct is_property_of<property::no_init, host_accessor<T, D, M>>
    : std::true_type {};

}  // namespace sycl

// §4.5.2: std::hash agrees with operator== (the accessors' identities).
namespace std {
template <typename DataT, int Dimensions, sycl::access_mode AccessMode, sycl::target AccessTarget,
          sycl::access::placeholder IsPlaceholder>
struct hash<sycl::accessor<DataT, Dimensions, AccessMode, AccessTarget, IsPlaceholder>> {
  size_t
  operator()(const sycl::accessor<DataT, Dimensions, AccessMode, AccessTarget, IsPlaceholder> &a) const noexcept {
    if constexpr (AccessTarget == sycl::target::local)  // a local_accessor (local_accessor.hpp)
      return hash<sycl::local_accessor<DataT, Dimensions>>()(a);
    else return hash<uint64_t>()(a.identity_);
  }
};
template <typename DataT, int Dimensions, sycl::access_mode AccessMode>
struct hash<sycl::host_accessor<DataT, Dimensions, AccessMode>> {
  size_t operator()(const sycl::host_accessor<DataT, Dimensions, AccessMode> &a) const noexcept {
    return hash<uint64_t>()(a.identity_);
  }
};
}  // namespace std
