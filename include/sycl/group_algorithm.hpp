// SYCL 2020 §4.17.2 group functions and §4.17.3 group algorithms, for
// sub-groups: broadcasts, shifts and permutations, votes, reductions and
// scans over the work-items of a sub-group, built on the device's sub-group
// shuffles (warp shuffles on NVIDIA GPUs; on the CPU, exchanges through the
// group scratch). Any trivially copyable value, moved 32 bits at a time.
// Every work-item of the sub-group must call them together. The work-group
// forms, and the joint_* forms over memory for both kinds of group, are
// further down.
#pragma once

#include "functional.hpp"
#include "nd_item.hpp"
#include "reduction.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace sycl {

namespace detail {

// The group types of §4.17.2.1, for the constraints of the algorithms that
// take either (the joint_* forms). Private: the public sycl::is_group is
// nd_item.hpp's.
template <typename G> inline constexpr bool is_group_type_v = is_group_v<std::decay_t<G>>;

// A value as 32-bit words (the last one zero-padded) and back.
template <typename T> inline constexpr std::size_t words32_v = (sizeof(T) + 3) / 4;

// A shuffle of any trivially copyable value, 32 bits at a time (unrolled in
// the front end: every word's shuffle is a convergent call on its own).
template <typename T, typename Shuffle, std::size_t... Ws>
T shuffle_words(const T &value, Shuffle shuffle, std::index_sequence<Ws...>) {
  unsigned words[sizeof...(Ws)] = {};
  std::memcpy(words, &value, sizeof(T));
  ((words[Ws] = shuffle(words[Ws])), ...);
  T result;
  std::memcpy(&result, words, sizeof(T));
  return result;
}
template <typename T, typename Shuffle> T shuffle_value(const T &value, Shuffle shuffle) {
  static_assert(std::is_trivially_copyable_v<T>, "group functions take trivially copyable values (SYCL 2020 §4.17.2)");
  return shuffle_words(value, shuffle, std::make_index_sequence<words32_v<T>>());
}
template <typename T> T shuffle_from(const T &v, unsigned source) {
  return shuffle_value(v, [=](unsigned w) { return __onepass_sub_group_shuffle(w, source); });
}
template <typename T> T shuffle_down(const T &v, unsigned delta) {
  return shuffle_value(v, [=](unsigned w) { return __onepass_sub_group_shuffle_down(w, delta); });
}
template <typename T> T shuffle_up(const T &v, unsigned delta) {
  return shuffle_value(v, [=](unsigned w) { return __onepass_sub_group_shuffle_up(w, delta); });
}
template <typename T> T shuffle_xor(const T &v, unsigned mask) {
  return shuffle_value(v, [=](unsigned w) { return __onepass_sub_group_shuffle_xor(w, mask); });
}

// x_0 op ... op x_i in work-item i (Hillis-Steele over shuffles).
template <typename T, typename Op> T sub_group_inclusive(T x, Op op) {
  const unsigned local = __onepass_sub_group_local_id(), widest = __onepass_sub_group_max_size();
  for (unsigned offset = 1; offset < widest; offset *= 2) {
    T y = shuffle_up(x, offset);
    if (local >= offset) x = op(y, x);
  }
  return x;
}

// The combination of the x of the sub-group's first `count` work-items (the
// others' x is ignored), in every work-item: a halving tree over shuffles to
// the first work-item, then broadcast.
template <typename T, typename Op> T sub_group_reduce_first(T x, unsigned count, Op op) {
  const unsigned local = __onepass_sub_group_local_id(), widest = __onepass_sub_group_max_size();
  for (unsigned offset = 1; offset < widest; offset *= 2) {
    T y = shuffle_down(x, offset);
    if (local % (2 * offset) == 0 && local + offset < count) x = op(x, y);
  }
  return shuffle_from(x, 0);
}

}  // namespace detail

