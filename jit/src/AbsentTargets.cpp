// The LLVM targets OnePass's JIT does not include. lld (linked in for AMDGPU
// code objects) initializes every target this LLVM was built with at start-up
// (for LTO, which OnePass never asks of it); these register nothing, so only
// the JIT's own targets (x86, NVPTX, SPIR-V, AMDGPU) exist in the JIT.
// Generated from the link's undefined LLVMInitialize* symbols.
extern "C" {
void LLVMInitializeAArch64AsmParser() {}
void LLVMInitializeAArch64AsmPrinter() {}
void LLVMInitializeAArch64Target() {}
void LLVMInitializeAArch64TargetInfo() {}
void LLVMInitializeAArch64TargetMC() {}
void LLVMInitializeARMAsmParser() {}
void LLVMInitializeARMAsmPrinter() {}
void LLVMInitializeARMTarget() {}
void LLVMInitializeARMTargetInfo() {}
void LLVMInitializeARMTargetMC() {}
void LLVMInitializeAVRAsmParser() {}
void LLVMInitializeAVRAsmPrinter() {}
void LLVMInitializeAVRTarget() {}
void LLVMInitializeAVRTargetInfo() {}
void LLVMInitializeAVRTargetMC() {}
void LLVMInitializeBPFAsmParser() {}
void LLVMInitializeBPFAsmPrinter() {}
void LLVMInitializeBPFTarget() {}
void LLVMInitializeBPFTargetInfo() {}
void LLVMInitializeBPFTargetMC() {}
void LLVMInitializeHexagonAsmParser() {}
void LLVMInitializeHexagonAsmPrinter() {}
void LLVMInitializeHexagonTarget() {}
void LLVMInitializeHexagonTargetInfo() {}
void LLVMInitializeHexagonTargetMC() {}
void LLVMInitializeLanaiAsmParser() {}
void LLVMInitializeLanaiAsmPrinter() {}
void LLVMInitializeLanaiTarget() {}
void LLVMInitializeLanaiTargetInfo() {}
void LLVMInitializeLanaiTargetMC() {}
void LLVMInitializeLoongArchAsmParser() {}
void LLVMInitializeLoongArchAsmPrinter() {}
void LLVMInitializeLoongArchTarget() {}
void LLVMInitializeLoongArchTargetInfo() {}
void LLVMInitializeLoongArchTargetMC() {}
void LLVMInitializeM68kAsmParser() {}
void LLVMInitializeM68kAsmPrinter() {}
void LLVMInitializeM68kTarget() {}
void LLVMInitializeM68kTargetInfo() {}
void LLVMInitializeM68kTargetMC() {}
void LLVMInitializeMSP430AsmParser() {}
void LLVMInitializeMSP430AsmPrinter() {}
void LLVMInitializeMSP430Target() {}
void LLVMInitializeMSP430TargetInfo() {}
void LLVMInitializeMSP430TargetMC() {}
void LLVMInitializeMipsAsmParser() {}
void LLVMInitializeMipsAsmPrinter() {}
void LLVMInitializeMipsTarget() {}
void LLVMInitializeMipsTargetInfo() {}
void LLVMInitializeMipsTargetMC() {}
void LLVMInitializePowerPCAsmParser() {}
void LLVMInitializePowerPCAsmPrinter() {}
void LLVMInitializePowerPCTarget() {}
void LLVMInitializePowerPCTargetInfo() {}
void LLVMInitializePowerPCTargetMC() {}
void LLVMInitializeRISCVAsmParser() {}
void LLVMInitializeRISCVAsmPrinter() {}
void LLVMInitializeRISCVTarget() {}
void LLVMInitializeRISCVTargetInfo() {}
void LLVMInitializeRISCVTargetMC() {}
void LLVMInitializeSparcAsmParser() {}
void LLVMInitializeSparcAsmPrinter() {}
void LLVMInitializeSparcTarget() {}
void LLVMInitializeSparcTargetInfo() {}
void LLVMInitializeSparcTargetMC() {}
void LLVMInitializeSystemZAsmParser() {}
void LLVMInitializeSystemZAsmPrinter() {}
void LLVMInitializeSystemZTarget() {}
void LLVMInitializeSystemZTargetInfo() {}
void LLVMInitializeSystemZTargetMC() {}
void LLVMInitializeVEAsmParser() {}
void LLVMInitializeVEAsmPrinter() {}
void LLVMInitializeVETarget() {}
void LLVMInitializeVETargetInfo() {}
void LLVMInitializeVETargetMC() {}
void LLVMInitializeWebAssemblyAsmParser() {}
void LLVMInitializeWebAssemblyAsmPrinter() {}
void LLVMInitializeWebAssemblyTarget() {}
void LLVMInitializeWebAssemblyTargetInfo() {}
void LLVMInitializeWebAssemblyTargetMC() {}
void LLVMInitializeXCoreAsmPrinter() {}
void LLVMInitializeXCoreTarget() {}
void LLVMInitializeXCoreTargetInfo() {}
void LLVMInitializeXCoreTargetMC() {}
void LLVMInitializeXtensaAsmParser() {}
void LLVMInitializeXtensaAsmPrinter() {}
void LLVMInitializeXtensaTarget() {}
void LLVMInitializeXtensaTargetInfo() {}
void LLVMInitializeXtensaTargetMC() {}
}

// LLVM's LTO library registers the passes of statically linked plugins
// (Debian's LLVM lists Polly, which its static libraries do not include) when
// it builds an LTO pipeline, which lld never does for OnePass: an empty one.
#include "llvm/Plugins/PassPlugin.h"

llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "absent", "0", [](llvm::PassBuilder &) {}};
}
