// The NVPTX target (stage 2): wraps a kernel in a PTX kernel entry that
// computes its work-item ids from the CUDA thread and block indices (the last
// SYCL dimension maps to x, so adjacent work-items are adjacent threads),
// returns early for threads past the global range, inlines the kernel, and
// emits PTX for the device's sm_XX.
#pragma once

#include "sycl/detail/onepass_abi.hpp"

#include "Driver.h"
#include "PtxMath.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace onepass::jit {

// The PTX entry's name. Its parameters are the kernel's flattened fields,
// then the global range as three u64 values in SYCL dimension order.
inline constexpr const char *kPtxKernelSymbol = ONEPASS_ABI_PTX_KERNEL;

struct PtxTarget {
  unsigned smVersion = 0;   // compute capability, 10 * major + minor (90 for sm_90)
  unsigned ptxVersion = 0;  // the newest PTX ISA the driver accepts (90 for 9.0); 0: the lowest sm_XX needs
  LibdeviceLocation libdevice;
};

// The NVPTX translator for the JIT driver (Driver.h): PTX text for `target`.
std::unique_ptr<Translator> makePtxTranslator(const PtxTarget &target);

// The one-time work of a process's first PTX compile, done ahead of it (see
// onepass_jit_warm_up). Stops early once a real compile has begun.
void warmUpPtx(const PtxTarget &target);

}  // namespace onepass::jit
