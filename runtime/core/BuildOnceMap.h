// A map whose values are built once per key, outside the map's lock: the same
// key builds once while other threads asking for it wait, different keys
// build concurrently. The kernel provider keeps the loaded kernels in one.
#pragma once

#include <map>
#include <memory>
#include <mutex>

namespace onepass::rt {

template <typename Key, typename Value> class BuildOnceMap {
public:
  // Returns the value of `key`, calling build(value) first if it is new.
  // Values are never removed, so the reference stays valid.
  template <typename Build> Value &get(const Key &key, Build build) {
    std::shared_ptr<Slot> slot;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      std::shared_ptr<Slot> &entry = slots_[key];
      if (!entry) entry = std::make_shared<Slot>();
      slot = entry;
    }
    std::call_once(slot->once, [&] { build(slot->value); });
    return slot->value;
  }

private:
  struct Slot {
    std::once_flag once;
    Value value;
  };
  std::mutex mutex_;
  std::map<Key, std::shared_ptr<Slot>> slots_;
};

}  // namespace onepass::rt
