// The per-target builtin bitcode libraries (jit/builtins/<target>), compiled
// with clang at project build time and installed next to the JIT library in
// lib/onepass/bitcode/. Loaded once per process, linked into each kernel.
#pragma once

#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace onepass::jit {

enum class BuiltinTarget { Cpu, Ptx, Spirv, Amdgcn };

// Links what `module` uses of the bitcode library `library` (read lazily, only
// those functions); `description` names it in errors.
llvm::Error linkBitcodeLibrary(llvm::Module &module, llvm::MemoryBufferRef library, llvm::StringRef description);

// Links the library of `target` into `module` (only what the module needs).
llvm::Error linkBuiltins(llvm::Module &module, BuiltinTarget target);

// Where the JIT library's private files live (the directory of libonepass-jit.so).
const std::string &jitLibraryDirectory();

}  // namespace onepass::jit
