#include "BarrierLowering.h"

#include "WorkItemLowering.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace onepass::jit {

namespace {

Error failure(const Twine &message) { return createStringError(inconvertibleErrorCode(), message); }

// Inlines into `kernel` the calls through which it reaches a barrier, until
// every barrier call of the kernel is in its own body.
Error inlineBarrierPaths(Function &kernel, Function &barrier, StringRef kernelName) {
  // (The kernel itself among them only if it is recursive: an error below.)
  const SetVector<Function *> paths = transitiveCallers(barrier);
  for (unsigned round = 0;; ++round) {
    std::vector<CallBase *> calls;
    for (Instruction &inst : instructions(kernel))
      if (auto *call = dyn_cast<CallBase>(&inst))
        if (Function *callee = call->getCalledFunction(); callee && paths.contains(callee)) calls.push_back(call);
    if (calls.empty()) return Error::success();
    if (round == 16)
      return failure("kernel '" + kernelName +
                     "' reaches a work-group barrier through a recursive function; the CPU device cannot run it");
    for (CallBase *call : calls) {
      InlineFunctionInfo info;
      if (!InlineFunction(*call, info).isSuccess())
        return failure("kernel '" + kernelName + "' calls a barrier in '" + call->getCalledFunction()->getName() +
                       "', which cannot be inlined; the CPU device cannot run it");
    }
  }
}

// Splits `inst`'s block before it; returns the new block, named `name`.
BasicBlock *splitAt(Instruction *inst, const Twine &name) {
  return SplitBlock(inst->getParent(), inst, static_cast<DominatorTree *>(nullptr), nullptr, nullptr, name);
}

// Whether `value` is live on entry to one of `blocks`: used on a path from
// there that does not pass its definition (SSA liveness, walking back from
// each use to the definition).
bool liveIntoAny(Instruction &value, const SmallPtrSetImpl<BasicBlock *> &blocks) {
  BasicBlock *definition = value.getParent();
  SmallPtrSet<BasicBlock *, 32> live;
  SmallVector<BasicBlock *, 32> work;
  auto reach = [&](BasicBlock *block) {
    if (block != definition && live.insert(block).second) work.push_back(block);
  };
  for (Use &use : value.uses()) {
    auto *user = cast<Instruction>(use.getUser());
    // A phi uses its value at the end of the incoming block.
    reach(isa<PHINode>(user) ? cast<PHINode>(user)->getIncomingBlock(use) : user->getParent());
  }
  while (!work.empty())
    for (BasicBlock *predecessor : predecessors(work.pop_back_val())) reach(predecessor);
  for (BasicBlock *block : blocks)
    if (live.contains(block)) return true;
  return false;
}

}  // namespace