template <typename T> T group_broadcast(sub_group, T x, sub_group::linear_id_type local_linear_id = 0) {
  return detail::shuffle_from(x, local_linear_id);
}
template <typename T> T group_broadcast(sub_group g, T x, sub_group::id_type local_id) {
  return group_broadcast(g, x, static_cast<sub_group::linear_id_type>(local_id[0]));
}
template <typename T> T select_from_group(sub_group, T x, sub_group::id_type remote_local_id) {
  return detail::shuffle_from(x, static_cast<unsigned>(remote_local_id[0]));
}
// The value of the work-item `delta` further (left) or back (right); a
// work-item with none there gets an unspecified value (here: its own).
template <typename T> T shift_group_left(sub_group, T x, sub_group::linear_id_type delta = 1) {
  return detail::shuffle_down(x, delta);
}
template <typename T> T shift_group_right(sub_group, T x, sub_group::linear_id_type delta = 1) {
  return detail::shuffle_up(x, delta);
}
template <typename T> T permute_group_by_xor(sub_group, T x, sub_group::linear_id_type mask) {
  return detail::shuffle_xor(x, mask);
}

inline bool any_of_group(sub_group, bool predicate) { return __onepass_sub_group_any(predicate) != 0; }
inline bool all_of_group(sub_group, bool predicate) { return __onepass_sub_group_all(predicate) != 0; }
inline bool none_of_group(sub_group g, bool predicate) { return !any_of_group(g, predicate); }
template <typename T, typename Predicate> bool any_of_group(sub_group g, T x, Predicate predicate) {
  return any_of_group(g, static_cast<bool>(predicate(x)));
}
template <typename T, typename Predicate> bool all_of_group(sub_group g, T x, Predicate predicate) {
  return all_of_group(g, static_cast<bool>(predicate(x)));
}
template <typename T, typename Predicate> bool none_of_group(sub_group g, T x, Predicate predicate) {
  return none_of_group(g, static_cast<bool>(predicate(x)));
}

// The combination of every work-item's x, in every work-item.
template <typename T, typename BinaryOperation> T reduce_over_group(sub_group, T x, BinaryOperation op) {
  return detail::sub_group_reduce_first(x, __onepass_sub_group_size(), op);
}
template <typename V, typename T, typename BinaryOperation>
T reduce_over_group(sub_group g, V x, T init, BinaryOperation op) {
  return op(init, reduce_over_group(g, static_cast<T>(x), op));
}

template <typename T, typename BinaryOperation> T inclusive_scan_over_group(sub_group, T x, BinaryOperation op) {
  return detail::sub_group_inclusive(x, op);
}
template <typename V, typename BinaryOperation, typename T>
T inclusive_scan_over_group(sub_group, V x, BinaryOperation op, T init) {
  return op(init, detail::sub_group_inclusive(static_cast<T>(x), op));
}
template <typename V, typename T, typename BinaryOperation>
T exclusive_scan_over_group(sub_group, V x, T init, BinaryOperation op) {
  const T inclusive = detail::sub_group_inclusive(static_cast<T>(x), op);
  const T before = detail::shuffle_up(inclusive, 1);
  return __onepass_sub_group_local_id() == 0 ? init : op(init, before);
}
template <typename T, typename BinaryOperation> T exclusive_scan_over_group(sub_group g, T x, BinaryOperation op) {
  return exclusive_scan_over_group(g, x, known_identity_v<BinaryOperation, T>, op);
}

