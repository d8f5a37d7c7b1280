#include "WorkItemLoops.h"
#include "sycl/detail/onepass_abi.hpp"

#include "CpuTranslator.h"
#include "ParallelLoops.h"
#include "WorkItemLowering.h"

#include "../../builtins/common/work_item_abi.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace llvm;

namespace onepass::jit {

namespace {

constexpr uint64_t kLocalMemoryAlignment = ONEPASS_ABI_LOCAL_MEMORY_ALIGNMENT;

Value *launchWord(IRBuilder<> &builder, Value *launch, unsigned field, unsigned dimension) {
  return builder.CreateAlignedLoad(
      builder.getInt64Ty(), builder.CreateConstInBoundsGEP1_32(builder.getInt64Ty(), launch, field * 3 + dimension),
      Align(8));
}

// Emits `for (i = begin; i < end; ++i) { *idSlot = i; body(i); }` (no store
// without an idSlot), with `loopId` (see ParallelLoops.h) if any.
void emitLoop(IRBuilder<> &builder, Value *begin, Value *end, Value *idSlot,
              const std::function<void(IRBuilder<> &, Value *)> &body, MDNode *loopId = nullptr) {
  Function *fn = builder.GetInsertBlock()->getParent();
  LLVMContext &ctx = fn->getContext();
  BasicBlock *preheader = builder.GetInsertBlock();
  BasicBlock *loop = BasicBlock::Create(ctx, "wi.loop", fn);
  BasicBlock *exit = BasicBlock::Create(ctx, "wi.exit", fn);
  builder.CreateCondBr(builder.CreateICmpULT(begin, end), loop, exit);

  builder.SetInsertPoint(loop);
  PHINode *index = builder.CreatePHI(builder.getInt64Ty(), 2, "wi.id");
  index->addIncoming(begin, preheader);
  if (idSlot) builder.CreateAlignedStore(index, idSlot, Align(8));
  body(builder, index);
  Value *next = builder.CreateNUWAdd(index, builder.getInt64(1));
  index->addIncoming(next, builder.GetInsertBlock());
  BranchInst *latch = builder.CreateCondBr(builder.CreateICmpULT(next, end), loop, exit);
  if (loopId) latch->setMetadata(LLVMContext::MD_loop, loopId);
  builder.SetInsertPoint(exit);
}

// The blocks of the step that a phase resuming at `k` runs (up to the
// barriers it may stop at, or the end): the step's entry block chooses them
// by `from` (BarrierLowering.h).
SmallPtrSet<const BasicBlock *, 32> phaseBlocks(const Function &step, unsigned k) {
  SmallPtrSet<const BasicBlock *, 32> blocks;
  const auto *dispatch = dyn_cast<SwitchInst>(step.getEntryBlock().getTerminator());
  if (!dispatch) return blocks;
  const BasicBlock *first = dispatch->getDefaultDest();
  for (const auto &resume : dispatch->cases())
    if (resume.getCaseValue()->getZExtValue() == k) first = resume.getCaseSuccessor();
  SmallVector<const BasicBlock *, 32> work{first};
  while (!work.empty()) {
    const BasicBlock *block = work.pop_back_val();
    if (!blocks.insert(block).second) continue;
    for (const BasicBlock *next : successors(block)) work.push_back(next);
  }
  return blocks;
}

// Whether what `compare` decides is used in `blocks`.
bool decidesIn(ICmpInst *compare, const SmallPtrSet<const BasicBlock *, 32> &blocks) {
  SmallPtrSet<const Value *, 16> seen;
  SmallVector<const Value *, 16> users{compare};
  while (!users.empty()) {
    const Value *value = users.pop_back_val();
    if (!seen.insert(value).second) continue;
    if (auto *inst = dyn_cast<Instruction>(value); inst && blocks.contains(inst->getParent())) return true;
    for (const User *user : value->users()) users.push_back(user);
  }
  return false;
}

// Whether `body` singles out the first or the last work-items along
// dimension `d` (`if (local_id == 0)`, a tile's edges): a comparison of that
// local id, give or take a constant, with a constant, that decides something
// in `blocks` (a phase's: phaseBlocks).
bool comparesEdgeWorkItems(Function &body, unsigned d, const SmallPtrSet<const BasicBlock *, 32> &blocks) {
  Function *localId = body.getParent()->getFunction(ONEPASS_ABI_GET_LOCAL_ID);
  if (!localId) return false;
  SmallVector<Value *, 8> work;
  for (User *user : localId->users())
    if (auto *call = dyn_cast<CallInst>(user); call && call->getFunction() == &body)
      if (auto *dimension = dyn_cast<ConstantInt>(call->getArgOperand(0)); dimension && dimension->getZExtValue() == d)
        work.push_back(call);
  SmallPtrSet<Value *, 16> seen;
  while (!work.empty()) {
    Value *value = work.pop_back_val();
    if (!seen.insert(value).second) continue;
    for (User *user : value->users()) {
      if (auto *compare = dyn_cast<ICmpInst>(user))
        if (compare->isEquality() && (isa<Constant>(compare->getOperand(0)) || isa<Constant>(compare->getOperand(1))) &&
            decidesIn(compare, blocks))
          return true;
      if (auto *op = dyn_cast<BinaryOperator>(user);
          op &&
          (op->getOpcode() == Instruction::Add || op->getOpcode() == Instruction::Sub ||
           op->getOpcode() == Instruction::Or) &&
          (isa<Constant>(op->getOperand(0)) || isa<Constant>(op->getOperand(1))))
        work.push_back(op);
      if (isa<ZExtInst, SExtInst, TruncInst>(user)) work.push_back(user);
    }
  }
  return false;
}

// The kernel's parameters one after the other in the object, each at its
// type's alignment (a test's kernel object; real ones come from the image).
std::vector<uint32_t> packedFieldOffsets(const Module &module, const Function &kernel, unsigned count) {
  const DataLayout &layout = module.getDataLayout();
  std::vector<uint32_t> offsets;
  uint64_t end = 0;
  for (unsigned i = 0; i < count; ++i) {
    Type *type = kernel.getArg(i)->getType();
    const uint64_t offset = alignTo(end, layout.getABITypeAlign(type));
    offsets.push_back(static_cast<uint32_t>(offset));
    end = offset + layout.getTypeAllocSize(type);
  }
  return offsets;
}

// Builds void __onepass_cpu_launch(const void *object, const onepass_cpu_launch *launch)
// around `kernel`, the kernel function or with `stepped` its step.
class LauncherBuilder {
public:
  LauncherBuilder(Module &module, Function &kernel, const WorkItemLoopsKernel &shape, const SteppedKernel *stepped,
                  std::vector<uint32_t> fieldOffsets)
      : module_(module), ctx_(module.getContext()), kernel_(kernel), stepped_(stepped),
        fieldOffsets_(std::move(fieldOffsets)), localRange_(shape.localRange), groupLocalBytes_(shape.groupLocalBytes),
        features_(shape.features), dimensions_(shape.kind == image::KernelKind::SingleTask ? 0 : shape.dimensions),
        grouped_(shape.kind == image::KernelKind::NdRange), phaseBudget_(shape.specializedPhaseBudget),
        builder_(module.getContext()) {}

