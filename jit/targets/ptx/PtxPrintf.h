// printf in PTX kernels (stage 2, NVPTX): sycl::ext::oneapi::experimental::
// printf reaches the JIT as a variadic call of the builtin __onepass_printf
// (include/sycl/ext/oneapi/experimental/builtins.hpp). CUDA's device printf is
// the PTX system call `vprintf(format, arguments)`, whose arguments are one
// buffer holding the call's (already promoted) values, each at its natural
// alignment; the driver prints the text when the host next synchronizes with
// the kernel.
#pragma once

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace onepass::jit {

// CUDA's device printf: the name the PTX the JIT makes may call.
inline constexpr const char kVprintfSymbol[] = "vprintf";

// Rewrites every call of __onepass_printf into a vprintf call on a private
// buffer of its arguments. An argument vprintf cannot take (an aggregate, a
// vector, a floating-point type wider than double) is an error naming the
// kernel.
llvm::Error lowerPrintfToVprintf(llvm::Module &module, llvm::StringRef kernelName);

}  // namespace onepass::jit
