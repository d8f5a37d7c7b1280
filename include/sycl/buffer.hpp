// SYCL 2020 §4.7.2 buffer. The data lives in the runtime (runtime-spec.md):
// one fixed allocation per physical device, data state tracked per page. A
// buffer object is a view of that storage: the whole of it, a sub-buffer
// (§4.7.2.3) or a reinterpretation (§4.7.2.5).
#pragma once

#include "context.hpp"
#include "detail/memory_properties.hpp"
#include "detail/reference_semantics.hpp"
#include "detail/runtime_api.hpp"
#include "detail/std_parts.hpp"
#include "property_list.hpp"
#include "range.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace sycl {

template <typename T> using buffer_allocator = std::allocator<T>;

namespace property::buffer {
class use_host_ptr : public detail::property_base {};
class use_mutex : public detail::mutex_property {
public:
  using detail::mutex_property::mutex_property;
};
// §4.7.2.2: the buffer may be used only in this context (a command group of
// a queue of another context is an errc::invalid error at submission).
class context_bound : public detail::context_property {
public:
  using detail::context_property::context_property;
};
}  // namespace property::buffer

namespace ext::onepass::property::buffer {
// The page of data-state tracking, in elements per dimension (runtime-spec.md,
// "Data state tracking and pages"). Accessors conflict only if the pages they
// touch overlap; transfers move whole pages.
template <int Dimensions> class page_size : public detail::property_base {
public:
  explicit page_size(range<Dimensions> elements) : elements_(elements) {}
  range<Dimensions> get_page_size() const { return elements_; }

private:
  range<Dimensions> elements_;
};
}  // namespace ext::onepass::property::buffer

template <typename T, int D, typename A> class buffer;
template <typename T, int D, typename A>
struct is_property_of<property::buffer::use_host_ptr, buffer<T, D, A>> : std::true_type {};
template <typename T, int D, typename A>
struct is_property_of<property::buffer::use_mutex, buffer<T, D, A>> : std::true_type {};
template <typename T, int D, typename A>
struct is_property_of<property::buffer::context_bound, buffer<T, D, A>> : std::true_type {};
template <int P, typename T, int D, typename A>
struct is_property_of<ext::onepass::property::buffer::page_size<P>, buffer<T, D, A>> : std::bool_constant<P == D> {};

template <typename DataT, int Dimensions, access_mode AccessMode, target AccessTarget,
          access::placeholder IsPlaceholder>
class accessor;
template <typename DataT, int Dimensions, access_mode AccessMode> class host_accessor;
class handler;

namespace detail {
template <int D> std::size_t linear_index(const range<D> &extent, const id<D> &index) {
  std::size_t linear = 0;
  for (int d = 0; d < D; ++d) linear = linear * extent[d] + index[d];
  return linear;
}
template <typename Buffer> struct buffer_view_access;
}  // namespace detail

template <typename T, int Dimensions = 1, typename AllocatorT = buffer_allocator<std::remove_const_t<T>>> class buffer {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "a buffer has 1 to 3 dimensions");
  using element = std::remove_const_t<T>;

