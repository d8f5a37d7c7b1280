#include "AmdgcnTranslator.h"

#include "BuiltinLibrary.h"
#include "Codegen.h"
#include "GridEntry.h"
#include "KernelModule.h"
#include "MachinePool.h"
#include "SharedObjectLink.h"
#include "WorkItemLowering.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>

using namespace llvm;

namespace onepass::jit {

namespace {

// AMDGPU's address spaces (LLVM AMDGPUUsage): 0 flat, 1 global, 3 local
// (LDS), 4 constant, 5 private.
constexpr unsigned kGlobalSpace = 1;
constexpr unsigned kLocalSpace = 3;
constexpr unsigned kConstantSpace = 4;
constexpr unsigned kPrivateSpace = 5;

Value *intrinsic64(IRBuilder<> &builder, Intrinsic::ID id) {
  return builder.CreateZExt(builder.CreateIntrinsic(builder.getInt32Ty(), id, {}), builder.getInt64Ty());
}

// A field of the HSA kernel dispatch packet (hsa_kernel_dispatch_packet_t),
// zero-extended to 64 bits: workgroup_size_x/y/z are 16-bit at bytes 4, 6,
// 8; grid_size_x/y/z 32-bit at 12, 16, 20.
Value *dispatchField(IRBuilder<> &builder, unsigned offset, Type *type) {
  Value *packet =
      builder.CreateIntrinsic(PointerType::get(builder.getContext(), kConstantSpace), Intrinsic::amdgcn_dispatch_ptr, {});
  LoadInst *load = builder.CreateAlignedLoad(type, builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), packet, offset),
                                             Align(type->getPrimitiveSizeInBits() / 8));
  load->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(builder.getContext(), {}));
  return builder.CreateZExt(load, builder.getInt64Ty());
}

Value *groupSize(IRBuilder<> &builder, unsigned axis) { return dispatchField(builder, 4 + 2 * axis, builder.getInt16Ty()); }

Value *groupCount(IRBuilder<> &builder, unsigned axis) {
  Value *grid = dispatchField(builder, 12 + 4 * axis, builder.getInt32Ty());
  Value *size = groupSize(builder, axis);
  return builder.CreateUDiv(builder.CreateAdd(grid, builder.CreateSub(size, builder.getInt64(1))), size);
}

constexpr Intrinsic::ID kWorkItemIds[3] = {Intrinsic::amdgcn_workitem_id_x, Intrinsic::amdgcn_workitem_id_y,
                                           Intrinsic::amdgcn_workitem_id_z};
constexpr Intrinsic::ID kWorkGroupIds[3] = {Intrinsic::amdgcn_workgroup_id_x, Intrinsic::amdgcn_workgroup_id_y,
                                            Intrinsic::amdgcn_workgroup_id_z};

// Allocas live in the private address space (the data layout's A5); the
// kernel's flat pointers to them are casts.
void moveAllocasToPrivate(Function &fn) {
  std::vector<AllocaInst *> allocas;
  for (Instruction &inst : instructions(fn))
    if (auto *alloca = dyn_cast<AllocaInst>(&inst); alloca && alloca->getAddressSpace() != kPrivateSpace)
      allocas.push_back(alloca);
  for (AllocaInst *old : allocas) {
    auto *replacement = new AllocaInst(old->getAllocatedType(), kPrivateSpace, old->getArraySize(), old->getAlign(),
                                       old->getName(), old->getIterator());
    for (User *user : make_early_inc_range(old->users()))
      if (auto *marker = dyn_cast<IntrinsicInst>(user); marker && marker->isLifetimeStartOrEnd())
        marker->eraseFromParent();
    auto *flat = new AddrSpaceCastInst(replacement, old->getType(), old->getName() + ".flat", old->getIterator());
    old->replaceAllUsesWith(flat);
    old->eraseFromParent();
  }
}

// Global variables of the flat address space move to the global one.
void moveGlobalsToGlobalSpace(Module &module) {
  for (const char *name : {"llvm.used", "llvm.compiler.used", "llvm.global_ctors", "llvm.global_dtors"})
    if (GlobalVariable *list = module.getGlobalVariable(name)) list->eraseFromParent();
  std::vector<GlobalVariable *> flat;
  for (GlobalVariable &global : module.globals())
    if (global.getAddressSpace() == 0) flat.push_back(&global);
  for (GlobalVariable *old : flat) {
    auto *replacement = new GlobalVariable(module, old->getValueType(), old->isConstant(), old->getLinkage(),
                                           old->hasInitializer() ? old->getInitializer() : nullptr, "", nullptr,
                                           old->getThreadLocalMode(), kGlobalSpace);
    replacement->copyAttributesFrom(old);
    replacement->takeName(old);
    old->replaceAllUsesWith(ConstantExpr::getAddrSpaceCast(replacement, old->getType()));
    old->eraseFromParent();
  }
}

