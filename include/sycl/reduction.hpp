// SYCL 2020 §4.9.2 reductions: sycl::reduction over a USM pointer or a
// buffer, and parallel_for with reductions, over a range or an nd_range.
//
// How it runs, the same on every device: each work-item combines into its own
// reducer; at the end of its work-group the reducers are combined in local
// memory (a halving tree, a barrier per step) and one work-item per group
// combines the group's value into the target with an atomic operation (an
// atomic add, min, max, and, or, xor where the operation is one of those, a
// compare-and-swap loop otherwise). A parallel_for over a range runs as
// groups of 256 work-items, at most 1024 groups on the CPU and 2048 on a GPU
// (handler::kReductionGroups*), each work-item taking the
// range's items a whole launch apart (coalesced on a GPU); on the CPU each
// work-item takes a contiguous share. Either way a work-item's items go to
// 8 reducers per reduction in turn: independent chains, which the CPU
// vectorizes and a GPU overlaps.
// initialize_to_identity writes the identity to the target in a command
// submitted just before (queue::submit does it).
#pragma once

#include "accessor.hpp"
#include "atomic_ref.hpp"
#include "functional.hpp"
#include "handler.hpp"
#include "nd_item.hpp"
#include "property_list.hpp"

#include <cstdint>
#include <cstring>
#include <functional>
#include <tuple>
#include <vector>
#include <type_traits>
#include <utility>

