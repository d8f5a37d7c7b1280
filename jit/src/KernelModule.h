// Loads one kernel of a kernel image as an LLVM module ready for a target:
// validates the image, decompresses and parses the bitcode, and keeps only the
// requested kernel (other kernels of the translation unit are dropped).
#pragma once

#include "GroupLocalMemory.h"
#include "KernelImage.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace onepass::jit {

struct KernelModule {
  std::unique_ptr<llvm::Module> module;
  llvm::Function *kernel = nullptr;
  image::KernelView info;   // the kernel's record (copied: the image may go away)
  std::string displayName;  // the kernel's name as users know it, for messages
  std::string sourceFile;   // where the kernel is, for messages ("" if unknown)
};

// A kernel image that exports SYCL_EXTERNAL functions (onepass_jit_library).
struct LibraryImage {
  const void *data = nullptr;
  uint64_t size = 0;
};

// Links into the kernel's module the definitions of the C++ functions it
// only declares (SYCL_EXTERNAL functions of other translation units and
// libraries), from the first of `libraries` that defines each, with what
// they reach; repeats for what those call. Then a C++ function still only
// declared is an error naming it and the kernel. (C library functions stay
// declarations: the targets provide them.)
llvm::Error linkExternalDefinitions(KernelModule &kernel, const std::vector<LibraryImage> &libraries);

// A kernel field whose value at this launch is compiled in (onepass_jit_constant).
struct FieldConstant {
  uint32_t field;
  uint32_t size;
  uint64_t value;
};

// The constant as the integer the field is, or an error if the field is not
// an integer field of that size.
llvm::Expected<uint64_t> checkedFieldConstant(const KernelModule &kernel, const FieldConstant &constant);

// The local memory the kernel allocates itself (common/ir/GroupLocalMemory.h):
// replaces each allocating call by `slot(builder at the call, its offset, the
// layout)` and returns the layout, or an error naming the kernel.
llvm::Expected<ir::GroupLocalLayout> placeGroupLocalMemory(
    const KernelModule &kernel,
    llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &, uint64_t offset, const ir::GroupLocalLayout &)> slot);

llvm::Expected<KernelModule> loadKernelModule(llvm::LLVMContext &ctx, const void *imageData, uint64_t imageSize,
                                              llvm::StringRef kernelSymbol);

// Erases internal functions nothing calls any more (other kernels of the
// translation unit, what the launch wrapper fully inlined).
void eraseUnusedFunctions(llvm::Module &module);

// What a program compiled with -fsanitize=... left in its kernels' device
// code: the functions' sanitize_address/thread/memory attributes always go
// (the JIT runs no sanitizer pass, and the inliner would not inline code
// with them into the target's entry, which has none); UBSan's checks (calls
// to `__ubsan_handle_*`) go unless `keepChecks` (the CPU device: its kernels
// call the program's UBSan runtime). A dropped check's failure path is left
// unreachable, so the optimizer removes the check.
void stripHostSanitizers(llvm::Module &module, bool keepChecks);

// Makes every defined function but `keep` internal, so optimization can drop
// what `keep` does not reach.
void internalizeAllBut(llvm::Module &module, const llvm::Function &keep);

}  // namespace onepass::jit