// --- work-groups ------------------------------------------------------------
// Through the work-group's scratch memory (8 bytes per work-item, separate
// from the local accessors) and barriers. Every work-item of the group must
// call them together. A value of up to 8 bytes sits in one scratch slot; a
// larger one (a vec or marray, a struct) moves between work-items 8 bytes at
// a time (group_exchange), and the algorithms combine values in registers.
namespace detail {
template <typename T> inline constexpr bool fits_scratch_slot_v = sizeof(T) <= 8;

template <typename T> T *group_scratch() {
  static_assert(std::is_trivially_copyable_v<T> && fits_scratch_slot_v<T>,
                "a scratch slot holds a trivially copyable value of up to 8 bytes");
  return static_cast<T *>(__onepass_group_scratch());
}
template <int D> std::size_t group_local(const group<D> &g) { return g.get_local_linear_id(); }
template <int D> std::size_t group_size(const group<D> &g) { return g.get_local_linear_range(); }

// One 8-byte word of work-item `source`'s value: a work-group's shuffle.
inline void exchange_word(std::uint64_t &word, std::uint64_t *scratch, std::size_t local, std::size_t source) {
  scratch[local] = word;
  __onepass_group_barrier();
  word = scratch[source];
  __onepass_group_barrier();  // the slot is free again
}
template <typename T, std::size_t... Ws>
T group_exchange_words(const T &x, std::size_t local, std::size_t source, std::index_sequence<Ws...>) {
  std::uint64_t words[sizeof...(Ws)] = {};
  std::memcpy(words, &x, sizeof(T));
  std::uint64_t *scratch = static_cast<std::uint64_t *>(__onepass_group_scratch());
  (exchange_word(words[Ws], scratch, local, source), ...);
  T result;
  std::memcpy(&result, words, sizeof(T));
  return result;
}
// The x of work-item `source` (every work-item names its own), for values
// of any size.
template <typename T> T group_exchange(const T &x, std::size_t local, std::size_t source) {
  static_assert(std::is_trivially_copyable_v<T>, "group functions take trivially copyable values (SYCL 2020 §4.17.2)");
  return group_exchange_words(x, local, source, std::make_index_sequence<(sizeof(T) + 7) / 8>());
}

// The combination of the group scratch's first `count` values, in every
// work-item; the scratch is free again when it returns.
template <typename T, typename Op> T combined_scratch(T *scratch, std::size_t local, std::size_t count, Op op) {
  combine_in_scratch(scratch, local, count, op);
  __onepass_group_barrier();
  const T result = scratch[0];
  __onepass_group_barrier();
  return result;
}

// The combination of the x of the group's first `count` work-items (the
// others' x is ignored), in every work-item. Large values: the same halving
// tree as combine_in_scratch, each step an exchange.
template <int D, typename T, typename Op> T group_reduce_first(const group<D> &g, T x, std::size_t count, Op op) {
  const std::size_t local = group_local(g);
  if constexpr (fits_scratch_slot_v<T>) {
    T *scratch = group_scratch<T>();
    if (local < count) scratch[local] = x;
    return combined_scratch(scratch, local, count, op);
  } else {
    for (std::size_t half = group_steps_span(count) / 2; half > 0; half /= 2) {
      const bool takes = local < half && local + half < count;
      const T other = group_exchange(x, local, takes ? local + half : local);
      if (takes) x = op(x, other);
    }
    return group_exchange(x, local, 0);
  }
}

// The combination of every work-item's x.
template <int D, typename T, typename Op> T group_reduce(const group<D> &g, T x, Op op) {
  if constexpr (fits_scratch_slot_v<T>) {
    T *scratch = group_scratch<T>();
    scratch[group_local(g)] = x;
    return combined_scratch(scratch, group_local(g), group_size(g), op);
  } else {
    return group_reduce_first(g, x, group_size(g), op);
  }
}

// x_0 op ... op x_i in work-item i (Hillis-Steele in the scratch, or over
// exchanges for large values).
template <int D, typename T, typename Op> T group_inclusive(const group<D> &g, T x, Op op) {
  const std::size_t local = group_local(g), span = group_steps_span(group_size(g));
  if constexpr (fits_scratch_slot_v<T>) {
    T *scratch = group_scratch<T>();
    scratch[local] = x;
    for (std::size_t offset = 1; offset < span; offset *= 2) {
      __onepass_group_barrier();
      const bool takes = local >= offset;
      const T before = takes ? scratch[local - offset] : x;
      __onepass_group_barrier();
      if (takes) x = op(before, x);
      scratch[local] = x;
    }
    __onepass_group_barrier();  // the scratch is free again
  } else {
    for (std::size_t offset = 1; offset < span; offset *= 2) {
      const bool takes = local >= offset;
      const T before = group_exchange(x, local, takes ? local - offset : local);
      if (takes) x = op(before, x);
    }
  }
  return x;
}

// The value of the work-item before (work-item 0 gets its own).
template <int D, typename T> T group_previous(const group<D> &g, const T &x) {
  const std::size_t local = group_local(g);
  if constexpr (fits_scratch_slot_v<T>) {
    T *scratch = group_scratch<T>();
    scratch[local] = x;
    __onepass_group_barrier();
    const T result = local == 0 ? x : scratch[local - 1];
    __onepass_group_barrier();
    return result;
  } else {
    return group_exchange(x, local, local == 0 ? 0 : local - 1);
  }
}

// The sub-group's counterparts, so that the joint_* forms below are written
// once for both kinds of group.
template <typename T, typename Op>
T group_reduce_first(const sub_group &, const T &x, std::size_t count, Op op) {
  return sub_group_reduce_first(x, static_cast<unsigned>(count), op);
}
}  // namespace detail

