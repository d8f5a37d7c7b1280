#include "PtxTranslator.h"

#include "BuiltinLibrary.h"
#include "Codegen.h"
#include "GridEntry.h"
#include "KernelModule.h"
#include "MachinePool.h"
#include "PtxPrintf.h"
#include "SpeculateLoads.h"
#include "WorkItemLowering.h"

#include "../../builtins/common/work_item_abi.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Verifier.h"

#include <algorithm>
#include <atomic>
#include <optional>

using namespace llvm;

namespace onepass::jit {

namespace {

struct AxisIntrinsics {
  Intrinsic::ID threadId, blockDim, blockId, gridDim;
};
constexpr AxisIntrinsics kAxes[3] = {
    {Intrinsic::nvvm_read_ptx_sreg_tid_x, Intrinsic::nvvm_read_ptx_sreg_ntid_x, Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
     Intrinsic::nvvm_read_ptx_sreg_nctaid_x},
    {Intrinsic::nvvm_read_ptx_sreg_tid_y, Intrinsic::nvvm_read_ptx_sreg_ntid_y, Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
     Intrinsic::nvvm_read_ptx_sreg_nctaid_y},
    {Intrinsic::nvvm_read_ptx_sreg_tid_z, Intrinsic::nvvm_read_ptx_sreg_ntid_z, Intrinsic::nvvm_read_ptx_sreg_ctaid_z,
     Intrinsic::nvvm_read_ptx_sreg_nctaid_z},
};

// A special register, as a 64-bit value.
Value *readRegister(IRBuilder<> &builder, Intrinsic::ID id) {
  return builder.CreateZExt(builder.CreateIntrinsic(builder.getInt32Ty(), id, {}), builder.getInt64Ty());
}

// blockIdx * blockDim + threadIdx along one CUDA axis, as a 64-bit id.
Value *globalThreadIndex(IRBuilder<> &builder, unsigned axis) {
  return builder.CreateNUWAdd(
      builder.CreateNUWMul(readRegister(builder, kAxes[axis].blockId), readRegister(builder, kAxes[axis].blockDim)),
      readRegister(builder, kAxes[axis].threadId));
}

Function *buildPtxEntry(Module &module, Function &kernel, const image::KernelView &info) {
  GridEntryAbi abi;
  abi.name = kPtxKernelSymbol;
  abi.callingConvention = CallingConv::PTX_Kernel;
  GridQueries queries;
  queries.localId = [](IRBuilder<> &b, unsigned axis) { return readRegister(b, kAxes[axis].threadId); };
  queries.localRange = [](IRBuilder<> &b, unsigned axis) { return readRegister(b, kAxes[axis].blockDim); };
  queries.groupId = [](IRBuilder<> &b, unsigned axis) { return readRegister(b, kAxes[axis].blockId); };
  queries.groupRange = [](IRBuilder<> &b, unsigned axis) { return readRegister(b, kAxes[axis].gridDim); };
  Function *entry = buildGridEntry(module, kernel, info, abi, queries);
  // [[sycl::reqd_work_group_size]]: the block's shape is known (.reqntid),
  // x being the last SYCL dimension. (The runtime launches no other.) A
  // hierarchical kernel's is its logical work-group's, not the block's.
  if (info.kind == image::KernelKind::NdRange && info.reqdWorkGroupSize[0] != 0 &&
      !(info.features & image::kFeatureHierarchical)) {
    std::string shape;
    for (unsigned d = info.dimensions; d-- > 0;) shape += std::to_string(info.reqdWorkGroupSize[d]) + (d ? "," : "");
    entry->addFnAttr("nvvm.reqntid", shape);
  }
  return entry;
}

// The pool's key for a GPU and PTX ISA.
std::string machineKey(const PtxTarget &target) {
  return "nvptx sm_" + std::to_string(target.smVersion) + " ptx" + std::to_string(target.ptxVersion);
}
Expected<MachinePool::Lease> acquireMachine(const PtxTarget &target) {
  return MachinePool::instance().acquire(
      machineKey(target), [&] { return createNvptxTargetMachine(target.smVersion, target.ptxVersion); });
}

// The steps from an inlined entry to a module ready for the optimizer: printf
// to vprintf, math to libdevice, one external function, the kernel's denormal mode and the
// target's attributes on all code. (The driver verifies the result.)
Error prepareForCodegen(Module &module, Function &entry, TargetMachine &machine, const LibdeviceLocation &libdevice,
                        StringRef kernelName) {
  eraseUnusedFunctions(module);
  if (Error err = lowerPrintfToVprintf(module, kernelName)) return err;
  if (Error err = lowerMathToLibdevice(module, entry, libdevice, kernelName)) return err;
  internalizeAllBut(module, entry);
  // Library code (builtins, libdevice) follows the kernel's denormal mode,
  // or the inliner would keep it out of line.
  shareDenormalMode(module, entry);
  stampTargetAttributes(module, machine);
  return Error::success();
}

// A half's bits reach integer code through a `mov.b16` the backend cannot see
// through. On the H100 (sm_90, CUDA 13 driver), a byte of a half value -- a
// half stored to memory aligned to less than 2 bytes, or bit_cast to 16 bits
// and then cut into bytes -- came out wrong when LLVM's PTX stored it with
// `st.b8` straight from the register that `cvt.rn.f16.f32` wrote (the high byte
// was right, the low one not). Scalar halves only; returns whether it changed
// anything. (tests/sycl/half_bytes.cpp)
bool launderHalfBits(Function &entry) {
  LLVMContext &context = entry.getContext();
  Type *halfType = Type::getHalfTy(context);
  Type *i16 = Type::getInt16Ty(context);
  FunctionType *movType = FunctionType::get(i16, {halfType}, false);
  InlineAsm *mov = InlineAsm::get(movType, "mov.b16 $0, $1;", "=h,h", /*hasSideEffects=*/false);
  std::vector<Instruction *> work;
  for (Instruction &inst : instructions(entry)) {
    if (auto *bitcast = dyn_cast<BitCastInst>(&inst)) {
      // Only bits that are cut into bytes: half arithmetic's own bit tricks
      // (fabs, isnan, copysign) stay as they are.
      if (!bitcast->getSrcTy()->isHalfTy() || !bitcast->getDestTy()->isIntegerTy(16)) continue;
      const bool bytes = std::any_of(bitcast->user_begin(), bitcast->user_end(), [](const User *user) {
        if (auto *trunc = dyn_cast<TruncInst>(user)) return trunc->getDestTy()->isIntegerTy(8);
        if (auto *store = dyn_cast<StoreInst>(user)) return store->getAlign().value() < 2;
        return false;
      });
      if (bytes) work.push_back(bitcast);
    } else if (auto *store = dyn_cast<StoreInst>(&inst)) {
      if (store->getValueOperand()->getType()->isHalfTy() && store->getAlign().value() < 2) work.push_back(store);
    }
  }
  for (Instruction *inst : work) {
    IRBuilder<> builder(inst);
    if (auto *bitcast = dyn_cast<BitCastInst>(inst)) {
      Value *bits = builder.CreateCall(movType, mov, {bitcast->getOperand(0)});
      bitcast->replaceAllUsesWith(bits);
      bitcast->eraseFromParent();
    } else {
      auto *store = cast<StoreInst>(inst);
      Value *bits = builder.CreateCall(movType, mov, {store->getValueOperand()});
      StoreInst *replacement = builder.CreateAlignedStore(bits, store->getPointerOperand(), store->getAlign(),
                                                          store->isVolatile());
      replacement->copyMetadata(*store);
      store->eraseFromParent();
    }
  }
  return !work.empty();
}

// Set by the first real compile: the warm-up then stops at its next step
// instead of competing with it for the CPU and LLVM's one-time locks.
std::atomic<bool> realCompileStarted{false};

}  // namespace

namespace {

class PtxTranslator final : public Translator {
public:
  explicit PtxTranslator(const PtxTarget &target) : target_(target) {
    realCompileStarted.store(true, std::memory_order_relaxed);
  }

