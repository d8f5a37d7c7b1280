// Links x86-64 objects made by the CPU translator into the running process
// (ORC's LLJIT with JITLink) and resolves their launch functions.
#pragma once

#include "llvm/Support/Error.h"

#include <cstdint>

namespace onepass::jit {

llvm::Expected<void *> loadNativeObject(const void *object, uint64_t size, const char *symbol);

}  // namespace onepass::jit