// §4.17.2.2.
template <int D, typename T> T group_broadcast(group<D> g, T x, std::size_t local_linear_id = 0) {
  if constexpr (detail::fits_scratch_slot_v<T>) {
    T *scratch = detail::group_scratch<T>();
    if (g.get_local_linear_id() == local_linear_id) scratch[0] = x;
    __onepass_group_barrier();
    const T result = scratch[0];
    __onepass_group_barrier();
    return result;
  } else {
    return detail::group_exchange(x, g.get_local_linear_id(), local_linear_id);
  }
}
template <int D, typename T> T group_broadcast(group<D> g, T x, id<D> local_id) {
  return group_broadcast(g, x, detail::linearize<D>(local_id, g.get_local_range()));
}

// §4.17.3.1.
template <int D> bool any_of_group(group<D> g, bool predicate) {
  return detail::group_reduce(g, static_cast<int>(predicate), logical_or<int>()) != 0;
}
template <int D> bool all_of_group(group<D> g, bool predicate) {
  return detail::group_reduce(g, static_cast<int>(predicate), logical_and<int>()) != 0;
}
template <int D> bool none_of_group(group<D> g, bool predicate) { return !any_of_group(g, predicate); }
template <int D, typename T, typename Predicate> bool any_of_group(group<D> g, T x, Predicate predicate) {
  return any_of_group(g, static_cast<bool>(predicate(x)));
}
template <int D, typename T, typename Predicate> bool all_of_group(group<D> g, T x, Predicate predicate) {
  return all_of_group(g, static_cast<bool>(predicate(x)));
}
template <int D, typename T, typename Predicate> bool none_of_group(group<D> g, T x, Predicate predicate) {
  return none_of_group(g, static_cast<bool>(predicate(x)));
}

// §4.17.3.5, §4.17.3.6.
template <int D, typename T, typename BinaryOperation> T reduce_over_group(group<D> g, T x, BinaryOperation op) {
  return detail::group_reduce(g, x, op);
}
template <int D, typename V, typename T, typename BinaryOperation>
T reduce_over_group(group<D> g, V x, T init, BinaryOperation op) {
  return op(init, detail::group_reduce(g, static_cast<T>(x), op));
}
template <int D, typename T, typename BinaryOperation>
T inclusive_scan_over_group(group<D> g, T x, BinaryOperation op) {
  return detail::group_inclusive(g, x, op);
}
template <int D, typename V, typename BinaryOperation, typename T>
T inclusive_scan_over_group(group<D> g, V x, BinaryOperation op, T init) {
  return op(init, detail::group_inclusive(g, static_cast<T>(x), op));
}
template <int D, typename V, typename T, typename BinaryOperation>
T exclusive_scan_over_group(group<D> g, V x, T init, BinaryOperation op) {
  // The inclusive scan of the work-item before.
  const T before = detail::group_previous(g, detail::group_inclusive(g, static_cast<T>(x), op));
  return g.get_local_linear_id() == 0 ? init : op(init, before);
}
template <int D, typename T, typename BinaryOperation>
T exclusive_scan_over_group(group<D> g, T x, BinaryOperation op) {
  return exclusive_scan_over_group(g, x, known_identity_v<BinaryOperation, T>, op);
}

