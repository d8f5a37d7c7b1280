// parallel_for with reductions (SYCL 2020 §4.9.2), included by reduction.hpp.
//
// How it runs, the same on every device: each work-item combines into its own
// reducer; at the end of its work-group the reducers are combined in local
// memory (a halving tree, a barrier per step; for a span reduction, one
// element after the other) and one work-item per group combines the group's
// value into the target:
//  - with an atomic operation where the type has one: an atomic add, min,
//    max, and, or, xor where the operation is one of those, a
//    compare-and-swap loop for other operations on 4- and 8-byte types;
//  - otherwise (types of other sizes: bool, half, structs...) each group
//    stores its value in a scratch array in device memory and counts itself
//    done on an atomic counter; the last group to finish combines the
//    groups' values, in group order, into the target. The scratch is
//    allocated at submission, its counter zeroed by a command submitted just
//    before the kernel, and freed by a host task submitted just after it.
// Without an identity, a reducer, a slot of the local scratch and a group's
// value say whether they hold a value, and empty ones are skipped.
//
// A parallel_for over a range runs as groups of 256 work-items, at most 2048
// groups on a GPU and eight per CPU thread (reduction_group_limit), each
// work-item taking the range's items a whole launch apart (coalesced on a
// GPU); on the CPU each work-item takes a contiguous share, its items going
// to several reducers per reduction in turn (cpu_lanes_v): independent
// chains, which the CPU vectorizes (on a GPU: gpu_lanes_v).
// initialize_to_identity writes the identity to the target in a command
// submitted just before (queue::submit does it).
// On a GPU, a USM target in host or shared memory is not touched by the
// kernel: it combines into a cell of device memory (reduction_cell_take),
// which starts as the identity or a copy of the target, and a copy after the
// kernel writes the result to the target. A shared target read on the host
// after every call (BabelStream's dot) would otherwise move its page to the
// device and back at each call, and the driver throttles such pages. For a
// shared target that copy goes to pinned host memory and a host task stores
// the result into the target: the driver's copy into a managed page the host
// holds took 50-70 us on the H100, the whole dot 190. A shared target with an
// identity and at most kHostCombinedValues group values needs no cell
// initialization either: each group stores its value in the cell, one copy
// brings them to pinned memory, and the host task combines them in group
// order into the target (BabelStream's dot: no fill before the kernel).
#pragma once

