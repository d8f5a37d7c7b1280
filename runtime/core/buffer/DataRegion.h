// Data-state tracking per page (runtime-spec.md, "Data state tracking and
// pages"): a buffer's range is cut into 3-D pages, and each allocation of the
// buffer (one per physical device) records which pages it holds up to date.
// DataRegion answers what an access needs: which pages it touches, which of
// them must be copied to the accessing allocation and from where, merged into
// as few copies as possible. It knows no devices and moves no data.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace onepass::rt {

// A half-open 3-D box [begin, end). Dimension 2 is the fastest-varying one
// (contiguous in memory), as the last dimension of a SYCL range.
struct Box3 {
  std::array<std::size_t, 3> begin{0, 0, 0};
  std::array<std::size_t, 3> end{0, 0, 0};

  bool empty() const { return end[0] <= begin[0] || end[1] <= begin[1] || end[2] <= begin[2]; }
  std::size_t volume() const { return empty() ? 0 : (end[0] - begin[0]) * (end[1] - begin[1]) * (end[2] - begin[2]); }
  bool overlaps(const Box3 &other) const;
  bool contains(const Box3 &other) const;
  bool operator==(const Box3 &other) const { return begin == other.begin && end == other.end; }
};

// Pads a SYCL range/offset of 1-3 dimensions to 3, with the SYCL dimensions
// last: {R0} -> {1, 1, R0}, {R0, R1} -> {1, R0, R1}.
std::array<std::size_t, 3> toExtent3(int dimensions, const std::size_t *values, std::size_t pad);

// One contiguous piece of a copy, in bytes from the start of the allocation
// (every allocation of a buffer has the same layout).
struct ByteSpan {
  std::size_t offsetBytes = 0;
  std::size_t sizeBytes = 0;
};

// Pages of one allocation that must be brought up to date from one source.
struct TransferPlan {
  unsigned source = 0;          // allocation index holding the current data
  std::vector<Box3> elements;   // element boxes, clipped to the buffer
  std::vector<ByteSpan> spans;  // the same, as contiguous byte spans, merged
};

class DataRegion {
public:
  // pageExtent: elements per page in each (padded) dimension; 0 picks the
  // default (see defaultPageExtent).
  DataRegion(std::array<std::size_t, 3> extent, std::size_t elementBytes, std::array<std::size_t, 3> pageExtent);

  // The default page: whole in the inner dimensions, the outermost dimension
  // of more than one element cut into at most kMaxDefaultPages pages of at
  // least kMinDefaultPageBytes each. Whole-buffer copies stay one span and
  // disjoint halves of a buffer land on disjoint pages.
  static constexpr std::size_t kMaxDefaultPages = 64;
  static constexpr std::size_t kMinDefaultPageBytes = 64 * 1024;
  static std::array<std::size_t, 3> defaultPageExtent(std::array<std::size_t, 3> extent, std::size_t elementBytes);

  const std::array<std::size_t, 3> &extent() const { return extent_; }
  const std::array<std::size_t, 3> &pageExtent() const { return pageExtent_; }
  std::size_t pageCount() const { return pages_[0] * pages_[1] * pages_[2]; }
  std::size_t elementBytes() const { return elementBytes_; }

  // Adds an allocation with every page outdated; returns its index.
  unsigned addAllocation();
  unsigned allocationCount() const { return static_cast<unsigned>(current_.size()); }

  // The pages an access of `elements` (offset and range, padded) touches.
  Box3 pageRange(const Box3 &elements) const;
  Box3 wholePageRange() const;
  // The elements of a page box, clipped to the buffer.
  Box3 pageElements(const Box3 &pages) const;

  // The copies that make `target` current over `pages`. Pages current nowhere
  // (never initialized) need no copy. Prefers `preferredSource` where it holds
  // the data, then the lowest allocation index.
  std::vector<TransferPlan> planTransfers(unsigned target, const Box3 &pages, unsigned preferredSource) const;

  // After the copies of planTransfers: `target` holds `pages` (those current somewhere).
  void markTransferred(unsigned target, const Box3 &pages);
  // A writing access on `target`: it alone holds `pages` now.
  void markWritten(unsigned target, const Box3 &pages);

  bool isCurrent(unsigned allocation, std::array<std::size_t, 3> page) const;
  bool isInitialized(std::array<std::size_t, 3> page) const;  // current somewhere

  // Contiguous byte spans covering an element box, adjacent ones merged.
  std::vector<ByteSpan> byteSpans(const Box3 &elements) const;

private:
  std::size_t pageIndex(std::size_t p0, std::size_t p1, std::size_t p2) const {
    return (p0 * pages_[1] + p1) * pages_[2] + p2;
  }

  std::array<std::size_t, 3> extent_;
  std::size_t elementBytes_;
  std::array<std::size_t, 3> pageExtent_;
  std::array<std::size_t, 3> pages_;
  std::vector<std::vector<uint8_t>> current_;  // [allocation][page]
  // How many pages each allocation holds current: an allocation current
  // everywhere (a buffer used kernel after kernel on one device) needs no
  // page scans at each access.
  std::vector<std::size_t> currentPages_;
  bool wholeBox(const Box3 &pages) const;
};

}  // namespace onepass::rt
