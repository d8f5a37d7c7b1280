// Explicit copies and fills that involve accessors (SYCL 2020 §4.9.4.3):
// both sides are cut into contiguous runs (rows of the accessed boxes) and
// zipped into as few backend copies as the layouts allow.
#pragma once

#include "buffer/DataRegion.h"

#include <sycl/detail/runtime_api.hpp>

#include <vector>

namespace onepass::rt {

// The runs of one side, in bytes from the start of its view (or pointer).
std::vector<ByteSpan> regionRuns(const sycl::detail::region_side &side, std::size_t elementBytes);

struct CopyPiece {
  std::size_t sourceOffsetBytes;
  std::size_t destinationOffsetBytes;
  std::size_t sizeBytes;
};
// Element order is row-major on both sides; copies `totalBytes` in all.
std::vector<CopyPiece> zipRuns(const std::vector<ByteSpan> &source, const std::vector<ByteSpan> &destination,
                               std::size_t totalBytes);

}  // namespace onepass::rt
