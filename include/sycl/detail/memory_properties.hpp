// What the memory objects' use_mutex and context_bound properties carry
// (SYCL 2020 §4.7.2.2 buffers, §4.7.3.3 images): each memory class has its
// own property classes, built on these.
#pragma once

#include "../context.hpp"
#include "../property_list.hpp"
#include "std_parts.hpp"

#include <utility>

namespace sycl::detail {

class mutex_property : public property_base {
public:
  explicit mutex_property(std::mutex &mutex) : mutex_(&mutex) {}
  std::mutex *get_mutex_ptr() const { return mutex_; }

private:
  std::mutex *mutex_;
};

class context_property : public property_base {
public:
  explicit context_property(context bound) : context_(std::move(bound)) {}
  context get_context() const { return context_; }

private:
  context context_;
};

}  // namespace sycl::detail