  Function *build();

private:
  void createLauncher();
  void loadKernelArguments();
  Value *allocateBytes(Value *bytes, uint64_t align);
  void storeRanges();
  void allocateGroupMemory();
  void allocateBarrierState();

  Value *word(IRBuilder<> &b, unsigned first, unsigned d) { return workItemStateWord(b, state_, first + d); }
  void store(IRBuilder<> &b, Value *value, unsigned first, unsigned d) {
    b.CreateAlignedStore(value, word(b, first, d), Align(8));
  }
  void callKernel(IRBuilder<> &b) { b.CreateCall(kernel_.getFunctionType(), &kernel_, arguments_); }

  void nest(IRBuilder<> &b, unsigned level);
  void workItemLoop(IRBuilder<> &b, unsigned d, unsigned inner);
  void stepWorkItem(IRBuilder<> &b);
  void runPhases(IRBuilder<> &b, unsigned level);
  void runTogetherPhases(IRBuilder<> &b, unsigned level);
  void phaseWorkItems(IRBuilder<> &b, unsigned level, bool stopsTogether);
  void settlePhase(IRBuilder<> &b, BasicBlock *again, BasicBlock *done);
  void settleTogether(IRBuilder<> &b);
  bool specializesPhases() const;
  void startTogetherPhase(IRBuilder<> &b, Value *from, std::optional<int32_t> stop);
  Value *groupCopy(IRBuilder<> &b, uint64_t offset) {
    return b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), groupCopies_, offset);
  }
  void carryTogether(IRBuilder<> &b);
  void carryUniforms(IRBuilder<> &b, Value *wasTogether, Value *staysTogether);

