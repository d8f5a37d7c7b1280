#include "BarrierLowering.h"
#include "sycl/detail/onepass_abi.hpp"

#include "WorkItemLowering.h"

#include "../../builtins/common/work_item_abi.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>
#include <set>

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

// Whether `value` is the work-item state (__onepass_work_item()).
bool isWorkItemState(const Value *value) {
  const auto *call = dyn_cast<CallInst>(value);
  return call && call->getCalledFunction() && call->getCalledFunction()->getName() == kWorkItemBuiltin;
}

// For a load of a word of the work-item state: which word.
std::optional<uint64_t> workItemStateWord(const LoadInst &load) {
  APInt offset(64, 0);
  const Value *base =
      load.getPointerOperand()->stripAndAccumulateInBoundsConstantOffsets(load.getModule()->getDataLayout(), offset);
  if (!isWorkItemState(base)) return std::nullopt;
  return offset.getZExtValue() / 8;
}

// The values of `fn` that may differ between the work-items of a group at
// the same point of the kernel (the rest are "uniform": the same for all).
// Sources: the work-item's global and local ids and its place in its
// sub-group, memory (loads, calls that touch it, local variables' addresses);
// then whatever depends on one, and the phis and loop results that a branch
// on a varying condition decides.
SmallPtrSet<Value *, 32> varyingValues(Function &fn) {
  static const char *const kVaryingQueries[] = {ONEPASS_ABI_GET_GLOBAL_ID, ONEPASS_ABI_GET_LOCAL_ID,
                                                ONEPASS_ABI_SUB_GROUP_LOCAL_ID, ONEPASS_ABI_SUB_GROUP_ID};
  auto source = [&](Instruction &inst) {
    if (auto *call = dyn_cast<CallInst>(&inst)) {
      Function *callee = call->getCalledFunction();
      if (!callee || !call->doesNotAccessMemory()) return true;
      for (const char *name : kVaryingQueries)
        if (callee->getName() == name) return true;
      return false;
    }
    if (auto *load = dyn_cast<LoadInst>(&inst)) {
      // The work-item state: only its id words differ between work-items.
      const std::optional<uint64_t> word = workItemStateWord(*load);
      if (!word) return true;
      auto within = [&](unsigned first) { return *word >= first && *word < first + 3; };
      return within(builtins::kGlobalIdWord) || within(builtins::kLocalIdWord);
    }
    return inst.mayReadFromMemory() || isa<AllocaInst>(inst);
  };
  DominatorTree dominators(fn);
  PostDominatorTree postDominators(fn);
  LoopInfo loops(dominators);
  SmallPtrSet<Value *, 32> varying;
  SmallPtrSet<Instruction *, 16> divergentBranches;
  for (bool changed = true; changed;) {
    changed = false;
    for (Instruction &inst : instructions(fn)) {
      if (varying.contains(&inst) || inst.getType()->isVoidTy()) continue;
      bool differs = source(inst);
      for (const Use &operand : inst.operands()) differs |= varying.contains(operand.get());
      if (differs) changed |= varying.insert(&inst).second;
    }
    for (BasicBlock &block : fn) {
      Instruction *branch = block.getTerminator();
      if (branch->getNumSuccessors() < 2 || divergentBranches.contains(branch)) continue;
      Value *condition = nullptr;
      if (auto *br = dyn_cast<BranchInst>(branch)) condition = br->getCondition();
      else if (auto *sw = dyn_cast<SwitchInst>(branch)) condition = sw->getCondition();
      if (condition && !varying.contains(condition)) continue;
      divergentBranches.insert(branch);
      changed = true;
      // The blocks it decides between, up to where its paths meet again:
      // their phis (and the meeting point's) depend on the work-item.
      DomTreeNode *node = postDominators.getNode(&block);
      BasicBlock *join = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
      SmallPtrSet<BasicBlock *, 16> seen;
      SmallVector<BasicBlock *, 16> work;
      for (BasicBlock *next : successors(&block)) work.push_back(next);
      while (!work.empty()) {
        BasicBlock *at = work.pop_back_val();
        if (!seen.insert(at).second) continue;
        for (PHINode &phi : at->phis()) varying.insert(&phi);
        if (at != join)
          for (BasicBlock *next : successors(at)) work.push_back(next);
      }
      // Leaving a loop on a varying condition: what the loop computed differs.
      if (Loop *loop = loops.getLoopFor(&block))
        for (BasicBlock *inLoop : loop->blocks())
          for (Instruction &inst : *inLoop)
            for (User *user : inst.users())
              if (auto *userInst = dyn_cast<Instruction>(user); userInst && !loop->contains(userInst))
                varying.insert(&inst);
    }
  }
  return varying;
}

}  // namespace

