// SYCL 2020 §4.6.6 event.
#pragma once

#include "detail/runtime_api.hpp"

namespace sycl {

class event {
public:
  // §4.6.6: an event that is already complete; like every SYCL object with
  // reference semantics (§4.5.2) it equals only its own copies.
  event() : impl_(detail::event_make_complete()) {}

  void wait() { detail::event_wait(impl_); }
  void wait_and_throw() { detail::event_wait_and_throw(impl_); }
  static void wait(const std::vector<event> &events) {
    for (const event &e : events) detail::event_wait(e.impl_);
  }
  static void wait_and_throw(const std::vector<event> &events) {
    for (const event &e : events) detail::event_wait_and_throw(e.impl_);
  }

  ONEPASS_RT_API std::vector<event> get_wait_list() const;  // runtime/sycl/HeaderBodies.cpp

  // §4.6.6: the backend of the queue that made it (a default-constructed
  // event: the default queue's).
  backend get_backend() const noexcept { return detail::event_backend(impl_.get()); }

  template <typename Param> typename Param::return_type get_info() const {
    static_assert(std::is_same_v<Param, info::event::command_execution_status>,
                  "event info descriptor not supported by OnePass");
    return impl_ ? detail::event_status(*impl_) : info::event_command_status::complete;
  }

  template <typename Param> typename Param::return_type get_profiling_info() const {
    if constexpr (std::is_same_v<Param, info::event_profiling::command_submit>)
      return detail::event_profiling(*impl_, detail::profiling_point::submit);
    else if constexpr (std::is_same_v<Param, info::event_profiling::command_start>)
      return detail::event_profiling(*impl_, detail::profiling_point::start);
    else if constexpr (std::is_same_v<Param, info::event_profiling::command_end>)
      return detail::event_profiling(*impl_, detail::profiling_point::end);
    else static_assert(sizeof(Param) == 0, "unknown profiling descriptor");
  }

  friend bool operator==(const event &a, const event &b) { return a.impl_ == b.impl_; }
  friend bool operator!=(const event &a, const event &b) { return !(a == b); }

  explicit event(std::shared_ptr<detail::event_impl> impl) : impl_(std::move(impl)) {}
  const std::shared_ptr<detail::event_impl> &impl() const { return impl_; }

private:
  std::shared_ptr<detail::event_impl> impl_;
};

}  // namespace sycl

// §4.5.2: std::hash agrees with operator== (the same runtime object).
namespace std {
template <> struct hash<sycl::event> {
  size_t operator()(const sycl::event &e) const noexcept { return hash<const void *>()(e.impl().get()); }
};
}  // namespace std
