// Unit tests of the buffer runtime's pure parts: the page tracker
// (DataRegion) and the dependency builder (AccessTracker).
#include <catch2/catch.hpp>

#include "buffer/AccessTracker.h"
#include "buffer/DataRegion.h"

#include <algorithm>

using onepass::rt::AccessTracker;
using onepass::rt::Box3;
using onepass::rt::ByteSpan;
using onepass::rt::DataRegion;
using onepass::rt::TransferPlan;

namespace {
Box3 box(std::array<std::size_t, 3> begin, std::array<std::size_t, 3> end) { return Box3{begin, end}; }
std::size_t totalBytes(const std::vector<ByteSpan> &spans) {
  std::size_t total = 0;
  for (const ByteSpan &s : spans) total += s.sizeBytes;
  return total;
}
}  // namespace

TEST_CASE("pages of a ranged access: every page the range touches, partial ones included", "[pages]") {
  DataRegion region({1, 1, 100}, 4, {1, 1, 10});  // 10 pages of 10 elements
  REQUIRE(region.pageCount() == 10);
  REQUIRE(region.pageRange(box({0, 0, 0}, {1, 1, 100})) == box({0, 0, 0}, {1, 1, 10}));
  REQUIRE(region.pageRange(box({0, 0, 10}, {1, 1, 20})) == box({0, 0, 1}, {1, 1, 2}));  // exactly one page
  REQUIRE(region.pageRange(box({0, 0, 9}, {1, 1, 11})) == box({0, 0, 0}, {1, 1, 2}));   // straddles two
  REQUIRE(region.pageRange(box({0, 0, 95}, {1, 1, 100})) == box({0, 0, 9}, {1, 1, 10}));

  DataRegion uneven({1, 1, 25}, 1, {1, 1, 10});  // the last page is partial
  REQUIRE(uneven.pageCount() == 3);
  REQUIRE(uneven.pageRange(box({0, 0, 21}, {1, 1, 25})) == box({0, 0, 2}, {1, 1, 3}));

  DataRegion grid({1, 8, 8}, 4, {1, 4, 4});  // 2x2 pages
  REQUIRE(grid.pageRange(box({0, 3, 3}, {1, 5, 5})) == box({0, 0, 0}, {1, 2, 2}));
  REQUIRE(grid.pageRange(box({0, 4, 0}, {1, 8, 4})) == box({0, 1, 0}, {1, 2, 1}));
}

TEST_CASE("the default page cuts the outermost dimension; halves land on disjoint pages", "[pages]") {
  DataRegion big({1, 1, 1 << 20}, 4, {0, 0, 0});
  REQUIRE(big.pageCount() == DataRegion::kMaxDefaultPages);
  Box3 lower = big.pageRange(box({0, 0, 0}, {1, 1, 1 << 19}));
  Box3 upper = big.pageRange(box({0, 0, 1 << 19}, {1, 1, 1 << 20}));
  REQUIRE_FALSE(lower.overlaps(upper));
  // A small buffer is one page: tracking finer than 64 KiB does not pay.
  DataRegion small({1, 1, 1000}, 4, {0, 0, 0});
  REQUIRE(small.pageCount() == 1);
  // 2-D: rows are cut, each page spans whole rows.
  DataRegion rows({1, 4096, 1024}, 4, {0, 0, 0});
  REQUIRE(rows.pageExtent()[2] == 1024);
  REQUIRE(rows.pageCount() == DataRegion::kMaxDefaultPages);
}

TEST_CASE("a never-initialized buffer needs no transfer", "[transfers]") {
  DataRegion region({1, 1, 100}, 4, {1, 1, 10});
  unsigned host = region.addAllocation(), gpu = region.addAllocation();
  REQUIRE(region.planTransfers(gpu, region.wholePageRange(), host).empty());
  region.markTransferred(gpu, region.wholePageRange());
  REQUIRE_FALSE(region.isCurrent(gpu, {0, 0, 0}));  // nothing was there to transfer
}

