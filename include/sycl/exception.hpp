// SYCL 2020 §4.13 error handling: errc, exception, exception_list, async_handler.
#pragma once

#include "detail/defines.hpp"
#include "detail/std_parts.hpp"

#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace sycl {

enum class errc {
  success = 0,
  runtime,
  kernel,
  accessor,
  nd_range,
  event,
  kernel_argument,
  build,
  invalid,
  memory_allocation,
  platform,
  profiling,
  feature_not_supported,
  kernel_not_supported,
  backend_mismatch,
};

ONEPASS_RT_API const std::error_category &sycl_category() noexcept;

inline std::error_code make_error_code(errc e) noexcept {
  return std::error_code(static_cast<int>(e), sycl_category());
}

class context;
namespace detail {
struct context_impl;
}

class exception : public std::exception {
public:
  // (Defined in the runtime, runtime/sycl/HeaderBodies.cpp, as is
  // exception_list::push_back: the templates they use are instantiated there.)
  ONEPASS_RT_API exception(std::error_code ec, const std::string &what_arg);
  exception(std::error_code ec, const char *what_arg) : exception(ec, std::string(what_arg)) {}
  exception(std::error_code ec) : exception(ec, ec.message()) {}
  exception(int ev, const std::error_category &cat, const std::string &what_arg)
      : exception(std::error_code(ev, cat), what_arg) {}
  exception(int ev, const std::error_category &cat, const char *what_arg)
      : exception(std::error_code(ev, cat), std::string(what_arg)) {}
  exception(int ev, const std::error_category &cat) : exception(std::error_code(ev, cat)) {}
  // With the context the error belongs to (defined in context.hpp).
  exception(context ctx, std::error_code ec, const std::string &what_arg);
  exception(context ctx, std::error_code ec, const char *what_arg);
  exception(context ctx, std::error_code ec);
  exception(context ctx, int ev, const std::error_category &cat, const std::string &what_arg);
  exception(context ctx, int ev, const std::error_category &cat, const char *what_arg);
  exception(context ctx, int ev, const std::error_category &cat);

  const std::error_code &code() const noexcept { return code_; }
  const std::error_category &category() const noexcept { return code_.category(); }
  const char *what() const noexcept override { return what_->c_str(); }
  bool has_context() const noexcept { return context_ != nullptr; }
  // errc::invalid if the exception has no context (§4.13.2).
  context get_context() const;

private:
  std::error_code code_;
  std::shared_ptr<std::string> what_;  // shared: copying an exception must not throw
  std::shared_ptr<detail::context_impl> context_;
};

class exception_list {
public:
  using value_type = std::exception_ptr;
  using reference = value_type &;
  using const_reference = const value_type &;
  using size_type = std::size_t;
  using iterator = std::vector<std::exception_ptr>::const_iterator;
  using const_iterator = iterator;

  size_type size() const { return list_.size(); }
  iterator begin() const { return list_.begin(); }
  iterator end() const { return list_.end(); }

  // Not in the spec's public interface; the runtime builds lists with it.
  ONEPASS_RT_API void push_back(std::exception_ptr e);

private:
  std::vector<std::exception_ptr> list_;
};

using async_handler = std::function<void(sycl::exception_list)>;

}  // namespace sycl

namespace std {
template <> struct is_error_code_enum<sycl::errc> : true_type {};
}  // namespace std