// The C library's math and LLVM's math intrinsics the backend computes only
// approximately, to AMD's ocml (__ocml_<name>_f32/_f64). (Functions with
// pointer parameters, whose ocml forms take private pointers, are left out.)
constexpr const char *kOcmlMath[] = {
    "acos",  "acosh", "asin",  "asinh", "atan",  "atan2",     "atanh",     "cbrt",  "ceil",   "copysign",
    "cos",   "cosh",  "cospi", "erf",   "erfc",  "exp",       "exp2",      "exp10", "expm1",  "fabs",
    "fdim",  "floor", "fma",   "fmax",  "fmin",  "fmod",      "hypot",     "ilogb", "ldexp",  "lgamma",
    "log",   "log10", "log1p", "log2",  "logb",  "nearbyint", "nextafter", "pow",   "remainder",
    "rint",  "round", "sin",   "sinh",  "sinpi", "sqrt",      "tan",       "tanh",  "tgamma", "trunc"};

const std::map<Intrinsic::ID, const char *> &ocmlIntrinsics() {
  static const std::map<Intrinsic::ID, const char *> names = {
      {Intrinsic::sin, "sin"},   {Intrinsic::cos, "cos"},     {Intrinsic::tan, "tan"},   {Intrinsic::asin, "asin"},
      {Intrinsic::acos, "acos"}, {Intrinsic::atan, "atan"},   {Intrinsic::atan2, "atan2"}, {Intrinsic::sinh, "sinh"},
      {Intrinsic::cosh, "cosh"}, {Intrinsic::tanh, "tanh"},   {Intrinsic::exp, "exp"},   {Intrinsic::exp10, "exp10"},
      {Intrinsic::log, "log"},   {Intrinsic::log10, "log10"}, {Intrinsic::pow, "pow"},
      // (The backend has no f64 exp2/log2 of its own.)
      {Intrinsic::exp2, "exp2"}, {Intrinsic::log2, "log2"}};
  return names;
}

// What the calls lowerMathToOcml redirected allow, by their fast-math flags
// (the kernel's -ffinite-math-only, -fapprox-func or -funsafe-math-
// optimizations, -ffast-math): ocml's control variables follow them.
struct OcmlCalls {
  bool any = false;         // the module calls ocml now
  bool finite = true;       // every call is nnan and ninf
  bool approximate = true;  // every call is afn
};

OcmlCalls lowerMathToOcml(Module &module) {
  OcmlCalls calls;
  for (Function &fn : make_early_inc_range(module)) {
    if (!fn.isDeclaration() || fn.use_empty()) continue;
    Type *value = fn.getReturnType();
    std::string base;
    if (Intrinsic::ID id = fn.getIntrinsicID()) {
      auto found = ocmlIntrinsics().find(id);
      if (found == ocmlIntrinsics().end()) continue;
      base = found->second;
    } else {
      StringRef name = fn.getName();
      if (std::find(std::begin(kOcmlMath), std::end(kOcmlMath), name) != std::end(kOcmlMath)) base = name.str();
      else if (name.ends_with("f") &&
               std::find(std::begin(kOcmlMath), std::end(kOcmlMath), name.drop_back()) != std::end(kOcmlMath))
        base = name.drop_back().str();
      else continue;
      for (Type *param : fn.getFunctionType()->params())
        if (param->isPointerTy()) base.clear();
      if (base.empty()) continue;
      if (value->isIntegerTy()) value = fn.getFunctionType()->getParamType(0);  // ilogb
    }
    if (!value->isFloatTy() && !value->isDoubleTy()) continue;
    const std::string ocml = "__ocml_" + base + (value->isFloatTy() ? "_f32" : "_f64");
    FunctionCallee callee = module.getOrInsertFunction(ocml, fn.getFunctionType());
    for (User *user : make_early_inc_range(fn.users())) {
      auto *call = dyn_cast<CallInst>(user);
      if (!call) continue;
      call->setCalledFunction(callee);
      const FastMathFlags flags = isa<FPMathOperator>(call) ? call->getFastMathFlags() : FastMathFlags();
      calls.finite = calls.finite && flags.noNaNs() && flags.noInfs();
      calls.approximate = calls.approximate && flags.approxFunc();
    }
    calls.any = true;
  }
  return calls;
}

