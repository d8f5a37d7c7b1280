#include "RegionCopy.h"

#include <algorithm>

namespace onepass::rt {

std::vector<ByteSpan> regionRuns(const sycl::detail::region_side &side, std::size_t elementBytes) {
  std::vector<ByteSpan> runs;
  const std::size_t *e = side.extent, *o = side.offset, *r = side.range;
  for (std::size_t z = 0; z < r[0]; ++z)
    for (std::size_t y = 0; y < r[1]; ++y) {
      std::size_t first = ((o[0] + z) * e[1] + (o[1] + y)) * e[2] + o[2];
      ByteSpan run{first * elementBytes, r[2] * elementBytes};
      if (!runs.empty() && runs.back().offsetBytes + runs.back().sizeBytes == run.offsetBytes)
        runs.back().sizeBytes += run.sizeBytes;
      else if (run.sizeBytes) runs.push_back(run);
    }
  return runs;
}

std::vector<CopyPiece> zipRuns(const std::vector<ByteSpan> &source, const std::vector<ByteSpan> &destination,
                               std::size_t totalBytes) {
  std::vector<CopyPiece> pieces;
  std::size_t s = 0, d = 0, sUsed = 0, dUsed = 0, done = 0;
  while (done < totalBytes && s < source.size() && d < destination.size()) {
    std::size_t bytes = std::min({source[s].sizeBytes - sUsed, destination[d].sizeBytes - dUsed, totalBytes - done});
    pieces.push_back({source[s].offsetBytes + sUsed, destination[d].offsetBytes + dUsed, bytes});
    done += bytes;
    sUsed += bytes;
    dUsed += bytes;
    if (sUsed == source[s].sizeBytes) ++s, sUsed = 0;
    if (dUsed == destination[d].sizeBytes) ++d, dUsed = 0;
  }
  return pieces;
}

}  // namespace onepass::rt
