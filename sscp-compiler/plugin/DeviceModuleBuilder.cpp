#include "DeviceModuleBuilder.h"
#include "sycl/detail/onepass_abi.hpp"

#include "GroupLocalMemory.h"

#include "FloatingPointAttributes.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace onepass::sscp {

namespace {

using GlobalSet = DenseSet<const GlobalValue *>;

void collectFromConstant(const Constant *c, std::vector<const GlobalValue *> &work, DenseSet<const Constant *> &seen) {
  if (!seen.insert(c).second) return;
  if (const auto *gv = dyn_cast<GlobalValue>(c)) {
    work.push_back(gv);
    return;
  }
  for (const Use &op : c->operands())
    if (const auto *inner = dyn_cast<Constant>(op.get())) collectFromConstant(inner, work, seen);
}

// Every global the entry can reach through calls and references.
GlobalSet reachableFrom(const Function &entry) {
  GlobalSet reached;
  DenseSet<const Constant *> seenConstants;
  std::vector<const GlobalValue *> work{&entry};
  while (!work.empty()) {
    const GlobalValue *gv = work.back();
    work.pop_back();
    if (!reached.insert(gv).second) continue;
    if (const auto *fn = dyn_cast<Function>(gv)) {
      for (const BasicBlock &block : *fn)
        for (const Instruction &inst : block)
          for (const Use &op : inst.operands())
            if (const auto *c = dyn_cast<Constant>(op.get())) collectFromConstant(c, work, seenConstants);
    } else if (const auto *var = dyn_cast<GlobalVariable>(gv)) {
      if (var->hasInitializer()) collectFromConstant(var->getInitializer(), work, seenConstants);
    } else if (const auto *alias = dyn_cast<GlobalAlias>(gv)) {
      collectFromConstant(alias->getAliasee(), work, seenConstants);
    }
  }
  return reached;
}

// Whether an instruction of the kernel computes with (or converts to or
// from) a floating-point type `is`.
template <typename Is> bool usesFloatType(const GlobalSet &reached, Is is) {
  for (const GlobalValue *gv : reached) {
    const auto *fn = dyn_cast<Function>(gv);
    if (!fn) continue;
    for (const BasicBlock &block : *fn)
      for (const Instruction &inst : block) {
        if (is(inst.getType()->getScalarType())) return true;
        for (const Use &op : inst.operands())
          if (is(op->getType()->getScalarType())) return true;
      }
  }
  return false;
}
bool usesDouble(const GlobalSet &reached) {
  return usesFloatType(reached, [](const Type *type) { return type->isDoubleTy(); });
}
// Half arithmetic, as aspect::fp16 means it (OpenCL's cl_khr_fp16): half as
// a storage format (loads, stores, conversions to and from float, bit
// casts), which every OpenCL device has (vload_half/vstore_half), does not
// count; OnePass's images convert texels so for every format.
bool usesHalfArithmetic(const GlobalSet &reached) {
  auto isHalf = [](const Type *type) { return type->getScalarType()->isHalfTy(); };
  for (const GlobalValue *gv : reached) {
    const auto *fn = dyn_cast<Function>(gv);
    if (!fn) continue;
    for (const BasicBlock &block : *fn)
      for (const Instruction &inst : block) {
        if (isa<LoadInst>(inst) || isa<StoreInst>(inst) || isa<CastInst>(inst) || isa<SelectInst>(inst) ||
            isa<PHINode>(inst) || isa<ExtractElementInst>(inst) || isa<InsertElementInst>(inst) ||
            isa<ShuffleVectorInst>(inst) || isa<ExtractValueInst>(inst) || isa<InsertValueInst>(inst))
          continue;
        if (const auto *call = dyn_cast<CallBase>(&inst); call && !call->getCalledFunction()) continue;
        if (isHalf(inst.getType())) return true;
        for (const Use &op : inst.operands())
          if (isHalf(op->getType())) return true;
      }
  }
  return false;
}

// Whether the kernel performs an atomic operation on a 64-bit value
// (atomic_ref<long/double...>: §4.15.3 says such need aspect::atomic64).
bool usesAtomic64(const GlobalSet &reached, const DataLayout &layout) {
  auto wide = [&](Type *type) { return layout.getTypeStoreSize(type) == 8; };
  for (const GlobalValue *gv : reached) {
    const auto *fn = dyn_cast<Function>(gv);
    if (!fn) continue;
    for (const BasicBlock &block : *fn)
      for (const Instruction &inst : block) {
        if (const auto *rmw = dyn_cast<AtomicRMWInst>(&inst); rmw && wide(rmw->getValOperand()->getType()))
          return true;
        if (const auto *cas = dyn_cast<AtomicCmpXchgInst>(&inst); cas && wide(cas->getNewValOperand()->getType()))
          return true;
        if (const auto *load = dyn_cast<LoadInst>(&inst); load && load->isAtomic() && wide(load->getType()))
          return true;
        if (const auto *store = dyn_cast<StoreInst>(&inst);
            store && store->isAtomic() && wide(store->getValueOperand()->getType()))
          return true;
      }
  }
  return false;
}

// Whether the kernel reaches a call of the builtin `name`.
bool callsBuiltin(const GlobalSet &reached, StringRef name) {
  for (const GlobalValue *gv : reached)
    if (gv->getName() == name) return true;
  return false;
}

Type *fieldType(LLVMContext &ctx, const image::FieldDesc &field) {
  switch (field.kind) {
  case image::FieldKind::Pointer: return PointerType::get(ctx, 0);
  case image::FieldKind::Float:
    return field.size == 2 ? Type::getHalfTy(ctx) : field.size == 4 ? Type::getFloatTy(ctx) : Type::getDoubleTy(ctx);
  case image::FieldKind::Integer: break;
  }
  return IntegerType::get(ctx, field.size * 8);
}

// The device kernel: takes the flattened fields, rebuilds the kernel object
// in private memory and calls the entry. After inlining and SROA the object
// disappears and the fields are used directly.
Function *createKernelFunction(Module &device, Function &entry, const KernelLayout &layout) {
  LLVMContext &ctx = device.getContext();
  std::vector<Type *> params;
  for (const image::FieldDesc &field : layout.fields) params.push_back(fieldType(ctx, field));
  auto *type = FunctionType::get(Type::getVoidTy(ctx), params, false);
  Function *kernel = Function::Create(type, GlobalValue::ExternalLinkage, deviceKernelSymbol(entry), device);
  kernel->addFnAttr(Attribute::NoUnwind);
  ir::copyFloatingPointAttributes(entry, *kernel);

  IRBuilder<> builder(BasicBlock::Create(ctx, "entry", kernel));
  uint32_t objectSize = std::max<uint32_t>(layout.objectSize, 1);
  AllocaInst *object = builder.CreateAlloca(ArrayType::get(builder.getInt8Ty(), objectSize), nullptr, "kernel.object");
  object->setAlignment(Align(std::max<uint32_t>(layout.objectAlign, 1)));
  // Padding bytes are never read by correct code; zero them so nothing is undefined.
  builder.CreateMemSet(object, builder.getInt8(0), objectSize, object->getAlign());
  for (size_t i = 0; i < layout.fields.size(); ++i) {
    Value *address = builder.CreateConstInBoundsGEP1_32(builder.getInt8Ty(), object, layout.fields[i].offset);
    builder.CreateAlignedStore(kernel->getArg(i), address, Align(1) /* fields may be packed */);
  }
  builder.CreateCall(entry.getFunctionType(), &entry, {object});
  builder.CreateRetVoid();
  return kernel;
}

// Host-only function attributes that would make a device target complain.
void neutralizeAttributes(Function &fn) {
  for (const char *attr : {"target-cpu", "target-features", "tune-cpu", "frame-pointer", "stack-protector-buffer-size",
                           "min-legal-vector-width"})
    fn.removeFnAttr(attr);
  for (Attribute::AttrKind kind :
       {Attribute::UWTable, Attribute::StackProtect, Attribute::StackProtectStrong, Attribute::StackProtectReq})
    fn.removeFnAttr(kind);
  // -O0 host compiles mark everything optnone+noinline; the JIT optimizes anyway.
  if (fn.hasFnAttribute(Attribute::OptimizeNone)) {
    fn.removeFnAttr(Attribute::OptimizeNone);
    fn.removeFnAttr(Attribute::NoInline);
  }
  // Device code cannot throw (stage 1 rejects throw and try), so no call
  // unwinds: invokes (clang emits them where a noexcept function calls one
  // that may throw, with a landing pad calling std::terminate) become plain
  // calls and the landing pads go. Only then may the personality go.
  if (fn.hasPersonalityFn()) {
    SmallVector<InvokeInst *, 8> invokes;
    for (BasicBlock &block : fn)
      if (auto *invoke = dyn_cast<InvokeInst>(block.getTerminator())) invokes.push_back(invoke);
    for (InvokeInst *invoke : invokes) changeToCall(invoke);
    removeUnreachableBlocks(fn);
    fn.setPersonalityFn(nullptr);
  }
}

void removeSpecialGlobals(Module &device) {
  for (const char *name :
       {"llvm.global.annotations", "llvm.used", "llvm.compiler.used", "llvm.global_ctors", "llvm.global_dtors"})
    if (GlobalVariable *gv = device.getGlobalVariable(name)) gv->eraseFromParent();
  for (const char *name : {"llvm.module.flags", "llvm.ident", "llvm.linker.options"})
    if (NamedMDNode *md = device.getNamedMetadata(name)) device.eraseNamedMetadata(md);
}

// Drops declarations and definitions nothing uses any more.
void removeUnused(Module &device, const DenseSet<StringRef> &keep) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (Function &fn : make_early_inc_range(device.functions()))
      if (fn.use_empty() && !keep.contains(fn.getName())) {
        fn.eraseFromParent();
        changed = true;
      }
    for (GlobalVariable &gv : make_early_inc_range(device.globals()))
      if (gv.use_empty()) {
        gv.eraseFromParent();
        changed = true;
      }
    for (GlobalAlias &alias : make_early_inc_range(device.aliases()))
      if (alias.use_empty()) {
        alias.eraseFromParent();
        changed = true;
      }
  }
}

