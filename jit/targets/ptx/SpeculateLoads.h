// GPU kernels: loads from global memory that only some work-items make (a
// tile's halo: `if (edge) tile[...] = in[...]`) become loads every work-item
// makes, of the real address where the condition holds and else of an
// address the kernel has already loaded unconditionally (the work-item's own
// element of the same buffer). Issued together right after that first load,
// a warp waits for one memory latency instead of one per branch; the stores
// stay conditional. (nvcc issues such loads predicated, up front; LLVM's
// NVPTX back end keeps each in its branch.)
//
// A load qualifies when:
// - the blocks leading to it are each reached from an always-executed block
//   through one conditional branch (their conditions, and its address, are
//   arithmetic on values known at the first load);
// - it reads the same kernel parameter's buffer as an unconditional load in
//   the entry block;
// - nothing between may write that buffer: the only writes allowed on the
//   way are to the kernel's local (shared) memory, which a kernel parameter
//   cannot point into; no calls, barriers or atomics.
#pragma once

#include "llvm/IR/Function.h"

namespace onepass::jit {

// Returns how many loads it made unconditional. Shared memory is any global
// in NVPTX's shared address space (3).
unsigned speculateGuardedLoads(llvm::Function &kernel);

}  // namespace onepass::jit
