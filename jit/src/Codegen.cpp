#include "Codegen.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>
#include <mutex>

using namespace llvm;

namespace onepass::jit {

namespace {
void initializeTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

std::string hostFeatures() {
  std::string features;
  for (const auto &feature : sys::getHostCPUFeatures()) {
    if (!features.empty()) features += ',';
    features += (feature.second ? "+" : "-") + feature.first().str();
  }
  return features;
}
}  // namespace

Expected<std::unique_ptr<TargetMachine>> createHostTargetMachine() {
  initializeTargets();
  Triple triple(sys::getProcessTriple());
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target) return createStringError(inconvertibleErrorCode(), "no LLVM target for this host: " + error);
  TargetOptions options;
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      triple, sys::getHostCPUName(), hostFeatures(), options, Reloc::PIC_, CodeModel::Small, CodeGenOptLevel::Aggressive));
  if (!machine) return createStringError(inconvertibleErrorCode(), "cannot create a target machine for this host");
  return machine;
}

Expected<std::unique_ptr<TargetMachine>> createNvptxTargetMachine(unsigned smVersion) {
  initializeTargets();
  Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target) return createStringError(inconvertibleErrorCode(), "no NVPTX target in this LLVM: " + error);
  TargetOptions options;
  std::string cpu = "sm_" + std::to_string(smVersion);
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(triple, cpu, "", options, std::nullopt,
                                                                     std::nullopt, CodeGenOptLevel::Aggressive));
  if (!machine) return createStringError(inconvertibleErrorCode(), "cannot create an NVPTX target machine for " + cpu);
  return machine;
}

void setTarget(Module &module, TargetMachine &machine) {
  module.setTargetTriple(machine.getTargetTriple());
  module.setDataLayout(machine.createDataLayout());
}

void stampTargetAttributes(Module &module, TargetMachine &machine) {
  for (Function &fn : module.functions()) {
    if (fn.isDeclaration()) continue;
    fn.addFnAttr("target-cpu", machine.getTargetCPU());
    fn.addFnAttr("target-features", machine.getTargetFeatureString());
    if (machine.getTargetTriple().isX86()) fn.addFnAttr("prefer-vector-width", "256");
  }
}

void optimize(Module &module, TargetMachine &machine) {
  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager cgscc;
  ModuleAnalysisManager modules;
  PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  tuning.LoopInterleaving = false;
  PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  ModulePassManager passes = builder.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  passes.run(module, modules);
}

Expected<std::vector<char>> emitFile(Module &module, TargetMachine &machine, CodeGenFileType type) {
  SmallVector<char, 0> buffer;
  raw_svector_ostream stream(buffer);
  legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, stream, nullptr, type))
    return createStringError(inconvertibleErrorCode(), "the target cannot emit this kind of file");
  passes.run(module);
  return std::vector<char>(buffer.begin(), buffer.end());
}

void dumpModuleIfRequested(const Module &module, StringRef name) {
  static const char *directory = std::getenv("ONEPASS_DUMP_DIR");
  if (!directory || !*directory) return;
  std::error_code ec;
  raw_fd_ostream out((Twine(directory) + "/" + name + ".ll").str(), ec, sys::fs::OF_Text);
  if (!ec) module.print(out, nullptr);
}

}  // namespace onepass::jit