// --- joint_* (both kinds of group) -------------------------------------------
// Over a range [first, last) in memory every work-item of the group sees,
// each work-item taking every group-size-th element (§4.17.3.1, §4.17.3.5,
// §4.17.3.6).
namespace detail {
template <typename Group> using enable_for_group_t = std::enable_if_t<is_group_type_v<Group>>;
template <typename Group> std::size_t joint_local(const Group &g) { return g.get_local_linear_id(); }
template <int D> std::size_t joint_size(const group<D> &g) { return g.get_local_linear_range(); }
// On the CPU, the sub-group's size from its id and the work-group's size
// (whose three dimensions the CPU always sets): the CPU's JIT takes
// __onepass_sub_group_size() for a value every work-item of the work-group
// shares, which the last, partial sub-group's is not.
inline std::size_t joint_size(const sub_group &g) {
  if (!__onepass_target_is_cpu()) return g.get_local_linear_range();
  const std::size_t items = __onepass_get_local_range(0) * __onepass_get_local_range(1) * __onepass_get_local_range(2),
                    widest = __onepass_sub_group_max_size(), first = std::size_t(g.get_group_linear_id()) * widest;
  return items - first < widest ? items - first : widest;
}
template <typename Ptr> using pointee_t = std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<Ptr>())>>;
}  // namespace detail

template <typename Group, typename Ptr, typename BinaryOperation, typename = detail::enable_for_group_t<Group>>
detail::pointee_t<Ptr> joint_reduce(Group g, Ptr first, Ptr last, BinaryOperation op) {
  using T = detail::pointee_t<Ptr>;
  const std::size_t count = static_cast<std::size_t>(last - first), local = detail::joint_local(g);
  const std::size_t size = detail::joint_size(g);
  // Work-items past the end have no element (`has`): only the first
  // `active` work-items' partial results are combined.
  T partial{};
  bool has = false;
  for (std::size_t i = local; i < count; i += size) {
    partial = has ? op(partial, first[i]) : T(first[i]);
    has = true;
  }
  const std::size_t active = count < size ? count : size;
  const T result = detail::group_reduce_first(g, partial, active, op);
  return active > 0 ? result : T{};
}
template <typename Group, typename Ptr, typename T, typename BinaryOperation,
          typename = detail::enable_for_group_t<Group>>
T joint_reduce(Group g, Ptr first, Ptr last, T init, BinaryOperation op) {
  return first == last ? init : op(init, static_cast<T>(joint_reduce(g, first, last, op)));
}
template <typename Group, typename Ptr, typename Predicate, typename = detail::enable_for_group_t<Group>>
bool joint_any_of(Group g, Ptr first, Ptr last, Predicate predicate) {
  bool any = false;
  for (std::size_t i = detail::joint_local(g); i < static_cast<std::size_t>(last - first); i += detail::joint_size(g))
    any = any || predicate(first[i]);
  return any_of_group(g, any);
}
template <typename Group, typename Ptr, typename Predicate, typename = detail::enable_for_group_t<Group>>
bool joint_all_of(Group g, Ptr first, Ptr last, Predicate predicate) {
  bool all = true;
  for (std::size_t i = detail::joint_local(g); i < static_cast<std::size_t>(last - first); i += detail::joint_size(g))
    all = all && predicate(first[i]);
  return all_of_group(g, all);
}
template <typename Group, typename Ptr, typename Predicate, typename = detail::enable_for_group_t<Group>>
bool joint_none_of(Group g, Ptr first, Ptr last, Predicate predicate) {
  return !joint_any_of(g, first, last, predicate);
}