public:
  using value_type = T;
  using reference = value_type &;
  using const_reference = const value_type &;
  using allocator_type = AllocatorT;

  buffer(const range<Dimensions> &r, const property_list &props = {}) : buffer(r, props, init_with(nullptr, nullptr)) {}
  buffer(const range<Dimensions> &r, AllocatorT, const property_list &props = {}) : buffer(r, props) {}

  // The host memory is the buffer's host copy while the buffer lives (so
  // use_host_ptr always holds) and receives the data at destruction.
  buffer(T *host_data, const range<Dimensions> &r, const property_list &props = {})
      : buffer(r, props, host_init(host_data, props)) {}
  buffer(T *host_data, const range<Dimensions> &r, AllocatorT, const property_list &props = {})
      : buffer(host_data, r, props) {}

  // Copied in; nothing is written back (§4.7.2.1).
  template <typename U = T, typename = std::enable_if_t<!std::is_const_v<U>>>
  buffer(const T *host_data, const range<Dimensions> &r, const property_list &props = {})
      : buffer(r, props, init_with(nullptr, host_data)) {}
  template <typename U = T, typename = std::enable_if_t<!std::is_const_v<U>>>
  buffer(const T *host_data, const range<Dimensions> &r, AllocatorT, const property_list &props = {})
      : buffer(host_data, r, props) {}

  buffer(const std::shared_ptr<T> &host_data, const range<Dimensions> &r, const property_list &props = {})
      : buffer(r, props, shared_init(host_data, props)) {}
  buffer(const std::shared_ptr<T[]> &host_data, const range<Dimensions> &r, const property_list &props = {})
      : buffer(r, props, shared_init(std::shared_ptr<T>(host_data, host_data.get()), props)) {}
  // The forms with an allocator (§4.7.2.1): OnePass's runtime allocates the
  // buffer's memory itself, so the allocator is not used.
  buffer(const std::shared_ptr<T> &host_data, const range<Dimensions> &r, AllocatorT, const property_list &props = {})
      : buffer(host_data, r, props) {}
  buffer(const std::shared_ptr<T[]> &host_data, const range<Dimensions> &r, AllocatorT,
         const property_list &props = {})
      : buffer(host_data, r, props) {}

  // A contiguous container (§4.7.2.1): its storage is used as with a host pointer.
  template <typename Container, int D = Dimensions,
            typename = std::enable_if_t<D == 1 &&
                                        std::is_convertible_v<decltype(std::data(std::declval<Container &>())), T *> &&
                                        !std::is_pointer_v<Container>>>
  buffer(Container &container, const property_list &props = {})
      : buffer(std::data(container), range<1>(std::size(container)), props) {}
  template <typename Container, int D = Dimensions,
            typename = std::enable_if_t<D == 1 &&
                                        std::is_convertible_v<decltype(std::data(std::declval<Container &>())), T *> &&
                                        !std::is_pointer_v<Container>>>
  buffer(Container &container, AllocatorT, const property_list &props = {}) : buffer(container, props) {}

  // Copied in; nothing is written back.
  template <typename InputIterator, int D = Dimensions,
            typename = std::enable_if_t<D == 1 && !std::is_integral_v<InputIterator> &&
                                        !std::is_pointer_v<std::decay_t<InputIterator>>>>
  buffer(InputIterator first, InputIterator last, const property_list &props = {})
      : buffer(first, last, props, std::vector<element>(first, last)) {}
  template <typename InputIterator, int D = Dimensions,
            typename = std::enable_if_t<D == 1 && !std::is_integral_v<InputIterator> &&
                                        !std::is_pointer_v<std::decay_t<InputIterator>>>>
  buffer(InputIterator first, InputIterator last, AllocatorT, const property_list &props = {})
      : buffer(first, last, props) {}
  template <int D = Dimensions, typename = std::enable_if_t<D == 1>>
  buffer(const T *first, const T *last, const property_list &props = {})
      : buffer(first, range<1>(static_cast<std::size_t>(last - first)), props) {}
  template <int D = Dimensions, typename = std::enable_if_t<D == 1>>
  buffer(const T *first, const T *last, AllocatorT, const property_list &props = {}) : buffer(first, last, props) {}

  // A sub-buffer (§4.7.2.3): a contiguous part of `parent`, sharing its data.
  buffer(buffer &parent, const id<Dimensions> &base_index, const range<Dimensions> &sub_range)
      : impl_(parent.impl_), range_(sub_range), props_(parent.props_), whole_(parent.whole_), sub_buffer_(true) {
    if (parent.sub_buffer_)
      throw exception(make_error_code(errc::invalid), "sub-buffer: the parent is itself a sub-buffer (§4.7.2.3)");
    for (int d = 0; d < Dimensions; ++d)
      if (base_index[d] + sub_range[d] > parent.range_[d])
        throw exception(make_error_code(errc::invalid),
                        "sub-buffer: the base index plus the sub-range exceed the parent buffer in dimension " +
                            std::to_string(d));
    int outer = 0;
    while (outer < Dimensions - 1 && sub_range[outer] == 1) ++outer;
    for (int d = outer + 1; d < Dimensions; ++d)
      if (sub_range[d] != parent.range_[d])
        throw exception(make_error_code(errc::invalid),
                        "sub-buffer: the sub-range is not contiguous in the parent buffer (dimension " +
                            std::to_string(d) + " must span the parent's range)");
    byte_offset_ = parent.byte_offset_ + detail::linear_index(parent.range_, base_index) * sizeof(T);
    for (int d = 0; d < 3; ++d) impl_offset_[d] = parent.impl_offset_[d];
    if (!whole_)
      for (int d = 0; d < Dimensions; ++d) impl_offset_[d] += base_index[d];
  }

  range<Dimensions> get_range() const { return range_; }
  std::size_t size() const noexcept { return range_.size(); }
  std::size_t byte_size() const noexcept { return size() * sizeof(T); }
  std::size_t get_count() const { return size(); }      // deprecated in SYCL 2020
  std::size_t get_size() const { return byte_size(); }  // deprecated in SYCL 2020
  AllocatorT get_allocator() const { return AllocatorT(); }
  bool is_sub_buffer() const { return sub_buffer_; }

  template <typename Property> bool has_property() const noexcept { return props_.has_property<Property>(); }
  template <typename Property> Property get_property() const { return props_.get_property<Property>(); }

  // §4.7.2.4: where the data goes when the last buffer of this storage dies.
  void set_final_data(std::nullptr_t = nullptr) { detail::buffer_set_final_data(*impl_, nullptr); }
  template <typename Destination> void set_final_data(Destination destination) {
    std::size_t count = size(), offset = byte_offset_;
    if constexpr (std::is_pointer_v<Destination>) {
      if (!sub_buffer_) {  // the whole storage: written back directly
        detail::buffer_set_final_data(*impl_, static_cast<void *>(destination));
        return;
      }
    }
    detail::buffer_set_final_writer(*impl_, [destination, count, offset](const void *data) mutable {
      const T *first = reinterpret_cast<const T *>(static_cast<const char *>(data) + offset);
      if constexpr (std::is_same_v<Destination, std::weak_ptr<T>> || std::is_same_v<Destination, std::weak_ptr<T[]>>) {
        if (auto target = destination.lock()) std::copy(first, first + count, target.get());
      } else if constexpr (std::is_same_v<Destination, std::shared_ptr<T>> ||
                           std::is_same_v<Destination, std::shared_ptr<T[]>>) {
        if (destination) std::copy(first, first + count, destination.get());
      } else {
        std::copy(first, first + count, destination);
      }
    });
  }
  void set_write_back(bool flag = true) { detail::buffer_set_write_back(*impl_, flag); }

  // §4.7.2.5: the same storage seen as other elements or another shape.
  template <typename ReinterpretT, int ReinterpretDim>
  buffer<ReinterpretT, ReinterpretDim, buffer_allocator<std::remove_const_t<ReinterpretT>>>
  reinterpret(range<ReinterpretDim> reinterpret_range) const {
    if (reinterpret_range.size() * sizeof(ReinterpretT) != byte_size())
      throw exception(make_error_code(errc::invalid),
                      "buffer::reinterpret: the new range (" + std::to_string(reinterpret_range.size()) + " x " +
                          std::to_string(sizeof(ReinterpretT)) + " bytes) does not cover the buffer's " +
                          std::to_string(byte_size()) + " bytes exactly");
    buffer<ReinterpretT, ReinterpretDim, buffer_allocator<std::remove_const_t<ReinterpretT>>> result;
    result.impl_ = impl_;
    result.range_ = reinterpret_range;
    result.props_ = props_;
    result.byte_offset_ = byte_offset_;
    result.whole_ = true;  // pages are those of the original shape: every access covers all
    result.sub_buffer_ = sub_buffer_;
    return result;
  }
  template <typename ReinterpretT, int ReinterpretDim = Dimensions> auto reinterpret() const {
    static_assert(ReinterpretDim == 1 || ReinterpretDim == Dimensions,
                  "reinterpret without a range keeps the dimensions or gives one dimension");
    if constexpr (ReinterpretDim == 1) {
      if (byte_size() % sizeof(ReinterpretT) != 0)
        throw exception(make_error_code(errc::invalid), "buffer::reinterpret: " + std::to_string(byte_size()) +
                                                            " bytes are not a whole number of " +
                                                            std::to_string(sizeof(ReinterpretT)) + "-byte elements");
      return reinterpret<ReinterpretT, 1>(range<1>(byte_size() / sizeof(ReinterpretT)));
    } else {
      range<Dimensions> r = range_;
      std::size_t last = r[Dimensions - 1] * sizeof(T);
      if (last % sizeof(ReinterpretT) != 0)
        throw exception(make_error_code(errc::invalid), "buffer::reinterpret: the last dimension (" +
                                                            std::to_string(last) + " bytes) is not a whole number of " +
                                                            std::to_string(sizeof(ReinterpretT)) + "-byte elements");
      r[Dimensions - 1] = last / sizeof(ReinterpretT);
      return reinterpret<ReinterpretT, Dimensions>(r);
    }
  }

  // Accessors (§4.7.2.2); defined in accessor.hpp.
  template <access_mode Mode = access_mode::read_write, target Target = target::device>
  accessor<T, Dimensions, Mode, Target, access::placeholder::false_t> get_access(handler &h);
  template <access_mode Mode = access_mode::read_write, target Target = target::device>
  accessor<T, Dimensions, Mode, Target, access::placeholder::false_t>
  get_access(handler &h, range<Dimensions> access_range, id<Dimensions> access_offset = {});
  template <access_mode Mode = access_mode::read_write> host_accessor<T, Dimensions, Mode> get_host_access();
  // The SYCL 2020 forms (Table 22): the arguments of an accessor's constructor
  // after the buffer, e.g. get_access(h, read_only) or get_host_access(write_only, no_init).
  template <typename First, typename... Rest> auto get_access(First &first, Rest... rest);
  template <typename First, typename... Rest> auto get_host_access(First first, Rest... rest);
  template <access_mode Mode = access_mode::read_write>
  host_accessor<T, Dimensions, Mode> get_host_access(range<Dimensions> access_range, id<Dimensions> access_offset = {});
  // Deprecated in SYCL 2020: host access through accessors of target::host_buffer.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  template <access_mode Mode>
  [[deprecated("use buffer::get_host_access() (SYCL 2020)")]] accessor<T, Dimensions, Mode, target::host_buffer,
                                                                       access::placeholder::false_t>
  get_access();
  template <access_mode Mode> [[deprecated("use buffer::get_host_access(range, offset) (SYCL 2020)")]] accessor<
      T, Dimensions, Mode, target::host_buffer, access::placeholder::false_t>
  get_access(range<Dimensions> access_range, id<Dimensions> access_offset = {});
