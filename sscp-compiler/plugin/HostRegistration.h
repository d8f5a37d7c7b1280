// Stage 1, host side: embeds the kernel image in the host module, registers it
// with the runtime from a static constructor, and replaces the host bodies of
// the kernel entries (their addresses are the kernels' identities; their code
// must never run on the host).
#pragma once

#include "KernelEntries.h"

#include "llvm/IR/Module.h"

#include <cstdint>
#include <vector>

namespace onepass::sscp {

void embedKernelImage(llvm::Module &host, const std::vector<KernelEntry> &entries, const std::vector<uint8_t> &image);

}  // namespace onepass::sscp