  Module &module_;
  LLVMContext &ctx_;
  Function &kernel_;
  const SteppedKernel *stepped_;
  const std::vector<uint32_t> fieldOffsets_;
  const std::array<uint64_t, 3> localRange_;  // the work-group range if compiled in
  const uint64_t groupLocalBytes_;
  const uint32_t features_;
  const unsigned dimensions_;
  const bool grouped_;
  const uint64_t phaseBudget_;
  bool specialized_ = false;  // specializesPhases(), decided once the step is known

  IRBuilder<> builder_;
  Function *launcher_ = nullptr;
  Value *launch_ = nullptr, *state_ = nullptr;
  Type *i64_ = nullptr;
  std::vector<Value *> arguments_;  // the kernel's, loaded from the object
  FunctionCallee allocate_, release_;
  std::vector<Value *> allocations_;  // freed at the end
  std::vector<Value *> begins_, ends_, locals_;
  // Per resume point: whether its phase runs the edge work-items apart.
  std::vector<bool> peelEdges_;

  // With barriers: the group's frames, and where each work-item stopped.
  Value *frames_ = nullptr, *groupCopies_ = nullptr, *resumes_ = nullptr, *groupSize_ = nullptr;
  Value *groupState_ = nullptr, *groupUniform_ = nullptr, *discardedStop_ = nullptr;
  // Whether the group may part (a phase where work-items may stop at
  // different places), whether it may stop together at a place only
  // work-item 0 knows, and so whether the launcher reads where they stopped
  // (it does not when each phase's stop is known: SteppedKernel::stopsAt).
  bool mayPart_ = false, stopsAtUnknown_ = false, readsStops_ = false;
  // The blocks of the phase loop (runPhases).
  BasicBlock *phase_ = nullptr, *phasesDone_ = nullptr, *apart_ = nullptr, *settle_ = nullptr,
             *settleTogether_ = nullptr;
  // While the group is together: the resume point of the phase being built,
  // stepped_->stopsAt there, and the uniforms' previous copies, read before
  // its loops.
  Value *uniformFrom_ = nullptr;
  std::optional<int32_t> knownStop_;
  std::vector<Value *> uniformValues_;
};

Function *LauncherBuilder::build() {
  createLauncher();
  loadKernelArguments();
  storeRanges();
  specialized_ = stepped_ && specializesPhases();
  if (stepped_ && grouped_ && specialized_ && localRange_[0] != 0 && localRange_[dimensions_ - 1] >= 3)
    for (unsigned k = 0; k <= stepped_->barriers; ++k)
      peelEdges_.push_back(comparesEdgeWorkItems(kernel_, dimensions_ - 1, phaseBlocks(kernel_, k)));
  if (grouped_) allocateGroupMemory();
  allocateBarrierState();
  nest(builder_, 0);
  for (Value *block : allocations_) builder_.CreateCall(release_, {block});
  builder_.CreateRetVoid();
  return launcher_;
}

void LauncherBuilder::createLauncher() {
  Type *ptr = PointerType::get(ctx_, 0);
  launcher_ = Function::Create(FunctionType::get(Type::getVoidTy(ctx_), {ptr, ptr}, false),
                               GlobalValue::ExternalLinkage, kCpuLaunchSymbol, module_);
  launcher_->addFnAttr(Attribute::NoUnwind);
  launch_ = launcher_->getArg(1);
  launcher_->addParamAttr(0, Attribute::NoAlias);
  launcher_->addParamAttr(0, Attribute::ReadOnly);
  launcher_->addParamAttr(1, Attribute::NoAlias);
  launcher_->addParamAttr(1, Attribute::ReadOnly);
  builder_.SetInsertPoint(BasicBlock::Create(ctx_, "entry", launcher_));
  state_ = createWorkItemState(builder_);
}

// The kernel object is immutable during a launch: load every field once,
// outside the loops, so nothing in the loop body has to reload them. (A
// launch constant's load is dead: the driver compiled its value in.)
void LauncherBuilder::loadKernelArguments() {
  Value *object = launcher_->getArg(0);
  for (size_t i = 0; i < fieldOffsets_.size(); ++i) {
    Type *type = kernel_.getArg(i)->getType();
    Value *address = builder_.CreateConstInBoundsGEP1_32(builder_.getInt8Ty(), object, fieldOffsets_[i]);
    arguments_.push_back(builder_.CreateAlignedLoad(type, address, Align(1)));
  }
  i64_ = builder_.getInt64Ty();
  Type *ptr = PointerType::get(ctx_, 0);
  allocate_ = module_.getOrInsertFunction("aligned_alloc", ptr, i64_, i64_);
  release_ = module_.getOrInsertFunction("free", Type::getVoidTy(ctx_), ptr);
}

