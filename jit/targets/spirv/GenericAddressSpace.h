// Stage 1 leaves every pointer in the host's one address space, 0. In SPIR-V
// (LLVM's SPIR-V target, OpenCL's memory model) address space 0 is private
// memory (the Function storage class), 1 global, 2 constant, 3 local
// (work-group) and 4 generic, which points into global, local or private
// memory. A kernel's pointers may point into any of them, so this moves the
// whole module to the generic space: every pointer type in address space 0
// (also inside structs, arrays, vectors and function types) becomes generic;
// allocas stay private and are cast to generic where they are used; global
// variables of address space 0 move to the global space, cast to generic at
// their uses. InferAddressSpaces then turns what it can prove back into
// global, local or private accesses.
#pragma once

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace onepass::jit::spirv {

inline constexpr unsigned kPrivateSpace = 0;
inline constexpr unsigned kGlobalSpace = 1;
inline constexpr unsigned kLocalSpace = 3;
inline constexpr unsigned kGenericSpace = 4;

// Rewrites `module` as above. Functions whose type does not change (the
// kernel's entry, whose pointers are already global or local) stay the same
// llvm::Function objects; others are replaced by new ones of the same name.
llvm::Error moveToGenericAddressSpace(llvm::Module &module);

}  // namespace onepass::jit::spirv
