#include "BarrierLowering.h"
#include "sycl/detail/onepass_abi.hpp"

#include "GroupUniformity.h"
#include "WorkItemLowering.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
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

// Whether `inst` reads the work-item state (its ids, the group's local
// memory), the current work-item's in every phase: reading it again is
// reading the same.
bool readsWorkItemState(Instruction &inst) {
  if (isWorkItemState(&inst)) return true;
  auto *load = dyn_cast<LoadInst>(&inst);
  return load && load->isSimple() && loadedStateWord(*load).has_value();
}

// Whether `inst` may move to the entry block and run again in every phase:
// address arithmetic and other computation on values known on entry.
// Nothing that reads memory, or may trap.
bool recomputable(Instruction &inst) {
  if (readsWorkItemState(inst)) return true;
  if (auto *call = dyn_cast<CallInst>(&inst))  // a query (a work-item id, say)
    return call->doesNotAccessMemory() && call->doesNotThrow() && call->willReturn() && !call->isConvergent() &&
           !call->isInlineAsm() && !call->getType()->isVoidTy();
  if (isa<PHINode>(inst) || inst.isTerminator() || inst.mayReadOrWriteMemory() || inst.mayHaveSideEffects())
    return false;
  return isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst>(inst) || isSafeToSpeculativelyExecute(&inst);
}

// The step's fixed parameters after the kernel's own (SteppedKernel::step).
enum StepParameter : unsigned { kGroup, kFrames, kItem, kItems, kFrom, kNext, kTogether };
static_assert(kTogether + 1 == kStepFixedParameters);

// Builds the step of one kernel (buildSteppedKernel), a stage per method,
// in the order build() calls them.
class StepBuilder {
public:
  StepBuilder(Module &module, Function &kernel, StringRef kernelName)
      : module_(module), ctx_(module.getContext()), kernel_(kernel), kernelName_(kernelName) {}

  Expected<SteppedKernel> build();

private:
  void createStep();
  void isolateBarriers();
  void hoistRecomputable();
  void findStops();
  bool uniformValue(Instruction &inst) const;
  void demoteCrossingValues();
  void findPhaseStartReads();
  void markBarrierSides();
  std::optional<bool> lifetimeCrossesBarrier(AllocaInst &alloca) const;
  bool needsFrame(AllocaInst &alloca) const;
  Error layOutColumns();
  std::vector<Type *> layOutGroupCopies();
  void passUniforms(const std::vector<Type *> &uniformTypes);
  void moveToFrame(size_t j, unsigned &uniformIndex);
  void redirectUniform(IRBuilder<> &at, size_t j, Value *own, Argument *passed);
  void stopAtBarriers();

  Argument *parameter(StepParameter which) const { return step_->getArg(fieldCount_ + which); }

  Module &module_;
  LLVMContext &ctx_;
  Function &kernel_;
  const StringRef kernelName_;
  Function *barrier_ = nullptr;

  Function *step_ = nullptr;
  unsigned fieldCount_ = 0;  // the kernel's own parameters
  SmallVector<ReturnInst *, 4> returns_;
  std::vector<CallInst *> barriers_;
  // Per barrier: its block (the call alone), and the block after it.
  std::vector<BasicBlock *> barrierBlocks_, continuations_;
  SmallPtrSet<BasicBlock *, 8> barrierSet_;
  BasicBlock *entry_ = nullptr;
  BasicBlock::iterator allocaPoint_;
  SmallPtrSet<Value *, 32> varying_;
  // Local variables a value live across a barrier was demoted to, when the
  // value is the same for the whole group.
  SmallPtrSet<AllocaInst *, 16> uniformSlots_;
  // Reads of uniformSlots_ that no write of their phase can precede.
  SmallPtrSet<LoadInst *, 16> phaseStartReads_;
  SmallPtrSet<BasicBlock *, 32> afterBarrier_, beforeBarrier_;
  // The frames are laid out by variable, not by work-item: variable j of the
  // group's work-items is a column of `items` slots of its size, so that the
  // same variable of neighbouring work-items is adjacent (loops over the
  // work-items vectorize). Columns start at multiples of the largest
  // alignment.
  struct Column {
    AllocaInst *alloca;
    uint64_t slot;  // bytes per work-item: the size rounded up to the alignment
  };
  std::vector<Column> columns_;
  std::vector<uint64_t> groupCopies_;  // per column: its group copies' offset, or UINT64_MAX
  SteppedKernel result_;
};

