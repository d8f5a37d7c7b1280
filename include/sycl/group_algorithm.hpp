// SYCL 2020 §4.17.3 group algorithms, for sub-groups: broadcasts, shifts and
// permutations, votes, reductions and scans over the work-items of a
// sub-group, built on the device's sub-group shuffles (warp shuffles on
// NVIDIA GPUs; on the CPU a sub-group is one work-item). Values of up to 8
// bytes, trivially copyable. Every work-item of the sub-group must call them
// together. The work-group forms are further down.
#pragma once

#include "functional.hpp"
#include "nd_item.hpp"
#include "reduction.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace sycl {

namespace detail {

// A shuffle of any value of up to 8 bytes, 32 bits at a time.
template <typename T, typename Shuffle> T shuffle_value(const T &value, Shuffle shuffle) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "OnePass's sub-group algorithms take trivially copyable values of up to 8 bytes");
  unsigned words[2] = {0, 0};
  std::memcpy(words, &value, sizeof(T));
  words[0] = shuffle(words[0]);
  if constexpr (sizeof(T) > 4) words[1] = shuffle(words[1]);
  T result;
  std::memcpy(&result, words, sizeof(T));
  return result;
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

// The combination of every work-item's x, in every work-item: a halving
// tree over shuffles to the first work-item, then broadcast.
template <typename T, typename BinaryOperation> T reduce_over_group(sub_group, T x, BinaryOperation op) {
  const unsigned local = __onepass_sub_group_local_id(), size = __onepass_sub_group_size();
  const unsigned widest = __onepass_sub_group_max_size();
  for (unsigned offset = 1; offset < widest; offset *= 2) {
    T y = detail::shuffle_down(x, offset);
    if (local % (2 * offset) == 0 && local + offset < size) x = op(x, y);
  }
  return detail::shuffle_from(x, 0);
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
// call them together.
namespace detail {
template <typename T> T *group_scratch() {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "OnePass's work-group algorithms take trivially copyable values of up to 8 bytes");
  return static_cast<T *>(__onepass_group_scratch());
}
template <int D> std::size_t group_local(const group<D> &g) { return g.get_local_linear_id(); }
template <int D> std::size_t group_size(const group<D> &g) { return g.get_local_linear_range(); }

// The combination of the group scratch's first `count` values, in every
// work-item; the scratch is free again when it returns.
template <typename T, typename Op> T combined_scratch(T *scratch, std::size_t local, std::size_t count, Op op) {
  combine_in_scratch(scratch, local, count, op);
  __onepass_group_barrier();
  const T result = scratch[0];
  __onepass_group_barrier();
  return result;
}

// The combination of every work-item's x.
template <int D, typename T, typename Op> T group_reduce(const group<D> &g, T x, Op op) {
  T *scratch = group_scratch<T>();
  scratch[group_local(g)] = x;
  return combined_scratch(scratch, group_local(g), group_size(g), op);
}

// x_0 op ... op x_i in work-item i (Hillis-Steele in the scratch).
template <int D, typename T, typename Op> T group_inclusive(const group<D> &g, T x, Op op) {
  T *scratch = group_scratch<T>();
  const std::size_t local = group_local(g), size = group_size(g);
  scratch[local] = x;
  for (std::size_t offset = 1; offset < size; offset *= 2) {
    __onepass_group_barrier();
    const bool takes = local >= offset;
    const T before = takes ? scratch[local - offset] : x;
    __onepass_group_barrier();
    if (takes) x = op(before, x);
    scratch[local] = x;
  }
  __onepass_group_barrier();  // the scratch is free again
  return x;
}
}  // namespace detail

template <int D, typename T> T group_broadcast(group<D> g, T x, std::size_t local_linear_id = 0) {
  T *scratch = detail::group_scratch<T>();
  if (g.get_local_linear_id() == local_linear_id) scratch[0] = x;
  __onepass_group_barrier();
  const T result = scratch[0];
  __onepass_group_barrier();
  return result;
}
template <int D, typename T> T group_broadcast(group<D> g, T x, id<D> local_id) {
  return group_broadcast(g, x, detail::linearize<D>(local_id, g.get_local_range()));
}

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
  // The inclusive scan of the work-item before, through the scratch.
  const T inclusive = detail::group_inclusive(g, static_cast<T>(x), op);
  T *scratch = detail::group_scratch<T>();
  const std::size_t local = g.get_local_linear_id();
  scratch[local] = inclusive;
  __onepass_group_barrier();
  const T result = local == 0 ? init : op(init, scratch[local - 1]);
  __onepass_group_barrier();
  return result;
}
template <int D, typename T, typename BinaryOperation>
T exclusive_scan_over_group(group<D> g, T x, BinaryOperation op) {
  return exclusive_scan_over_group(g, x, known_identity_v<BinaryOperation, T>, op);
}