Expected<SteppedKernel> buildSteppedKernel(Module &module, Function &kernel, StringRef kernelName) {
  LLVMContext &ctx = module.getContext();
  Function *barrier = module.getFunction(kBarrierBuiltin);
  if (!barrier) return failure("internal error: no barrier in kernel '" + kernelName + "'");
  if (!kernel.getReturnType()->isVoidTy()) return failure("internal error: the kernel function returns a value");
  if (Error err = inlineBarrierPaths(kernel, *barrier, kernelName)) return err;

  // The step: the kernel's body with the group's frames, the work-item's
  // place among them, where it resumes and where it tells where it stopped.
  Type *ptr = PointerType::get(ctx, 0);
  Type *i64 = Type::getInt64Ty(ctx);
  std::vector<Type *> params(kernel.getFunctionType()->param_begin(), kernel.getFunctionType()->param_end());
  const unsigned fieldCount = static_cast<unsigned>(params.size());
  params.insert(params.end(), {ptr, ptr, i64, i64, Type::getInt32Ty(ctx), ptr, Type::getInt1Ty(ctx)});
  static_assert(kStepFixedParameters == 7);
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
  Value *group = step->getArg(fieldCount);
  Value *frames = step->getArg(fieldCount + 1);
  Value *item = step->getArg(fieldCount + 2);
  Value *items = step->getArg(fieldCount + 3);
  Value *from = step->getArg(fieldCount + 4);
  Value *next = step->getArg(fieldCount + 5);
  Value *together = step->getArg(fieldCount + 6);
  group->setName("group");
  together->setName("together");
  frames->setName("frames");
  item->setName("item");
  items->setName("items");
  from->setName("from");
  next->setName("next");

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
  // Addresses within local variables, and other arithmetic on values known
  // on entry (work-item ids included), move to the entry block: computed
  // again in every phase rather than kept in the frame, and the variables'
  // addresses do not escape. Nothing that reads memory, or may trap.
  // The work-item state (its ids, the group's local memory) is the current
  // work-item's in every phase: reading it again is reading the same.
  auto readsWorkItemState = [](Instruction &inst) {
    if (isWorkItemState(&inst)) return true;
    auto *load = dyn_cast<LoadInst>(&inst);
    return load && load->isSimple() && workItemStateWord(*load).has_value();
  };
  auto recomputable = [&](Instruction &inst) {
    if (readsWorkItemState(inst)) return true;
    if (auto *call = dyn_cast<CallInst>(&inst))  // a query (a work-item id, say)
      return call->doesNotAccessMemory() && call->doesNotThrow() && call->willReturn() && !call->isConvergent() &&
             !call->isInlineAsm() && !call->getType()->isVoidTy();
    if (isa<PHINode>(inst) || inst.isTerminator() || inst.mayReadOrWriteMemory() || inst.mayHaveSideEffects())
      return false;
    return isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst>(inst) || isSafeToSpeculativelyExecute(&inst);
  };
  for (bool moved = true; moved;) {
    moved = false;
    for (BasicBlock &block : *step) {
      if (&block == &entry) continue;
      for (Instruction &inst : make_early_inc_range(block)) {
        if (isa<AllocaInst>(inst) || !recomputable(inst)) continue;
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
  // Which values live across a barrier are the same for the whole group.
  const SmallPtrSet<Value *, 32> varying = varyingValues(*step);
  SteppedKernel result;
  result.step = step;
  result.barriers = static_cast<unsigned>(barriers.size());
  const SmallPtrSet<BasicBlock *, 8> barrierSet(barrierBlocks.begin(), barrierBlocks.end());
  // Whether every branch between a resume point and the barriers (or the
  // end) it leads to is uniform: then the whole group stops at the same
  // place, and the launcher need not check.
  // The same holds, whatever the branches, when only one place can be
  // reached at all (every path ends at the same barrier, or at the end):
  // then that place is known here (stopsAt).
  result.uniformExit.assign(barriers.size() + 1, true);
  result.stopsAt.assign(barriers.size() + 1, std::nullopt);
  for (size_t k = 0; k <= continuations.size(); ++k) {
    BasicBlock *from = k == 0 ? entry.getTerminator()->getSuccessor(0) : continuations[k - 1];
    SmallPtrSet<BasicBlock *, 32> seen;
    SmallVector<BasicBlock *, 32> work{from};
    bool uniformBranches = true, unknownStop = false;
    std::set<int32_t> stops;
    while (!work.empty()) {
      BasicBlock *block = work.pop_back_val();
      if (!seen.insert(block).second) continue;
      Instruction *branch = block->getTerminator();
      Value *condition = nullptr;
      if (auto *br = dyn_cast<BranchInst>(branch); br && br->isConditional()) condition = br->getCondition();
      else if (auto *sw = dyn_cast<SwitchInst>(branch)) condition = sw->getCondition();
      else if (isa<ReturnInst>(branch)) stops.insert(kStepDone);
      else if (!isa<BranchInst, UnreachableInst>(branch)) uniformBranches = false, unknownStop = true;
      if (condition && varying.contains(condition)) uniformBranches = false;
      for (BasicBlock *next : successors(block)) {
        if (auto at = find(barrierBlocks, next); at != barrierBlocks.end())
          stops.insert(static_cast<int32_t>(at - barrierBlocks.begin()) + 1);
        else work.push_back(next);
      }
    }
    if (!unknownStop && stops.size() == 1) result.stopsAt[k] = *stops.begin();
    result.uniformExit[k] = uniformBranches || result.stopsAt[k].has_value();
  }
  SmallPtrSet<AllocaInst *, 16> uniformSlots;
  auto uniformValue = [&](Instruction &inst) {
    if (auto *load = dyn_cast<LoadInst>(&inst))  // a reload of a demoted value
      if (auto *slot = dyn_cast<AllocaInst>(load->getPointerOperand()); slot && slot->getParent() == &entry)
        return uniformSlots.contains(slot);
    return !varying.contains(&inst) && !isa<LoadInst>(inst);
  };
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
      const bool uniform = uniformValue(*inst);
      AllocaInst *slot = isa<PHINode>(inst) ? DemotePHIToStack(cast<PHINode>(inst), allocaPoint)
                                            : DemoteRegToStack(*inst, false, allocaPoint);
      if (slot && uniform) uniformSlots.insert(slot);
    }
  }
  // While the group is together, a uniform value lives in two group copies
  // (one address for all work-items, so that what depends on it is uniform
  // to the vectorizer too: no gathers, affine addresses). Writes go to the
  // phase's copy; a read that a write of this phase may precede reads it
  // too, and a read that none can precede (it reads what an earlier phase
  // left) reads the previous phase's copy: a work-item that already ran
  // this phase must not change what a later one reads. The launcher carries
  // the phase's copy over after each phase, and passes the previous copy
  // to the step as a parameter (see below).
  SmallPtrSet<LoadInst *, 16> phaseStartReads;
  for (AllocaInst *slot : uniformSlots) {
    SmallPtrSet<BasicBlock *, 32> written;  // blocks entered after a write without a barrier between
    SmallPtrSet<Instruction *, 8> stores;
    SmallVector<BasicBlock *, 32> work;
    for (User *user : slot->users())
      if (auto *store = dyn_cast<StoreInst>(user); store && store->getPointerOperand() == slot) {
        stores.insert(store);
        for (BasicBlock *next : successors(store->getParent())) work.push_back(next);
      }
    while (!work.empty()) {
      BasicBlock *block = work.pop_back_val();
      if (barrierSet.contains(block) || !written.insert(block).second) continue;
      for (BasicBlock *next : successors(block)) work.push_back(next);
    }
    for (User *user : slot->users()) {
      auto *load = dyn_cast<LoadInst>(user);
      if (!load || written.contains(load->getParent())) continue;
      bool afterStore = false;  // in the block of a write, after it
      for (Instruction *inst = load->getPrevNode(); inst && !afterStore; inst = inst->getPrevNode())
        afterStore = stores.contains(inst);
      if (!afterStore) phaseStartReads.insert(load);
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
  // The frames are laid out by variable, not by work-item: variable j of the
  // group's work-items is a column of `items` slots of its size, so that the
  // same variable of neighbouring work-items is adjacent (loops over the
  // work-items vectorize). Columns start at multiples of the largest
  // alignment.
  struct Column {
    AllocaInst *alloca;
    uint64_t slot;  // bytes per work-item: the size rounded up to the alignment
  };
  std::vector<Column> columns;
  for (BasicBlock &block : *step)
    for (Instruction &inst : block) {
      auto *alloca = dyn_cast<AllocaInst>(&inst);
      if (!alloca || !needsFrame(*alloca)) continue;
      std::optional<TypeSize> size = alloca->getAllocationSize(layout);
      if (!size || size->isScalable())
        return failure("kernel '" + kernelName +
                       "' has a local array whose size is only known at run time and a work-group barrier; the "
                       "CPU device cannot run it");
      columns.push_back({alloca, alignTo(std::max<uint64_t>(size->getFixedValue(), 1), alloca->getAlign())});
      result.frameAlign = std::max<uint64_t>(result.frameAlign, alloca->getAlign().value());
    }
  // The group's copies of uniform values come first (the previous phase's,
  // then this phase's), then the columns.
  std::vector<uint64_t> groupCopies(columns.size(), UINT64_MAX);
  std::vector<Type *> uniformTypes;
  for (size_t j = 0; j < columns.size(); ++j)
    if (uniformSlots.contains(columns[j].alloca)) {
      result.groupBytes = alignTo(result.groupBytes, columns[j].alloca->getAlign());
      groupCopies[j] = result.groupBytes;
      result.groupBytes += 2 * columns[j].slot;
      uniformTypes.push_back(columns[j].alloca->getAllocatedType());
    }
  // While the group is together, the launcher reads each uniform's previous
  // copy once, before its loop over the work-items, and passes it as a
  // parameter: what depends on it is loop-invariant at once (uniform
  // branches unswitch), with no alias analysis to prove that the loop's
  // stores leave the copy alone. The step gets one parameter per uniform.
  if (!uniformTypes.empty()) {
    std::vector<Type *> withUniforms(step->getFunctionType()->param_begin(), step->getFunctionType()->param_end());
    withUniforms.insert(withUniforms.end(), uniformTypes.begin(), uniformTypes.end());
    Function *wider = Function::Create(FunctionType::get(Type::getVoidTy(ctx), withUniforms, false),
                                       GlobalValue::InternalLinkage, "", module);
    wider->copyAttributesFrom(step);
    wider->splice(wider->begin(), step);
    for (Argument &argument : step->args()) {
      wider->getArg(argument.getArgNo())->takeName(&argument);
      argument.replaceAllUsesWith(wider->getArg(argument.getArgNo()));
    }
    wider->takeName(step);
    step->eraseFromParent();
    step = result.step = wider;
    group = step->getArg(fieldCount);
    frames = step->getArg(fieldCount + 1);
    item = step->getArg(fieldCount + 2);
    items = step->getArg(fieldCount + 3);
    from = step->getArg(fieldCount + 4);
    next = step->getArg(fieldCount + 5);
    together = step->getArg(fieldCount + 6);
  }
  unsigned uniformIndex = 0;
  for (size_t j = 0; j < columns.size(); ++j) {
    AllocaInst *alloca = columns[j].alloca;
    for (User *user : make_early_inc_range(alloca->users()))
      if (auto *intrinsic = dyn_cast<IntrinsicInst>(user); intrinsic && intrinsic->isLifetimeStartOrEnd())
        intrinsic->eraseFromParent();
    IRBuilder<> at(alloca);  // where the variable was: before the address arithmetic moved to the entry
    Value *offset = at.CreateNUWMul(item, at.getInt64(columns[j].slot));
    if (result.frameBytes > 0) offset = at.CreateNUWAdd(at.CreateNUWMul(items, at.getInt64(result.frameBytes)), offset);
    Value *own = at.CreateInBoundsGEP(at.getInt8Ty(), frames, offset, alloca->getName() + ".frame");
    if (groupCopies[j] != UINT64_MAX) {
      const uint64_t previous = groupCopies[j], current = previous + columns[j].slot;
      Value *before = nullptr;  // (made only for a read of part of the value)
      auto previousCopy = [&] {
        if (!before)
          before = at.CreateSelect(
              together, at.CreateConstInBoundsGEP1_64(at.getInt8Ty(), group, previous, alloca->getName() + ".previous"),
              own, alloca->getName() + ".before");
        return before;
      };
      Value *now = at.CreateSelect(
          together, at.CreateConstInBoundsGEP1_64(at.getInt8Ty(), group, current, alloca->getName() + ".current"), own,
          alloca->getName() + ".now");
      Argument *passed = step->getArg(fieldCount + kStepFixedParameters + uniformIndex++);
      passed->setName(alloca->getName() + ".uniform");
      for (User *user : make_early_inc_range(alloca->users())) {
        if (auto *load = dyn_cast<LoadInst>(user)) {
          const bool whole = load->getType() == alloca->getAllocatedType() && !load->isVolatile();
          if (!phaseStartReads.contains(load) || !whole) {
            load->setOperand(load->getPointerOperandIndex(), phaseStartReads.contains(load) ? previousCopy() : now);
            continue;
          }
          // Together: the launcher's read; apart: the work-item's own.
          load->setOperand(load->getPointerOperandIndex(), own);
          IRBuilder<> after(load->getNextNode());
          Value *value = after.CreateSelect(together, passed, load);
          load->replaceUsesWithIf(value, [&](Use &use) { return use.getUser() != value; });
        } else if (auto *store = dyn_cast<StoreInst>(user); store && store->getPointerOperand() == alloca) {
          store->setOperand(store->getPointerOperandIndex(), now);
        }
      }
      result.uniforms.push_back({previous, current, result.frameBytes, columns[j].slot, alloca->getAllocatedType()});
    }
    alloca->replaceAllUsesWith(own);
    alloca->eraseFromParent();
    result.frameBytes = alignTo(result.frameBytes + columns[j].slot, result.frameAlign);
  }

  // Returning: the work-item is done. A barrier: it stops there, to resume
  // after it in the next phase.
  for (ReturnInst *ret : returns) {
    IRBuilder<> at(ret);
    at.CreateAlignedStore(at.getInt32(kStepDone), next, Align(4));
  }
  for (unsigned k = 0; k < barrierBlocks.size(); ++k) {
    BasicBlock *at = barrierBlocks[k];
    at->getTerminator()->eraseFromParent();
    barriers[k]->eraseFromParent();
    IRBuilder<> b(at);
    b.CreateAlignedStore(b.getInt32(static_cast<int32_t>(k + 1)), next, Align(4));
    b.CreateRetVoid();
  }
  // The entry dispatches on where the work-item resumes.
  Instruction *toBody = entry.getTerminator();
  BasicBlock *body = toBody->getSuccessor(0);
  toBody->eraseFromParent();
  IRBuilder<> dispatch(&entry);
  SwitchInst *resumeAt = dispatch.CreateSwitch(from, body, static_cast<unsigned>(continuations.size()));
  for (unsigned k = 0; k < continuations.size(); ++k)
    resumeAt->addCase(dispatch.getInt32(static_cast<int32_t>(k + 1)), continuations[k]);

  std::string problems;
  raw_string_ostream stream(problems);
  if (verifyFunction(*step, &stream))
    return failure("internal error: the barrier lowering of kernel '" + kernelName + "' is invalid: " + problems);
  return result;
}

}  // namespace onepass::jit