Expected<SteppedKernel> StepBuilder::build() {
  barrier_ = module_.getFunction(kBarrierBuiltin);
  if (!barrier_) return failure("internal error: no barrier in kernel '" + kernelName_ + "'");
  if (!kernel_.getReturnType()->isVoidTy()) return failure("internal error: the kernel function returns a value");
  if (Error err = inlineBarrierPaths(kernel_, *barrier_, kernelName_)) return err;
  createStep();
  isolateBarriers();
  hoistRecomputable();
  // Which values live across a barrier are the same for the whole group.
  varying_ = varyingValues(*step_);
  result_.step = step_;
  result_.barriers = static_cast<unsigned>(barriers_.size());
  barrierSet_.insert(barrierBlocks_.begin(), barrierBlocks_.end());
  findStops();
  demoteCrossingValues();
  findPhaseStartReads();
  markBarrierSides();
  if (Error err = layOutColumns()) return err;
  const std::vector<Type *> uniformTypes = layOutGroupCopies();
  if (!uniformTypes.empty()) passUniforms(uniformTypes);
  unsigned uniformIndex = 0;
  for (size_t j = 0; j < columns_.size(); ++j) moveToFrame(j, uniformIndex);
  stopAtBarriers();

  std::string problems;
  raw_string_ostream stream(problems);
  if (verifyFunction(*step_, &stream))
    return failure("internal error: the barrier lowering of kernel '" + kernelName_ + "' is invalid: " + problems);
  return result_;
}

// The step: the kernel's body with the group's frames, the work-item's
// place among them, where it resumes and where it tells where it stopped.
void StepBuilder::createStep() {
  Type *ptr = PointerType::get(ctx_, 0);
  Type *i64 = Type::getInt64Ty(ctx_);
  std::vector<Type *> params(kernel_.getFunctionType()->param_begin(), kernel_.getFunctionType()->param_end());
  fieldCount_ = static_cast<unsigned>(params.size());
  params.insert(params.end(), {ptr, ptr, i64, i64, Type::getInt32Ty(ctx_), ptr, Type::getInt1Ty(ctx_)});
  step_ = Function::Create(FunctionType::get(Type::getVoidTy(ctx_), params, false), GlobalValue::InternalLinkage,
                           kernel_.getName() + ".step", module_);
  ValueToValueMapTy map;
  for (unsigned i = 0; i < fieldCount_; ++i) {
    map[kernel_.getArg(i)] = step_->getArg(i);
    step_->getArg(i)->setName(kernel_.getArg(i)->getName());
  }
  CloneFunctionInto(step_, &kernel_, map, CloneFunctionChangeType::LocalChangesOnly, returns_);
  step_->setLinkage(GlobalValue::InternalLinkage);
  parameter(kGroup)->setName("group");
  parameter(kTogether)->setName("together");
  parameter(kFrames)->setName("frames");
  parameter(kItem)->setName("item");
  parameter(kItems)->setName("items");
  parameter(kFrom)->setName("from");
  parameter(kNext)->setName("next");
}