// Device code is convergent until shown otherwise, as OpenCL, CUDA and SYCL
// device compilers make it (clang's -fconvergent-functions): a function that
// reaches a barrier must not have its calls duplicated under a condition
// that differs between work-items. Without it, jump threading copied a
// joint_exclusive_scan's exclusive_scan_over_group call into both arms of
// `at < count` (and so its barriers, once inlined), and PoCL, which takes
// such a branch as uniform, then stored past the end of the output.
// FunctionAttrs (in the pipelines of stage 1 and the JIT) takes the
// attribute off every function whose calls reach no convergent operation.
// Declared functions are convergent if they may be SYCL_EXTERNAL functions
// of other translation units (mangled names); OnePass's builtins declare
// their own attributes, and C library functions have no barrier.
void assumeConvergent(Function &fn) {
  if (fn.isIntrinsic() || fn.getName().starts_with(ONEPASS_ABI_PREFIX)) return;
  if (!fn.isDeclaration() || fn.getName().starts_with("_Z")) fn.setConvergent();
}

// Target-neutral simplification, once per translation unit: inlining, SROA,
// instcombine, GVN and the loop canonicalizations (LLVM's pre-link pipeline,
// which leaves vectorization and unrolling to the target-aware step). The JIT
// then starts each kernel from small, inlined IR, which saves it most of its
// per-kernel optimization time at first launch. No library call is known to
// be available: which ones a device has (and what they may be rewritten to)
// is the JIT's business.
void simplifyDeviceModule(Module &device) {
  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager cgscc;
  ModuleAnalysisManager modules;
  PipelineTuningOptions tuning;
  tuning.LoopVectorization = false;
  tuning.SLPVectorization = false;
  tuning.LoopUnrolling = false;
  PassBuilder builder(nullptr, tuning);
  TargetLibraryInfoImpl libraryInfo{device.getTargetTriple()};
  libraryInfo.disableAllFunctions();
  functions.registerPass([&] { return TargetLibraryAnalysis(libraryInfo); });
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  ModulePassManager passes = builder.buildThinLTOPreLinkDefaultPipeline(OptimizationLevel::O2);
  passes.run(device, modules);
}

}  // namespace