// ocml's control variables (what the ROCm device libraries' oclc_*.bc files
// define), defined here as a HIP compiler chooses those files: from the
// architecture and the kernel's flags. Finite-only where every call to ocml
// may assume no NaN and no infinity, unsafe math where every call may be
// approximated, denormals as zero where the kernel's float mode flushes them
// (-fdenormal-fp-math=preserve-sign); square roots correctly rounded.
Error defineOcmlControls(Module &module, const std::string &arch, const Function &entry, const OcmlCalls &calls) {
  unsigned isa = 0;
  StringRef digits = StringRef(arch).drop_front(3);  // "942" of gfx942, "1100" of gfx1100
  StringRef major = digits.drop_back(2), minor = digits.take_back(2);
  unsigned majorValue = 0;
  if (major.getAsInteger(10, majorValue))
    return createStringError(inconvertibleErrorCode(), "cannot read the ISA version of '" + arch + "'");
  isa = majorValue * 1000 + hexDigitValue(minor[0]) * 100 + hexDigitValue(minor[1]);
  const bool wave64 = majorValue < 10;
  const DenormalMode floatMode = entry.getDenormalMode(APFloat::IEEEsingle());
  const bool daz = floatMode.Output == DenormalMode::PreserveSign || floatMode.Output == DenormalMode::PositiveZero;
  const std::map<std::string, uint64_t> values = {{"__oclc_finite_only_opt", calls.finite},
                                                  {"__oclc_unsafe_math_opt", calls.approximate},
                                                  {"__oclc_daz_opt", daz},
                                                  {"__oclc_correctly_rounded_sqrt32", 1},
                                                  {"__oclc_wavefrontsize64", wave64},
                                                  {"__oclc_ISA_version", isa},
                                                  {"__oclc_ABI_version", 500}};
  for (GlobalVariable &global : module.globals()) {
    if (!global.getName().starts_with("__oclc_") || !global.isDeclaration()) continue;
    auto found = values.find(global.getName().str());
    auto *type = dyn_cast<IntegerType>(global.getValueType());
    if (found == values.end() || !type)
      return createStringError(inconvertibleErrorCode(), "ocml needs '" + global.getName().str() +
                                                             "', which OnePass does not define");
    global.setInitializer(ConstantInt::get(type, found->second));
    global.setConstant(true);
    global.setLinkage(GlobalValue::InternalLinkage);
  }
  return Error::success();
}

// ocml.bc, read once per process.
Expected<MemoryBufferRef> ocmlLibrary(const std::string &directory) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<MemoryBuffer>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<MemoryBuffer> &buffer = loaded[directory];
  if (!buffer) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> file = MemoryBuffer::getFile(directory + "/ocml.bc");
    if (!file)
      return createStringError(inconvertibleErrorCode(),
                               "cannot read '" + directory + "/ocml.bc': " + file.getError().message());
    buffer = std::move(*file);
  }
  return buffer->getMemBufferRef();
}

class AmdgcnTranslator final : public Translator {
public:
  explicit AmdgcnTranslator(AmdgcnTarget target) : target_(std::move(target)) {}

  const char *name() const override { return "AMDGCN"; }
  std::string dumpSuffix() const override { return "." + target_.arch; }

  Error checkKernel(const KernelModule &kernel) override {
    if (kernel.module->getFunction(ONEPASS_ABI_PRINTF))
      return createStringError(inconvertibleErrorCode(),
                               "kernel '" + kernel.displayName +
                                   "' calls printf, which OnePass does not lower for AMD GPUs yet (it needs the HSA "
                                   "backend's host call buffer)");
    return Error::success();
  }

  Expected<TargetMachine *> machine() override {
    if (!lease_) {
      Expected<MachinePool::Lease> lease = MachinePool::instance().acquire(
          "amdgcn " + target_.arch, [&] { return createAmdgcnTargetMachine(target_.arch); });
      if (!lease) return lease.takeError();
      lease_.emplace(std::move(*lease));
    }
    return &lease_->machine();
  }

  BuiltinTarget builtins() const override { return BuiltinTarget::Amdgcn; }

  // Static work-group memory: an LDS variable.
  Error placeGroupLocalMemory(KernelModule &kernel) override {
    return placeGroupLocalVariable(kernel, "__onepass_amdgcn_group_local", kLocalSpace);
  }