// Each barrier alone in a block, between the code before and after it.
void StepBuilder::isolateBarriers() {
  for (Instruction &inst : instructions(*step_))
    if (auto *call = dyn_cast<CallInst>(&inst); call && call->getCalledFunction() == barrier_)
      barriers_.push_back(call);
  for (CallInst *call : barriers_) {
    const std::string k = std::to_string(barrierBlocks_.size() + 1);
    BasicBlock *at = splitAt(call, "barrier." + k);
    continuations_.push_back(splitAt(call->getNextNode(), "resume." + k));
    barrierBlocks_.push_back(at);
  }
}

// The entry block keeps only the local variables; every value live across
// a barrier (on entry to the block after it) goes to memory, as a local
// variable too (demoteCrossingValues). Values that are not stay in
// registers: once the entry jumps straight to the blocks after the
// barriers, their definitions still dominate their uses.
// Addresses within local variables, and other arithmetic on values known
// on entry (work-item ids included), move to the entry block: computed
// again in every phase rather than kept in the frame, and the variables'
// addresses do not escape.
void StepBuilder::hoistRecomputable() {
  entry_ = &step_->getEntryBlock();
  BasicBlock::iterator firstCode = entry_->begin();
  while (isa<AllocaInst>(*firstCode)) ++firstCode;
  splitAt(&*firstCode, "start");
  allocaPoint_ = entry_->getTerminator()->getIterator();
  for (bool moved = true; moved;) {
    moved = false;
    for (BasicBlock &block : *step_) {
      if (&block == entry_) continue;
      for (Instruction &inst : make_early_inc_range(block)) {
        if (isa<AllocaInst>(inst) || !recomputable(inst)) continue;
        const bool known = all_of(inst.operands(), [&](const Use &operand) {
          auto *defined = dyn_cast<Instruction>(operand.get());
          return isa<Constant, Argument>(operand.get()) || (defined && defined->getParent() == entry_);
        });
        if (!known) continue;
        inst.moveBefore(entry_->getTerminator()->getIterator());
        moved = true;
      }
    }
  }
}

// Whether every branch between a resume point and the barriers (or the
// end) it leads to is uniform: then the whole group stops at the same
// place, and the launcher need not check.
// The same holds, whatever the branches, when only one place can be
// reached at all (every path ends at the same barrier, or at the end):
// then that place is known here (stopsAt).
void StepBuilder::findStops() {
  result_.uniformExit.assign(barriers_.size() + 1, true);
  result_.stopsAt.assign(barriers_.size() + 1, std::nullopt);
  for (size_t k = 0; k <= continuations_.size(); ++k) {
    BasicBlock *from = k == 0 ? entry_->getTerminator()->getSuccessor(0) : continuations_[k - 1];
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
      if (condition && varying_.contains(condition)) uniformBranches = false;
      for (BasicBlock *next : successors(block)) {
        if (auto at = find(barrierBlocks_, next); at != barrierBlocks_.end())
          stops.insert(static_cast<int32_t>(at - barrierBlocks_.begin()) + 1);
        else work.push_back(next);
      }
    }
    if (!unknownStop && stops.size() == 1) result_.stopsAt[k] = *stops.begin();
    result_.uniformExit[k] = uniformBranches || result_.stopsAt[k].has_value();
  }
}

// Whether `inst`, live across a barrier, is the same for the whole group.
bool StepBuilder::uniformValue(Instruction &inst) const {
  if (auto *load = dyn_cast<LoadInst>(&inst))  // a reload of a demoted value
    if (auto *slot = dyn_cast<AllocaInst>(load->getPointerOperand()); slot && slot->getParent() == entry_)
      return uniformSlots_.contains(slot);
  return !varying_.contains(&inst) && !isa<LoadInst>(inst);
}

