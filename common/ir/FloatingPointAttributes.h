// The floating-point environment of a kernel travels in the image as LLVM
// string attributes of its kernel function (the ones clang puts on every
// function for -ffast-math, -fdenormal-fp-math=… and the like). Stage 1
// copies them from the user's kernel onto the kernel function it creates; the
// JIT copies them onto the launch wrapper, which is what code generation
// reads (NVPTX's .ftz instructions, for one). Header-only: both sides link
// their own LLVM. It lives with the IR helpers (common/ir/), not with the image
// format: the image library stays free of LLVM headers.
#pragma once

#include "llvm/IR/Function.h"

namespace onepass::ir {

inline constexpr const char *kFloatingPointAttributes[] = {
    "denormal-fp-math",        "denormal-fp-math-f32", "no-infs-fp-math", "no-nans-fp-math",
    "no-signed-zeros-fp-math", "approx-func-fp-math",  "unsafe-fp-math",  "no-trapping-math"};

inline void copyFloatingPointAttributes(const llvm::Function &from, llvm::Function &to) {
  for (const char *name : kFloatingPointAttributes)
    if (from.hasFnAttribute(name)) to.addFnAttr(from.getFnAttribute(name));
}

}  // namespace onepass::ir