Value *LauncherBuilder::allocateBytes(Value *bytes, uint64_t align) {
  // aligned_alloc wants a multiple of the alignment (and we want no 0).
  Value *rounded = builder_.CreateMul(
      builder_.CreateUDiv(builder_.CreateAdd(bytes, builder_.getInt64(align)), builder_.getInt64(align)),
      builder_.getInt64(align));
  Value *block = builder_.CreateCall(allocate_, {builder_.getInt64(align), rounded});
  allocations_.push_back(block);
  return block;
}

// The ranges into the work-item state (1 and id 0 in the dimensions the
// kernel lacks), and where the loops of each dimension begin and end.
void LauncherBuilder::storeRanges() {
  IRBuilder<> &builder = builder_;
  for (unsigned d = 0; d < 3; ++d) {
    const bool real = d < dimensions_;
    Value *range = real ? launchWord(builder, launch_, 2, d) : builder.getInt64(1);
    store(builder, range, builtins::kGlobalRangeWord, d);
    if (!real) store(builder, builder.getInt64(0), builtins::kGlobalIdWord, d);
    if (grouped_) {
      Value *local = real ? launchWord(builder, launch_, 3, d) : builder.getInt64(1);
      // (Compiled in when the backend fixed it: constant trip counts.)
      if (real && localRange_[0] != 0) local = builder.getInt64(localRange_[d]);
      store(builder, local, builtins::kLocalRangeWord, d);
      store(builder, real ? builder.CreateUDiv(range, local) : builder.getInt64(1), builtins::kGroupRangeWord, d);
      if (real) {
        locals_.push_back(local);
      } else {
        store(builder, builder.getInt64(0), builtins::kLocalIdWord, d);
        store(builder, builder.getInt64(0), builtins::kGroupIdWord, d);
      }
    }
    if (!real) continue;
    Value *begin = launchWord(builder, launch_, 0, d), *end = launchWord(builder, launch_, 1, d);
    // An nd_range launch covers whole work-groups: its loops count groups.
    begins_.push_back(grouped_ ? builder.CreateUDiv(begin, locals_[d]) : begin);
    ends_.push_back(grouped_ ? builder.CreateUDiv(end, locals_[d]) : end);
  }
}

// The work-group's local memory and scratch, reused by each group this call runs.
void LauncherBuilder::allocateGroupMemory() {
  IRBuilder<> &builder = builder_;
  Value *localMemory = builder.getInt64(0);
  // (The memory the kernel allocates itself first: see groupLocalBytes.)
  // The local accessors' memory starts at kLocalMemoryAlignment, so that any
  // element type may be placed in it (a vec of 16 8-byte elements needs 128).
  if (features_ & image::kFeatureLocalMemory) {
    const uint64_t accessorsOffset = alignTo(groupLocalBytes_, kLocalMemoryAlignment);
    localMemory = builder.CreatePtrToInt(
        builder.CreateConstInBoundsGEP1_64(
            builder.getInt8Ty(),
            allocateBytes(builder.CreateAdd(launchWord(builder, launch_, 4, 0), builder.getInt64(accessorsOffset)),
                          kLocalMemoryAlignment),
            accessorsOffset),
        i64_);
  }
  store(builder, localMemory, builtins::kLocalMemoryWord, 0);
  Value *scratch = builder.getInt64(0);
  if (features_ & image::kFeatureGroupScratch) {
    Value *items = builder.getInt64(1);
    for (Value *local : locals_) items = builder.CreateMul(items, local);
    scratch = builder.CreatePtrToInt(allocateBytes(builder.CreateMul(items, builder.getInt64(8)), 64), i64_);
  }
  store(builder, scratch, builtins::kGroupScratchWord, 0);
}