// Every value live across a barrier to a local variable. A demoted phi
// becomes a load in its block, itself perhaps live across a barrier: until
// nothing is.
void StepBuilder::demoteCrossingValues() {
  const SmallPtrSet<BasicBlock *, 8> resumePoints(continuations_.begin(), continuations_.end());
  for (;;) {
    std::vector<Instruction *> crossing;
    for (BasicBlock &block : *step_)
      if (&block != entry_)
        for (Instruction &inst : block)
          if (inst.getType()->isSized() && !inst.use_empty() && liveIntoAny(inst, resumePoints))
            crossing.push_back(&inst);
    if (crossing.empty()) break;
    for (Instruction *inst : crossing) {
      const bool uniform = uniformValue(*inst);
      AllocaInst *slot = isa<PHINode>(inst) ? DemotePHIToStack(cast<PHINode>(inst), allocaPoint_)
                                            : DemoteRegToStack(*inst, false, allocaPoint_);
      if (slot && uniform) uniformSlots_.insert(slot);
    }
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
// to the step as a parameter (passUniforms).
void StepBuilder::findPhaseStartReads() {
  for (AllocaInst *slot : uniformSlots_) {
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
      if (barrierSet_.contains(block) || !written.insert(block).second) continue;
      for (BasicBlock *next : successors(block)) work.push_back(next);
    }
    for (User *user : slot->users()) {
      auto *load = dyn_cast<LoadInst>(user);
      if (!load || written.contains(load->getParent())) continue;
      bool afterStore = false;  // in the block of a write, after it
      for (Instruction *inst = load->getPrevNode(); inst && !afterStore; inst = inst->getPrevNode())
        afterStore = stores.contains(inst);
      if (!afterStore) phaseStartReads_.insert(load);
    }
  }
}

// The blocks that may run after a barrier, and those that may run before one.
void StepBuilder::markBarrierSides() {
  SmallVector<BasicBlock *, 32> work(continuations_.begin(), continuations_.end());
  for (BasicBlock *block : work) afterBarrier_.insert(block);
  while (!work.empty())
    for (BasicBlock *next : successors(work.pop_back_val()))
      if (afterBarrier_.insert(next).second) work.push_back(next);
  work.assign(barrierBlocks_.begin(), barrierBlocks_.end());
  for (BasicBlock *block : work) beforeBarrier_.insert(block);
  while (!work.empty())
    for (BasicBlock *previous : predecessors(work.pop_back_val()))
      if (beforeBarrier_.insert(previous).second) work.push_back(previous);
}

// With lifetime markers (the inliner's, around a callee's locals): whether
// a barrier lies between a start of the variable's lifetime and its end.
std::optional<bool> StepBuilder::lifetimeCrossesBarrier(AllocaInst &alloca) const {
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
    if (barrierSet_.contains(block)) return true;
    if (ends.contains(block)) continue;
    for (BasicBlock *next : successors(block))
      if (seen.insert(next).second) work.push_back(next);
  }
  return false;
}

// A local variable used both before a barrier and after one moves to the
// work-item's frame; the others stay local to one phase (and registers).
bool StepBuilder::needsFrame(AllocaInst &alloca) const {
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
      before |= beforeBarrier_.contains(inst->getParent());
      after |= afterBarrier_.contains(inst->getParent());
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode, SelectInst>(inst)) work.push_back(inst);
    }
  }
  // Used on both sides of a barrier, and (if it has lifetime markers) alive
  // across one: a barrier in a loop is on both sides of everything in it.
  return before && after && lifetimeCrossesBarrier(alloca).value_or(true);
}

// The frame's columns: the local variables that needsFrame.
Error StepBuilder::layOutColumns() {
  const DataLayout &layout = module_.getDataLayout();
  for (BasicBlock &block : *step_)
    for (Instruction &inst : block) {
      auto *alloca = dyn_cast<AllocaInst>(&inst);
      if (!alloca || !needsFrame(*alloca)) continue;
      std::optional<TypeSize> size = alloca->getAllocationSize(layout);
      if (!size || size->isScalable())
        return failure("kernel '" + kernelName_ +
                       "' has a local array whose size is only known at run time and a work-group barrier; the "
                       "CPU device cannot run it");
      columns_.push_back({alloca, alignTo(std::max<uint64_t>(size->getFixedValue(), 1), alloca->getAlign())});
      result_.frameAlign = std::max<uint64_t>(result_.frameAlign, alloca->getAlign().value());
    }
  return Error::success();
}

