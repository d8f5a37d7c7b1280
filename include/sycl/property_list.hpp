// SYCL 2020 §4.5.4 properties, and the queue properties of §4.6.5.3.
#pragma once

#include "exception.hpp"

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace sycl {
namespace detail {
// A property's identity: one address per property type in the program.
template <typename Property> inline const char property_tag = 0;
// Every property class derives from this, so property_list accepts only properties.
struct property_base {};
}  // namespace detail

// SYCL 2020 §4.5.4.1.
template <typename T> struct is_property : std::is_base_of<detail::property_base, T> {};
template <typename T> inline constexpr bool is_property_v = is_property<T>::value;
// True where `Property` may construct a `SyclObject`: each property's header
// specializes it next to the property.
template <typename Property, typename SyclObject> struct is_property_of : std::false_type {};
template <typename Property, typename SyclObject>
inline constexpr bool is_property_of_v = is_property_of<Property, SyclObject>::value;

class property_list {
public:
  // Constrained to properties: otherwise any argument (an async_handler
  // lambda, say) would convert to a property_list and make overloads ambiguous.
  template <typename... Properties, typename = std::enable_if_t<(is_property_v<Properties> && ...)>>
  property_list(Properties... props) {
    (entries_.push_back({&detail::property_tag<Properties>, std::make_shared<Properties>(props)}), ...);
  }

  template <typename Property> bool has_property() const noexcept {
    for (const auto &e : entries_)
      if (e.tag == &detail::property_tag<Property>) return true;
    return false;
  }

  template <typename Property> Property get_property() const {
    for (const auto &e : entries_)
      if (e.tag == &detail::property_tag<Property>) return *static_cast<const Property *>(e.value.get());
    throw exception(make_error_code(errc::invalid), "property_list: the requested property is not present");
  }

  bool empty() const noexcept { return entries_.empty(); }

private:
  struct entry {
    const char *tag;
    std::shared_ptr<void> value;
  };
  std::vector<entry> entries_;
};

namespace detail {
// §4.5.4.1's common interface of the classes built with a property_list:
// has_property and get_property (errc::invalid when the object was not
// built with the property). The list is shared by the object's copies and
// absent when it was empty.
class property_holder {
public:
  template <typename Property> bool has_property() const noexcept {
    return props_ && props_->template has_property<Property>();
  }
  template <typename Property> Property get_property() const {
    if (!has_property<Property>())
      throw exception(make_error_code(errc::invalid),
                      std::string(owner_) + "::get_property: the " + owner_ +
                          " was not constructed with the requested property");
    return props_->template get_property<Property>();
  }

protected:
  explicit property_holder(const char *owner) : owner_(owner) {}
  // Defined in the runtime (runtime/sycl/HeaderBodies.cpp): the list's
  // copy keeps the user's property tags.
  ONEPASS_RT_API property_holder(const char *owner, const property_list &props);

private:
  const char *owner_;
  std::shared_ptr<const property_list> props_;
};
}  // namespace detail

namespace property::queue {
class in_order : public detail::property_base {};
class enable_profiling : public detail::property_base {};
}  // namespace property::queue
class queue;
template <> struct is_property_of<property::queue::in_order, queue> : std::true_type {};
template <> struct is_property_of<property::queue::enable_profiling, queue> : std::true_type {};

}  // namespace sycl