namespace sycl {

namespace property::reduction {
class initialize_to_identity : public detail::property_base {};
}  // namespace property::reduction

template <typename T, typename BinaryOperation, int Dimensions = 0> class reducer;

namespace detail {

// A reduction as the kernel sees it: where the result goes, the identity and
// the operation, and where its scratch lies in the group's local memory.
template <typename T, typename BinaryOperation> struct reduction_desc {
  using value_type = T;
  using operation = BinaryOperation;
  T *target = nullptr;
  T identity{};
  BinaryOperation op{};
  std::size_t scratch_offset = 0;
};

// A buffer reduction: its accessor gives the target's address in the kernel.
template <typename T, typename BinaryOperation> struct buffer_reduction {
  using value_type = T;
  using operation = BinaryOperation;
  accessor<T, 1, access_mode::read_write, sycl::target::device> data;
  T identity;
  BinaryOperation op;
  bool initialize;
};
template <typename T, typename BinaryOperation> struct usm_reduction {
  using value_type = T;
  using operation = BinaryOperation;
  T *target;
  T identity;
  BinaryOperation op;
  bool initialize;
};

template <typename R> struct is_reduction : std::false_type {};
template <typename T, typename Op> struct is_reduction<usm_reduction<T, Op>> : std::true_type {};
template <typename T, typename Op> struct is_reduction<buffer_reduction<T, Op>> : std::true_type {};
template <typename R> inline constexpr bool is_reduction_v = is_reduction<std::decay_t<R>>::value;

template <typename To, typename From> To bit_cast_value(const From &from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

// *target = op(*target, value), atomically.
template <typename T, typename Op> void atomic_combine(T *target, const T &value, const Op &op) {
  using ref = atomic_ref<T, memory_order::relaxed, memory_scope::device, access::address_space::generic_space>;
  constexpr bool arithmetic = atomic_integral_v<T> || atomic_floating_v<T>;
  if constexpr (arithmetic && is_family_v<plus, Op>) {
    ref(*target).fetch_add(value);
  } else if constexpr (arithmetic && is_family_v<minimum, Op>) {
    ref(*target).fetch_min(value);
  } else if constexpr (arithmetic && is_family_v<maximum, Op>) {
    ref(*target).fetch_max(value);
  } else if constexpr (atomic_integral_v<T> && is_family_v<bit_and, Op>) {
    ref(*target).fetch_and(value);
  } else if constexpr (atomic_integral_v<T> && is_family_v<bit_or, Op>) {
    ref(*target).fetch_or(value);
  } else if constexpr (atomic_integral_v<T> && is_family_v<bit_xor, Op>) {
    ref(*target).fetch_xor(value);
  } else {
    static_assert(std::is_trivially_copyable_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                  "OnePass reduces values of 4 or 8 bytes (trivially copyable)");
    using Bits = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;
    atomic_ref<Bits, memory_order::relaxed, memory_scope::device> bits(*reinterpret_cast<Bits *>(target));
    Bits old = bits.load();
    while (!bits.compare_exchange_weak(old, bit_cast_value<Bits>(op(bit_cast_value<T>(old), value)))) {
    }
  }
}

// The smallest power of two >= n.
inline std::size_t power_of_two_at_least(std::size_t n) {
  std::size_t p = 1;
  while (p < n) p *= 2;
  return p;
}

// Combines scratch[0, count) into scratch[0] with a halving tree, a barrier
// before each step: every work-item of the group calls it, `local` being
// its linear id. (A barrier after it makes scratch[0] visible to all.)
template <typename T, typename Op>
void combine_in_scratch(T *scratch, std::size_t local, std::size_t count, const Op &op) {
  for (std::size_t half = power_of_two_at_least(count) / 2; half > 0; half /= 2) {
    __onepass_group_barrier();
    if (local < half && local + half < count) scratch[local] = op(scratch[local], scratch[local + half]);
  }
}

template <typename T, typename Op, int D> T &reducer_value(reducer<T, Op, D> &r) { return r.value_; }

// What a reducer starts from (a reducer can be neither copied nor moved, so
// a tuple of them is built from these).
template <typename T, typename Op> struct reducer_start {
  T identity;
  Op op;
};

// Combines the group's reducers of reduction `desc` and the group's value
// into the target. Every work-item of the group calls it (it has barriers).
template <typename Desc, typename Reducer>
void combine_group(const Desc &desc, Reducer &reducer, std::size_t local, std::size_t size) {
  using T = typename Desc::value_type;
  T *scratch = reinterpret_cast<T *>(static_cast<char *>(__onepass_local_memory()) + desc.scratch_offset);
  scratch[local] = reducer_value(reducer);
  combine_in_scratch(scratch, local, size, desc.op);
  if (local == 0) atomic_combine(desc.target, scratch[0], desc.op);
}

// Kernel names of the wrappers, for kernels the user named.
template <typename Name> struct reduction_kernel_name {};

}  // namespace detail

// §4.9.2.3: what a kernel combines its partial results into.
template <typename T, typename BinaryOperation, int Dimensions> class reducer {
  static_assert(Dimensions == 0, "OnePass reduces scalars (span reductions are not supported yet)");

public:
  using value_type = T;
  using binary_operation = BinaryOperation;
  static constexpr int dimensions = Dimensions;

  reducer(const T &identity, const BinaryOperation &op) : value_(identity), identity_(identity), op_(op) {}
  explicit reducer(const detail::reducer_start<T, BinaryOperation> &start)
      : value_(start.identity), identity_(start.identity), op_(start.op) {}
  reducer(const reducer &) = delete;
  reducer &operator=(const reducer &) = delete;

  reducer &combine(const T &partial) {
    value_ = op_(value_, partial);
    return *this;
  }
  T identity() const { return identity_; }

  template <typename Op = BinaryOperation, typename = std::enable_if_t<detail::is_family_v<plus, Op>>>
  reducer &operator+=(const T &partial) {
    return combine(partial);
  }
  template <typename Op = BinaryOperation, typename = std::enable_if_t<detail::is_family_v<multiplies, Op>>>
  reducer &operator*=(const T &partial) {
    return combine(partial);
  }
  template <typename Op = BinaryOperation, typename = std::enable_if_t<detail::is_family_v<bit_and, Op>>>
  reducer &operator&=(const T &partial) {
    return combine(partial);
  }
  template <typename Op = BinaryOperation, typename = std::enable_if_t<detail::is_family_v<bit_or, Op>>>
  reducer &operator|=(const T &partial) {
    return combine(partial);
  }
  template <typename Op = BinaryOperation, typename = std::enable_if_t<detail::is_family_v<bit_xor, Op>>>
  reducer &operator^=(const T &partial) {
    return combine(partial);
  }
  template <typename Op = BinaryOperation,
            typename = std::enable_if_t<detail::is_family_v<plus, Op> && std::is_integral_v<T>>>
  reducer &operator++() {
    return combine(T(1));
  }
  template <typename Op = BinaryOperation,
            typename = std::enable_if_t<detail::is_family_v<plus, Op> && std::is_integral_v<T>>>
  void operator++(int) {
    combine(T(1));
  }

private:
  template <typename U, typename O, int N> friend U &detail::reducer_value(reducer<U, O, N> &);
  T value_, identity_;
  BinaryOperation op_;
};

// --- sycl::reduction (§4.9.2.1) ---------------------------------------------
template <typename T, typename BinaryOperation> detail::usm_reduction<T, BinaryOperation>
reduction(T *variable, const T &identity, BinaryOperation combiner, const property_list &properties = {}) {
  return {variable, identity, combiner, properties.has_property<property::reduction::initialize_to_identity>()};
}
template <typename T, typename BinaryOperation> detail::usm_reduction<T, BinaryOperation>
reduction(T *variable, BinaryOperation combiner, const property_list &properties = {}) {
  return reduction(variable, known_identity_v<BinaryOperation, T>, combiner, properties);
}
template <typename T, typename AllocatorT, typename BinaryOperation>
detail::buffer_reduction<T, BinaryOperation> reduction(buffer<T, 1, AllocatorT> variable, handler &cgh,
                                                       const T &identity, BinaryOperation combiner,
                                                       const property_list &properties = {}) {
  return {accessor<T, 1, access_mode::read_write, sycl::target::device>(variable, cgh), identity, combiner,
          properties.has_property<property::reduction::initialize_to_identity>()};
}
template <typename T, typename AllocatorT, typename BinaryOperation>
detail::buffer_reduction<T, BinaryOperation> reduction(buffer<T, 1, AllocatorT> variable, handler &cgh,
                                                       BinaryOperation combiner, const property_list &properties = {}) {
  return reduction(variable, cgh, known_identity_v<BinaryOperation, T>, combiner, properties);
}

// --- parallel_for with reductions ---------------------------------------------
namespace detail {

struct handler_internals {
  static std::size_t reserve_local_memory(handler &h, std::size_t bytes, std::size_t alignment) {
    return h.reserve_local_memory(bytes, alignment);
  }
  static std::vector<std::function<void(handler &)>> &before(handler &h) { return h.before_; }
};

// What the kernel captures of one reduction; registers its scratch and its
// initialization with the handler.
template <typename T, typename Op>
reduction_desc<T, Op> prepare_reduction(handler &h, const usm_reduction<T, Op> &r, std::size_t group_size) {
  reduction_desc<T, Op> desc{r.target, r.identity, r.op,
                             handler_internals::reserve_local_memory(h, group_size * sizeof(T), alignof(T))};
  if (r.initialize) {
    T *target = r.target;
    T identity = r.identity;
    handler_internals::before(h).push_back([target, identity](handler &init) { init.fill(target, identity, 1); });
  }
  return desc;
}
template <typename T, typename Op> struct buffer_reduction_desc {
  using value_type = T;
  accessor<T, 1, access_mode::read_write, sycl::target::device> data;
  T identity;
  Op op;
  std::size_t scratch_offset;
};
template <typename T, typename Op>
buffer_reduction_desc<T, Op> prepare_reduction(handler &h, const buffer_reduction<T, Op> &r, std::size_t group_size) {
  if (r.initialize) {
    auto data = r.data;
    T identity = r.identity;
    handler_internals::before(h).push_back([data, identity](handler &init) {
      init.require(data);
      init.fill(data, identity);
    });
  }
  return {r.data, r.identity, r.op, handler_internals::reserve_local_memory(h, group_size * sizeof(T), alignof(T))};
}
// In the kernel: a buffer reduction's descriptor with its target's address.
template <typename T, typename Op> reduction_desc<T, Op> kernel_view(const reduction_desc<T, Op> &d) { return d; }
template <typename T, typename Op> reduction_desc<T, Op> kernel_view(const buffer_reduction_desc<T, Op> &d) {
  return {d.data.get_pointer(), d.identity, d.op, d.scratch_offset};
}

template <typename Desc> using reducer_for = reducer<typename Desc::value_type, typename Desc::operation>;
// What a reducer of a reduction starts from.
template <typename T, typename Op> reducer_start<T, Op> start_of(const reduction_desc<T, Op> &view) {
  return {view.identity, view.op};
}

// kLanes reducers of one reduction for one work-item: the work-item's items
// go to them in turn, so that their combinations are independent chains (a
// reduction's order of combination is unspecified, §4.9.2): the CPU
// vectorizes them, a GPU has kLanes loads in flight per thread.
inline constexpr std::size_t kLanes = 8;
template <typename T, typename Op> struct reducer_lanes {
  reducer<T, Op> lane[kLanes];
  template <std::size_t... K> reducer_lanes(const reducer_start<T, Op> &start, std::index_sequence<K...>)
      : lane{((void)K, reducer<T, Op>(start))...} {}
  explicit reducer_lanes(const reducer_start<T, Op> &start)
      : reducer_lanes(start, std::make_index_sequence<kLanes>{}) {}
  reducer<T, Op> &folded() {
    for (std::size_t k = 1; k < kLanes; ++k) lane[0].combine(reducer_value(lane[k]));
    return lane[0];
  }
};

// The work-item's items begin, begin + step, ... below end:
// `call(linear, reducers...)` for each, spread over kLanes reducers per
// reduction; then its group is combined.
template <typename Descs, std::size_t... I, typename Call>
void reduce_share_in_lanes(const Descs &descs, std::index_sequence<I...>, std::size_t local, std::size_t size,
                           std::size_t begin, std::size_t end, std::size_t step, Call &&call) {
  const auto views = std::make_tuple(kernel_view(std::get<I>(descs))...);
  std::tuple<reducer_lanes<typename std::tuple_element_t<I, decltype(views)>::value_type,
                           typename std::tuple_element_t<I, decltype(views)>::operation>...>
  lanes(start_of(std::get<I>(views))...);
  std::size_t linear = begin;
  if (step == 1) {
    for (; linear + kLanes <= end; linear += kLanes)
      for (std::size_t k = 0; k < kLanes; ++k) call(linear + k, std::get<I>(lanes).lane[k]...);
  } else {
    const std::size_t span = (kLanes - 1) * step;
    for (; linear < end && end - linear > span; linear += kLanes * step)
      for (std::size_t k = 0; k < kLanes; ++k) call(linear + k * step, std::get<I>(lanes).lane[k]...);
  }
  for (; linear < end; linear += step) call(linear, std::get<I>(lanes).lane[0]...);
  (combine_group(std::get<I>(views), std::get<I>(lanes).folded(), local, size), ...);
}

// Runs `body(reducers...)` for one work-item, then combines its group.
template <typename Descs, std::size_t... I, typename Body>
void reduce_in_group(const Descs &descs, std::index_sequence<I...>, std::size_t local, std::size_t size, Body &&body) {
  const auto views = std::make_tuple(kernel_view(std::get<I>(descs))...);
  std::tuple<reducer_for<std::tuple_element_t<I, decltype(views)>>...> reducers(start_of(std::get<I>(views))...);
  body(std::get<I>(reducers)...);
  (combine_group(std::get<I>(views), std::get<I>(reducers), local, size), ...);
}

}  // namespace detail

// parallel_for(range, reductions..., kernel): kernel(item or id, reducer &...).
template <typename KernelName, int Dimensions, typename... Rest>
void handler::parallel_for_reduce(range<Dimensions> global_range, Rest &&...rest) {
  auto arguments = std::forward_as_tuple(rest...);
  constexpr std::size_t count = sizeof...(Rest) - 1;
  reduce_range<KernelName>(global_range, std::get<count>(arguments), arguments, std::make_index_sequence<count>{});
}

template <typename KernelName, int Dimensions, typename Kernel, typename Arguments, std::size_t... I>
void handler::reduce_range(range<Dimensions> global_range, const Kernel &kernel, Arguments &arguments,
                           std::index_sequence<I...>) {
  constexpr std::size_t group = kReductionGroupSize;
  auto descs = std::make_tuple(detail::prepare_reduction(*this, std::get<I>(arguments), group)...);
  const std::size_t total = global_range.size();
  const std::size_t most = queue_ && detail::queue_device_is_cpu(*queue_) ? kReductionGroupsCpu : kReductionGroupsGpu;
  const std::size_t groups = std::min<std::size_t>((total + group - 1) / group, most);
  using Name = std::conditional_t<std::is_same_v<KernelName, detail::auto_name>, detail::auto_name,
                                  detail::reduction_kernel_name<KernelName>>;
  parallel_for<Name>(nd_range<1>(groups * group, group), [=](nd_item<1> it) {
    const std::size_t local = it.get_local_id(0), workers = it.get_global_range(0);
    auto call = [&](std::size_t linear, auto &...reducers) {
      id<Dimensions> index;
      if constexpr (Dimensions == 1) {
        index[0] = linear;
      } else {
        std::size_t rest = linear;
        for (int d = Dimensions - 1; d >= 0; --d) {
          index[d] = rest % global_range[d];
          rest /= global_range[d];
        }
      }
      kernel(detail::item_factory<Dimensions>::make(index, global_range), reducers...);
    };
    if (__onepass_target_is_cpu()) {
      // A contiguous share per work-item (vector loads), in lanes.
      const std::size_t share = (total + workers - 1) / workers;
      const std::size_t begin = std::min(it.get_global_id(0) * share, total), end = std::min(begin + share, total);
      detail::reduce_share_in_lanes(descs, std::index_sequence<I...>{}, local, group, begin, end, 1, call);
    } else {
      // Items a whole launch apart: neighbouring work-items read neighbouring items.
      detail::reduce_share_in_lanes(descs, std::index_sequence<I...>{}, local, group, it.get_global_id(0), total,
                                    workers, call);
    }
  });
}

// parallel_for(nd_range, reductions..., kernel): kernel(nd_item, reducer &...).
template <typename KernelName, int Dimensions, typename... Rest>
void handler::parallel_for_reduce(nd_range<Dimensions> execution_range, Rest &&...rest) {
  auto arguments = std::forward_as_tuple(rest...);
  constexpr std::size_t count = sizeof...(Rest) - 1;
  reduce_nd_range<KernelName>(execution_range, std::get<count>(arguments), arguments,
                              std::make_index_sequence<count>{});
}

template <typename KernelName, int Dimensions, typename Kernel, typename Arguments, std::size_t... I>
void handler::reduce_nd_range(nd_range<Dimensions> execution_range, const Kernel &kernel, Arguments &arguments,
                              std::index_sequence<I...>) {
  const std::size_t group = execution_range.get_local_range().size();
  auto descs = std::make_tuple(detail::prepare_reduction(*this, std::get<I>(arguments), group)...);
  using Name = std::conditional_t<std::is_same_v<KernelName, detail::auto_name>, detail::auto_name,
                                  detail::reduction_kernel_name<KernelName>>;
  parallel_for<Name>(execution_range, [=](nd_item<Dimensions> it) {
    detail::reduce_in_group(descs, std::index_sequence<I...>{}, it.get_local_linear_id(), group,
                            [&](auto &...reducers) { kernel(it, reducers...); });
  });
}

}  // namespace sycl