#pragma GCC diagnostic pop

  friend bool operator==(const buffer &a, const buffer &b) {
    return a.impl_ == b.impl_ && a.byte_offset_ == b.byte_offset_ && a.range_ == b.range_;
  }
  friend bool operator!=(const buffer &a, const buffer &b) { return !(a == b); }

private:
  template <typename, int, typename> friend class buffer;
  template <typename> friend struct detail::buffer_view_access;
  friend struct std::hash<buffer>;

  buffer() = default;

  static detail::buffer_init init_with(void *storage, const void *initial) {
    detail::buffer_init init;
    init.host_storage = storage;
    init.initial_data = initial;
    return init;
  }
  // The host memory is used in place. use_mutex: the runtime holds the user's
  // mutex while it writes device data back to it (after each command that
  // writes on a device, and at destruction).
  detail::buffer_init host_init(T *host_data, const property_list &props) {
    detail::buffer_init init = init_with(const_cast<element *>(host_data), nullptr);
    if (props.has_property<property::buffer::use_mutex>())
      init.final_mutex = props.get_property<property::buffer::use_mutex>().get_mutex_ptr();
    return init;
  }
  detail::buffer_init shared_init(const std::shared_ptr<T> &host_data, const property_list &props) {
    detail::buffer_init init = host_init(host_data.get(), props);
    init.keep_alive = std::const_pointer_cast<element>(host_data);
    return init;
  }

  template <typename InputIterator>
  buffer(InputIterator, InputIterator, const property_list &props, std::vector<element> copy)
      : buffer(range<1>(copy.size()), props, init_with(nullptr, copy.data())) {}

  buffer(const range<Dimensions> &r, const property_list &props, detail::buffer_init init) : range_(r), props_(props) {
    // Zero-sized buffers are permitted (§4.7.2); they hold no data.
    init.element_size = sizeof(T);
    init.dimensions = Dimensions;
    for (int d = 0; d < Dimensions; ++d) init.range[d] = r[d];
    using page_property = ext::onepass::property::buffer::page_size<Dimensions>;
    if (props.has_property<page_property>()) {
      range<Dimensions> page = props.get_property<page_property>().get_page_size();
      for (int d = 0; d < Dimensions; ++d) {
        if (page[d] == 0)
          throw exception(make_error_code(errc::invalid),
                          "page_size: the page is zero in dimension " + std::to_string(d));
        init.page_range[d] = page[d];
      }
    }
    if (props.has_property<property::buffer::context_bound>())
      init.bound_context = props.get_property<property::buffer::context_bound>().get_context().impl();
    impl_ = detail::make_buffer(init);
  }

  std::shared_ptr<detail::buffer_impl> impl_;
  range<Dimensions> range_;
  property_list props_;
  std::size_t byte_offset_ = 0;             // of this view in the storage
  std::size_t impl_offset_[3] = {0, 0, 0};  // of this view in the storage's shape (unless whole_)
  bool whole_ = false;                      // reinterpreted: accesses cover the whole storage
  bool sub_buffer_ = false;
};