// Scans of [first, last) into result, a group-size chunk at a time, the
// running total carried from chunk to chunk. In the last, partial chunk the
// work-items past the end take a stand-in value: a scan's work-item never
// depends on those after it.
namespace detail {
// How many chunks every work-item of the group goes through. A work-group's
// are all the same size. On the CPU a sub-group's shuffles are barriers of
// the whole work-group, so every sub-group of the work-group goes through
// as many chunks as its smallest one (its last, partial one) needs; the
// extra chunks only scan stand-ins.
template <int D> std::size_t joint_chunks(const group<D> &g, std::size_t count) {
  return (count + g.get_local_linear_range() - 1) / g.get_local_linear_range();
}
inline std::size_t joint_chunks(const sub_group &g, std::size_t count) {
  std::size_t smallest = joint_size(g);
  if (__onepass_target_is_cpu()) {
    const std::size_t items = __onepass_get_local_range(0) * __onepass_get_local_range(1) *
                              __onepass_get_local_range(2),
                      widest = __onepass_sub_group_max_size();
    smallest = items % widest == 0 ? widest : items % widest;
  }
  return (count + smallest - 1) / smallest;
}

// joint_inclusive_scan, with `init` combined first if there is one.
template <typename Group, typename InPtr, typename OutPtr, typename BinaryOperation, typename T>
OutPtr joint_inclusive(Group g, InPtr first, InPtr last, OutPtr result, BinaryOperation op, const T *init) {
  const std::size_t count = static_cast<std::size_t>(last - first), size = joint_size(g), local = joint_local(g);
  const auto lastItem = static_cast<typename Group::linear_id_type>(size - 1);
  T carry = init ? *init : T{};
  const std::size_t chunks = joint_chunks(g, count);
  for (std::size_t round = 0, chunk = 0; round < chunks; ++round, chunk += size) {
    const std::size_t at = chunk + local;
    const T x = at < count ? T(first[at]) : carry;
    T scanned = inclusive_scan_over_group(g, x, op);
    if (chunk > 0 || init) scanned = op(carry, scanned);
    if (at < count) result[at] = scanned;
    carry = group_broadcast(g, scanned, lastItem);
  }
  return result + count;
}
}  // namespace detail

template <typename Group, typename InPtr, typename OutPtr, typename BinaryOperation,
          typename = detail::enable_for_group_t<Group>>
OutPtr joint_inclusive_scan(Group g, InPtr first, InPtr last, OutPtr result, BinaryOperation op) {
  // §4.17.4.17: binary_op(*first, *first) gives the result's type, the scan's.
  using T = detail::pointee_t<OutPtr>;
  return detail::joint_inclusive(g, first, last, result, op, static_cast<const T *>(nullptr));
}
template <typename Group, typename InPtr, typename OutPtr, typename BinaryOperation, typename T,
          typename = detail::enable_for_group_t<Group>>
OutPtr joint_inclusive_scan(Group g, InPtr first, InPtr last, OutPtr result, BinaryOperation op, T init) {
  return detail::joint_inclusive(g, first, last, result, op, &init);
}
template <typename Group, typename InPtr, typename OutPtr, typename T, typename BinaryOperation,
          typename = detail::enable_for_group_t<Group>>
OutPtr joint_exclusive_scan(Group g, InPtr first, InPtr last, OutPtr result, T init, BinaryOperation op) {
  const std::size_t count = static_cast<std::size_t>(last - first), size = detail::joint_size(g);
  const std::size_t local = detail::joint_local(g);
  const auto lastItem = static_cast<typename Group::linear_id_type>(size - 1);
  T carry = init;
  const std::size_t chunks = detail::joint_chunks(g, count);
  for (std::size_t round = 0, chunk = 0; round < chunks; ++round, chunk += size) {
    const std::size_t at = chunk + local;
    const T x = at < count ? T(first[at]) : carry;
    const T scanned = exclusive_scan_over_group(g, x, carry, op);
    if (at < count) result[at] = scanned;
    carry = group_broadcast(g, op(scanned, x), lastItem);
  }
  return result + count;
}
template <typename Group, typename InPtr, typename OutPtr, typename BinaryOperation,
          typename = detail::enable_for_group_t<Group>>
OutPtr joint_exclusive_scan(Group g, InPtr first, InPtr last, OutPtr result, BinaryOperation op) {
  // The result's type (binary_op(*first, *first) gives it, §4.17.4.17): its
  // identity starts the scan, not the input's.
  using T = detail::pointee_t<OutPtr>;
  return joint_exclusive_scan(g, first, last, result, known_identity_v<BinaryOperation, T>, op);
}

}  // namespace sycl
