#include "CpuTranslator.h"
#include "sycl/detail/onepass_abi.hpp"

#include "BarrierLowering.h"
#include "BuiltinLibrary.h"
#include "Codegen.h"
#include "KernelModule.h"
#include "SharedObjectLink.h"
#include "ParallelLoops.h"
#include "WorkItemLoops.h"
#include "WorkItemLowering.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace llvm;

namespace onepass::jit {

namespace {

// The local memory the kernel allocates itself (placeGroupLocalMemory): its
// slots lie just before the local accessors' memory, which
// __onepass_local_memory() points to, so each slot is that address minus a
// constant. Returns the bytes the launcher adds (a multiple of 64).
Expected<uint64_t> allocateGroupLocal(const KernelModule &kernel) {
  Module &module = *kernel.module;
  auto bytesOf = [](const ir::GroupLocalLayout &layout) {
    return alignTo(layout.total, std::max<uint64_t>(64, layout.alignment));
  };
  FunctionCallee localMemory =
      module.getOrInsertFunction(ONEPASS_ABI_LOCAL_MEMORY, PointerType::get(module.getContext(), 0));
  Expected<ir::GroupLocalLayout> layout =
      placeGroupLocalMemory(kernel, [&](IRBuilder<> &at, uint64_t offset, const ir::GroupLocalLayout &layout) {
        return at.CreateConstGEP1_64(at.getInt8Ty(), at.CreateCall(localMemory),
                                     static_cast<int64_t>(offset) - static_cast<int64_t>(bytesOf(layout)));
      });
  if (!layout) return layout.takeError();
  return layout->offsets.empty() ? 0 : bytesOf(*layout);
}

}  // namespace

namespace {

class CpuTranslator final : public Translator {
public:
  const char *name() const override { return "CPU"; }
  bool runsInHostProcess() const override { return true; }

  Expected<TargetMachine *> machine() override {
    if (!machine_) {
      Expected<std::unique_ptr<TargetMachine>> created = createHostTargetMachine();
      if (!created) return created.takeError();
      machine_ = std::move(*created);
    }
    return machine_.get();
  }

  BuiltinTarget builtins() const override { return BuiltinTarget::Cpu; }

  Error placeGroupLocalMemory(KernelModule &kernel) override {
    Expected<uint64_t> bytes = allocateGroupLocal(kernel);
    if (!bytes) return bytes.takeError();
    groupLocalBytes_ = *bytes;
    return Error::success();
  }

  // A kernel with barriers runs as a resumable step per work-item. Stage 1
  // knows which kernels call one; the CPU's sub-group builtins add theirs
  // (jit/builtins/cpu/group.cpp), and exchange values through the group
  // scratch.
  Expected<Entry> buildEntry(KernelModule &kernel, const Specialization &specialization) override {
    Module &module = *kernel.module;
    ModuleAnalysisManager analyses;  // (none needed: the passes run here on their own)
    image::KernelView features = kernel.info;
    if (Function *barrier = module.getFunction(kBarrierBuiltin); barrier &&
                                                                 kernel.info.kind == image::KernelKind::NdRange &&
                                                                 transitiveCallers(*barrier).contains(kernel.kernel))
      features.features |= image::kFeatureBarrier | image::kFeatureGroupScratch;
    if (features.features & image::kFeatureBarrier) {
      if (kernel.info.kind != image::KernelKind::NdRange)
        return createStringError(inconvertibleErrorCode(),
                                 "kernel '" + std::string(kernel.displayName) +
                                     "' uses a work-group barrier but is not an nd_range kernel");
      LowerGroupBarriersPass(kernel.kernel->getName().str(), std::string(kernel.displayName), lowered_)
          .run(module, analyses);
      if (!lowered_.stepped) return createStringError(inconvertibleErrorCode(), lowered_.error);
      dumpModuleIfRequested(module, kernel.kernel->getName().str() + ".stepped");
    }
    Function &body = lowered_.stepped ? *lowered_.stepped->step : *kernel.kernel;
    WorkItemLoopsKernel launched;
    launched.function = body.getName().str();
    launched.kind = features.kind;
    launched.dimensions = features.dimensions;
    launched.features = features.features;
    for (const image::FieldView &field : features.fields) launched.fieldOffsets.push_back(field.offset);
    launched.stepped = &lowered_.stepped;
    launched.localRange = specialization.localRange;
    launched.groupLocalBytes = groupLocalBytes_;
    BuildWorkItemLoopsPass(std::move(launched)).run(module, analyses);
    return Entry{module.getFunction(kCpuLaunchSymbol), &body};
  }

  void beforeInlining(KernelModule &kernel, const Entry &entry) override {
    Module &module = *kernel.module;
    if (lowered_.stepped) {
      // The kernel lives on in its step; its barrier calls must not reach the object.
      kernel.kernel->eraseFromParent();
      kernel.kernel = nullptr;
      if (Function *barrier = module.getFunction(kBarrierBuiltin); barrier && barrier->use_empty())
        barrier->eraseFromParent();
    }
    shareDenormalMode(module, *entry.entry);
    // Same CPU and features on every function (builtins and launcher included),
    // or the inliner refuses to inline across them.
    // 256-bit vectors for loops over a range (they made the triad 0.66x ->
    // 0.95x of OpenMP on Zen 4); for nd_range kernels, whose loops over a
    // group's rows have constant trip counts that full vectors cover, the
    // widest the CPU has (tiled matmul 0.73-0.85x -> 1.13-1.31x of OpenMP on
    // Zen 4). Intel's AVX-512 CPUs prefer 256 bits, which halves a 16-wide
    // row's vector and left their tiled matmul 0.31x of OpenMP (Emerald Rapids).
    unsigned vectorBits = 256;
    if (kernel.info.kind == image::KernelKind::NdRange)
      vectorBits = StringRef(machine_->getTargetFeatureString()).contains("+avx512f") ? 512 : 0;
    stampTargetAttributes(module, *machine_, vectorBits);
  }

  std::function<void(FunctionPassManager &)> passesBeforeVectorizer() override {
    return [](FunctionPassManager &passes) {
      passes.addPass(UnswitchWorkItemLoopsPass(kCpuLaunchSymbol));
      passes.addPass(MarkWorkItemAccessesPass(kCpuLaunchSymbol));
    };
  }

  CodeGenFileType output() const override { return CodeGenFileType::ObjectFile; }
  // A shared object: the runtime's CPU backend loads it with the system's
  // dynamic loader (a cached kernel then needs no part of the JIT). The C
  // library's functions the kernel calls (aligned_alloc, memset) stay
  // undefined, bound by that loader to the process's.
  Expected<std::vector<char>> emit(Module &module, TargetMachine &machine) override {
    Expected<std::vector<char>> object = Translator::emit(module, machine);
    if (!object) return object.takeError();
    return linkSharedObject(*object, "the CPU kernel", {"--hash-style=gnu", "--build-id=none", "-z", "now"});
  }
  const char *dumpExtension() const override { return ".so"; }

private:
  std::unique_ptr<TargetMachine> machine_;
  uint64_t groupLocalBytes_ = 0;
  LoweredBarriers lowered_;  // a kernel with barriers runs as its step
};

}  // namespace

std::unique_ptr<Translator> makeCpuTranslator() { return std::make_unique<CpuTranslator>(); }

}  // namespace onepass::jit
