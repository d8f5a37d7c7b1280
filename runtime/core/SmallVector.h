// A vector that keeps its first N elements inline: the runtime's
// per-submission lists (a command group's accesses, their addresses and
// boxes) hold one to three entries almost always, and a heap allocation for
// each of them cost more than the work done with it (issue 20: a command
// group with accessors took ~1.7 us longer to submit than one without).
// Past N the elements move to a std::vector. T must be default-constructible
// and copyable.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace onepass::rt {

template <typename T, std::size_t N> class SmallVector {
public:
  SmallVector() = default;

  void push_back(const T &value) {
    if (!heap_.empty() || size_ == N) {
      if (heap_.empty()) heap_.assign(inline_.begin(), inline_.end());
      heap_.push_back(value);
    } else {
      inline_[size_] = value;
    }
    ++size_;
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T *data() { return heap_.empty() ? inline_.data() : heap_.data(); }
  const T *data() const { return heap_.empty() ? inline_.data() : heap_.data(); }
  T &operator[](std::size_t i) { return data()[i]; }
  const T &operator[](std::size_t i) const { return data()[i]; }
  T &back() { return data()[size_ - 1]; }
  T *begin() { return data(); }
  T *end() { return data() + size_; }
  const T *begin() const { return data(); }
  const T *end() const { return data() + size_; }

private:
  std::array<T, N> inline_{};
  std::vector<T> heap_;  // all elements once there are more than N
  std::size_t size_ = 0;
};

}  // namespace onepass::rt
