// SYCL 2020 §4.5.4 properties, and the queue properties of §4.6.5.3.
#pragma once

#include "exception.hpp"

#include <memory>
#include <vector>

namespace sycl {
namespace detail {
// A property's identity: one address per property type in the program.
template <typename Property> inline const char property_tag = 0;
}  // namespace detail

class property_list {
public:
  template <typename... Properties> property_list(Properties... props) {
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

private:
  struct entry {
    const char *tag;
    std::shared_ptr<void> value;
  };
  std::vector<entry> entries_;
};

namespace property::queue {
class in_order {};
class enable_profiling {};
}  // namespace property::queue

}  // namespace sycl
