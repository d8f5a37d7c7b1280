// SYCL 2020 §4.7.7: multi_ptr, a pointer that carries its address space in
// its type, its aliases (global_ptr, local_ptr, raw_*_ptr, decorated_*_ptr
// …, §4.7.7.2), address_space_cast, and the SYCL 1.2.1 interface kept as
// access::decorated::legacy (deprecated).
//
// OnePass's device code uses generic pointers everywhere: the JIT infers the
// address spaces. So every multi_ptr holds a plain T*, whatever its address
// space, and a "decorated" pointer or reference is the plain one:
// decorated::yes and decorated::no differ only in their type names, and
// remove_decoration is the identity.
#pragma once

#include "access.hpp"
#include "detail/std_parts.hpp"

#include <cstddef>
#include <type_traits>

namespace sycl {

namespace access {
// Whether a multi_ptr's pointer and reference types are decorated with its
// address space; legacy is the SYCL 1.2.1 interface (§4.7.7.1).
enum class decorated { no, yes, legacy };
}  // namespace access

// A decorated pointer or reference type without its decoration: every type
// is undecorated in OnePass.
template <typename T> struct remove_decoration { using type = T; };
template <typename T> using remove_decoration_t = typename remove_decoration<T>::type;

template <typename DataT, int Dimensions, access_mode AccessMode, target AccessTarget,
          access::placeholder IsPlaceholder>
class accessor;
template <typename DataT, int Dimensions> class local_accessor;

namespace detail {

// Comparisons (Table 74) and, for non-void elements, the random-access
// pointer arithmetic of every multi_ptr; Derived is the multi_ptr, which
// holds its pointer here.
template <typename Derived, typename ElementType> class multi_ptr_comparisons {
public:
  friend bool operator==(const Derived &a, const Derived &b) { return a.ptr_ == b.ptr_; }
  friend bool operator!=(const Derived &a, const Derived &b) { return a.ptr_ != b.ptr_; }
  friend bool operator<(const Derived &a, const Derived &b) { return a.ptr_ < b.ptr_; }
  friend bool operator>(const Derived &a, const Derived &b) { return a.ptr_ > b.ptr_; }
  friend bool operator<=(const Derived &a, const Derived &b) { return a.ptr_ <= b.ptr_; }
  friend bool operator>=(const Derived &a, const Derived &b) { return a.ptr_ >= b.ptr_; }
  friend bool operator==(const Derived &a, std::nullptr_t) { return a.ptr_ == null(); }
  friend bool operator!=(const Derived &a, std::nullptr_t) { return a.ptr_ != null(); }
  friend bool operator<(const Derived &a, std::nullptr_t) { return a.ptr_ < null(); }
  friend bool operator>(const Derived &a, std::nullptr_t) { return a.ptr_ > null(); }
  friend bool operator<=(const Derived &a, std::nullptr_t) { return a.ptr_ <= null(); }
  friend bool operator>=(const Derived &a, std::nullptr_t) { return a.ptr_ >= null(); }
  friend bool operator==(std::nullptr_t, const Derived &b) { return null() == b.ptr_; }
  friend bool operator!=(std::nullptr_t, const Derived &b) { return null() != b.ptr_; }
  friend bool operator<(std::nullptr_t, const Derived &b) { return null() < b.ptr_; }
  friend bool operator>(std::nullptr_t, const Derived &b) { return null() > b.ptr_; }
  friend bool operator<=(std::nullptr_t, const Derived &b) { return null() <= b.ptr_; }
  friend bool operator>=(std::nullptr_t, const Derived &b) { return null() >= b.ptr_; }

protected:
  multi_ptr_comparisons() = default;
  explicit multi_ptr_comparisons(ElementType *ptr) : ptr_(ptr) {}
  static ElementType *null() { return nullptr; }

  ElementType *ptr_ = nullptr;
};

template <typename Derived, typename ElementType> class multi_ptr_arithmetic
    : public multi_ptr_comparisons<Derived, ElementType> {
public:
  using reference = ElementType &;
  using iterator_category = std::random_access_iterator_tag;
  using difference_type = std::ptrdiff_t;

  friend Derived &operator++(Derived &p) {
    ++p.ptr_;
    return p;
  }
  friend Derived operator++(Derived &p, int) {
    Derived old = p;
    ++p.ptr_;
    return old;
  }
  friend Derived &operator--(Derived &p) {
    --p.ptr_;
    return p;
  }
  friend Derived operator--(Derived &p, int) {
    Derived old = p;
    --p.ptr_;
    return old;
  }
  friend Derived &operator+=(Derived &p, difference_type r) {
    p.ptr_ += r;
    return p;
  }
  friend Derived &operator-=(Derived &p, difference_type r) {
    p.ptr_ -= r;
    return p;
  }
  friend Derived operator+(const Derived &p, difference_type r) {
    Derived moved = p;
    return moved += r;
  }
  friend Derived operator-(const Derived &p, difference_type r) {
    Derived moved = p;
    return moved -= r;
  }
  // Not in the spec's list, but a random-access iterator has it (and without
  // it a - b would go through the deprecated conversion to a pointer).
  friend difference_type operator-(const Derived &a, const Derived &b) { return a.ptr_ - b.ptr_; }

protected:
  using multi_ptr_comparisons<Derived, ElementType>::multi_ptr_comparisons;
};

template <typename Derived, typename ElementType> using multi_ptr_operators =
    std::conditional_t<std::is_void_v<ElementType>, multi_ptr_comparisons<Derived, ElementType>,
                       multi_ptr_arithmetic<Derived, ElementType>>;

// Whether a multi_ptr to ElementType in Space may point into the data of an
// accessor whose elements are AccValueT, in OnlySpace (Table 71): the same
// type up to const (any type for void), not dropping const, and Space ==
// OnlySpace or generic_space.
template <typename ElementType, access::address_space Space, typename AccValueT, access::address_space OnlySpace>
inline constexpr bool multi_ptr_from_accessor =
    (Space == OnlySpace ||
     (Space == access::address_space::generic_space && OnlySpace != access::address_space::constant_space)) &&
    (std::is_void_v<ElementType> ||
     std::is_same_v<std::remove_const_t<ElementType>, std::remove_const_t<AccValueT>>)&&(std::is_const_v<ElementType> ||
                                                                                         !std::is_const_v<AccValueT>);

// A buffer accessor's element type as its kernel sees it (read-only: const).
template <typename DataT, access_mode Mode> using accessed_t =
    std::conditional_t<Mode == access_mode::read, const DataT, DataT>;

}  // namespace detail

// The SYCL 2020 interface (decorated::no and decorated::yes), for object
// types and for void / const void (§4.7.7.1): a multi_ptr of void has no
// element access, arithmetic or prefetch.
template <typename ElementType, access::address_space Space,
          access::decorated DecorateAddress = access::decorated::legacy>
class multi_ptr : public detail::multi_ptr_operators<multi_ptr<ElementType, Space, DecorateAddress>, ElementType> {
  using base = detail::multi_ptr_operators<multi_ptr, ElementType>;
  static constexpr bool is_void = std::is_void_v<ElementType>;
  template <typename T> using if_element = std::enable_if_t<!std::is_void_v<T>, int>;