// With barriers: the group's frames and uniform copies, where each
// work-item stopped, and the phase loop's own state.
void LauncherBuilder::allocateBarrierState() {
  IRBuilder<> &builder = builder_;
  groupSize_ = builder.getInt64(1);
  if (!stepped_) return;
  for (size_t k = 0; k <= stepped_->barriers; ++k) {
    mayPart_ = mayPart_ || !stepped_->uniformExit[k];
    stopsAtUnknown_ = stopsAtUnknown_ || (stepped_->uniformExit[k] && !stepped_->stopsAt[k]);
  }
  // (One phase for every resume point: it settles as a parting one does.)
  if (!specialized_) mayPart_ = true;
  readsStops_ = mayPart_ || stopsAtUnknown_;
  for (Value *local : locals_) groupSize_ = builder.CreateMul(groupSize_, local);
  frames_ = allocateBytes(builder.CreateMul(groupSize_, builder.getInt64(std::max<uint64_t>(stepped_->frameBytes, 1))),
                          std::max<uint64_t>(64, stepped_->frameAlign));
  groupCopies_ = allocateBytes(builder.getInt64(stepped_->groupBytes), std::max<uint64_t>(64, stepped_->frameAlign));
  if (readsStops_) resumes_ = allocateBytes(builder.CreateMul(groupSize_, builder.getInt64(4)), 64);
  groupState_ = builder.CreateAlloca(builder.getInt32Ty(), nullptr, "group.from");
  if (mayPart_) groupUniform_ = builder.CreateAlloca(builder.getInt1Ty(), nullptr, "group.uniform");
  // Where work-items tell a stop the launcher knows already.
  discardedStop_ = builder.CreateAlloca(builder.getInt32Ty(), nullptr, "known.stop");
}

// The loops from `level` in: dimension 0 outermost, the last dimension
// innermost: its work-items are adjacent in memory in row-major code, so that
// loop is the one to vectorize. An nd_range kernel loops over the work-groups
// (levels 0 to dimensions - 1), and in each over its work-items.
void LauncherBuilder::nest(IRBuilder<> &b, unsigned level) {
  if (!grouped_) {
    if (level == dimensions_) return callKernel(b);
    emitLoop(
        b, begins_[level], ends_[level], word(b, builtins::kGlobalIdWord, level),
        [&](IRBuilder<> &inner, Value *) { nest(inner, level + 1); },
        parallelWorkItemLoop(module_, level + 1 == dimensions_));
    return;
  }
  if (level == 2 * dimensions_) {
    for (unsigned d = 0; d < dimensions_; ++d) {
      Value *group = b.CreateAlignedLoad(b.getInt64Ty(), word(b, builtins::kGroupIdWord, d), Align(8));
      Value *local = b.CreateAlignedLoad(b.getInt64Ty(), word(b, builtins::kLocalIdWord, d), Align(8));
      store(b, b.CreateNUWAdd(b.CreateNUWMul(group, locals_[d]), local), builtins::kGlobalIdWord, d);
    }
    return stepped_ ? stepWorkItem(b) : callKernel(b);
  }
  if (stepped_ && level == dimensions_) return runPhases(b, level);
  if (level >= dimensions_) return workItemLoop(b, level - dimensions_, level + 1);
  emitLoop(b, begins_[level], ends_[level], word(b, builtins::kGroupIdWord, level),
           [&](IRBuilder<> &inner, Value *) { nest(inner, level + 1); });
}

// The loop over a group's work-items in dimension `d`, then nest(`inner`).
// (Work-items of a group are independent between barriers; see
// ParallelLoops.h.) The innermost loop of a kernel that singles out the
// first or last of them (comparesEdgeWorkItems), while the group is
// together: those two run on their own, and the loop over the others has no
// branch on them (one the vectorizer would see as an early exit).
void LauncherBuilder::workItemLoop(IRBuilder<> &b, unsigned d, unsigned inner) {
  const bool innermost = d + 1 == dimensions_;
  if (auto *from = dyn_cast_or_null<ConstantInt>(uniformFrom_);
      innermost && from && !peelEdges_.empty() && peelEdges_[from->getZExtValue()]) {
    const uint64_t n = localRange_[d];
    auto single = [&](uint64_t id) {
      store(b, b.getInt64(id), builtins::kLocalIdWord, d);
      nest(b, inner);
    };
    single(0);
    emitLoop(
        b, b.getInt64(1), b.getInt64(n - 1), word(b, builtins::kLocalIdWord, d),
        [&](IRBuilder<> &in, Value *) { nest(in, inner); }, parallelWorkItemLoop(module_, true));
    single(n - 1);
    return;
  }
  emitLoop(
      b, b.getInt64(0), locals_[d], word(b, builtins::kLocalIdWord, d),
      [&](IRBuilder<> &in, Value *) { nest(in, inner); }, parallelWorkItemLoop(module_, innermost));
}