Expected<SteppedKernel> buildSteppedKernel(Module &module, Function &kernel, StringRef kernelName) {
  LLVMContext &ctx = module.getContext();
  Function *barrier = module.getFunction(kBarrierBuiltin);
  if (!barrier) return failure("internal error: no barrier in kernel '" + kernelName + "'");
  if (!kernel.getReturnType()->isVoidTy()) return failure("internal error: the kernel function returns a value");
  if (Error err = inlineBarrierPaths(kernel, *barrier, kernelName)) return std::move(err);

  // The step: the kernel's body with a frame and a resume word.
  Type *ptr = PointerType::get(ctx, 0);
  std::vector<Type *> params(kernel.getFunctionType()->param_begin(), kernel.getFunctionType()->param_end());
  const unsigned fieldCount = static_cast<unsigned>(params.size());
  params.push_back(ptr);
  params.push_back(ptr);
  Function *step = Function::Create(FunctionType::get(Type::getVoidTy(ctx), params, false),
                                    GlobalValue::InternalLinkage, kernel.getName() + ".step", module);
  ValueToValueMapTy map;
  for (unsigned i = 0; i < fieldCount; ++i) {
    map[kernel.getArg(i)] = step->getArg(i);
    step->getArg(i)->setName(kernel.getArg(i)->getName());
  }
  SmallVector<ReturnInst *, 4> returns;
  CloneFunctionInto(step, &kernel, map, CloneFunctionChangeType::LocalChangesOnly, returns);
  step->setLinkage(GlobalValue::InternalLinkage);
  Value *frame = step->getArg(fieldCount);
  Value *resume = step->getArg(fieldCount + 1);
  frame->setName("frame");
  resume->setName("resume");

  std::vector<CallInst *> barriers;
  for (Instruction &inst : instructions(*step))
    if (auto *call = dyn_cast<CallInst>(&inst); call && call->getCalledFunction() == barrier) barriers.push_back(call);

  // Each barrier alone in a block, between the code before and after it.
  std::vector<BasicBlock *> barrierBlocks, continuations;
  for (CallInst *call : barriers) {
    const std::string k = std::to_string(barrierBlocks.size() + 1);
    BasicBlock *at = splitAt(call, "barrier." + k);
    continuations.push_back(splitAt(call->getNextNode(), "resume." + k));
    barrierBlocks.push_back(at);
  }

  // The entry block keeps only the local variables; every value live across
  // a barrier (on entry to the block after it) goes to memory, as a local
  // variable too. Values that are not stay in registers: once the entry
  // jumps straight to the blocks after the barriers, their definitions still
  // dominate their uses.
  BasicBlock &entry = step->getEntryBlock();
  BasicBlock::iterator firstCode = entry.begin();
  while (isa<AllocaInst>(*firstCode)) ++firstCode;
  splitAt(&*firstCode, "start");
  const BasicBlock::iterator allocaPoint = entry.getTerminator()->getIterator();
  // Addresses within local variables (and other address arithmetic on
  // values known on entry) move to the entry block: computed again in every
  // phase rather than kept, and the variables' addresses do not escape.
  for (bool moved = true; moved;) {
    moved = false;
    for (BasicBlock &block : *step) {
      if (&block == &entry) continue;
      for (Instruction &inst : make_early_inc_range(block)) {
        if (!isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst>(inst)) continue;
        const bool known = all_of(inst.operands(), [&](const Use &operand) {
          auto *defined = dyn_cast<Instruction>(operand.get());
          return isa<Constant, Argument>(operand.get()) || (defined && defined->getParent() == &entry);
        });
        if (!known) continue;
        inst.moveBefore(entry.getTerminator()->getIterator());
        moved = true;
      }
    }
  }
  SmallPtrSet<BasicBlock *, 8> resumePoints(continuations.begin(), continuations.end());
  // A demoted phi becomes a load in its block, itself perhaps live across a
  // barrier: until nothing is.
  for (;;) {
    std::vector<Instruction *> crossing;
    for (BasicBlock &block : *step)
      if (&block != &entry)
        for (Instruction &inst : block)
          if (inst.getType()->isSized() && !inst.use_empty() && liveIntoAny(inst, resumePoints))
            crossing.push_back(&inst);
    if (crossing.empty()) break;
    for (Instruction *inst : crossing) {
      if (auto *phi = dyn_cast<PHINode>(inst)) DemotePHIToStack(phi, allocaPoint);
      else DemoteRegToStack(*inst, false, allocaPoint);
    }
  }

  // A local variable used both before a barrier and after one moves to the
  // work-item's frame; the others stay local to one phase (and registers).
  SmallPtrSet<BasicBlock *, 32> afterBarrier, beforeBarrier;
  {
    SmallVector<BasicBlock *, 32> work(continuations.begin(), continuations.end());
    for (BasicBlock *block : work) afterBarrier.insert(block);
    while (!work.empty())
      for (BasicBlock *next : successors(work.pop_back_val()))
        if (afterBarrier.insert(next).second) work.push_back(next);
    work.assign(barrierBlocks.begin(), barrierBlocks.end());
    for (BasicBlock *block : work) beforeBarrier.insert(block);
    while (!work.empty())
      for (BasicBlock *previous : predecessors(work.pop_back_val()))
        if (beforeBarrier.insert(previous).second) work.push_back(previous);
  }
  // With lifetime markers (the inliner's, around a callee's locals): whether
  // a barrier lies between a start of the variable's lifetime and its end.
  SmallPtrSet<BasicBlock *, 8> barrierSet(barrierBlocks.begin(), barrierBlocks.end());
  auto lifetimeCrossesBarrier = [&](AllocaInst &alloca) -> std::optional<bool> {
    SmallVector<IntrinsicInst *, 4> starts;
    SmallPtrSet<BasicBlock *, 8> ends;
    for (User *user : alloca.users())
      if (auto *intrinsic = dyn_cast<IntrinsicInst>(user)) {
        if (intrinsic->getIntrinsicID() == Intrinsic::lifetime_start) starts.push_back(intrinsic);
        else if (intrinsic->getIntrinsicID() == Intrinsic::lifetime_end) ends.insert(intrinsic->getParent());
      }
    if (starts.empty() || ends.empty()) return std::nullopt;
    SmallPtrSet<BasicBlock *, 32> seen;
    SmallVector<BasicBlock *, 32> work;
    for (IntrinsicInst *start : starts) {
      bool endsHere = false;
      for (Instruction *inst = start->getNextNode(); inst && !endsHere; inst = inst->getNextNode())
        if (auto *intrinsic = dyn_cast<IntrinsicInst>(inst))
          endsHere = intrinsic->getIntrinsicID() == Intrinsic::lifetime_end && intrinsic->getArgOperand(0) == &alloca;
      if (!endsHere)
        for (BasicBlock *next : successors(start->getParent()))
          if (seen.insert(next).second) work.push_back(next);
    }
    while (!work.empty()) {
      BasicBlock *block = work.pop_back_val();
      if (barrierSet.contains(block)) return true;
      if (ends.contains(block)) continue;
      for (BasicBlock *next : successors(block))
        if (seen.insert(next).second) work.push_back(next);
    }
    return false;
  };
  auto needsFrame = [&](AllocaInst &alloca) {
    bool before = false, after = false;
    SmallVector<Instruction *, 16> work{&alloca};
    SmallPtrSet<Instruction *, 16> seen;
    while (!work.empty()) {
      Instruction *pointer = work.pop_back_val();
      for (User *user : pointer->users()) {
        auto *inst = dyn_cast<Instruction>(user);
        if (!inst) return true;
        if (!seen.insert(inst).second) continue;
        if (auto *intrinsic = dyn_cast<IntrinsicInst>(inst); intrinsic && intrinsic->isLifetimeStartOrEnd()) continue;
        // The address escapes into memory or an integer: where it is used is unknown.
        if (auto *store = dyn_cast<StoreInst>(inst); store && store->getValueOperand() == pointer) return true;
        if (isa<PtrToIntInst>(inst)) return true;
        before |= beforeBarrier.contains(inst->getParent());
        after |= afterBarrier.contains(inst->getParent());
        if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode, SelectInst>(inst)) work.push_back(inst);
      }
    }
    // Used on both sides of a barrier, and (if it has lifetime markers) alive
    // across one: a barrier in a loop is on both sides of everything in it.
    return before && after && lifetimeCrossesBarrier(alloca).value_or(true);
  };
  const DataLayout &layout = module.getDataLayout();
  SteppedKernel result;
  result.step = step;
  result.barriers = static_cast<unsigned>(barriers.size());
  for (BasicBlock &block : *step)
    for (Instruction &inst : make_early_inc_range(block)) {
      auto *alloca = dyn_cast<AllocaInst>(&inst);
      if (!alloca || !needsFrame(*alloca)) continue;
      std::optional<TypeSize> size = alloca->getAllocationSize(layout);
      if (!size || size->isScalable())
        return failure("kernel '" + kernelName +
                       "' has a local array whose size is only known at run time and a work-group barrier; the "
                       "CPU device cannot run it");
      const Align align = alloca->getAlign();
      result.frameBytes = alignTo(result.frameBytes, align);
      result.frameAlign = std::max<uint64_t>(result.frameAlign, align.value());
      for (User *user : make_early_inc_range(alloca->users()))
        if (auto *intrinsic = dyn_cast<IntrinsicInst>(user); intrinsic && intrinsic->isLifetimeStartOrEnd())
          intrinsic->eraseFromParent();
      IRBuilder<> at(alloca);  // where the variable was: before the address arithmetic moved to the entry
      alloca->replaceAllUsesWith(
          at.CreateConstInBoundsGEP1_64(at.getInt8Ty(), frame, result.frameBytes, alloca->getName() + ".frame"));
      alloca->eraseFromParent();
      result.frameBytes += size->getFixedValue();
    }

  // Returning: the work-item is done. A barrier: it stops there, to resume
  // after it in the next phase.
  for (ReturnInst *ret : returns) {
    IRBuilder<> at(ret);
    at.CreateAlignedStore(at.getInt32(kStepDone), resume, Align(4));
  }
  for (unsigned k = 0; k < barrierBlocks.size(); ++k) {
    BasicBlock *at = barrierBlocks[k];
    at->getTerminator()->eraseFromParent();
    barriers[k]->eraseFromParent();
    IRBuilder<> b(at);
    b.CreateAlignedStore(b.getInt32(static_cast<int32_t>(k + 1)), resume, Align(4));
    b.CreateRetVoid();
  }
  // The entry dispatches on the resume word.
  Instruction *toBody = entry.getTerminator();
  BasicBlock *body = toBody->getSuccessor(0);
  toBody->eraseFromParent();
  IRBuilder<> dispatch(&entry);
  SwitchInst *resumeAt = dispatch.CreateSwitch(dispatch.CreateAlignedLoad(dispatch.getInt32Ty(), resume, Align(4)),
                                              body, static_cast<unsigned>(continuations.size()));
  for (unsigned k = 0; k < continuations.size(); ++k)
    resumeAt->addCase(dispatch.getInt32(static_cast<int32_t>(k + 1)), continuations[k]);

  std::string problems;
  raw_string_ostream stream(problems);
  if (verifyFunction(*step, &stream))
    return failure("internal error: the barrier lowering of kernel '" + kernelName + "' is invalid: " + problems);
  return result;
}

}  // namespace onepass::jit
