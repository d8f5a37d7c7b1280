#pragma once

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace onepass::jit::spirv {

// SPIR-V has integers of 8, 16, 32 and 64 bits (wider ones need an FPGA
// extension no GPU or OpenCL device has), but kernels compute with wider
// ones: `__int128` products (mul_hi, mad_hi and mad_sat of 64-bit types) and
// the 65-bit trip counts the optimizer makes of loops. This rewrites every
// scalar integer of 65 to 128 bits in `fn` as a pair of i64 halves (low,
// high): constants, zext/sext/trunc, add, sub, mul, and/or/xor, shifts,
// comparisons, select, phi, freeze, 128-bit loads, stores and bitcasts, and
// the min/max/abs/ctlz/cttz/ctpop intrinsics, in every function of `module`;
// memory of such types (allocas, getelementptr over arrays of them) is
// addressed in bytes. Anything else on such an integer (division,
// conversions to floating point, calls, vectors of them) is an error naming
// the kernel and the operation.
llvm::Error splitWideIntegers(llvm::Module &module, llvm::StringRef kernelName);

// Whether `type` is, or holds (in a vector, array, struct or function
// signature), an integer of more than 64 bits.
bool typeHoldsWideIntegers(llvm::Type *type);

}  // namespace onepass::jit::spirv
