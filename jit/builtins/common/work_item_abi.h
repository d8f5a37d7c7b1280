// The work-item state shared by the builtin libraries (which read it) and the
// translators (which create it in the kernel's launch wrapper and substitute
// it for every __onepass_work_item() call once everything is inlined). The
// wrapper computes the ids its own way per target: loop counters on the CPU,
// thread and block indices on a GPU; SROA then turns the state into SSA values.
#pragma once

#include "sycl/detail/onepass_abi.hpp"

#include <stdint.h>

namespace onepass::builtins {

// The local and group fields are set for nd_range kernels only (nothing else
// can query them).
struct WorkItemState {
  uint64_t globalId[3];
  uint64_t globalRange[3];
  uint64_t localId[3];
  uint64_t localRange[3];
  uint64_t groupId[3];
  uint64_t groupRange[3];
  uint64_t localMemory;   // CPU, nd_range kernels: the address of the work-group's local memory
  uint64_t groupScratch;  // CPU, nd_range kernels: the work-group algorithms' scratch (8 bytes per work-item)
};

// Field offsets the translators write, in 64-bit words.
inline constexpr unsigned kGlobalIdWord = 0;
inline constexpr unsigned kGlobalRangeWord = 3;
inline constexpr unsigned kLocalIdWord = 6;
inline constexpr unsigned kLocalRangeWord = 9;
inline constexpr unsigned kGroupIdWord = 12;
inline constexpr unsigned kGroupRangeWord = 15;
inline constexpr unsigned kLocalMemoryWord = 18;
inline constexpr unsigned kGroupScratchWord = 19;
inline constexpr unsigned kStateWords = 20;

}  // namespace onepass::builtins

// Resolved by the translator to the launch wrapper's state; never defined.
extern "C" onepass::builtins::WorkItemState *__onepass_work_item() noexcept __asm__(ONEPASS_ABI_WORK_ITEM);