  // The multi_ptr<T, Space, D> this one converts to implicitly: the other
  // decoration; const elements; void or const void. A void one converts
  // implicitly only to the other decoration and to const void.
  template <typename T, access::decorated D> static constexpr bool implicitly_converts_to =
      (std::is_same_v<T, ElementType> && D != DecorateAddress && D != access::decorated::legacy) ||
      (!is_void && !std::is_const_v<ElementType> && std::is_same_v<T, const ElementType>) ||
      (!is_void && !std::is_const_v<ElementType> && std::is_same_v<T, void>) ||
      (!is_void && std::is_same_v<T, const void>) ||
      (is_void && !std::is_const_v<ElementType> && std::is_same_v<T, const void> && D == DecorateAddress);

public:
  static constexpr bool is_decorated = DecorateAddress == access::decorated::yes;
  static constexpr access::address_space address_space = Space;

  using value_type = ElementType;
  // The decorated pointer is the generic one (see the top of this file).
  using pointer = std::add_pointer_t<value_type>;
  using difference_type = std::ptrdiff_t;
  // Non-void elements also have `reference` and `iterator_category` (from
  // detail::multi_ptr_arithmetic).

  static_assert(std::is_same_v<remove_decoration_t<pointer>, std::add_pointer_t<value_type>>);

  multi_ptr() = default;
  multi_ptr(const multi_ptr &) = default;
  multi_ptr(multi_ptr &&) = default;
  explicit multi_ptr(pointer ptr) : base(ptr) {}
  multi_ptr(std::nullptr_t) {}