  const char *name() const override { return "PTX"; }
  std::string dumpSuffix() const override { return ".sm_" + std::to_string(target_.smVersion); }

  Error checkKernel(const KernelModule &kernel) override {
    if (kernel.info.features & image::kFeatureFp64 && target_.smVersion < 13)
      return createStringError(inconvertibleErrorCode(), "the kernel uses double precision, which sm_" +
                                                             std::to_string(target_.smVersion) + " lacks");
    return Error::success();
  }

  Expected<TargetMachine *> machine() override {
    if (!lease_) {
      Expected<MachinePool::Lease> lease = acquireMachine(target_);
      if (!lease) return lease.takeError();
      lease_.emplace(std::move(*lease));
    }
    return &lease_->machine();
  }

  BuiltinTarget builtins() const override { return BuiltinTarget::Ptx; }
  // (The CUDA backend's ONEPASS_KERNEL_FEATURE_HIERARCHICAL.)
  bool hierarchicalGroupsAtSize() const override { return true; }

  // The local memory the kernel allocates itself: static shared memory, made
  // at its first slot. Visible, not internal: LLVM's PTX printer declares an
  // internal shared variable inside the one function that uses it, and keeps
  // that list per function address across the modules one reused code
  // generation pipeline prints; a later module's function at a freed one's
  // address then declared the freed variable (crash: "Bad address space found
  // while emitting PTX", CTS group_async_work_group_copy's hierarchical
  // kernels in one process).
  Error placeGroupLocalMemory(KernelModule &kernel) override {
    constexpr unsigned kSharedSpace = 3;  // NVPTX's shared memory
    return placeGroupLocalVariable(kernel, kGroupLocalName, kSharedSpace, GlobalValue::ExternalLinkage);
  }

