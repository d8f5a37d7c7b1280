// The dependency builder of one buffer (runtime-spec.md, "Dependencies"):
// two accesses conflict if their page ranges overlap and at least one of them
// writes; a command group depends on every earlier command group whose access
// conflicts with its own. Node is the handle of a command (an event in the
// runtime, a plain number in unit tests).
#pragma once

#include "DataRegion.h"

#include <algorithm>
#include <vector>

namespace onepass::rt {

template <typename Node> class AccessTracker {
public:
  struct Access {
    Box3 pages;
    bool writes = false;
    Node node;
  };

  // The earlier nodes an access of `pages` must wait for.
  std::vector<Node> conflicts(const Box3 &pages, bool writes) const {
    std::vector<Node> result;
    appendConflicts(pages, writes, result);
    return result;
  }
  // The same, appended to `out` (not repeating what it holds already).
  void appendConflicts(const Box3 &pages, bool writes, std::vector<Node> &out) const {
    for (const Access &a : accesses_)
      if ((writes || a.writes) && a.pages.overlaps(pages) && std::find(out.begin(), out.end(), a.node) == out.end())
        out.push_back(a.node);
  }

  // Records an access made after its conflicts(). A write forgets the accesses
  // it covers: it depends on all of them, so whatever would later conflict with
  // them conflicts with the write and waits for them through it.
  void record(const Box3 &pages, bool writes, Node node) {
    if (writes)
      accesses_.erase(
          std::remove_if(accesses_.begin(), accesses_.end(), [&](const Access &a) { return pages.contains(a.pages); }),
          accesses_.end());
    accesses_.push_back(Access{pages, writes, std::move(node)});
  }

  // Forgets the accesses whose nodes are finished (nothing waits on them).
  template <typename IsFinished> void forget(IsFinished isFinished) {
    auto kept = std::remove_if(accesses_.begin(), accesses_.end(), [&](const Access &a) { return isFinished(a.node); });
    if (kept != accesses_.end()) accesses_.erase(kept, accesses_.end());
  }

  // Every node still recorded (the buffer's destructor waits for all of them).
  std::vector<Node> nodes() const {
    std::vector<Node> result;
    for (const Access &a : accesses_)
      if (std::find(result.begin(), result.end(), a.node) == result.end()) result.push_back(a.node);
    return result;
  }
  std::size_t size() const { return accesses_.size(); }

private:
  std::vector<Access> accesses_;
};

}  // namespace onepass::rt