// The group's copies of uniform values come first (the previous phase's,
// then this phase's), then the columns. Returns the uniforms' types.
std::vector<Type *> StepBuilder::layOutGroupCopies() {
  groupCopies_.assign(columns_.size(), UINT64_MAX);
  std::vector<Type *> uniformTypes;
  for (size_t j = 0; j < columns_.size(); ++j)
    if (uniformSlots_.contains(columns_[j].alloca)) {
      result_.groupBytes = alignTo(result_.groupBytes, columns_[j].alloca->getAlign());
      groupCopies_[j] = result_.groupBytes;
      result_.groupBytes += 2 * columns_[j].slot;
      uniformTypes.push_back(columns_[j].alloca->getAllocatedType());
    }
  return uniformTypes;
}

// While the group is together, the launcher reads each uniform's previous
// copy once, before its loop over the work-items, and passes it as a
// parameter: what depends on it is loop-invariant at once (uniform
// branches unswitch), with no alias analysis to prove that the loop's
// stores leave the copy alone. The step gets one parameter per uniform.
void StepBuilder::passUniforms(const std::vector<Type *> &uniformTypes) {
  std::vector<Type *> withUniforms(step_->getFunctionType()->param_begin(), step_->getFunctionType()->param_end());
  withUniforms.insert(withUniforms.end(), uniformTypes.begin(), uniformTypes.end());
  Function *wider = Function::Create(FunctionType::get(Type::getVoidTy(ctx_), withUniforms, false),
                                     GlobalValue::InternalLinkage, "", module_);
  wider->copyAttributesFrom(step_);
  wider->splice(wider->begin(), step_);
  for (Argument &argument : step_->args()) {
    wider->getArg(argument.getArgNo())->takeName(&argument);
    argument.replaceAllUsesWith(wider->getArg(argument.getArgNo()));
  }
  wider->takeName(step_);
  step_->eraseFromParent();
  step_ = result_.step = wider;
}

// Column j's variable becomes the work-item's slot in the frames (and, if
// uniform, the group's copies while the group is together).
void StepBuilder::moveToFrame(size_t j, unsigned &uniformIndex) {
  AllocaInst *alloca = columns_[j].alloca;
  for (User *user : make_early_inc_range(alloca->users()))
    if (auto *intrinsic = dyn_cast<IntrinsicInst>(user); intrinsic && intrinsic->isLifetimeStartOrEnd())
      intrinsic->eraseFromParent();
  IRBuilder<> at(alloca);  // where the variable was: before the address arithmetic moved to the entry
  Value *offset = at.CreateNUWMul(parameter(kItem), at.getInt64(columns_[j].slot));
  if (result_.frameBytes > 0)
    offset = at.CreateNUWAdd(at.CreateNUWMul(parameter(kItems), at.getInt64(result_.frameBytes)), offset);
  Value *own = at.CreateInBoundsGEP(at.getInt8Ty(), parameter(kFrames), offset, alloca->getName() + ".frame");
  if (groupCopies_[j] != UINT64_MAX)
    redirectUniform(at, j, own, step_->getArg(fieldCount_ + kStepFixedParameters + uniformIndex++));
  alloca->replaceAllUsesWith(own);
  alloca->eraseFromParent();
  result_.frameBytes = alignTo(result_.frameBytes + columns_[j].slot, result_.frameAlign);
}

