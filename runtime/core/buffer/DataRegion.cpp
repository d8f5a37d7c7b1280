#include "DataRegion.h"

#include <algorithm>
#include <tuple>

namespace onepass::rt {

bool Box3::overlaps(const Box3 &other) const {
  for (int d = 0; d < 3; ++d)
    if (begin[d] >= other.end[d] || other.begin[d] >= end[d]) return false;
  return !empty() && !other.empty();
}

bool Box3::contains(const Box3 &other) const {
  if (other.empty()) return true;
  for (int d = 0; d < 3; ++d)
    if (other.begin[d] < begin[d] || other.end[d] > end[d]) return false;
  return true;
}

std::array<std::size_t, 3> toExtent3(int dimensions, const std::size_t *values, std::size_t pad) {
  std::array<std::size_t, 3> result{pad, pad, pad};
  for (int d = 0; d < dimensions; ++d) result[3 - dimensions + d] = values[d];
  return result;
}

std::array<std::size_t, 3> DataRegion::defaultPageExtent(std::array<std::size_t, 3> extent, std::size_t elementBytes) {
  std::array<std::size_t, 3> page = extent;
  int outer = 0;
  while (outer < 2 && extent[outer] <= 1) ++outer;
  std::size_t sliceBytes = elementBytes;
  for (int d = outer + 1; d < 3; ++d) sliceBytes *= extent[d];
  std::size_t minSlices =
      std::max<std::size_t>(1, (kMinDefaultPageBytes + sliceBytes - 1) / std::max<std::size_t>(1, sliceBytes));
  std::size_t byCount = (extent[outer] + kMaxDefaultPages - 1) / kMaxDefaultPages;
  page[outer] = std::max<std::size_t>({1, minSlices, byCount});
  page[outer] = std::min(page[outer], std::max<std::size_t>(1, extent[outer]));
  for (int d = 0; d < 3; ++d) page[d] = std::max<std::size_t>(1, page[d]);
  return page;
}

DataRegion::DataRegion(std::array<std::size_t, 3> extent, std::size_t elementBytes,
                       std::array<std::size_t, 3> pageExtent)
    : extent_(extent), elementBytes_(elementBytes) {
  std::array<std::size_t, 3> fallback = defaultPageExtent(extent, elementBytes);
  for (int d = 0; d < 3; ++d) {
    pageExtent_[d] = pageExtent[d] == 0 ? fallback[d] : std::min(pageExtent[d], std::max<std::size_t>(1, extent[d]));
    pages_[d] = extent[d] == 0 ? 1 : (extent[d] + pageExtent_[d] - 1) / pageExtent_[d];
  }
}

unsigned DataRegion::addAllocation() {
  current_.emplace_back(pageCount(), uint8_t(0));
  currentPages_.push_back(0);
  return static_cast<unsigned>(current_.size() - 1);
}

bool DataRegion::wholeBox(const Box3 &pages) const {
  return pages.begin == std::array<std::size_t, 3>{0, 0, 0} && pages.end == pages_;
}

Box3 DataRegion::pageRange(const Box3 &elements) const {
  Box3 pages;
  if (elements.empty()) return pages;
  for (int d = 0; d < 3; ++d) {
    pages.begin[d] = elements.begin[d] / pageExtent_[d];
    pages.end[d] = std::min(pages_[d], (elements.end[d] + pageExtent_[d] - 1) / pageExtent_[d]);
  }
  return pages;
}

Box3 DataRegion::wholePageRange() const {
  Box3 pages;
  pages.end = pages_;
  return pages;
}

Box3 DataRegion::pageElements(const Box3 &pages) const {
  Box3 elements;
  for (int d = 0; d < 3; ++d) {
    elements.begin[d] = std::min(extent_[d], pages.begin[d] * pageExtent_[d]);
    elements.end[d] = std::min(extent_[d], pages.end[d] * pageExtent_[d]);
  }
  return elements;
}

bool DataRegion::isCurrent(unsigned allocation, std::array<std::size_t, 3> page) const {
  return current_[allocation][pageIndex(page[0], page[1], page[2])] != 0;
}

bool DataRegion::isInitialized(std::array<std::size_t, 3> page) const {
  std::size_t index = pageIndex(page[0], page[1], page[2]);
  for (const auto &state : current_)
    if (state[index]) return true;
  return false;
}

std::vector<TransferPlan> DataRegion::planTransfers(unsigned target, const Box3 &pages,
                                                    unsigned preferredSource) const {
  if (currentPages_[target] == pageCount()) return {};
  // 1. Runs along the contiguous dimension of pages needing one source.
  struct Run {
    std::size_t b0, e0, b1, e1, b2, e2;
    unsigned source;
  };
  std::vector<Run> runs;
  const unsigned none = ~0u;
  auto sourceOf = [&](std::size_t index) {
    if (current_[target][index]) return none;
    if (preferredSource < current_.size() && current_[preferredSource][index]) return preferredSource;
    for (unsigned a = 0; a < current_.size(); ++a)
      if (current_[a][index]) return a;
    return none;  // never initialized: nothing to copy
  };
  for (std::size_t p0 = pages.begin[0]; p0 < pages.end[0]; ++p0)
    for (std::size_t p1 = pages.begin[1]; p1 < pages.end[1]; ++p1) {
      std::size_t p2 = pages.begin[2];
      while (p2 < pages.end[2]) {
        unsigned source = sourceOf(pageIndex(p0, p1, p2));
        std::size_t start = p2++;
        while (p2 < pages.end[2] && sourceOf(pageIndex(p0, p1, p2)) == source) ++p2;
        if (source != none) runs.push_back({p0, p0 + 1, p1, p1 + 1, start, p2, source});
      }
    }
  // 2. Merge runs into rectangles (dimension 1), then boxes (dimension 0).
  auto mergeAlong = [&](int dim) {
    auto key = [&](const Run &r) {
      return dim == 1 ? std::make_tuple(r.b0, r.e0, r.b2, r.e2, r.source, r.b1)
                      : std::make_tuple(r.b1, r.e1, r.b2, r.e2, r.source, r.b0);
    };
    std::sort(runs.begin(), runs.end(), [&](const Run &a, const Run &b) { return key(a) < key(b); });
    std::vector<Run> merged;
    for (const Run &r : runs) {
      if (!merged.empty()) {
        Run &last = merged.back();
        bool sameOther = dim == 1 ? (last.b0 == r.b0 && last.e0 == r.e0) : (last.b1 == r.b1 && last.e1 == r.e1);
        bool adjacent = dim == 1 ? last.e1 == r.b1 : last.e0 == r.b0;
        if (sameOther && adjacent && last.b2 == r.b2 && last.e2 == r.e2 && last.source == r.source) {
          (dim == 1 ? last.e1 : last.e0) = dim == 1 ? r.e1 : r.e0;
          continue;
        }
      }
      merged.push_back(r);
    }
    runs.swap(merged);
  };
  mergeAlong(1);
  mergeAlong(0);

  // 3. One plan per source allocation, its spans in address order.
  std::vector<TransferPlan> plans;
  for (const Run &r : runs) {
    auto plan = std::find_if(plans.begin(), plans.end(), [&](const TransferPlan &p) { return p.source == r.source; });
    if (plan == plans.end()) {
      plans.push_back(TransferPlan{r.source, {}, {}});
      plan = plans.end() - 1;
    }
    Box3 pageBox{{r.b0, r.b1, r.b2}, {r.e0, r.e1, r.e2}};
    plan->elements.push_back(pageElements(pageBox));
  }
  for (TransferPlan &plan : plans) {
    for (const Box3 &box : plan.elements) {
      std::vector<ByteSpan> spans = byteSpans(box);
      plan.spans.insert(plan.spans.end(), spans.begin(), spans.end());
    }
    std::sort(plan.spans.begin(), plan.spans.end(),
              [](const ByteSpan &a, const ByteSpan &b) { return a.offsetBytes < b.offsetBytes; });
    std::vector<ByteSpan> merged;
    for (const ByteSpan &s : plan.spans) {
      if (!merged.empty() && merged.back().offsetBytes + merged.back().sizeBytes == s.offsetBytes)
        merged.back().sizeBytes += s.sizeBytes;
      else merged.push_back(s);
    }
    plan.spans.swap(merged);
  }
  std::sort(plans.begin(), plans.end(),
            [](const TransferPlan &a, const TransferPlan &b) { return a.source < b.source; });
  return plans;
}

void DataRegion::markTransferred(unsigned target, const Box3 &pages) {
  if (currentPages_[target] == pageCount()) return;
  std::vector<uint8_t> &state = current_[target];
  for (std::size_t p0 = pages.begin[0]; p0 < pages.end[0]; ++p0)
    for (std::size_t p1 = pages.begin[1]; p1 < pages.end[1]; ++p1)
      for (std::size_t p2 = pages.begin[2]; p2 < pages.end[2]; ++p2) {
        std::size_t index = pageIndex(p0, p1, p2);
        if (!state[index] && isInitialized({p0, p1, p2})) {
          state[index] = 1;
          ++currentPages_[target];
        }
      }
}

void DataRegion::markWritten(unsigned target, const Box3 &pages) {
  if (wholeBox(pages)) {
    for (unsigned a = 0; a < current_.size(); ++a) {
      std::fill(current_[a].begin(), current_[a].end(), uint8_t(a == target));
      currentPages_[a] = a == target ? pageCount() : 0;
    }
    return;
  }
  for (std::size_t p0 = pages.begin[0]; p0 < pages.end[0]; ++p0)
    for (std::size_t p1 = pages.begin[1]; p1 < pages.end[1]; ++p1)
      for (std::size_t p2 = pages.begin[2]; p2 < pages.end[2]; ++p2) {
        std::size_t index = pageIndex(p0, p1, p2);
        for (unsigned a = 0; a < current_.size(); ++a) {
          const uint8_t now = a == target;
          if (current_[a][index] != now) {
            current_[a][index] = now;
            if (now) ++currentPages_[a];
            else --currentPages_[a];
          }
        }
      }
}

std::vector<ByteSpan> DataRegion::byteSpans(const Box3 &box) const {
  std::vector<ByteSpan> spans;
  if (box.empty()) return spans;
  const std::size_t Y = extent_[1], X = extent_[2], B = elementBytes_;
  auto add = [&](std::size_t firstElement, std::size_t elements) {
    ByteSpan span{firstElement * B, elements * B};
    if (!spans.empty() && spans.back().offsetBytes + spans.back().sizeBytes == span.offsetBytes)
      spans.back().sizeBytes += span.sizeBytes;
    else spans.push_back(span);
  };
  bool fullX = box.begin[2] == 0 && box.end[2] == X;
  bool fullY = box.begin[1] == 0 && box.end[1] == Y;
  if (fullX && fullY) {
    add(box.begin[0] * Y * X, (box.end[0] - box.begin[0]) * Y * X);
  } else if (fullX) {
    for (std::size_t z = box.begin[0]; z < box.end[0]; ++z)
      add((z * Y + box.begin[1]) * X, (box.end[1] - box.begin[1]) * X);
  } else {
    for (std::size_t z = box.begin[0]; z < box.end[0]; ++z)
      for (std::size_t y = box.begin[1]; y < box.end[1]; ++y)
        add((z * Y + y) * X + box.begin[2], box.end[2] - box.begin[2]);
  }
  return spans;
}

}  // namespace onepass::rt
