// Stage 1, device side: from the host module, build the target-neutral device
// module holding only the kernels and what they reach, with one kernel
// function per entry whose parameters are the flattened fields of the kernel
// object (the neutral kernel ABI), and serialize it as bitcode.
#pragma once

#include "KernelEntries.h"
#include "KernelImage.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace onepass::sscp {

struct DeviceModule {
  std::vector<image::KernelDesc> kernels;  // parallel to the entries
  llvm::SmallVector<char, 0> bitcode;
  // The C++ functions the kernels call but this TU does not define (its
  // SYCL_EXTERNAL declarations in use), by mangled name.
  std::vector<std::string> imports;
};

// The specialization-constant keys each function reads (stage 1 folded its
// key builtin calls to them): a kernel uses those of the functions it reaches.
using SpecKeyUses = llvm::DenseMap<const llvm::Function *, llvm::SmallVector<uint64_t, 2>>;

// The device module of `entries` and of the SYCL_EXTERNAL functions
// `exports` (which keep their names and external linkage), or why it cannot
// be built.
llvm::Expected<DeviceModule> buildDeviceModule(const llvm::Module &host, const std::vector<KernelEntry> &entries,
                                               const std::vector<llvm::Function *> &exports,
                                               const SpecKeyUses &specKeyUses);

// The name of the device kernel function made for an entry.
std::string deviceKernelSymbol(const llvm::Function &entry);

}  // namespace onepass::sscp
