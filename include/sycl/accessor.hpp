// SYCL 2020 §4.7.6 accessors of buffers: `accessor` (in kernels and host
// tasks, §4.7.6.9) and `host_accessor` (on the host, §4.7.6.10).
//
// A device accessor is a plain object in the kernel's captures: a data
// pointer, the (sub-)buffer's range for linearization, and the accessed box.
// Until the kernel runs, its data pointer holds the buffer's token; the
// runtime replaces it, in its copy of the kernel object, with the data's
// address on the device that runs the kernel.
#pragma once

#include "access.hpp"
#include "buffer.hpp"
#include "handler.hpp"

#include <algorithm>
#include <cstddef>
#include <type_traits>

namespace sycl {

namespace detail {

// Element access shared by accessor and host_accessor (and by host and
// device code): `data` is the start of the (sub-)buffer, `extent` its range.
template <typename T, int D> struct accessor_view {
  T *data = nullptr;
  range<D> extent;
  id<D> offset;
  range<D> access_range;

  T &at(const id<D> &index) const {
    if constexpr (D == 1) {
      return data[offset[0] + index[0]];
    } else {
      std::size_t linear = 0;
      for (int d = 0; d < D; ++d) linear = linear * extent[d] + (offset[d] + index[d]);
      return data[linear];
    }
  }
};

// accessor[i][j][k]: each [] but the last fixes one more index.
template <typename T, int D, int Fixed> class accessor_subscript {
public:
  accessor_subscript(const accessor_view<T, D> &view, id<D> index) : view_(view), index_(index) {}
  decltype(auto) operator[](std::size_t i) const {
    id<D> next = index_;
    next[Fixed] = i;
    if constexpr (Fixed + 1 == D)
      return view_.at(next);
    else
      return accessor_subscript<T, D, Fixed + 1>(view_, next);
  }

private:
  const accessor_view<T, D> &view_;
  id<D> index_;
};

template <typename T, int D> accessor_subscript<T, D, 1> subscript_first(const accessor_view<T, D> &view, std::size_t i) {
  id<D> index;
  index[0] = i;
  return accessor_subscript<T, D, 1>(view, index);
}

// The element access and queries accessor and host_accessor share (§4.7.6.9,
// §4.7.6.10). Derived has `view_`, an accessor_view of its value_type.
template <typename Derived, typename T, int D> class accessor_interface {
public:
  std::size_t byte_size() const noexcept { return size() * sizeof(T); }
  std::size_t size() const noexcept { return view().access_range.size(); }
  std::size_t max_size() const noexcept { return size(); }
  bool empty() const noexcept { return size() == 0; }
  range<D> get_range() const { return view().access_range; }
  id<D> get_offset() const { return view().offset; }

  T &operator[](id<D> index) const { return view().at(index); }
  template <int N = D, typename = std::enable_if_t<N == 1>> T &operator[](std::size_t index) const {
    return view().data[view().offset[0] + index];
  }
  template <int N = D, typename = std::enable_if_t<(N > 1)>> auto operator[](std::size_t index) const {
    return subscript_first(view(), index);
  }
  // The start of the (sub-)buffer, also for ranged accessors (§4.7.6.9.1).
  T *get_pointer() const noexcept { return view().data; }

private:
  const accessor_view<T, D> &view() const { return static_cast<const Derived &>(*this).view_; }
};

constexpr access_mode canonical_mode(access_mode mode) {
  return mode == access_mode::discard_write ? access_mode::write
         : mode == access_mode::discard_read_write ? access_mode::read_write
                                                   : mode;
}

// The box an access covers in the storage's shape, and its checks (§4.7.6.9.1:
// errc::invalid when offset + range exceed the buffer).
template <typename Buffer, int D>
buffer_access describe_access(const Buffer &buf, access_mode mode, bool no_init, bool on_host, const range<D> &access_range,
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


}  // namespace detail

template <typename DataT, int Dimensions = 1,
          access_mode AccessMode = (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write),
          target AccessTarget = target::device, access::placeholder IsPlaceholder = access::placeholder::false_t>
class accessor : public detail::accessor_interface<
                     accessor<DataT, Dimensions, AccessMode, AccessTarget, IsPlaceholder>,
                     std::conditional_t<AccessMode == access_mode::read, const DataT, DataT>, Dimensions> {
  static_assert(Dimensions >= 1 && Dimensions <= 3,
                "OnePass supports buffer accessors of 1 to 3 dimensions (0-dimensional ones are not implemented yet)");
  static_assert(AccessTarget == target::device || AccessTarget == target::host_task ||
                    AccessTarget == target::constant_buffer,
                "use local_accessor for local memory and host_accessor on the host");
  static constexpr bool on_host = AccessTarget == target::host_task;

public:
  using value_type = std::conditional_t<AccessMode == access_mode::read, const DataT, DataT>;
  using reference = value_type &;
  using const_reference = const DataT &;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;

  // An empty accessor (§4.7.6.9.1).
  accessor() = default;

  // Placeholders: bound to a command group later, by handler::require.
  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &buf, const property_list &props = {})
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
  accessor(buffer<T, Dimensions, A> &buf, range<Dimensions> r, detail::access_tag<M, Tg>, const property_list &props = {})
      : accessor(buf, nullptr, r, {}, props) {}
  template <typename T, typename A, access_mode M, target Tg>
  accessor(buffer<T, Dimensions, A> &buf, range<Dimensions> r, id<Dimensions> o, detail::access_tag<M, Tg>,
           const property_list &props = {})
      : accessor(buf, nullptr, r, o, props) {}

