// The launch wrapper of a GPU target whose work-groups are the blocks of a
// grid (PTX, SPIR-V): every work-item is a hardware thread; the wrapper reads
// the thread's place in the grid through the target's own queries, fills the
// work-item state (work_item_abi.h) and calls the kernel. SYCL's last
// dimension is the grid's fastest axis (axis 0: CUDA's x, OpenCL's dimension
// 0), so adjacent work-items are adjacent threads.
#pragma once

#include "KernelImage.h"
#include "KernelModule.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <functional>
#include <vector>

namespace onepass::jit {

// How the target reads a thread's place, per grid axis, as 64-bit values.
struct GridQueries {
  std::function<llvm::Value *(llvm::IRBuilder<> &, unsigned axis)> localId, localRange, groupId, groupRange;
};

struct GridEntryAbi {
  const char *name = nullptr;
  llvm::CallingConv::ID callingConvention = llvm::CallingConv::C;
  // The entry's parameter for a kernel parameter (null: the same type); a
  // pointer of another address space is cast to the kernel's, an integer
  // for a pointer becomes a pointer of `integerPointerSpace` first.
  std::function<llvm::Type *(llvm::Argument &)> parameterType;
  unsigned integerPointerSpace = 0;
  // Parameters after the range (the entry's own, e.g. local memory).
  std::vector<llvm::Type *> extraParameters;
};

// Whether an entry takes the global range after the kernel's fields: a range
// kernel's grid may overhang its range (an nd_range kernel's groups tile it
// exactly, a single_task has none), so its entry gets the range, one 64-bit
// value per dimension in SYCL order, and threads past it return at once.
bool gridEntryTakesRange(const image::KernelView &info);

// The local memory the kernel allocates itself (group_local_memory), as one
// module-scope variable `name` in address space `space` (a GPU's work-group
// memory), with no initial contents, of `linkage`.
llvm::Error placeGroupLocalVariable(KernelModule &kernel, llvm::StringRef name, unsigned space,
                                    llvm::GlobalValue::LinkageTypes linkage = llvm::GlobalValue::InternalLinkage);

// Builds the entry around `kernel` (not yet inlined into it).
llvm::Function *buildGridEntry(llvm::Module &module, llvm::Function &kernel, const image::KernelView &info,
                               const GridEntryAbi &abi, const GridQueries &queries);

}  // namespace onepass::jit