TEST_CASE("transfers move only outdated pages, merged into one copy when contiguous", "[transfers]") {
  DataRegion region({1, 1, 100}, 4, {1, 1, 10});
  unsigned host = region.addAllocation(), gpu = region.addAllocation();
  region.markWritten(host, region.wholePageRange());

  std::vector<TransferPlan> all = region.planTransfers(gpu, region.wholePageRange(), host);
  REQUIRE(all.size() == 1);
  REQUIRE(all[0].source == host);
  REQUIRE(all[0].spans.size() == 1);
  REQUIRE(all[0].spans[0].offsetBytes == 0);
  REQUIRE(all[0].spans[0].sizeBytes == 400);
  region.markTransferred(gpu, region.wholePageRange());
  REQUIRE(region.planTransfers(gpu, region.wholePageRange(), host).empty());  // all current now

  // The host writes pages 2 and 3: only they go back to the GPU, as one span.
  region.markWritten(host, box({0, 0, 2}, {1, 1, 4}));
  REQUIRE_FALSE(region.isCurrent(gpu, {0, 0, 2}));
  REQUIRE(region.isCurrent(gpu, {0, 0, 1}));
  std::vector<TransferPlan> some = region.planTransfers(gpu, region.wholePageRange(), host);
  REQUIRE(some.size() == 1);
  REQUIRE(some[0].spans.size() == 1);
  REQUIRE(some[0].spans[0].offsetBytes == 80);
  REQUIRE(some[0].spans[0].sizeBytes == 80);

  // Pages 2 and 5 outdated: two spans, nothing in between.
  region.markTransferred(gpu, region.wholePageRange());
  region.markWritten(host, box({0, 0, 2}, {1, 1, 3}));
  region.markWritten(host, box({0, 0, 5}, {1, 1, 6}));
  std::vector<TransferPlan> two = region.planTransfers(gpu, region.wholePageRange(), host);
  REQUIRE(two.size() == 1);
  REQUIRE(two[0].spans.size() == 2);
  REQUIRE(totalBytes(two[0].spans) == 80);
  // An access of page 5 alone moves page 5 alone.
  std::vector<TransferPlan> one = region.planTransfers(gpu, box({0, 0, 5}, {1, 1, 6}), host);
  REQUIRE(one.size() == 1);
  REQUIRE(one[0].spans.size() == 1);
  REQUIRE(one[0].spans[0].offsetBytes == 200);
}

TEST_CASE("pages current on several allocations come from the preferred one, others from where they are",
          "[transfers]") {
  DataRegion region({1, 1, 40}, 1, {1, 1, 10});
  unsigned host = region.addAllocation(), a = region.addAllocation(), b = region.addAllocation();
  region.markWritten(a, box({0, 0, 0}, {1, 1, 2}));  // pages 0-1 on a only
  region.markWritten(host, box({0, 0, 2}, {1, 1, 4}));
  region.markTransferred(a, box({0, 0, 2}, {1, 1, 4}));  // pages 2-3 on host and a
  std::vector<TransferPlan> plans = region.planTransfers(b, region.wholePageRange(), host);
  REQUIRE(plans.size() == 2);
  REQUIRE(plans[0].source == host);
  REQUIRE(plans[0].spans.size() == 1);
  REQUIRE(plans[0].spans[0].offsetBytes == 20);
  REQUIRE(plans[1].source == a);
  REQUIRE(plans[1].spans[0].offsetBytes == 0);
  REQUIRE(plans[1].spans[0].sizeBytes == 20);
  // A write elsewhere outdates the page everywhere but there.
  region.markWritten(b, box({0, 0, 3}, {1, 1, 4}));
  REQUIRE_FALSE(region.isCurrent(host, {0, 0, 3}));
  REQUIRE_FALSE(region.isCurrent(a, {0, 0, 3}));
  REQUIRE(region.isCurrent(b, {0, 0, 3}));
}

TEST_CASE("2-D transfers merge rows into rectangles and full rows into one span", "[transfers]") {
  DataRegion region({1, 8, 8}, 4, {1, 2, 4});  // 4x2 pages of 2 rows x 4 columns
  unsigned host = region.addAllocation(), gpu = region.addAllocation();
  region.markWritten(host, region.wholePageRange());
  // The left half (columns 0-3) of rows 2-5: pages (1,0) and (2,0) merge into one box.
  std::vector<TransferPlan> left = region.planTransfers(gpu, box({0, 1, 0}, {1, 3, 1}), host);
  REQUIRE(left.size() == 1);
  REQUIRE(left[0].elements.size() == 1);
  REQUIRE(left[0].elements[0] == box({0, 2, 0}, {1, 6, 4}));
  REQUIRE(left[0].spans.size() == 4);  // one per row: columns 4-7 are not copied
  REQUIRE(totalBytes(left[0].spans) == 4 * 4 * 4);
  // Rows 2-5 whole: one contiguous span.
  std::vector<TransferPlan> rows = region.planTransfers(gpu, box({0, 1, 0}, {1, 3, 2}), host);
  REQUIRE(rows.size() == 1);
  REQUIRE(rows[0].spans.size() == 1);
  REQUIRE(rows[0].spans[0].offsetBytes == 2 * 8 * 4);
  REQUIRE(rows[0].spans[0].sizeBytes == 4 * 8 * 4);
}

