// The stage-1 module pass. Registered at the start of clang's optimization
// pipeline (at every -O level) through -fpass-plugin, it runs once per
// translation unit, in the same and only compile pass as host code generation.
#include "DeviceModuleBuilder.h"
#include "HostRegistration.h"
#include "KernelEntries.h"
#include "sycl/detail/onepass_abi.hpp"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/Compression.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace onepass::sscp {

namespace {

// Compression pays only when it saves a good share: decompressing costs time
// at every process start that launches a kernel of this image.
constexpr double kMinCompressionGain = 0.25;

// The host code references the functions the kernels import (SYCL_EXTERNAL,
// defined in another TU), so the linker takes the object that defines them
// out of a static library, bringing its kernel image (which exports their
// device code) along; a function defined nowhere is then a link error.
void referenceImports(Module &module, const std::vector<std::string> &imports) {
  std::vector<Constant *> used;
  for (const std::string &name : imports)
    if (Function *fn = module.getFunction(name)) used.push_back(fn);
  if (used.empty()) return;
  auto *type = ArrayType::get(PointerType::get(module.getContext(), 0), used.size());
  auto *table = new GlobalVariable(module, type, true, GlobalValue::InternalLinkage, ConstantArray::get(type, used),
                                   "__onepass_imports");
  appendToCompilerUsed(module, {table});
}

// Each call of the specialization-constant key builtin becomes the 64-bit
// FNV-1a hash of its argument's name (a specialization_id variable; mangled,
// so instances of a variable template differ), in this module before the
// device module is cut out of it: host and device code get the same keys.
// `uses` gets the keys each function reads.
bool foldSpecializationKeys(Module &module, SpecKeyUses &uses) {
  Function *builtin = module.getFunction(ONEPASS_ABI_SPEC_KEY);
  if (!builtin) return false;
  bool changed = false;
  for (User *user : make_early_inc_range(builtin->users())) {
    auto *call = dyn_cast<CallBase>(user);
    if (!call || call->getCalledOperand() != builtin || call->arg_size() != 1) continue;
    auto *variable = dyn_cast<GlobalValue>(call->getArgOperand(0)->stripPointerCasts());
    if (!variable) continue;
    uint64_t hash = 1469598103934665603ull;
    for (unsigned char c : variable->getName()) hash = (hash ^ c) * 1099511628211ull;
    uses[call->getFunction()].push_back(hash);
    call->replaceAllUsesWith(ConstantInt::get(call->getType(), hash));
    call->eraseFromParent();
    changed = true;
  }
  if (builtin->use_empty()) builtin->eraseFromParent();
  return changed;
}

class Stage1Pass : public PassInfoMixin<Stage1Pass> {
public:
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    SpecKeyUses specKeyUses;
    const bool keysFolded = foldSpecializationKeys(module, specKeyUses);
    std::vector<KernelEntry> entries = findKernelEntries(module);
    std::vector<Function *> exports = findSyclExternalDefinitions(module);
    // A TU without kernels or SYCL_EXTERNAL functions compiles as usual.
    if (entries.empty() && exports.empty()) return keysFolded ? PreservedAnalyses::none() : PreservedAnalyses::all();

    for (const KernelEntry &entry : entries)
      if (!entry.hasLayout) {
        module.getContext().diagnose(DiagnosticInfoGeneric(
            Twine("OnePass: kernel entry '") + entry.function->getName() +
            "' has no parameter layout; compile with onepass++ -fsycl-sscp (the frontend plugin did not run)"));
        return PreservedAnalyses::all();
      }

    Expected<DeviceModule> built = buildDeviceModule(module, entries, exports, specKeyUses);
    if (!built) {
      module.getContext().diagnose(DiagnosticInfoGeneric(Twine("OnePass: ") + toString(built.takeError())));
      return PreservedAnalyses::all();
    }
    DeviceModule &device = *built;

    ArrayRef<uint8_t> raw(reinterpret_cast<const uint8_t *>(device.bitcode.data()), device.bitcode.size());
    SmallVector<uint8_t, 0> compressed;
    bool useCompressed = false;
    if (compression::zstd::isAvailable()) {
      compression::zstd::compress(raw, compressed, compression::zstd::BestSpeedCompression);
      useCompressed = compressed.size() < raw.size() * (1.0 - kMinCompressionGain);
    }
    std::vector<uint8_t> image =
        useCompressed ? image::writeImage(device.kernels, compressed.data(), compressed.size(), true, raw.size(),
                                          !exports.empty())
                      : image::writeImage(device.kernels, raw.data(), raw.size(), false, raw.size(), !exports.empty());
    embedKernelImage(module, entries, image);
    referenceImports(module, device.imports);
    return PreservedAnalyses::none();
  }

  static bool isRequired() { return true; }  // also at -O0 and for optnone functions
};

}  // namespace

}  // namespace onepass::sscp

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "onepass-stage1", "0.1", [](PassBuilder &builder) {
            builder.registerPipelineStartEPCallback(
                [](ModulePassManager &passes, OptimizationLevel) { passes.addPass(onepass::sscp::Stage1Pass()); });
          }};
}
