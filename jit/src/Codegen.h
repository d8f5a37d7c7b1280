// Target-independent steps every translator shares: target machines, the O3
// pipeline, object emission.
#pragma once

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <functional>
#include <memory>
#include <vector>

namespace onepass::jit {

// A target machine for this host's CPU (all its features, for vectorization).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createHostTargetMachine();

// A target machine for NVIDIA GPUs of compute capability `smVersion` (e.g.
// 90), emitting PTX of ISA `ptxVersion` (e.g. 90 for 9.0) or the newest below
// it that LLVM knows; 0: the lowest the architecture needs.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createNvptxTargetMachine(unsigned smVersion, unsigned ptxVersion);

// A target machine for SPIR-V in OpenCL's environment (spirv64).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createSpirvTargetMachine();

// A target machine for AMD GPUs of architecture `arch` (gfx942), HSA.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createAmdgcnTargetMachine(const std::string &arch);

// Sets the module's triple and data layout for `machine` (before linking
// anything into it).
void setTarget(llvm::Module &module, llvm::TargetMachine &machine);

// Stamps every defined function with the machine's CPU and features, so that
// code generation uses them and the inliner sees compatible functions. Call
// once everything (builtins, launch wrapper) is in the module.
// `preferredVectorBits` (x86): the vector width the vectorizer prefers; 0
// leaves it to the CPU's own tuning (512 bits on Zen 4).
void stampTargetAttributes(llvm::Module &module, llvm::TargetMachine &machine, unsigned preferredVectorBits = 256);

// Gives every defined function without a denormal mode of its own `from`'s
// (library code linked into a kernel follows the kernel's -fdenormal-fp-math).
void shareDenormalMode(llvm::Module &module, const llvm::Function &from);

// The standard O3 pipeline, with the target's cost model; `beforeVectorizer`
// adds function passes that run just before the loop vectorizer.
void optimize(llvm::Module &module, llvm::TargetMachine &machine,
              const std::function<void(llvm::FunctionPassManager &)> &beforeVectorizer = nullptr);

// Runs on `module` the pipeline `build` makes with `builder`, once the
// builder's analyses are registered.
void runPipeline(llvm::Module &module, llvm::PassBuilder &builder,
                 llvm::function_ref<llvm::ModulePassManager(llvm::PassBuilder &)> build);

// Code generation: `machine`'s passes, writing `type` (an object or assembly).
// For a machine of MachinePool, its pipeline of that type, built once.
llvm::Expected<std::vector<char>> emitFile(llvm::Module &module, llvm::TargetMachine &machine,
                                           llvm::CodeGenFileType type);

// A target machine's code-generation passes (a legacy pass manager, ~250
// passes for AMDGPU, whose building and tearing down cost a tenth of a small
// kernel's compile) kept for one module after another: LLVM's printers end
// each module by resetting their streamer, and each pass initializes itself
// per module. Used by one compile at a time (its machine's lease).
class CodegenPipeline {
public:
  static llvm::Expected<std::unique_ptr<CodegenPipeline>> create(llvm::TargetMachine &machine,
                                                                 llvm::CodeGenFileType type);
  llvm::Expected<std::vector<char>> run(llvm::Module &module);

private:
  CodegenPipeline() = default;
  llvm::SmallVector<char, 0> buffer_;
  llvm::raw_svector_ostream stream_{buffer_};
  llvm::legacy::PassManager passes_;
};

// Writes the module as text to $ONEPASS_DUMP_DIR/<name>.ll when that variable is set.
void dumpModuleIfRequested(const llvm::Module &module, llvm::StringRef name);
// The same for what code generation emitted: <dir>/<name><extension> (an
// object for llvm-objdump, or PTX).
void dumpObjectIfRequested(llvm::ArrayRef<char> object, llvm::StringRef name, llvm::StringRef extension = ".o");

}  // namespace onepass::jit