TEST_CASE("3-D transfers of whole planes are one span", "[transfers]") {
  DataRegion region({4, 3, 5}, 8, {1, 3, 5});  // one page per plane
  unsigned host = region.addAllocation(), gpu = region.addAllocation();
  region.markWritten(host, region.wholePageRange());
  std::vector<TransferPlan> plans = region.planTransfers(gpu, box({1, 0, 0}, {3, 1, 1}), host);
  REQUIRE(plans.size() == 1);
  REQUIRE(plans[0].elements.size() == 1);
  REQUIRE(plans[0].spans.size() == 1);
  REQUIRE(plans[0].spans[0].offsetBytes == 1 * 15 * 8);
  REQUIRE(plans[0].spans[0].sizeBytes == 2 * 15 * 8);
}

// --- the dependency builder ----------------------------------------------------

namespace {
std::vector<int> sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}
}  // namespace

TEST_CASE("conflicts: overlapping page ranges with at least one writer, for every pair of modes", "[dependencies]") {
  Box3 left = box({0, 0, 0}, {1, 1, 2}), right = box({0, 0, 2}, {1, 1, 4}), middle = box({0, 0, 1}, {1, 1, 3});
  struct Case {
    bool firstWrites, secondWrites;
    Box3 second;
    bool depends;
  };
  const Case cases[] = {
      {false, false, left, false}, {false, true, left, true},     {true, false, left, true},
      {true, true, left, true},    {false, false, middle, false}, {false, true, middle, true},
      {true, false, middle, true}, {true, true, middle, true},    {false, false, right, false},
      {false, true, right, false}, {true, false, right, false},   {true, true, right, false},
  };
  for (const Case &c : cases) {
    AccessTracker<int> tracker;
    tracker.record(left, c.firstWrites, 1);
    std::vector<int> deps = tracker.conflicts(c.second, c.secondWrites);
    INFO("first writes " << c.firstWrites << ", second writes " << c.secondWrites << ", second pages "
                         << c.second.begin[2] << "-" << c.second.end[2]);
    REQUIRE(deps == (c.depends ? std::vector<int>{1} : std::vector<int>{}));
  }
}

TEST_CASE("a writer depends on every overlapping reader; readers only on the writer", "[dependencies]") {
  AccessTracker<int> tracker;
  Box3 all = box({0, 0, 0}, {1, 1, 4});
  tracker.record(all, true, 1);  // write everything
  REQUIRE(tracker.conflicts(box({0, 0, 0}, {1, 1, 1}), false) == std::vector<int>{1});
  tracker.record(box({0, 0, 0}, {1, 1, 1}), false, 2);                         // read page 0
  tracker.record(box({0, 0, 3}, {1, 1, 4}), false, 3);                         // read page 3
  REQUIRE(sorted(tracker.conflicts(all, false)) == std::vector<int>{1});       // readers don't conflict
  REQUIRE(sorted(tracker.conflicts(all, true)) == std::vector<int>{1, 2, 3});  // a writer waits for all
  REQUIRE(sorted(tracker.conflicts(box({0, 0, 1}, {1, 1, 3}), true)) == std::vector<int>{1});
}

TEST_CASE("a write covering earlier accesses replaces them; ordering stays transitive", "[dependencies]") {
  AccessTracker<int> tracker;
  tracker.record(box({0, 0, 0}, {1, 1, 2}), false, 1);
  tracker.record(box({0, 0, 2}, {1, 1, 4}), true, 2);
  tracker.record(box({0, 0, 0}, {1, 1, 4}), true, 3);  // depends on 1 and 2, covers both
  REQUIRE(tracker.size() == 1);
  REQUIRE(tracker.conflicts(box({0, 0, 0}, {1, 1, 1}), false) == std::vector<int>{3});
  // A read covering earlier accesses replaces nothing: a later writer must wait for both readers.
  tracker.record(box({0, 0, 0}, {1, 1, 4}), false, 4);
  tracker.record(box({0, 0, 0}, {1, 1, 4}), false, 5);
  REQUIRE(sorted(tracker.conflicts(box({0, 0, 0}, {1, 1, 4}), true)) == std::vector<int>{3, 4, 5});
  tracker.forget([](int node) { return node <= 4; });
  REQUIRE(tracker.conflicts(box({0, 0, 0}, {1, 1, 4}), true) == std::vector<int>{5});
  REQUIRE(tracker.nodes() == std::vector<int>{5});
}