// Runs the step of the work-item whose ids the state holds: from
// uniformFrom_ (every work-item of the group stopped there), or else from
// where it stopped, unless it is done.
void LauncherBuilder::stepWorkItem(IRBuilder<> &b) {
  Value *linear = b.getInt64(0);
  for (unsigned d = 0; d < dimensions_; ++d)
    linear = b.CreateAdd(b.CreateMul(linear, locals_[d]),
                         b.CreateAlignedLoad(i64_, word(b, builtins::kLocalIdWord, d), Align(8)));
  Value *resume = knownStop_ ? discardedStop_ : b.CreateInBoundsGEP(b.getInt32Ty(), resumes_, linear);
  std::vector<Value *> stepArguments = arguments_;
  stepArguments.insert(stepArguments.end(),
                       {groupCopies_, frames_, linear, groupSize_, nullptr, resume, b.getInt1(uniformFrom_)});
  const size_t fromIndex = stepArguments.size() - 3;
  for (size_t u = 0; u < stepped_->uniforms.size(); ++u)
    stepArguments.push_back(uniformFrom_ ? uniformValues_[u] : PoisonValue::get(stepped_->uniforms[u].type));
  Value *&fromArgument = stepArguments[fromIndex];
  if (uniformFrom_) {
    fromArgument = uniformFrom_;
    b.CreateCall(kernel_.getFunctionType(), &kernel_, stepArguments);
    return;
  }
  Function *fn = b.GetInsertBlock()->getParent();
  BasicBlock *run = BasicBlock::Create(ctx_, "wi.step", fn), *next = BasicBlock::Create(ctx_, "wi.next", fn);
  Value *from = b.CreateAlignedLoad(b.getInt32Ty(), resume, Align(4));
  b.CreateCondBr(b.CreateICmpNE(from, b.getInt32(kStepDone)), run, next);
  b.SetInsertPoint(run);
  fromArgument = from;
  b.CreateCall(kernel_.getFunctionType(), &kernel_, stepArguments);
  b.CreateBr(next);
  b.SetInsertPoint(next);
}

// A group with barriers: phases until every work-item is done. Each phase
// runs every work-item up to its next barrier: all of them from the same
// place while they stay together (a loop per resume point, each with its
// part of the kernel alone), else each from its own.
void LauncherBuilder::runPhases(IRBuilder<> &b, unsigned level) {
  if (readsStops_) b.CreateMemSet(resumes_, b.getInt8(0), b.CreateMul(groupSize_, b.getInt64(4)), Align(16));
  b.CreateStore(b.getInt32(0), groupState_);
  if (mayPart_) b.CreateStore(b.getTrue(), groupUniform_);
  Function *fn = b.GetInsertBlock()->getParent();
  phase_ = BasicBlock::Create(ctx_, "phase", fn);
  phasesDone_ = BasicBlock::Create(ctx_, "phase.done", fn);
  BasicBlock *together = BasicBlock::Create(ctx_, "phase.together", fn);
  b.CreateBr(phase_);
  b.SetInsertPoint(phase_);
  if (mayPart_) {
    apart_ = BasicBlock::Create(ctx_, "phase.apart", fn);
    settle_ = BasicBlock::Create(ctx_, "phase.settle", fn);
    b.CreateCondBr(b.CreateLoad(b.getInt1Ty(), groupUniform_), together, apart_);
  } else {
    b.CreateBr(together);
  }
  // A part of the kernel whose branches are all uniform: the group stops
  // together, at work-item 0's place (no check of every work-item), or
  // where the kernel says every work-item stops.
  if (stopsAtUnknown_) settleTogether_ = BasicBlock::Create(ctx_, "phase.settle.together", fn);
  b.SetInsertPoint(together);
  runTogetherPhases(b, level);
  uniformFrom_ = nullptr;
  knownStop_.reset();
  if (mayPart_) {
    b.SetInsertPoint(apart_);
    phaseWorkItems(b, level, false);
    b.SetInsertPoint(settle_);
    settlePhase(b, phase_, phasesDone_);
  }
  if (settleTogether_) {
    b.SetInsertPoint(settleTogether_);
    settleTogether(b);
  }
  b.SetInsertPoint(phasesDone_);
}

// Whether the phases of a group that is together get a loop each, the step
// specialized for its resume point (runTogetherPhases), or one loop for all.
// Specialized, each phase's loop holds only its part of the step, which
// vectorizes: kernels of many group scans ran 2-3.5x faster that way than in one
// loop. But the JIT's time grows faster than the number of phases times the
// step's size (each loop gets the whole step inlined, then pruned; the loops
// share one function): 32 phases of a 1,600-instruction step took 0.25 s,
// 46 of 1,900 took 1.0 s, against 0.07 s and 0.11 s in one loop (the CTS's
// joint scans of four group algorithms). Past specializedPhaseBudget
// phase-instructions the kernel gets one loop.
bool LauncherBuilder::specializesPhases() const {
  return uint64_t(stepped_->barriers + 1) * kernel_.getInstructionCount() <= phaseBudget_;
}