  Expected<Entry> buildEntry(KernelModule &kernel, const Specialization &) override {
    return Entry{buildPtxEntry(*kernel.module, *kernel.kernel, kernel.info), kernel.kernel};
  }

  Error beforeOptimizer(KernelModule &kernel, Function &entry) override {
    return prepareForCodegen(*kernel.module, entry, lease_->machine(), target_.libdevice, kernel.displayName);
  }

  // After the optimizer, which would sink the loads back into their branches.
  Error afterOptimizer(KernelModule &kernel, Function &entry) override {
    // (Visible, the group-local variable outlives its last use otherwise.)
    if (GlobalVariable *groupLocal = kernel.module->getNamedGlobal(kGroupLocalName)) {
      groupLocal->removeDeadConstantUsers();
      if (groupLocal->use_empty()) groupLocal->eraseFromParent();
    }
    const bool laundered = launderHalfBits(entry);
    if (!speculateGuardedLoads(entry) && !laundered) return Error::success();
    std::string problems;
    raw_string_ostream stream(problems);
    if (verifyFunction(entry, &stream))
      return createStringError(inconvertibleErrorCode(), "internal error: the load speculation or half laundering of kernel '" +
                                                             kernel.displayName + "' made invalid IR: " + problems);
    return Error::success();
  }

  CodeGenFileType output() const override { return CodeGenFileType::AssemblyFile; }
  const char *dumpExtension() const override { return ".ptx"; }

private:
  static constexpr const char *kGroupLocalName = "__onepass_ptx_group_local";
  PtxTarget target_;
  std::optional<MachinePool::Lease> lease_;
};

}  // namespace

std::unique_ptr<Translator> makePtxTranslator(const PtxTarget &target) {
  return std::make_unique<PtxTranslator>(target);
}

void warmUpPtx(const PtxTarget &target) {
  // A kernel that touches what real ones do: a loop, float math, a libdevice
  // call when libdevice is there, global memory, the work-item builtins.
  auto overtaken = [] { return realCompileStarted.load(std::memory_order_relaxed); };
  if (overtaken()) return;
  LLVMContext ctx;
  Expected<MachinePool::Lease> lease = acquireMachine(target);
  if (!lease) {
    consumeError(lease.takeError());
    return;
  }
  TargetMachine *machine = &lease->machine();
  Module module("onepass-warm-up", ctx);
  setTarget(module, *machine);
  if (overtaken()) return;
  if (Error err = linkBuiltins(module, BuiltinTarget::Ptx)) {
    consumeError(std::move(err));
    return;
  }
  IRBuilder<> builder(ctx);
  Type *f32 = builder.getFloatTy();
  Type *ptr = builder.getPtrTy();
  Function *entry = Function::Create(FunctionType::get(builder.getVoidTy(), {ptr, builder.getInt64Ty()}, false),
                                     GlobalValue::ExternalLinkage, kPtxKernelSymbol, module);
  entry->setCallingConv(CallingConv::PTX_Kernel);
  BasicBlock *start = BasicBlock::Create(ctx, "entry", entry);
  BasicBlock *loop = BasicBlock::Create(ctx, "loop", entry);
  BasicBlock *exit = BasicBlock::Create(ctx, "exit", entry);
  builder.SetInsertPoint(start);
  Value *first = globalThreadIndex(builder, 0);
  builder.CreateCondBr(builder.CreateICmpULT(first, entry->getArg(1)), loop, exit);
  builder.SetInsertPoint(loop);
  PHINode *index = builder.CreatePHI(builder.getInt64Ty(), 2);
  index->addIncoming(first, start);
  Value *address = builder.CreateInBoundsGEP(f32, entry->getArg(0), index);
  Value *value = builder.CreateLoad(f32, address);
  const bool withLibdevice = !target.libdevice.path.empty();
  FunctionCallee math = withLibdevice
                            ? module.getOrInsertFunction("expf", f32, f32)
                            : FunctionCallee(Intrinsic::getOrInsertDeclaration(&module, Intrinsic::sqrt, {f32}));
  value = builder.CreateFAdd(builder.CreateFMul(value, builder.CreateCall(math, {value})), value);
  builder.CreateStore(value, address);
  Value *next = builder.CreateAdd(index, builder.getInt64(4096));
  index->addIncoming(next, loop);
  builder.CreateCondBr(builder.CreateICmpULT(next, entry->getArg(1)), loop, exit);
  builder.SetInsertPoint(exit);
  builder.CreateRetVoid();
  if (Error err = prepareForCodegen(module, *entry, *machine, target.libdevice, "warm-up")) {
    consumeError(std::move(err));
    return;
  }
  if (overtaken()) return;
  optimize(module, *machine);
  if (overtaken()) return;
  Expected<std::vector<char>> ptx = emitFile(module, *machine, CodeGenFileType::AssemblyFile);
  if (!ptx) consumeError(ptx.takeError());
}

}  // namespace onepass::jit