  // Bound to the command group of `h`.
  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &buf, handler &h, const property_list &props = {})
      : accessor(buf, &h, buf.get_range(), {}, props) {}
  template <typename T, typename A, access_mode M, target Tg>
  accessor(buffer<T, Dimensions, A> &buf, handler &h, detail::access_tag<M, Tg>, const property_list &props = {})
      : accessor(buf, &h, buf.get_range(), {}, props) {}
  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &buf, handler &h, range<Dimensions> r, const property_list &props = {})
      : accessor(buf, &h, r, {}, props) {}
  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &buf, handler &h, range<Dimensions> r, id<Dimensions> o,
           const property_list &props = {})
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
  // read accessor of T to one of const T.
  template <typename OtherT, access_mode OtherMode, access::placeholder OtherP,
            typename = std::enable_if_t<AccessMode == access_mode::read &&
                                        (OtherMode == access_mode::read_write || OtherMode == access_mode::read) &&
                                        !(OtherMode == access_mode::read && std::is_same_v<OtherT, DataT>) &&
                                        std::is_same_v<std::remove_const_t<OtherT>, std::remove_const_t<DataT>> &&
                                        (!std::is_const_v<OtherT> || std::is_const_v<DataT>)>>
  accessor(const accessor<OtherT, Dimensions, OtherMode, AccessTarget, OtherP> &other)
      : buffer_(other.buffer_), access_(other.access_), placeholder_(other.placeholder_) {
    view_.data = other.view_.data;
    view_.extent = other.view_.extent;
    view_.offset = other.view_.offset;
    view_.access_range = other.view_.access_range;
  }

  bool is_placeholder() const { return placeholder_; }
  std::size_t get_size() const { return this->byte_size(); }  // deprecated
  std::size_t get_count() const { return this->size(); }      // deprecated
  template <typename U = value_type> U *get_multi_ptr() const noexcept { return view_.data; }

  void swap(accessor &other) {
    accessor copy = *this;
    *this = other;
    other = copy;
  }

  friend bool operator==(const accessor &a, const accessor &b) {
    return a.view_.data == b.view_.data && a.buffer_ == b.buffer_ && a.view_.offset == b.view_.offset &&
           a.view_.access_range == b.view_.access_range;
  }
  friend bool operator!=(const accessor &a, const accessor &b) { return !(a == b); }

private:
  friend class handler;
  template <typename, typename, int> friend class detail::accessor_interface;
  template <typename, int, access_mode, target, access::placeholder> friend class accessor;

  template <typename Buffer>
  accessor(Buffer &buf, handler *h, range<Dimensions> r, id<Dimensions> o, const property_list &props)
      : buffer_(detail::buffer_view_access<Buffer>::impl(buf)), placeholder_(h == nullptr) {
    static_assert(sizeof(typename Buffer::value_type) == sizeof(DataT), "the accessor's element type differs from the buffer's");
    access_ = detail::describe_access(buf, AccessMode, props.has_property<property::no_init>(), on_host, r, o);
    view_.extent = buf.get_range();
    view_.offset = o;
    view_.access_range = r;
    if constexpr (on_host)
      view_.data = reinterpret_cast<value_type *>(static_cast<char *>(detail::buffer_host_data(*buffer_)) +
                                                  detail::buffer_view_access<Buffer>::byte_offset(buf));
    else
      view_.data = reinterpret_cast<value_type *>(access_.token);
    if (h) h->add_access(access_);
  }

  detail::accessor_view<value_type, Dimensions> view_;
  detail::buffer_impl *buffer_ = nullptr;  // host side only
  detail::buffer_access access_;           // host side only: the requirement handler::require registers
  bool placeholder_ = false;
};

