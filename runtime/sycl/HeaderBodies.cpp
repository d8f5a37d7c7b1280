// Bodies of functions the public headers declare, compiled once here rather
// than in every TU that includes <sycl/sycl.hpp>, because of the templates
// they instantiate (issue 16's header cost): property_holder's constructor
// (std::make_shared of a property_list) and the queue's shortcuts that are
// no templates (SYCL 2020 §4.6.5.2-3: memcpy, memset, prefetch and
// mem_advise with a list of dependencies, each a queue::submit).
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <sycl/sycl.hpp>

namespace sycl {

namespace detail {
property_holder::property_holder(const char *owner, const property_list &props)
    : owner_(owner), props_(props.empty() ? nullptr : std::make_shared<const property_list>(props)) {}
}  // namespace detail

event queue::memcpy(void *destination, const void *source, std::size_t bytes, const std::vector<event> &dependencies) {
  auto group = [&](handler &h) {
    h.depends_on(dependencies);
    h.memcpy(destination, source, bytes);
  };
  return submit(detail::cg_ref(group));
}

event queue::memset(void *pointer, int value, std::size_t bytes, const std::vector<event> &dependencies) {
  auto group = [&](handler &h) {
    h.depends_on(dependencies);
    h.memset(pointer, value, bytes);
  };
  return submit(detail::cg_ref(group));
}

event queue::prefetch(const void *ptr, std::size_t numBytes, const std::vector<event> &depEvents) {
  auto group = [&](handler &h) {
    h.depends_on(depEvents);
    h.prefetch(ptr, numBytes);
  };
  return submit(detail::cg_ref(group));
}

event queue::mem_advise(const void *ptr, std::size_t numBytes, int advice, const std::vector<event> &depEvents) {
  auto group = [&](handler &h) {
    h.depends_on(depEvents);
    h.mem_advise(ptr, numBytes, advice);
  };
  return submit(detail::cg_ref(group));
}

}  // namespace sycl
