// The JIT driver: one pipeline for every target. It loads the kernel from its
// image, applies the launch's specialization (launch constants), links the
// target's builtin library, has the target wrap the kernel in its entry,
// inlines, lowers the work-item state, optimizes at O3 and emits the binary.
// A target (jit/targets/<name>/) is a Translator: it supplies only what
// differs (its target machine, builtin library, local memory, entry ABI,
// extra passes, output kind).
#pragma once

#include "BuiltinLibrary.h"
#include "KernelModule.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace onepass::jit {

// What the runtime knows about the launch that a binary is compiled for.
struct Specialization {
  std::vector<FieldConstant> constants;         // fields whose value is compiled in
  std::array<uint64_t, 3> localRange{0, 0, 0};  // an nd_range kernel's work-group range; 0s: any
  std::vector<LibraryImage> libraries;          // where SYCL_EXTERNAL functions it calls are defined
};

// The target's entry and the function inlined into it (the kernel, or what a
// target made of it, e.g. the CPU's resumable step of a barrier kernel).
struct Entry {
  llvm::Function *entry = nullptr;
  llvm::Function *body = nullptr;
};

class Translator {
public:
  virtual ~Translator() = default;
  // In messages ("CPU", "PTX") and in dump names (".sm_90" or "").
  virtual const char *name() const = 0;
  virtual std::string dumpSuffix() const { return ""; }
  // Whether kernels run in the program's own process (the CPU device): the
  // checks a program compiled with -fsanitize=undefined has in its kernels
  // then stay, calling the program's sanitizer runtime.
  virtual bool runsInHostProcess() const { return false; }
  // Rejects a kernel the target cannot run, before any work.
  virtual llvm::Error checkKernel(const KernelModule &) { return llvm::Error::success(); }
  virtual llvm::Expected<llvm::TargetMachine *> machine() = 0;
  virtual BuiltinTarget builtins() const = 0;
  // Whether the runtime launches hierarchical kernels' work-groups at their
  // size (HierarchicalLowering.h); else at one work-item.
  virtual bool hierarchicalGroupsAtSize() const { return false; }
  // The local memory the kernel allocates itself; before the builtins are
  // linked (a target's slots may call one).
  virtual llvm::Error placeGroupLocalMemory(KernelModule &kernel) = 0;
  // The target's entry ABI: builds the entry around the kernel (whose launch
  // constants the driver has already applied).
  virtual llvm::Expected<Entry> buildEntry(KernelModule &kernel, const Specialization &specialization) = 0;
  // Before the body is inlined into the entry (e.g. target attributes the
  // inliner needs to match).
  virtual void beforeInlining(KernelModule &, const Entry &) {}
  // After inlining and the work-item lowering, before the optimizer (library
  // code, target attributes).
  virtual llvm::Error beforeOptimizer(KernelModule &, llvm::Function &) { return llvm::Error::success(); }
  // Adds function passes to run just before the loop vectorizer (null: none).
  virtual std::function<void(llvm::FunctionPassManager &)> passesBeforeVectorizer() { return nullptr; }
  virtual llvm::Error afterOptimizer(KernelModule &, llvm::Function &) { return llvm::Error::success(); }
  virtual llvm::CodeGenFileType output() const = 0;
  // Code generation (the default: emitFile with output()); a target may
  // serialize it or mend what its backend emitted.
  virtual llvm::Expected<std::vector<char>> emit(llvm::Module &module, llvm::TargetMachine &machine);
  virtual const char *dumpExtension() const = 0;  // ".o", ".ptx"
};

// Compiles kernel `kernelSymbol` of the image for `translator`'s target.
llvm::Expected<std::vector<char>> compileKernel(const void *image, uint64_t imageSize, const char *kernelSymbol,
                                                const Specialization &specialization, Translator &translator);

// Replaces every use of the kernel's launch-constant parameters by their
// values (the parameters stay; their values are no longer read).
llvm::Error applyLaunchConstants(KernelModule &kernel, const std::vector<FieldConstant> &constants);

}  // namespace onepass::jit