// Deduction guides (§4.7.6.9.2).
template <typename T, int D, typename A> accessor(buffer<T, D, A> &) -> accessor<T, D, access_mode::read_write, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, const property_list &) -> accessor<T, D, access_mode::read_write, target::device, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg> accessor(buffer<T, D, A> &, detail::access_tag<M, Tg>) -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg> accessor(buffer<T, D, A> &, detail::access_tag<M, Tg>, const property_list &) -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, handler &) -> accessor<T, D, access_mode::read_write, target::device>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, handler &, const property_list &) -> accessor<T, D, access_mode::read_write, target::device>;
template <typename T, int D, typename A, access_mode M, target Tg> accessor(buffer<T, D, A> &, handler &, detail::access_tag<M, Tg>) -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A, access_mode M, target Tg> accessor(buffer<T, D, A> &, handler &, detail::access_tag<M, Tg>, const property_list &) -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, handler &, range<D>) -> accessor<T, D, access_mode::read_write, target::device>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, handler &, range<D>, const property_list &) -> accessor<T, D, access_mode::read_write, target::device>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, handler &, range<D>, id<D>) -> accessor<T, D, access_mode::read_write, target::device>;
template <typename T, int D, typename A> accessor(buffer<T, D, A> &, handler &, range<D>, id<D>, const property_list &) -> accessor<T, D, access_mode::read_write, target::device>;
template <typename T, int D, typename A, access_mode M, target Tg> accessor(buffer<T, D, A> &, handler &, range<D>, detail::access_tag<M, Tg>) -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A, access_mode M, target Tg> accessor(buffer<T, D, A> &, handler &, range<D>, detail::access_tag<M, Tg>, const property_list &) -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A, access_mode M, target Tg> accessor(buffer<T, D, A> &, handler &, range<D>, id<D>, detail::access_tag<M, Tg>) -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A, access_mode M, target Tg> accessor(buffer<T, D, A> &, handler &, range<D>, id<D>, detail::access_tag<M, Tg>, const property_list &) -> accessor<T, D, M, Tg>;
template <typename T, int D, typename A, access_mode M, target Tg> accessor(buffer<T, D, A> &, range<D>, detail::access_tag<M, Tg>) -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg> accessor(buffer<T, D, A> &, range<D>, id<D>, detail::access_tag<M, Tg>) -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg> accessor(buffer<T, D, A> &, range<D>, detail::access_tag<M, Tg>, const property_list &) -> accessor<T, D, M, Tg, access::placeholder::true_t>;
template <typename T, int D, typename A, access_mode M, target Tg> accessor(buffer<T, D, A> &, range<D>, id<D>, detail::access_tag<M, Tg>, const property_list &) -> accessor<T, D, M, Tg, access::placeholder::true_t>;

template <typename DataT, int Dimensions = 1,
          access_mode AccessMode = (std::is_const_v<DataT> ? access_mode::read : access_mode::read_write)>
class host_accessor : public detail::accessor_interface<host_accessor<DataT, Dimensions, AccessMode>,
                                                       std::conditional_t<AccessMode == access_mode::read, const DataT, DataT>,
                                                       Dimensions> {

public:
  using value_type = std::conditional_t<AccessMode == access_mode::read, const DataT, DataT>;
  using reference = value_type &;
  using const_reference = const DataT &;
  using size_type = std::size_t;
  using iterator = value_type *;

  host_accessor() = default;
  template <typename T, typename A>
  host_accessor(buffer<T, Dimensions, A> &buf, const property_list &props = {})
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

  // Iteration over a 1-D access (contiguous).
  template <int D = Dimensions, typename = std::enable_if_t<D == 1>> iterator begin() const noexcept {
    return view_.data + view_.offset[0];
  }
  template <int D = Dimensions, typename = std::enable_if_t<D == 1>> iterator end() const noexcept {
    return begin() + this->size();
  }

private:
  template <typename, typename, int> friend class detail::accessor_interface;

  template <typename Buffer>
  host_accessor(Buffer &buf, range<Dimensions> r, id<Dimensions> o, const property_list &props, int) {
    static_assert(sizeof(typename Buffer::value_type) == sizeof(DataT), "the accessor's element type differs from the buffer's");
    detail::buffer_access access =
        detail::describe_access(buf, AccessMode, props.has_property<property::no_init>(), true, r, o);
    detail::host_access held = detail::buffer_acquire_host(access);
    hold_ = held.hold;
    view_.data = reinterpret_cast<value_type *>(static_cast<char *>(held.data) +
                                                detail::buffer_view_access<Buffer>::byte_offset(buf));
    view_.extent = buf.get_range();
    view_.offset = o;
    view_.access_range = r;
  }

  detail::accessor_view<value_type, Dimensions> view_;
  std::shared_ptr<void> hold_;  // the last copy's destruction releases the buffer
};