// A uniform column's reads and writes (findPhaseStartReads): `passed` is
// the step's parameter with the previous phase's copy.
void StepBuilder::redirectUniform(IRBuilder<> &at, size_t j, Value *own, Argument *passed) {
  AllocaInst *alloca = columns_[j].alloca;
  Value *group = parameter(kGroup), *together = parameter(kTogether);
  const uint64_t previous = groupCopies_[j], current = previous + columns_[j].slot;
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
  passed->setName(alloca->getName() + ".uniform");
  for (User *user : make_early_inc_range(alloca->users())) {
    if (auto *load = dyn_cast<LoadInst>(user)) {
      const bool whole = load->getType() == alloca->getAllocatedType() && !load->isVolatile();
      if (!phaseStartReads_.contains(load) || !whole) {
        load->setOperand(load->getPointerOperandIndex(), phaseStartReads_.contains(load) ? previousCopy() : now);
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
  result_.uniforms.push_back({previous, current, result_.frameBytes, columns_[j].slot, alloca->getAllocatedType()});
}

// Returning: the work-item is done. A barrier: it stops there, to resume
// after it in the next phase. The entry dispatches on where the work-item
// resumes.
void StepBuilder::stopAtBarriers() {
  Value *next = parameter(kNext);
  for (ReturnInst *ret : returns_) {
    IRBuilder<> at(ret);
    at.CreateAlignedStore(at.getInt32(kStepDone), next, Align(4));
  }
  for (unsigned k = 0; k < barrierBlocks_.size(); ++k) {
    BasicBlock *at = barrierBlocks_[k];
    at->getTerminator()->eraseFromParent();
    barriers_[k]->eraseFromParent();
    IRBuilder<> b(at);
    b.CreateAlignedStore(b.getInt32(static_cast<int32_t>(k + 1)), next, Align(4));
    b.CreateRetVoid();
  }
  Instruction *toBody = entry_->getTerminator();
  BasicBlock *body = toBody->getSuccessor(0);
  toBody->eraseFromParent();
  IRBuilder<> dispatch(entry_);
  SwitchInst *resumeAt = dispatch.CreateSwitch(parameter(kFrom), body, static_cast<unsigned>(continuations_.size()));
  for (unsigned k = 0; k < continuations_.size(); ++k)
    resumeAt->addCase(dispatch.getInt32(static_cast<int32_t>(k + 1)), continuations_[k]);
}

}  // namespace

Expected<SteppedKernel> buildSteppedKernel(Module &module, Function &kernel, StringRef kernelName) {
  return StepBuilder(module, kernel, kernelName).build();
}

PreservedAnalyses LowerGroupBarriersPass::run(Module &module, ModuleAnalysisManager &) {
  Function *function = module.getFunction(kernel);
  if (!function || function->isDeclaration()) {
    result->error = "no kernel function '" + kernel + "' to lower the barriers of";
    return PreservedAnalyses::all();
  }
  Expected<SteppedKernel> stepped = buildSteppedKernel(module, *function, displayName);
  if (!stepped) {
    result->error = toString(stepped.takeError());
    return PreservedAnalyses::none();  // (the kernel may have been changed: calls inlined)
  }
  result->stepped = std::move(*stepped);
  return PreservedAnalyses::none();
}

std::string describeSteppedKernel(const SteppedKernel &stepped) {
  std::string text = "; frame: " + std::to_string(stepped.frameBytes) + " bytes, align " +
                     std::to_string(stepped.frameAlign) + ", " + std::to_string(stepped.barriers) + " barrier(s), " +
                     std::to_string(stepped.uniforms.size()) + " uniform value(s) in " +
                     std::to_string(stepped.groupBytes) + " group bytes\n; stops together from:";
  for (size_t k = 0; k < stepped.uniformExit.size(); ++k)
    if (stepped.uniformExit[k]) text += " " + std::to_string(k);
  text += "\n; known stops:";
  for (size_t k = 0; k < stepped.stopsAt.size(); ++k)
    if (const std::optional<int32_t> stop = stepped.stopsAt[k])
      text += " " + std::to_string(k) + "->" + (*stop == kStepDone ? "end" : std::to_string(*stop));
  return text + "\n";
}

}  // namespace onepass::jit