// Deduction guides (§4.7.2.1).
template <class InputIterator, class AllocatorT>
buffer(InputIterator, InputIterator, AllocatorT, const property_list & = {})
    -> buffer<typename std::iterator_traits<InputIterator>::value_type, 1, AllocatorT>;
template <class InputIterator> buffer(InputIterator, InputIterator, const property_list & = {})
    -> buffer<typename std::iterator_traits<InputIterator>::value_type, 1>;
template <class T, int Dimensions, class AllocatorT>
buffer(const T *, const range<Dimensions> &, AllocatorT, const property_list & = {})
    -> buffer<T, Dimensions, AllocatorT>;
template <class T, int Dimensions> buffer(const T *, const range<Dimensions> &, const property_list & = {})
    -> buffer<T, Dimensions>;
template <class Container> buffer(Container &, const property_list & = {}) -> buffer<typename Container::value_type, 1>;
template <class Container, class AllocatorT>
buffer(Container &, AllocatorT, const property_list & = {}) -> buffer<typename Container::value_type, 1, AllocatorT>;

namespace detail {
// What accessors need of a buffer view (kept out of the buffer's public API).
template <typename Buffer> struct buffer_view_access {
  static buffer_impl *impl(const Buffer &b) { return b.impl_.get(); }
  static std::size_t byte_offset(const Buffer &b) { return b.byte_offset_; }
  static bool whole(const Buffer &b) { return b.whole_; }
  static const std::size_t *impl_offset(const Buffer &b) { return b.impl_offset_; }
};
}  // namespace detail

}  // namespace sycl

// §4.5.2: std::hash agrees with operator== (the storage and this view of it).
namespace std {
template <typename T, int Dimensions, typename AllocatorT> struct hash<sycl::buffer<T, Dimensions, AllocatorT>> {
  size_t operator()(const sycl::buffer<T, Dimensions, AllocatorT> &b) const noexcept {
    size_t seed = hash<const void *>()(b.impl_.get());
    sycl::detail::hash_combine(seed, b.byte_offset_);
    for (int d = 0; d < Dimensions; ++d) sycl::detail::hash_combine(seed, b.range_[d]);
    return seed;
  }
};
}  // namespace std