  // From accessors, in a kernel: the start of the (sub-)buffer, or of the
  // work-group's local memory.
  template <typename AccDataT, int Dimensions, access_mode Mode, access::placeholder IsPlaceholder,
            typename = std::enable_if_t<detail::multi_ptr_from_accessor<
                ElementType, Space, detail::accessed_t<AccDataT, Mode>, access::address_space::global_space>>>
  multi_ptr(accessor<AccDataT, Dimensions, Mode, target::device, IsPlaceholder> acc)
      : base(acc.template get_multi_ptr<access::decorated::no>().get_raw()) {}
  template <typename AccDataT, int Dimensions,
            typename = std::enable_if_t<
                detail::multi_ptr_from_accessor<ElementType, Space, AccDataT, access::address_space::local_space>>>
  multi_ptr(local_accessor<AccDataT, Dimensions> acc)
      : base(acc.template get_multi_ptr<access::decorated::no>().get_raw()) {}
  // Deprecated: constant_space. The spec allows a non-const ElementType for
  // the read-only accessor's data.
  template <typename AccDataT, int Dimensions, access::placeholder IsPlaceholder,
            typename = std::enable_if_t<
                detail::multi_ptr_from_accessor<ElementType, Space, AccDataT, access::address_space::constant_space>>>
  multi_ptr(accessor<AccDataT, Dimensions, access_mode::read, target::constant_buffer, IsPlaceholder> acc)
      : base(const_cast<std::remove_const_t<AccDataT> *>(acc.get_pointer().get())) {}
  // (The deprecated constructor from an accessor of target::local is absent:
  // OnePass has only local_accessor.)

  multi_ptr &operator=(const multi_ptr &) = default;
  multi_ptr &operator=(multi_ptr &&) = default;
  multi_ptr &operator=(std::nullptr_t) {
    this->ptr_ = nullptr;
    return *this;
  }
  // A generic pointer takes the value of one in any other space but constant.
  template <access::address_space AS, access::decorated IsDecorated,
            typename = std::enable_if_t<Space == access::address_space::generic_space &&
                                        AS != access::address_space::constant_space>>
  multi_ptr &operator=(const multi_ptr<value_type, AS, IsDecorated> &other) {
    this->ptr_ = other.get_raw();
    return *this;
  }

  template <typename T = ElementType, if_element<T> = 0> T &operator[](std::ptrdiff_t index) const {
    return this->ptr_[index];
  }
  template <typename T = ElementType, if_element<T> = 0> T &operator*() const { return *this->ptr_; }
  template <typename T = ElementType, if_element<T> = 0> pointer operator->() const { return this->ptr_; }

  pointer get() const { return this->ptr_; }
  std::add_pointer_t<value_type> get_raw() const { return this->ptr_; }
  pointer get_decorated() const { return this->ptr_; }

  [[deprecated("use multi_ptr::get() (SYCL 2020)")]] operator pointer() const { return this->ptr_; }

  // generic_ptr to private_ptr, global_ptr or local_ptr, of value_type or
  // const value_type. Undefined unless it points into that space.
  template <
      typename T, access::address_space AS, access::decorated IsDecorated,
      std::enable_if_t<!is_void && Space == access::address_space::generic_space &&
                           (AS == access::address_space::private_space || AS == access::address_space::global_space ||
                            AS == access::address_space::local_space) &&
                           (std::is_same_v<T, value_type> || std::is_same_v<T, const value_type>),
                       int> = 0>
  explicit operator multi_ptr<T, AS, IsDecorated>() const {
    return multi_ptr<T, AS, IsDecorated>(this->ptr_);
  }

  template <typename T, access::decorated IsDecorated,
            std::enable_if_t<implicitly_converts_to<T, IsDecorated>, int> = 0>
  operator multi_ptr<T, Space, IsDecorated>() const {
    return multi_ptr<T, Space, IsDecorated>(this->ptr_);
  }

  // A void one to a typed one: explicit, keeping const.
  template <
      typename T,
      std::enable_if_t<is_void && !std::is_void_v<T> && (std::is_const_v<T> || !std::is_const_v<ElementType>), int> = 0>
  explicit operator multi_ptr<T, Space, DecorateAddress>() const {
    return multi_ptr<T, Space, DecorateAddress>(static_cast<T *>(this->ptr_));
  }