// The phases of a group that is together: one loop over the work-items per
// resume point, each calling the step with that constant `from`; or, past
// the budget, one loop for every resume point, which settles as
// a phase apart does (settlePhase: whether the group stays together).
void LauncherBuilder::runTogetherPhases(IRBuilder<> &b, unsigned level) {
  Function *fn = b.GetInsertBlock()->getParent();
  if (!specialized_) {
    startTogetherPhase(b, b.CreateLoad(b.getInt32Ty(), groupState_, "group.resume"), std::nullopt);
    phaseWorkItems(b, level, false);
    return;
  }
  // (A group that never parts resumes only where it stopped together.)
  BasicBlock *elsewhere = apart_;
  if (!elsewhere) {
    elsewhere = BasicBlock::Create(ctx_, "phase.unreachable", fn);
    IRBuilder<>(elsewhere).CreateUnreachable();
  }
  SwitchInst *resumeAt = b.CreateSwitch(b.CreateLoad(b.getInt32Ty(), groupState_), elsewhere, stepped_->barriers + 1);
  for (unsigned k = 0; k <= stepped_->barriers; ++k) {
    BasicBlock *from = BasicBlock::Create(ctx_, "phase.from." + std::to_string(k), fn);
    resumeAt->addCase(b.getInt32(static_cast<int32_t>(k)), from);
    b.SetInsertPoint(from);
    startTogetherPhase(b, b.getInt32(static_cast<int32_t>(k)), stepped_->stopsAt[k]);
    phaseWorkItems(b, level, stepped_->uniformExit[k]);
  }
}

// A phase of a group that is together resumes at `from` (every work-item
// stopped there), stops at `stop` if known, and reads the uniforms'
// previous copies before its loops.
void LauncherBuilder::startTogetherPhase(IRBuilder<> &b, Value *from, std::optional<int32_t> stop) {
  uniformFrom_ = from;
  knownStop_ = stop;
  uniformValues_.clear();
  for (const SteppedKernel::Uniform &uniform : stepped_->uniforms)
    uniformValues_.push_back(b.CreateAlignedLoad(uniform.type, groupCopy(b, uniform.previous), Align(1)));
}

// One phase's loops over the group's work-items, then on to where the
// phase settles (or, with a known stop, straight to the next phase).
void LauncherBuilder::phaseWorkItems(IRBuilder<> &b, unsigned level, bool stopsTogether) {
  workItemLoop(b, 0, level + 1);
  if (knownStop_) {
    carryTogether(b);
    b.CreateStore(b.getInt32(*knownStop_), groupState_);
    b.CreateBr(*knownStop_ == kStepDone ? phasesDone_ : phase_);
    return;
  }
  b.CreateBr(stopsTogether ? settleTogether_ : settle_);
}

// After a phase: whether every work-item stopped at the same place (then
// the next phase runs them all from there) and whether any is not done.
void LauncherBuilder::settlePhase(IRBuilder<> &b, BasicBlock *again, BasicBlock *done) {
  Function *fn = b.GetInsertBlock()->getParent();
  Value *first = b.CreateAlignedLoad(b.getInt32Ty(), resumes_, Align(4));
  BasicBlock *before = b.GetInsertBlock();
  BasicBlock *loop = BasicBlock::Create(ctx_, "phase.check", fn), *end = BasicBlock::Create(ctx_, "phase.checked", fn);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  PHINode *index = b.CreatePHI(i64_, 2, "check.item");
  PHINode *same = b.CreatePHI(b.getInt1Ty(), 2, "check.same");
  PHINode *left = b.CreatePHI(b.getInt1Ty(), 2, "check.left");
  index->addIncoming(b.getInt64(0), before);
  same->addIncoming(b.getTrue(), before);
  left->addIncoming(b.getFalse(), before);
  Value *at = b.CreateAlignedLoad(b.getInt32Ty(), b.CreateInBoundsGEP(b.getInt32Ty(), resumes_, index), Align(4));
  Value *sameNext = b.CreateAnd(same, b.CreateICmpEQ(at, first));
  Value *leftNext = b.CreateOr(left, b.CreateICmpNE(at, b.getInt32(kStepDone)));
  Value *indexNext = b.CreateNUWAdd(index, b.getInt64(1));
  index->addIncoming(indexNext, loop);
  same->addIncoming(sameNext, loop);
  left->addIncoming(leftNext, loop);
  b.CreateCondBr(b.CreateICmpULT(indexNext, groupSize_), loop, end);
  b.SetInsertPoint(end);
  if (!stepped_->uniforms.empty()) carryUniforms(b, b.CreateLoad(b.getInt1Ty(), groupUniform_), sameNext);
  b.CreateStore(sameNext, groupUniform_);
  b.CreateStore(first, groupState_);
  b.CreateCondBr(leftNext, again, done);
}

