// The stage-1 module pass. Registered at the start of clang's optimization
// pipeline (at every -O level) through -fpass-plugin, it runs once per
// translation unit, in the same and only compile pass as host code generation.
#include "DeviceModuleBuilder.h"
#include "HostRegistration.h"
#include "KernelEntries.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/Compression.h"

using namespace llvm;

namespace onepass::sscp {

namespace {

// Compression pays only when it saves a good share: decompressing costs time
// at every process start that launches a kernel of this image.
constexpr double kMinCompressionGain = 0.25;

class Stage1Pass : public PassInfoMixin<Stage1Pass> {
public:
  PreservedAnalyses run(Module &module, ModuleAnalysisManager &) {
    std::vector<KernelEntry> entries = findKernelEntries(module);
    if (entries.empty()) return PreservedAnalyses::all();  // a TU without kernels compiles as usual

    for (const KernelEntry &entry : entries)
      if (!entry.hasLayout) {
        module.getContext().diagnose(DiagnosticInfoGeneric(
            Twine("OnePass: kernel entry '") + entry.function->getName() +
            "' has no parameter layout; compile with onepass++ -fsycl-sscp (the frontend plugin did not run)"));
        return PreservedAnalyses::all();
      }

    Expected<DeviceModule> built = buildDeviceModule(module, entries);
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
        useCompressed ? image::writeImage(device.kernels, compressed.data(), compressed.size(), true, raw.size())
                      : image::writeImage(device.kernels, raw.data(), raw.size(), false, raw.size());
    embedKernelImage(module, entries, image);
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