// joint_*: over a range [first, last) in memory every work-item of the group
// sees, each work-item taking every group-size-th element.
template <int D, typename Ptr, typename BinaryOperation>
auto joint_reduce(group<D> g, Ptr first, Ptr last, BinaryOperation op) {
  using T = std::remove_cv_t<std::remove_reference_t<decltype(*first)>>;
  const std::size_t count = static_cast<std::size_t>(last - first), local = g.get_local_linear_id();
  const std::size_t size = g.get_local_linear_range();
  // Work-items with no element contribute the first one again only through
  // `has`: the combination uses only real elements.
  T partial{};
  bool has = false;
  for (std::size_t i = local; i < count; i += size) {
    partial = has ? op(partial, first[i]) : T(first[i]);
    has = true;
  }
  const std::size_t active = count < size ? count : size;
  T *scratch = detail::group_scratch<T>();
  if (has) scratch[local] = partial;
  const T result = detail::combined_scratch(scratch, local, active, op);
  return active > 0 ? result : T{};
}
template <int D, typename Ptr, typename T, typename BinaryOperation>
T joint_reduce(group<D> g, Ptr first, Ptr last, T init, BinaryOperation op) {
  return first == last ? init : op(init, static_cast<T>(joint_reduce(g, first, last, op)));
}
template <int D, typename Ptr, typename Predicate>
bool joint_any_of(group<D> g, Ptr first, Ptr last, Predicate predicate) {
  bool any = false;
  for (std::size_t i = g.get_local_linear_id(); i < static_cast<std::size_t>(last - first);
       i += g.get_local_linear_range())
    any = any || predicate(first[i]);
  return any_of_group(g, any);
}
template <int D, typename Ptr, typename Predicate>
bool joint_all_of(group<D> g, Ptr first, Ptr last, Predicate predicate) {
  bool all = true;
  for (std::size_t i = g.get_local_linear_id(); i < static_cast<std::size_t>(last - first);
       i += g.get_local_linear_range())
    all = all && predicate(first[i]);
  return all_of_group(g, all);
}
template <int D, typename Ptr, typename Predicate>
bool joint_none_of(group<D> g, Ptr first, Ptr last, Predicate predicate) {
  return !joint_any_of(g, first, last, predicate);
}

// Scans of [first, last) into result, a group-size chunk at a time, the
// running total carried from chunk to chunk. In the last, partial chunk the
// work-items past the end take a stand-in value: a scan's work-item never
// depends on those after it.
namespace detail {
// joint_inclusive_scan, with `init` combined first if there is one.
template <int D, typename InPtr, typename OutPtr, typename BinaryOperation, typename T>
OutPtr joint_inclusive(group<D> g, InPtr first, InPtr last, OutPtr result, BinaryOperation op, const T *init) {
  const std::size_t count = static_cast<std::size_t>(last - first), size = g.get_local_linear_range();
  const std::size_t local = g.get_local_linear_id();
  T carry = init ? *init : T{};
  for (std::size_t chunk = 0; chunk < count; chunk += size) {
    const std::size_t at = chunk + local;
    const T x = at < count ? T(first[at]) : T(first[chunk]);
    T scanned = inclusive_scan_over_group(g, x, op);
    if (chunk > 0 || init) scanned = op(carry, scanned);
    if (at < count) result[at] = scanned;
    carry = group_broadcast(g, scanned, size - 1);
  }
  return result + count;
}
}  // namespace detail

template <int D, typename InPtr, typename OutPtr, typename BinaryOperation>
OutPtr joint_inclusive_scan(group<D> g, InPtr first, InPtr last, OutPtr result, BinaryOperation op) {
  using T = std::remove_cv_t<std::remove_reference_t<decltype(*first)>>;
  return detail::joint_inclusive(g, first, last, result, op, static_cast<const T *>(nullptr));
}
template <int D, typename InPtr, typename OutPtr, typename BinaryOperation, typename T>
OutPtr joint_inclusive_scan(group<D> g, InPtr first, InPtr last, OutPtr result, BinaryOperation op, T init) {
  return detail::joint_inclusive(g, first, last, result, op, &init);
}
template <int D, typename InPtr, typename OutPtr, typename T, typename BinaryOperation>
OutPtr joint_exclusive_scan(group<D> g, InPtr first, InPtr last, OutPtr result, T init, BinaryOperation op) {
  const std::size_t count = static_cast<std::size_t>(last - first), size = g.get_local_linear_range();
  const std::size_t local = g.get_local_linear_id();
  T carry = init;
  for (std::size_t chunk = 0; chunk < count; chunk += size) {
    const std::size_t at = chunk + local;
    const T x = at < count ? T(first[at]) : T(first[chunk]);
    const T scanned = exclusive_scan_over_group(g, x, carry, op);
    if (at < count) result[at] = scanned;
    carry = group_broadcast(g, op(scanned, x), size - 1);
  }
  return result + count;
}
template <int D, typename InPtr, typename OutPtr, typename BinaryOperation>
OutPtr joint_exclusive_scan(group<D> g, InPtr first, InPtr last, OutPtr result, BinaryOperation op) {
  using T = std::remove_cv_t<std::remove_reference_t<decltype(*first)>>;
  return joint_exclusive_scan(g, first, last, result, known_identity_v<BinaryOperation, T>, op);
}

}  // namespace sycl