// After a phase whose group stops together: where work-item 0 stopped is
// where all did.
void LauncherBuilder::settleTogether(IRBuilder<> &b) {
  Value *first = b.CreateAlignedLoad(b.getInt32Ty(), resumes_, Align(4));
  carryTogether(b);
  b.CreateStore(first, groupState_);
  b.CreateCondBr(b.CreateICmpNE(first, b.getInt32(kStepDone)), phase_, phasesDone_);
}

// The group's uniform values between phases (SteppedKernel::Uniform):
// together before and after, this phase's copies become the previous ones.
void LauncherBuilder::carryTogether(IRBuilder<> &b) {
  for (const SteppedKernel::Uniform &uniform : stepped_->uniforms)
    b.CreateMemCpy(groupCopy(b, uniform.previous), Align(1), groupCopy(b, uniform.current), Align(1), uniform.bytes);
}

// Together before: this phase's copy becomes the previous one (and each
// work-item's own if they part); apart before: work-item 0's own becomes
// the previous phase's copy if they come together.
void LauncherBuilder::carryUniforms(IRBuilder<> &b, Value *wasTogether, Value *staysTogether) {
  Function *fn = b.GetInsertBlock()->getParent();
  BasicBlock *fromCopy = BasicBlock::Create(ctx_, "uniform.together", fn);
  BasicBlock *parting = BasicBlock::Create(ctx_, "uniform.parting", fn);
  BasicBlock *fromOwn = BasicBlock::Create(ctx_, "uniform.apart", fn);
  BasicBlock *done = BasicBlock::Create(ctx_, "uniform.carried", fn);
  b.CreateCondBr(wasTogether, fromCopy, fromOwn);
  auto column = [&](IRBuilder<> &in, const SteppedKernel::Uniform &uniform) {
    return in.CreateInBoundsGEP(in.getInt8Ty(), frames_, in.CreateMul(groupSize_, in.getInt64(uniform.column)));
  };
  b.SetInsertPoint(fromCopy);
  carryTogether(b);
  b.CreateCondBr(staysTogether, done, parting);
  b.SetInsertPoint(parting);
  for (const SteppedKernel::Uniform &uniform : stepped_->uniforms) {
    Value *base = column(b, uniform);
    emitLoop(b, b.getInt64(0), groupSize_, nullptr, [&](IRBuilder<> &in, Value *index) {
      in.CreateMemCpy(in.CreateInBoundsGEP(in.getInt8Ty(), base, in.CreateMul(index, in.getInt64(uniform.bytes))),
                      Align(1), groupCopy(in, uniform.current), Align(1), uniform.bytes);
    });
  }
  b.CreateBr(done);
  b.SetInsertPoint(fromOwn);
  BasicBlock *rejoin = BasicBlock::Create(ctx_, "uniform.rejoin", fn);
  b.CreateCondBr(staysTogether, rejoin, done);
  b.SetInsertPoint(rejoin);
  for (const SteppedKernel::Uniform &uniform : stepped_->uniforms)
    b.CreateMemCpy(groupCopy(b, uniform.previous), Align(1), column(b, uniform), Align(1), uniform.bytes);
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

}  // namespace

PreservedAnalyses BuildWorkItemLoopsPass::run(Module &module, ModuleAnalysisManager &) {
  const SteppedKernel *stepped = kernel.stepped && *kernel.stepped ? &**kernel.stepped : nullptr;
  Function *body = stepped ? stepped->step : module.getFunction(kernel.function);
  if (!body || body->isDeclaration()) {
    module.getContext().emitError("no kernel function '" + kernel.function + "' to build work-item loops around");
    return PreservedAnalyses::all();
  }
  std::vector<uint32_t> offsets = kernel.fieldOffsets;
  if (offsets.empty()) {
    const size_t own = stepped ? body->arg_size() - kStepFixedParameters - stepped->uniforms.size() : body->arg_size();
    offsets = packedFieldOffsets(module, *body, static_cast<unsigned>(own));
  }
  LauncherBuilder(module, *body, kernel, stepped, std::move(offsets)).build();
  return PreservedAnalyses::none();
}

}  // namespace onepass::jit
