// SYCL 2020 §4.17.3 group algorithms, for sub-groups: broadcasts, shifts and
// permutations, votes, reductions and scans over the work-items of a
// sub-group, built on the device's sub-group shuffles (warp shuffles on
// NVIDIA GPUs; on the CPU a sub-group is one work-item). Values of up to 8
// bytes, trivially copyable. Every work-item of the sub-group must call them
// together. (The work-group forms are not there yet.)
#pragma once

#include "functional.hpp"
#include "nd_item.hpp"

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

}  // namespace sycl