  // A hint with no effect on results; OnePass does not prefetch.
  template <access::address_space S = Space,
            std::enable_if_t<!is_void && S == access::address_space::global_space, int> = 0>
  void prefetch(std::size_t numElements) const {
    (void)numElements;
  }
};

// The SYCL 1.2.1 interface (§4.7.7.1, "legacy"), deprecated: implicit
// conversions to and from ElementType*, get() and the 1.2.1 member types.
template <typename ElementType, access::address_space Space>
class [[deprecated("multi_ptr with access::decorated::legacy is the SYCL 1.2.1 interface: use decorated::no or "
                   "decorated::yes (SYCL 2020)")]] multi_ptr<ElementType, Space, access::decorated::legacy>
    : public detail::multi_ptr_operators<multi_ptr<ElementType, Space, access::decorated::legacy>, ElementType> {
  using base = detail::multi_ptr_operators<multi_ptr, ElementType>;
  static constexpr bool is_void = std::is_void_v<ElementType>;
  template <typename T> using if_element = std::enable_if_t<!std::is_void_v<T>, int>;

public:
  using value_type = ElementType;
  using element_type = ElementType;
  using difference_type = std::ptrdiff_t;
  using pointer_t = ElementType *;
  using const_pointer_t = const ElementType *;
  using reference_t = std::add_lvalue_reference_t<ElementType>;
  using const_reference_t = std::add_lvalue_reference_t<const ElementType>;

  static constexpr access::address_space address_space = Space;

  multi_ptr() = default;
  multi_ptr(const multi_ptr &) = default;
  multi_ptr(multi_ptr &&) = default;
  multi_ptr(ElementType * ptr) : base(ptr) {}
  multi_ptr(std::nullptr_t) {}

  template <typename AccDataT, int Dimensions, access_mode Mode, access::placeholder IsPlaceholder,
            typename = std::enable_if_t<detail::multi_ptr_from_accessor<
                ElementType, Space, detail::accessed_t<AccDataT, Mode>, access::address_space::global_space>>>
  multi_ptr(accessor<AccDataT, Dimensions, Mode, target::device, IsPlaceholder> acc)
      : base(acc.template get_multi_ptr<access::decorated::no>().get_raw()) {}
  template <typename AccDataT, int Dimensions,
            typename = std::enable_if_t<
                detail::multi_ptr_from_accessor<ElementType, Space, AccDataT, access::address_space::local_space>>>
  multi_ptr(local_accessor<AccDataT, Dimensions> acc)
      : base(acc.template get_multi_ptr<access::decorated::no>().get_raw()) {}
  template <typename AccDataT, int Dimensions, access::placeholder IsPlaceholder,
            typename = std::enable_if_t<
                detail::multi_ptr_from_accessor<ElementType, Space, AccDataT, access::address_space::constant_space>>>
  multi_ptr(accessor<AccDataT, Dimensions, access_mode::read, target::constant_buffer, IsPlaceholder> acc)
      : base(const_cast<std::remove_const_t<AccDataT> *>(acc.get_pointer().get())) {}

  multi_ptr &operator=(const multi_ptr &) = default;
  multi_ptr &operator=(multi_ptr &&) = default;
  multi_ptr &operator=(ElementType *ptr) {
    this->ptr_ = ptr;
    return *this;
  }
  multi_ptr &operator=(std::nullptr_t) {
    this->ptr_ = nullptr;
    return *this;
  }

  template <typename T = ElementType, if_element<T> = 0> T &operator*() const { return *this->ptr_; }
  template <typename T = ElementType, if_element<T> = 0> T *operator->() const { return this->ptr_; }

  pointer_t get() const { return this->ptr_; }
  std::add_pointer_t<value_type> get_raw() const { return this->ptr_; }
  pointer_t get_decorated() const { return this->ptr_; }

  operator ElementType *() const { return this->ptr_; }
  // With raw pointers (which it converts to and from): compared as pointers.
  friend bool operator==(const multi_ptr &a, ElementType *b) { return a.ptr_ == b; }
  friend bool operator==(ElementType *a, const multi_ptr &b) { return a == b.ptr_; }
  friend bool operator!=(const multi_ptr &a, ElementType *b) { return a.ptr_ != b; }
  friend bool operator!=(ElementType *a, const multi_ptr &b) { return a != b.ptr_; }

  // To void (keeping const), to const void and to const ElementType.
  template <typename T,
            std::enable_if_t<(!is_void && !std::is_const_v<ElementType> && std::is_same_v<T, void>) ||
                                 (!std::is_const_v<ElementType> && std::is_same_v<T, const ElementType>) ||
                                 (!std::is_same_v<ElementType, const void> && std::is_same_v<T, const void>),
                             int> = 0>
  operator multi_ptr<T, Space, access::decorated::legacy>() const {
    return multi_ptr<T, Space, access::decorated::legacy>(this->ptr_);
  }
  // A void one to a typed one: explicit, keeping const.
  template <
      typename T,
      std::enable_if_t<is_void && !std::is_void_v<T> && (std::is_const_v<T> || !std::is_const_v<ElementType>), int> = 0>
  explicit operator multi_ptr<T, Space, access::decorated::legacy>() const {
    return multi_ptr<T, Space, access::decorated::legacy>(static_cast<T *>(this->ptr_));
  }

  template <typename T = ElementType, if_element<T> = 0> void prefetch(std::size_t numElements) const {
    (void)numElements;
  }
};

// A multi_ptr in Space for `pointer`. OnePass cannot tell a pointer's space
// at run time (all are generic), so this never returns nullptr: the result
// is undefined, as the spec allows only compatible pointers, if it does not
// point into Space.
template <access::address_space Space, access::decorated DecorateAddress, typename ElementType>
multi_ptr<ElementType, Space, DecorateAddress> address_space_cast(ElementType *pointer) {
  return multi_ptr<ElementType, Space, DecorateAddress>(pointer);
}

// Deprecated in SYCL 2020: address_space_cast. (DecorateAddress defaults to
// legacy, so that SYCL 1.2.1's make_ptr<T, Space>(p) still compiles.)
template <typename ElementType, access::address_space Space,
          access::decorated DecorateAddress = access::decorated::legacy>
[[deprecated("use address_space_cast (SYCL 2020)")]] multi_ptr<ElementType, Space, DecorateAddress>
make_ptr(ElementType *pointer) {
  return multi_ptr<ElementType, Space, DecorateAddress>(pointer);
}

// Deduction guides (§4.7.7.1).
template <typename T, int Dimensions, access::placeholder IsPlaceholder>
multi_ptr(accessor<T, Dimensions, access_mode::read, target::device, IsPlaceholder>)
    -> multi_ptr<const T, access::address_space::global_space, access::decorated::no>;
template <typename T, int Dimensions, access::placeholder IsPlaceholder>
multi_ptr(accessor<T, Dimensions, access_mode::write, target::device, IsPlaceholder>)
    -> multi_ptr<T, access::address_space::global_space, access::decorated::no>;
template <typename T, int Dimensions, access::placeholder IsPlaceholder>
multi_ptr(accessor<T, Dimensions, access_mode::read_write, target::device, IsPlaceholder>)
    -> multi_ptr<T, access::address_space::global_space, access::decorated::no>;
template <typename T, int Dimensions, access::placeholder IsPlaceholder>
multi_ptr(accessor<T, Dimensions, access_mode::read, target::constant_buffer, IsPlaceholder>)
    -> multi_ptr<const T, access::address_space::constant_space, access::decorated::no>;
template <typename T, int Dimensions> multi_ptr(local_accessor<T, Dimensions>)
    -> multi_ptr<T, access::address_space::local_space, access::decorated::no>;

// §4.7.7.2: the aliases of each address space. Those with a decoration
// parameter default to the legacy interface, as the spec says.
template <typename ElementType, access::decorated IsDecorated = access::decorated::legacy> using global_ptr =
    multi_ptr<ElementType, access::address_space::global_space, IsDecorated>;
template <typename ElementType, access::decorated IsDecorated = access::decorated::legacy> using local_ptr =
    multi_ptr<ElementType, access::address_space::local_space, IsDecorated>;
template <typename ElementType>  // deprecated in SYCL 2020
using constant_ptr = multi_ptr<ElementType, access::address_space::constant_space, access::decorated::legacy>;
template <typename ElementType, access::decorated IsDecorated = access::decorated::legacy> using private_ptr =
    multi_ptr<ElementType, access::address_space::private_space, IsDecorated>;
template <typename ElementType, access::decorated IsDecorated = access::decorated::legacy> using generic_ptr =
    multi_ptr<ElementType, access::address_space::generic_space, IsDecorated>;

template <typename ElementType> using raw_global_ptr =
    multi_ptr<ElementType, access::address_space::global_space, access::decorated::no>;
template <typename ElementType> using raw_local_ptr =
    multi_ptr<ElementType, access::address_space::local_space, access::decorated::no>;
template <typename ElementType> using raw_private_ptr =
    multi_ptr<ElementType, access::address_space::private_space, access::decorated::no>;
template <typename ElementType> using raw_generic_ptr =
    multi_ptr<ElementType, access::address_space::generic_space, access::decorated::no>;

template <typename ElementType> using decorated_global_ptr =
    multi_ptr<ElementType, access::address_space::global_space, access::decorated::yes>;
template <typename ElementType> using decorated_local_ptr =
    multi_ptr<ElementType, access::address_space::local_space, access::decorated::yes>;
template <typename ElementType> using decorated_private_ptr =
    multi_ptr<ElementType, access::address_space::private_space, access::decorated::yes>;
template <typename ElementType> using decorated_generic_ptr =
    multi_ptr<ElementType, access::address_space::generic_space, access::decorated::yes>;

}  // namespace sycl
