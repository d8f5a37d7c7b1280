// The work-item state of the CPU target, shared by the CPU builtin library
// (which reads it) and the CPU translator (which creates it in the launch loop
// and substitutes it for every __onepass_cpu_work_item() call after inlining).
#pragma once

#include <stdint.h>

namespace onepass::cpu {

struct WorkItemState {
  uint64_t globalId[3];
  uint64_t globalRange[3];
};

// Field offsets the translator writes, in 64-bit words.
inline constexpr unsigned kGlobalIdWord = 0;
inline constexpr unsigned kGlobalRangeWord = 3;
inline constexpr unsigned kStateWords = 6;

}  // namespace onepass::cpu

// Resolved by the CPU translator to the launch loop's state; never defined.
extern "C" onepass::cpu::WorkItemState *__onepass_cpu_work_item() noexcept;
