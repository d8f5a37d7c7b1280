// The buffers of the task graph (runtime-spec.md): what a command group's
// accessors turn into when it is submitted. For each access: an allocation on
// the device that runs the command (made lazily, never moved), dependencies on
// the conflicting earlier commands, and transfer nodes for the outdated pages.
#pragma once

#include <sycl/detail/runtime_api.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace onepass::rt {

struct AsyncErrorSink;

// Where each accessed buffer's data lies on the device that runs a command:
// the addresses that replace the accessors' tokens in the kernel object.
class AccessAddresses {
public:
  void add(std::uintptr_t tokenBase, char *data) { entries_.push_back({tokenBase, data}); }
  // The address for a token into `address`; false if the token belongs to no
  // access of the command group (an accessor that was never bound to it).
  // (A zero-sized buffer's address is null.)
  bool resolve(std::uintptr_t token, void *&address) const;

private:
  struct Entry {
    std::uintptr_t tokenBase;
    char *data;
  };
  std::vector<Entry> entries_;
};

// Tokens: 0xF in the top four bits (never a user-space address), a buffer id,
// and a byte offset into the buffer.
constexpr unsigned kTokenOffsetBits = 40;
inline bool isAccessorToken(std::uintptr_t value) { return (value >> 60) == 0xF; }

// Phase 1 of a submission, before anything is recorded: allocates the data of
// every access on `device` (nullptr: the host) and checks the accesses. Throws
// sycl::exception; changes nothing a later command could see.
// A buffer bound to a context (property::buffer::context_bound) used from a
// queue of another `context` is an errc::invalid error.
AccessAddresses allocateAccesses(const std::vector<sycl::detail::buffer_access> &accesses,
                                 const std::shared_ptr<sycl::detail::device_impl> &device,
                                 const sycl::detail::context_impl *context);

// Phase 2: records the accesses as made by the command of `event` and adds to
// `event`'s dependencies the conflicting commands and the transfers that bring
// the accessed pages up to date. Transfer failures go to `errors`. Returns
// what the command must do after its own work (use_mutex write-through).
std::vector<std::function<void()>> enterAccesses(const std::vector<sycl::detail::buffer_access> &accesses,
                                                 const std::shared_ptr<sycl::detail::device_impl> &device,
                                                 const std::shared_ptr<sycl::detail::event_impl> &event,
                                                 const std::shared_ptr<AsyncErrorSink> &errors);

}  // namespace onepass::rt