template <typename T, int D, typename A> host_accessor(buffer<T, D, A> &) -> host_accessor<T, D, access_mode::read_write>;
template <typename T, int D, typename A> host_accessor(buffer<T, D, A> &, const property_list &) -> host_accessor<T, D, access_mode::read_write>;
template <typename T, int D, typename A, access_mode M> host_accessor(buffer<T, D, A> &, detail::access_tag<M, target::device>) -> host_accessor<T, D, M>;
template <typename T, int D, typename A, access_mode M> host_accessor(buffer<T, D, A> &, detail::access_tag<M, target::device>, const property_list &) -> host_accessor<T, D, M>;
template <typename T, int D, typename A> host_accessor(buffer<T, D, A> &, range<D>) -> host_accessor<T, D, access_mode::read_write>;
template <typename T, int D, typename A> host_accessor(buffer<T, D, A> &, range<D>, id<D>) -> host_accessor<T, D, access_mode::read_write>;
template <typename T, int D, typename A, access_mode M> host_accessor(buffer<T, D, A> &, range<D>, detail::access_tag<M, target::device>) -> host_accessor<T, D, M>;
template <typename T, int D, typename A, access_mode M> host_accessor(buffer<T, D, A> &, range<D>, id<D>, detail::access_tag<M, target::device>) -> host_accessor<T, D, M>;
template <typename T, int D, typename A, access_mode M> host_accessor(buffer<T, D, A> &, range<D>, detail::access_tag<M, target::device>, const property_list &) -> host_accessor<T, D, M>;
template <typename T, int D, typename A, access_mode M> host_accessor(buffer<T, D, A> &, range<D>, id<D>, detail::access_tag<M, target::device>, const property_list &) -> host_accessor<T, D, M>;

// §4.7.6.11: work-group local memory of an nd_range kernel. This declares the
// storage (its size per work-group); using it in kernels comes with nd_range
// support, so its element access is not available yet.
template <typename DataT, int Dimensions = 1> class local_accessor {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "OnePass supports local accessors of 1 to 3 dimensions");

public:
  using value_type = DataT;
  using size_type = std::size_t;

  local_accessor() = default;
  local_accessor(range<Dimensions> allocation_size, handler &, const property_list & = {}) : range_(allocation_size) {}

  size_type byte_size() const noexcept { return size() * sizeof(DataT); }
  size_type size() const noexcept { return range_.size(); }
  size_type max_size() const noexcept { return size(); }
  bool empty() const noexcept { return size() == 0; }
  range<Dimensions> get_range() const { return range_; }

private:
  range<Dimensions> range_;
};

// buffer's accessor members (§4.7.2.2).
template <typename T, int D, typename A>
template <typename First, typename... Rest>
auto buffer<T, D, A>::get_access(First &first, Rest... rest) {
  return accessor{*this, first, rest...};
}
template <typename T, int D, typename A>
template <typename First, typename... Rest>
auto buffer<T, D, A>::get_host_access(First first, Rest... rest) {
  return host_accessor{*this, first, rest...};
}
template <typename T, int D, typename A>
template <access_mode Mode, target Target>
accessor<T, D, Mode, Target, access::placeholder::false_t> buffer<T, D, A>::get_access(handler &h) {
  return accessor<T, D, Mode, Target, access::placeholder::false_t>(*this, h);
}
template <typename T, int D, typename A>
template <access_mode Mode, target Target>
accessor<T, D, Mode, Target, access::placeholder::false_t>
buffer<T, D, A>::get_access(handler &h, range<D> access_range, id<D> access_offset) {
  return accessor<T, D, Mode, Target, access::placeholder::false_t>(*this, h, access_range, access_offset);
}
template <typename T, int D, typename A>
template <access_mode Mode>
host_accessor<T, D, Mode> buffer<T, D, A>::get_host_access() {
  return host_accessor<T, D, Mode>(*this);
}
template <typename T, int D, typename A>
template <access_mode Mode>
host_accessor<T, D, Mode> buffer<T, D, A>::get_host_access(range<D> access_range, id<D> access_offset) {
  return host_accessor<T, D, Mode>(*this, access_range, access_offset);
}

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
void handler::copy(accessor<SrcT, SrcDim, SrcMode, SrcTgt, SrcPh> src, accessor<DestT, DestDim, DestMode, DestTgt, DestPh> dest) {
  static_assert(sizeof(SrcT) == sizeof(DestT), "copy: the element types differ in size");
  static_assert(DestMode != access_mode::read, "copy: the destination accessor is read-only");
  if (dest.size() < src.size())
    throw exception(make_error_code(errc::invalid), "copy: the destination accessor has " + std::to_string(dest.size()) +
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

template <typename T, int D, access_mode M, target Tg, access::placeholder P>
void handler::require(accessor<T, D, M, Tg, P> acc) {
  // §4.9.4.1: no effect unless acc is a placeholder not yet registered.
  if (acc.placeholder_ && acc.buffer_ && !has_access(acc.access_)) add_access(acc.access_);
}

}  // namespace sycl