  Expected<Entry> buildEntry(KernelModule &kernel, const Specialization &) override {
    Module &module = *kernel.module;
    LLVMContext &ctx = module.getContext();
    GridEntryAbi abi;
    abi.name = kAmdgcnKernelSymbol;
    abi.callingConvention = CallingConv::AMDGPU_KERNEL;
    abi.parameterType = [&](Argument &arg) -> Type * {
      return arg.getType()->isPointerTy() ? PointerType::get(ctx, kGlobalSpace) : arg.getType();
    };
    GridQueries queries;
    queries.localId = [](IRBuilder<> &b, unsigned axis) { return intrinsic64(b, kWorkItemIds[axis]); };
    queries.localRange = [](IRBuilder<> &b, unsigned axis) { return groupSize(b, axis); };
    queries.groupId = [](IRBuilder<> &b, unsigned axis) { return intrinsic64(b, kWorkGroupIds[axis]); };
    queries.groupRange = [](IRBuilder<> &b, unsigned axis) { return groupCount(b, axis); };
    Function *entry = buildGridEntry(module, *kernel.kernel, kernel.info, abi, queries);
    const image::KernelView &info = kernel.info;
    if (info.kind == image::KernelKind::NdRange) {
      entry->addFnAttr("uniform-work-group-size", "true");  // nd_range groups tile the range
      if (info.reqdWorkGroupSize[0] != 0 && !(info.features & image::kFeatureHierarchical)) {
        Metadata *size[3];
        uint64_t total = 1;
        for (unsigned axis = 0; axis < 3; ++axis) {
          const uint64_t extent = axis < info.dimensions ? info.reqdWorkGroupSize[info.dimensions - 1 - axis] : 1;
          total *= extent;
          size[axis] = ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(ctx), extent));
        }
        entry->setMetadata("reqd_work_group_size", MDNode::get(ctx, size));
        entry->addFnAttr("amdgpu-flat-work-group-size", std::to_string(total) + "," + std::to_string(total));
      }
    }
    return Entry{entry, kernel.kernel};
  }

  Error beforeOptimizer(KernelModule &kernel, Function &entry) override {
    Module &module = *kernel.module;
    eraseUnusedFunctions(module);
    moveGlobalsToGlobalSpace(module);
    // LDS has no initial contents (the backend refuses an initializer, even
    // the zeros C++ gives the builtins' scratch array).
    for (GlobalVariable &global : module.globals())
      if (global.getAddressSpace() == kLocalSpace && global.hasInitializer() && !isa<UndefValue>(global.getInitializer()))
        global.setInitializer(PoisonValue::get(global.getValueType()));
    for (Function &fn : module)
      if (!fn.isDeclaration()) moveAllocasToPrivate(fn);
    if (const OcmlCalls calls = lowerMathToOcml(module); calls.any) {
      if (target_.deviceLibraries.empty())
        return createStringError(inconvertibleErrorCode(),
                                 "kernel '" + kernel.displayName +
                                     "' calls math functions, which need AMD's ocml (ROCm device libraries): " +
                                     target_.deviceLibrariesMissing);
      Expected<MemoryBufferRef> ocml = ocmlLibrary(target_.deviceLibraries);
      if (!ocml) return ocml.takeError();
      if (Error err = linkBitcodeLibrary(module, *ocml, "AMD's ocml")) return err;
      if (Error err = defineOcmlControls(module, target_.arch, entry, calls)) return err;
    }
    internalizeAllBut(module, entry);
    shareDenormalMode(module, entry);
    stampTargetAttributes(module, lease_->machine());
    for (Function &fn : module)
      if (!fn.isDeclaration() && &fn != &entry) fn.setCallingConv(CallingConv::C);
    return Error::success();
  }

  CodeGenFileType output() const override { return CodeGenFileType::ObjectFile; }
  const char *dumpExtension() const override { return ".hsaco"; }

  Expected<std::vector<char>> emit(Module &module, TargetMachine &machine) override {
    Expected<std::vector<char>> object = emitFile(module, machine, CodeGenFileType::ObjectFile);
    if (!object) return object.takeError();
    return linkSharedObject(*object, "the AMDGPU code object", {"--no-undefined"});
  }

private:
  AmdgcnTarget target_;
  std::optional<MachinePool::Lease> lease_;
};

}  // namespace

std::unique_ptr<Translator> makeAmdgcnTranslator(const AmdgcnTarget &target) {
  return std::make_unique<AmdgcnTranslator>(target);
}

}  // namespace onepass::jit