#include "std_parts.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace sycl {
namespace detail {

template <typename To, typename From> To bit_cast_value(const From &from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

// Whether a group's value can be combined into the target atomically.
template <typename T, typename Op> inline constexpr bool atomic_combinable_v = std::is_trivially_copyable_v<T> &&
                                                                               (sizeof(T) == 4 || sizeof(T) == 8);

// *target = op(*target, value), atomically.
template <typename T, typename Op> void atomic_combine(T *target, const T &value, const Op &op) {
  static_assert(atomic_combinable_v<T, Op>);
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

// The work-items a work-group's barrier loops step over: `count` rounded up
// to a power of two, or the target's bound on work-group sizes where its
// compiler wants barrier loops of a known trip count
// (__onepass_group_steps_bound, detail/builtins.hpp). Steps past `count`
// are barriers with no work.
inline std::size_t group_steps_span(std::size_t count) {
  const std::size_t bound = __onepass_group_steps_bound();
  return bound != 0 ? bound : power_of_two_at_least(count);
}

// Combines scratch[0, count) into scratch[0] with a halving tree, a barrier
// before each step: every work-item of the group calls it, `local` being
// its linear id. (A barrier after it makes scratch[0] visible to all.)
template <typename T, typename Op>
void combine_in_scratch(T *scratch, std::size_t local, std::size_t count, const Op &op) {
  for (std::size_t half = group_steps_span(count) / 2; half > 0; half /= 2) {
    __onepass_group_barrier();
    if (local < half && local + half < count) scratch[local] = op(scratch[local], scratch[local + half]);
  }
}
// The same where slots may hold no value (reductions without an identity):
// holds[i] says whether scratch[i] does.
template <typename T, typename Op>
void combine_in_scratch(T *scratch, bool *holds, std::size_t local, std::size_t count, const Op &op) {
  for (std::size_t half = group_steps_span(count) / 2; half > 0; half /= 2) {
    __onepass_group_barrier();
    if (local < half && local + half < count && holds[local + half]) {
      scratch[local] = holds[local] ? op(scratch[local], scratch[local + half]) : scratch[local + half];
      holds[local] = true;
    }
  }
}

// The groups' values of a reduction whose type has no atomic combination, in
// device memory: values[group * Extent + element], whether each exists, and
// how many groups are done.
template <typename T, std::size_t Extent> struct group_partials {
  T *values = nullptr;
  unsigned char *holds = nullptr;
  unsigned int *groups_done = nullptr;
  std::size_t groups = 0;

  static std::size_t holds_offset(std::size_t groups) { return groups * Extent * sizeof(T); }
  static std::size_t counter_offset(std::size_t groups) {
    return (holds_offset(groups) + groups * Extent + alignof(unsigned int) - 1) / alignof(unsigned int) *
           alignof(unsigned int);
  }
  static std::size_t bytes(std::size_t groups) { return counter_offset(groups) + sizeof(unsigned int); }

  void store(std::size_t group, std::size_t element, const T &value, bool holds_value) const {
    if (holds_value) values[group * Extent + element] = value;
    holds[group * Extent + element] = holds_value;
  }
  // Called by one work-item per group once its values are stored: the last
  // group combines all groups' values into target[0, Extent).
  template <typename Op> void finish(T *target, const Op &op) const {
    atomic_fence(memory_order::release, memory_scope::device);
    atomic_ref<unsigned int, memory_order::acq_rel, memory_scope::device, access::address_space::generic_space> done(
        *groups_done);
    if (done.fetch_add(1u) != groups - 1) return;
    atomic_fence(memory_order::acquire, memory_scope::device);
    for (std::size_t element = 0; element < Extent; ++element) {
      accumulator<T, Op, false> total(op);
      for (std::size_t group = 0; group < groups; ++group)
        if (holds[group * Extent + element]) total.combine(values[group * Extent + element]);
      if (total.holds_value()) target[element] = op(target[element], total.value);
    }
  }
};
struct no_group_partials {};
template <typename Kind> using group_partials_for =
    std::conditional_t<atomic_combinable_v<typename Kind::value_type, typename Kind::operation>, no_group_partials,
                       group_partials<typename Kind::value_type, Kind::extent>>;

// A reduction as the kernel sees it: where the result goes, what reducers
// start from, where its scratch lies in the group's local memory, and where
// the groups' values go when they cannot be combined atomically.
template <typename Kind> struct reduction_desc {
  using kind = Kind;
  typename Kind::value_type *target = nullptr;
  typename Kind::accumulator_type start;
  std::size_t scratch_offset = 0;
  group_partials_for<Kind> partials;
  // Set where the host combines the groups' values (prepare_reduction):
  // group g's value of element e goes to group_values[g * extent + e], and
  // nothing is combined on the device.
  typename Kind::value_type *group_values = nullptr;
};
// A buffer reduction: its accessor gives the target's address in the kernel.
template <typename Kind> struct buffer_reduction_desc {
  using kind = Kind;
  accessor<typename Kind::value_type, 1, access_mode::read_write, sycl::target::device> data;
  typename Kind::accumulator_type start;
  std::size_t scratch_offset;
  group_partials_for<Kind> partials;
  typename Kind::value_type *group_values = nullptr;  // as reduction_desc's
};
// In the kernel: a buffer reduction's descriptor with its target's address.
template <typename Kind> reduction_desc<Kind> kernel_view(const reduction_desc<Kind> &d) { return d; }
template <typename Kind> reduction_desc<Kind> kernel_view(const buffer_reduction_desc<Kind> &d) {
  return {d.data.template get_multi_ptr<access::decorated::no>().get_raw(), d.start, d.scratch_offset, d.partials,
          d.group_values};
}

// Combines the group's reducers of reduction `desc` and the group's value
// into the target. Every work-item of the group calls it (it has barriers).
template <typename Kind, typename Reducer> void combine_group(const reduction_desc<Kind> &desc, Reducer &reducer,
                                                              std::size_t local, std::size_t size, std::size_t group) {
  using T = typename Kind::value_type;
  T *scratch = reinterpret_cast<T *>(static_cast<char *>(__onepass_local_memory()) + desc.scratch_offset);
  [[maybe_unused]] bool *holds = reinterpret_cast<bool *>(scratch + size);
  for (std::size_t element = 0; element < Kind::extent; ++element) {
    auto &accumulator = accumulator_of(reducer, element);
    bool group_holds = true;
    if constexpr (Kind::has_identity) {
      scratch[local] = accumulator.value;
      combine_in_scratch(scratch, local, size, desc.start.op);
    } else {
      holds[local] = accumulator.holds_value();
      if (holds[local]) scratch[local] = accumulator.value;
      combine_in_scratch(scratch, holds, local, size, desc.start.op);
      group_holds = holds[0];
    }
    if (local == 0 && desc.group_values) {
      desc.group_values[group * Kind::extent + element] = scratch[0];  // has_identity: every group holds one
    } else if (local == 0) {
      if constexpr (std::is_same_v<group_partials_for<Kind>, no_group_partials>) {
        if (group_holds) atomic_combine(desc.target + element, scratch[0], desc.start.op);
      } else {
        desc.partials.store(group, element, scratch[0], group_holds);
      }
    }
    // A span's next element reuses the scratch: once this one's is read. (A
    // barrier on every path: the CPU device runs the code between barriers
    // for each work-item in turn.)
    if constexpr (Kind::extent > 1) __onepass_group_barrier();
  }
  if constexpr (!std::is_same_v<group_partials_for<Kind>, no_group_partials>) {
    if (local == 0 && !desc.group_values) desc.partials.finish(desc.target, desc.start.op);
  }
}

// Kernel names of the wrappers, for kernels the user named.
template <typename Name> struct reduction_kernel_name {};

struct handler_internals {
  static std::size_t reserve_local_memory(handler &h, std::size_t bytes, std::size_t alignment) {
    return h.reserve_local_memory(bytes, alignment);
  }
  static std::vector<std::function<void(handler &)>> &before(handler &h) { return h.before_; }
  static std::vector<std::function<void(handler &)>> &after(handler &h) { return h.after_; }
  static std::vector<std::function<void(handler &)>> &finish(handler &h) { return h.finish_; }
  static std::vector<std::function<void(const event &)>> &finished(handler &h) { return h.finished_; }
  static const queue_impl *queue(handler &h) { return h.queue_; }
  template <typename Accessor> static buffer_access access_of(const Accessor &acc) { return handler::access_of(acc); }
  static void add_access(handler &h, const buffer_access &access) { h.add_access(access); }
  // Takes back a requirement the command group registered (an accessor the
  // kernel will not use): the last one equal to `access`, so that an equal
  // requirement of another accessor the kernel does use stays. Defined in
  // runtime/sycl/HeaderBodies.cpp.
  ONEPASS_RT_API static void drop_access(handler &h, const buffer_access &access);
};

// A reduction's place in the group's local memory: a value per work-item,
// and whether it holds one where there is no identity.
template <typename Kind> std::size_t reserve_scratch(handler &h, std::size_t group_size) {
  using T = typename Kind::value_type;
  const std::size_t bytes = group_size * (sizeof(T) + (Kind::has_identity ? 0 : sizeof(bool)));
  return handler_internals::reserve_local_memory(h, bytes, alignof(T));
}

// The groups' values in device memory, for a reduction that needs them: the
// memory is allocated now, its counter zeroed before the kernel and the
// memory freed after it.
template <typename Kind> group_partials_for<Kind> allocate_group_partials(handler &h, std::size_t groups) {
  if constexpr (std::is_same_v<group_partials_for<Kind>, no_group_partials>) {
    return {};
  } else {
    using Partials = group_partials_for<Kind>;
    Partials partials;
    const queue_impl *queue = handler_internals::queue(h);
    if (groups == 0 || !queue) return partials;
    std::shared_ptr<context_impl> context = get_queue_context(*queue);
    char *memory = static_cast<char *>(usm_allocate(Partials::bytes(groups),
                                                    alignof(typename Kind::value_type) > alignof(unsigned int)
                                                        ? alignof(typename Kind::value_type)
                                                        : alignof(unsigned int),
                                                    usm_kind::device, get_queue_device(*queue), context));
    partials.values = reinterpret_cast<typename Kind::value_type *>(memory);
    partials.holds = reinterpret_cast<unsigned char *>(memory + Partials::holds_offset(groups));
    partials.groups_done = reinterpret_cast<unsigned int *>(memory + Partials::counter_offset(groups));
    partials.groups = groups;
    unsigned int *counter = partials.groups_done;
    handler_internals::before(h).push_back([counter](handler &init) { init.memset(counter, 0, sizeof(unsigned int)); });
    handler_internals::after(h).push_back(
        [memory, context](handler &release) { release.host_task([memory, context] { usm_free(memory, *context); }); });
    return partials;
  }
}

// What the kernel captures of one reduction; registers its scratch and its
// initialization with the handler.
// A shared target's groups are combined on the host (see the top of this
// file) when there are at most this many values.
inline constexpr std::size_t kHostCombinedValues = 4096;

// After the kernel stored each group's values in `cell`: one copy brings them
// to pinned `staging`, and a host task combines them in group order into
// `target` (host memory), starting from the identity or the target's value.
// `access(handler &)` adds what the host task's command group needs (a
// buffer's host access). The cell goes back to the queue once that is done.
template <typename Kind, typename Access>
void combine_groups_on_host(handler &h, const queue_impl *queue, typename Kind::value_type *cell, void *staging,
                            std::size_t groups, typename Kind::value_type *target,
                            const typename Kind::accumulator_type &start, bool initialize, Access access) {
  using T = typename Kind::value_type;
  const std::size_t bytes = groups * Kind::extent * sizeof(T);
  handler_internals::finish(h).push_back([cell, staging, bytes](handler &out) { out.memcpy(staging, cell, bytes); });
  handler_internals::finish(h).push_back([=](handler &out) {
    access(out);
    out.host_task([=] {
      const T *value = static_cast<const T *>(staging);
      auto op = start.op;
      for (std::size_t element = 0; element < Kind::extent; ++element) {
        T total = initialize ? start.identity : target[element];
        for (std::size_t group = 0; group < groups; ++group) total = op(total, value[group * Kind::extent + element]);
        target[element] = total;
      }
    });
  });
  handler_internals::finished(h).push_back(
      [queue, cell](const event &combined) { reduction_cell_give_back(*queue, cell, combined.impl()); });
}

template <typename Kind> reduction_desc<Kind> prepare_reduction(handler &h, const usm_reduction<Kind> &r,
                                                                std::size_t group_size, std::size_t groups) {
  using T = typename Kind::value_type;
  constexpr std::size_t bytes = Kind::extent * sizeof(T);
  T *target = r.target;
  const queue_impl *queue = handler_internals::queue(h);
  void *staging = nullptr;
  // On a GPU, a shared target with an identity and few groups: each group
  // stores its value, and a host task combines them (in group order) into
  // the target after one copy to pinned memory. No fill, no atomics, and the
  // driver never copies into the target's managed page.
  if constexpr (Kind::has_identity) {
    const std::size_t values = groups * Kind::extent;
    T *cell = queue && groups > 0 && values <= kHostCombinedValues &&
                      usm_pointer_kind(target, *get_queue_context(*queue)) == usm_kind::shared
                  ? static_cast<T *>(reduction_cell_take(*queue, target, values * sizeof(T), &staging))
                  : nullptr;
    if (cell && staging) {
      combine_groups_on_host<Kind>(h, queue, cell, staging, groups, target, r.start, r.initialize, [](handler &) {});
      return {target, r.start, reserve_scratch<Kind>(h, group_size), {}, cell};
    }
    if (cell) reduction_cell_give_back(*queue, cell, nullptr);  // no pinned memory: the general way below
  }
  // Otherwise, on a GPU, host or shared USM: the kernel combines into a cell
  // of device memory, which starts as the identity or a copy of the target,
  // and is copied to the target after it (the command's event is the copy's).
  T *cell = queue ? static_cast<T *>(reduction_cell_take(*queue, target, bytes, &staging)) : nullptr;
  reduction_desc<Kind> desc{cell ? cell : target, r.start, reserve_scratch<Kind>(h, group_size),
                            allocate_group_partials<Kind>(h, groups)};
  bool filled = false;
  if constexpr (Kind::has_identity) {
    if (r.initialize) {
      auto identity = r.start.identity;
      T *start = desc.target;
      handler_internals::before(h).push_back(
          [start, identity](handler &init) { init.fill(start, identity, Kind::extent); });
      filled = true;
    }
  }
  if (cell && !filled)
    handler_internals::before(h).push_back([cell, target](handler &init) { init.memcpy(cell, target, bytes); });
  if (cell) {
    if (staging) {  // a shared target: through pinned memory, then a host store
      handler_internals::finish(h).push_back([cell, staging](handler &out) { out.memcpy(staging, cell, bytes); });
      handler_internals::finish(h).push_back(
          [staging, target](handler &out) { out.host_task([staging, target] { std::memcpy(target, staging, bytes); }); });
    } else {
      handler_internals::finish(h).push_back([cell, target](handler &out) { out.memcpy(target, cell, bytes); });
    }
    handler_internals::finished(h).push_back(
        [queue, cell](const event &copied) { reduction_cell_give_back(*queue, cell, copied.impl()); });
  }
  return desc;
}
template <typename Kind> buffer_reduction_desc<Kind> prepare_reduction(handler &h, const buffer_reduction<Kind> &r,
                                                                       std::size_t group_size, std::size_t groups) {
  using T = typename Kind::value_type;
  // On a GPU, with an identity and few groups: as a shared USM target's
  // (each group stores its value, the host combines them), into the buffer's
  // host copy, by a host task that accesses the buffer there. The kernel
  // does not access the buffer: no fill before it, no copy back for a
  // host_accessor after it (BabelStream's accessor model reads the result
  // so after every dot).
  if constexpr (Kind::has_identity) {
    const queue_impl *queue = handler_internals::queue(h);
    const std::size_t values = groups * Kind::extent;
    void *staging = nullptr;
    T *cell = queue && groups > 0 && values <= kHostCombinedValues
                  ? static_cast<T *>(reduction_cell_take(*queue, nullptr, values * sizeof(T), &staging))
                  : nullptr;
    if (cell) {
      buffer_access access = handler_internals::access_of(r.data);
      handler_internals::drop_access(h, access);
      access.on_host = true;
      T *host = reinterpret_cast<T *>(static_cast<char *>(buffer_host_data(*access.buffer)) +
                                      (access.token - buffer_token(*access.buffer)));
      combine_groups_on_host<Kind>(h, queue, cell, staging, groups, host, r.start, r.initialize,
                                   [access](handler &out) { handler_internals::add_access(out, access); });
      // (An empty accessor in the kernel's copy: the buffer's is not bound to the kernel.)
      return {decltype(r.data){}, r.start, reserve_scratch<Kind>(h, group_size), {}, cell};
    }
  }
  if constexpr (Kind::has_identity) {
    if (r.initialize) {
      auto data = r.data;
      auto identity = r.start.identity;
      handler_internals::before(h).push_back([data, identity](handler &init) {
        init.require(data);
        init.fill(data, identity);
      });
    }
  }
  return {r.data, r.start, reserve_scratch<Kind>(h, group_size), allocate_group_partials<Kind>(h, groups)};
}

// On the CPU, a work-item's items go to several reducers of each reduction
// in turn, so that their combinations are independent chains (a reduction's
// order of combination is unspecified, §4.9.2), which the CPU vectorizes:
// 128 bytes of them for types of up to 8 bytes (four 256-bit chains: 32
// floats, 16 doubles), 8 for wider types and spans; the widest value of the
// kernel's reductions decides. On the 16-core host, a sum of 2^26 floats
// with 16 threads: 2.89-2.97 ms with 8 lanes (one chain), 2.02-2.38 with
// 16, 1.95-2.55 with 32 (OpenMP 1.84-2.53 in the same runs).
template <typename... Kinds> inline constexpr std::size_t cpu_lanes_widest =
    std::max({sizeof(typename Kinds::value_type) * Kinds::extent...});  // a span's elements count
template <typename... Kinds> inline constexpr std::size_t cpu_lanes_v =
    cpu_lanes_widest<Kinds...> <= 4 ? 32 : cpu_lanes_widest<Kinds...> <= 8 ? 16 : 8;
// On a GPU, reducers of 8 bytes or more get one reducer per work-item and
// narrower ones 8 (the smallest value type of the kernel's reductions
// decides): on the H100, BabelStream's dot (two doubles loaded per item)
// takes 1.40 ms at 2^28 with one reducer, 1.44 with 2, 1.50 with 4, 1.52
// with 8; a sum of 2^28 floats 489 us with one, 382 with 8 (a sum of
// doubles is best with 4: 374 us, against 397 with one).
template <typename... Kinds> inline constexpr std::size_t gpu_lanes_v =
    ((sizeof(typename Kinds::value_type) >= 8) && ...) ? 1 : 8;

template <typename Kind, std::size_t Lanes> struct reducer_lanes {
  using reducer_type = typename Kind::reducer_type;
  reducer_type lane[Lanes];
  template <std::size_t... K> reducer_lanes(const typename Kind::accumulator_type &start, std::index_sequence<K...>)
      : lane{((void)K, reducer_type(start))...} {}
  explicit reducer_lanes(const typename Kind::accumulator_type &start)
      : reducer_lanes(start, std::make_index_sequence<Lanes>{}) {}
  reducer_type &folded() {
    for (std::size_t k = 1; k < Lanes; ++k)
      for (std::size_t element = 0; element < Kind::extent; ++element)
        accumulator_of(lane[0], element).merge(accumulator_of(lane[k], element));
    return lane[0];
  }
};

template <typename View> using kind_of = typename View::kind;

// The work-item's items begin, begin + step, ... below end:
// `call(linear, reducers...)` for each, spread over `Lanes` reducers per
// reduction; then its group is combined.
template <std::size_t Lanes, typename Descs, std::size_t... I, typename Call>
void reduce_share_in_lanes(const Descs &descs, std::index_sequence<I...>, std::size_t local, std::size_t size,
                           std::size_t group, std::size_t begin, std::size_t end, std::size_t step, Call &&call) {
  const auto views = std::make_tuple(kernel_view(std::get<I>(descs))...);
  std::tuple<reducer_lanes<kind_of<std::tuple_element_t<I, decltype(views)>>, Lanes>...> lanes(
      std::get<I>(views).start...);
  std::size_t linear = begin;
  if (step == 1) {
    for (; linear + Lanes <= end; linear += Lanes)
      for (std::size_t k = 0; k < Lanes; ++k) call(linear + k, std::get<I>(lanes).lane[k]...);
  } else if constexpr (Lanes > 1) {
    const std::size_t span = (Lanes - 1) * step;
    for (; linear < end && end - linear > span; linear += Lanes * step)
      for (std::size_t k = 0; k < Lanes; ++k) call(linear + k * step, std::get<I>(lanes).lane[k]...);
  }
  for (; linear < end; linear += step) call(linear, std::get<I>(lanes).lane[0]...);
  (combine_group(std::get<I>(views), std::get<I>(lanes).folded(), local, size, group), ...);
}

// Runs `body(reducers...)` for one work-item, then combines its group.
template <typename Descs, std::size_t... I, typename Body>
void reduce_in_group(const Descs &descs, std::index_sequence<I...>, std::size_t local, std::size_t size,
                     std::size_t group, Body &&body) {
  const auto views = std::make_tuple(kernel_view(std::get<I>(descs))...);
  std::tuple<typename kind_of<std::tuple_element_t<I, decltype(views)>>::reducer_type...> reducers(
      std::get<I>(views).start...);
  body(std::get<I>(reducers)...);
  (combine_group(std::get<I>(views), std::get<I>(reducers), local, size, group), ...);
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
  const std::size_t total = global_range.size();
  const std::size_t most = queue_ ? detail::reduction_group_limit(*queue_) : kReductionGroupsGpu;
  const std::size_t groups = std::min<std::size_t>((total + group - 1) / group, most);
  auto descs = std::make_tuple(detail::prepare_reduction(*this, std::get<I>(arguments), group, groups)...);
  using Name = std::conditional_t<std::is_same_v<KernelName, detail::auto_name>, detail::auto_name,
                                  detail::reduction_kernel_name<KernelName>>;
  parallel_for<Name>(nd_range<1>(groups * group, group), [=](nd_item<1> it) {
    const std::size_t local = it.get_local_id(0), workers = it.get_global_range(0), group_id = it.get_group(0);
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
      constexpr std::size_t lanes = detail::cpu_lanes_v<detail::kind_of<std::tuple_element_t<I, decltype(descs)>>...>;
      detail::reduce_share_in_lanes<lanes>(descs, std::index_sequence<I...>{}, local, group, group_id, begin, end, 1,
                                           call);
    } else {
      // Items a whole launch apart: neighbouring work-items read neighbouring items.
      constexpr std::size_t lanes = detail::gpu_lanes_v<detail::kind_of<std::tuple_element_t<I, decltype(descs)>>...>;
      detail::reduce_share_in_lanes<lanes>(descs, std::index_sequence<I...>{}, local, group, group_id,
                                           it.get_global_id(0), total, workers, call);
    }
  });
  // The CPU's share per work-item (an empty range launches no work-item).
  desc_.kernel.work_per_item = groups == 0 ? 1 : (total + groups * group - 1) / (groups * group);
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
  const std::size_t groups = group == 0 ? 0 : execution_range.get_global_range().size() / group;
  auto descs = std::make_tuple(detail::prepare_reduction(*this, std::get<I>(arguments), group, groups)...);
  using Name = std::conditional_t<std::is_same_v<KernelName, detail::auto_name>, detail::auto_name,
                                  detail::reduction_kernel_name<KernelName>>;
  parallel_for<Name>(execution_range, [=](nd_item<Dimensions> it) {
    detail::reduce_in_group(descs, std::index_sequence<I...>{}, it.get_local_linear_id(), group,
                            it.get_group_linear_id(), [&](auto &...reducers) { kernel(it, reducers...); });
  });
}

}  // namespace sycl