std::string deviceKernelSymbol(const Function &entry) { return ONEPASS_ABI_KERNEL_PREFIX + entry.getName().str(); }

Expected<DeviceModule> buildDeviceModule(const Module &host, const std::vector<KernelEntry> &entries,
                                         const std::vector<Function *> &exports, const SpecKeyUses &specKeyUses) {
  DeviceModule out;
  GlobalSet reachable;
  std::vector<GlobalSet> perKernel;
  for (const KernelEntry &entry : entries) {
    perKernel.push_back(reachableFrom(*entry.function));
    reachable.insert(perKernel.back().begin(), perKernel.back().end());
  }
  for (const Function *exported : exports) {
    GlobalSet fromExport = reachableFrom(*exported);
    reachable.insert(fromExport.begin(), fromExport.end());
  }

  ValueToValueMapTy map;
  std::unique_ptr<Module> device =
      CloneModule(host, map, [&](const GlobalValue *gv) { return reachable.contains(gv); });
  removeSpecialGlobals(*device);
  StripDebugInfo(*device);
  device->setTargetTriple(Triple());
  device->setModuleIdentifier(host.getModuleIdentifier() + ".onepass-device");

  DenseSet<StringRef> kernelNames;
  for (size_t i = 0; i < entries.size(); ++i) {
    const KernelEntry &entry = entries[i];
    auto *deviceEntry = cast<Function>(map[entry.function]);
    Function *kernel = createKernelFunction(*device, *deviceEntry, entry.layout);
    kernelNames.insert(kernel->getName());

    image::KernelDesc desc;
    desc.symbol = kernel->getName().str();
    desc.displayName = entry.layout.displayName;
    desc.sourceFile = entry.layout.file;
    desc.line = entry.layout.line;
    desc.column = entry.layout.column;
    desc.kind = entry.kind;
    desc.dimensions = entry.kind == image::KernelKind::SingleTask ? 0 : entry.layout.dimensions;
    desc.objectSize = entry.layout.objectSize;
    desc.objectAlign = entry.layout.objectAlign;
    desc.fields = entry.layout.fields;
    for (int d = 0; d < 3; ++d) desc.reqdWorkGroupSize[d] = entry.layout.reqdWorkGroupSize[d];
    desc.reqdSubGroupSize = entry.layout.reqdSubGroupSize;
    desc.deviceHas = entry.layout.deviceHas != 0;
    desc.requiredAspects = entry.layout.requiredAspects;
    // The specialization constants the kernel reads (§4.11.12.2's "uses").
    for (const GlobalValue *gv : perKernel[i])
      if (const auto *fn = dyn_cast<Function>(gv))
        if (auto uses = specKeyUses.find(fn); uses != specKeyUses.end())
          for (uint64_t key : uses->second)
            if (std::find(desc.specKeys.begin(), desc.specKeys.end(), key) == desc.specKeys.end())
              desc.specKeys.push_back(key);
    std::sort(desc.specKeys.begin(), desc.specKeys.end());
    if (usesDouble(perKernel[i])) desc.features |= image::kFeatureFp64;
    if (usesHalfArithmetic(perKernel[i])) desc.features |= image::kFeatureFp16;
    if (usesAtomic64(perKernel[i], host.getDataLayout())) desc.features |= image::kFeatureAtomic64;
    if (entry.layout.hierarchical) desc.features |= image::kFeatureHierarchical;
    if (callsBuiltin(perKernel[i], ONEPASS_ABI_GROUP_BARRIER)) desc.features |= image::kFeatureBarrier;
    if (callsBuiltin(perKernel[i], ONEPASS_ABI_LOCAL_MEMORY) ||
        callsBuiltin(perKernel[i], ir::kGroupLocalMemoryBuiltin))
      desc.features |= image::kFeatureLocalMemory;
    if (callsBuiltin(perKernel[i], ONEPASS_ABI_GROUP_SCRATCH)) desc.features |= image::kFeatureGroupScratch;
    // §5.8.1: a kernel whose [[sycl::device_has]] omits the aspect of an
    // optional feature it uses gets a diagnostic (for the features OnePass
    // tells apart at compile time).
    struct OptionalFeature {
      uint32_t feature, aspect;
      const char *what, *aspectName;
    };
    constexpr OptionalFeature optional[] = {
        {image::kFeatureFp64, image::kAspectFp64, "double precision", "fp64"},
        {image::kFeatureFp16, image::kAspectFp16, "half precision arithmetic", "fp16"},
        {image::kFeatureAtomic64, image::kAspectAtomic64, "64-bit atomic operations", "atomic64"}};
    for (const OptionalFeature &o : optional)
      if (desc.deviceHas && (desc.features & o.feature) && !(desc.requiredAspects & (uint64_t{1} << o.aspect))) {
        const std::string message = "OnePass: kernel '" + desc.displayName + "' (" + desc.sourceFile + ":" +
                                    std::to_string(desc.line) + ") uses " + o.what +
                                    ", but its [[sycl::device_has]] does not list aspect::" + o.aspectName +
                                    " (SYCL 2020 §5.8.1)";
        host.getContext().diagnose(DiagnosticInfoGeneric(message, DS_Warning));
      }
    out.kernels.push_back(std::move(desc));
  }

  // The SYCL_EXTERNAL definitions keep their (mangled) names, by which the
  // JIT links them into kernels of other images.
  DenseSet<StringRef> keep = kernelNames;
  for (const Function *exported : exports) keep.insert(exported->getName());
  for (Function &fn : device->functions()) {
    neutralizeAttributes(fn);
    assumeConvergent(fn);
    if (fn.isDeclaration() || keep.contains(fn.getName())) continue;
    fn.setLinkage(GlobalValue::InternalLinkage);
    fn.setComdat(nullptr);
    fn.setSection("");
  }
  // The entry is noinline on the host (its address is the kernel's identity);
  // on the device it should dissolve into the kernel function.
  for (const KernelEntry &entry : entries) {
    auto *deviceEntry = cast<Function>(map[entry.function]);
    deviceEntry->removeFnAttr(Attribute::NoInline);
    deviceEntry->addFnAttr(Attribute::AlwaysInline);
  }
  for (GlobalVariable &gv : device->globals()) {
    if (!gv.hasInitializer()) continue;
    gv.setLinkage(GlobalValue::InternalLinkage);
    gv.setComdat(nullptr);
    gv.setSection("");
  }
  for (const Function *exported : exports)
    if (Function *fn = device->getFunction(exported->getName())) {
      fn->setLinkage(GlobalValue::ExternalLinkage);
      fn->setComdat(nullptr);
      fn->setVisibility(GlobalValue::DefaultVisibility);
    }
  removeUnused(*device, keep);
  simplifyDeviceModule(*device);
  // A kernel that calls a function this module only declares (a SYCL_EXTERNAL
  // function of another translation unit, or a C library function the
  // targets provide): the JIT looks for definitions in the exporting images.
  for (image::KernelDesc &desc : out.kernels)
    if (Function *kernel = device->getFunction(desc.symbol))
      for (const GlobalValue *gv : reachableFrom(*kernel))
        if (const auto *fn = dyn_cast<Function>(gv))
          if (fn->isDeclaration() && !fn->isIntrinsic() && !fn->getName().starts_with(ONEPASS_ABI_PREFIX)) {
            desc.features |= image::kFeatureExternalCalls;
            if (fn->getName().starts_with("_Z") &&
                std::find(out.imports.begin(), out.imports.end(), fn->getName()) == out.imports.end())
              out.imports.push_back(fn->getName().str());
          }
  // The local memory each kernel allocates itself, as the JIT will lay it out
  // (from this very module).
  for (image::KernelDesc &desc : out.kernels) {
    Function *kernel = device->getFunction(desc.symbol);
    if (!kernel) continue;
    const ir::GroupLocalLayout layout = ir::layoutGroupLocalMemory(*kernel);
    if (!layout.error.empty() || layout.total > UINT32_MAX) {
      return createStringError(inconvertibleErrorCode(),
                               "kernel '" + desc.displayName + "' allocates " +
                                   (layout.error.empty() ? "more than 4 GiB of group local memory" : layout.error) +
                                   " (sycl::ext::oneapi::group_local_memory takes a type, whose size is a constant)");
    }
    desc.groupLocalBytes = static_cast<uint32_t>(layout.total);
  }

  std::string verifierOutput;
  raw_string_ostream verifierStream(verifierOutput);
  if (verifyModule(*device, &verifierStream))
    return createStringError(inconvertibleErrorCode(),
                             "internal error: the device module is invalid: " + verifierOutput);
  raw_svector_ostream stream(out.bitcode);
  WriteBitcodeToFile(*device, stream);
  return out;
}

}  // namespace onepass::sscp
