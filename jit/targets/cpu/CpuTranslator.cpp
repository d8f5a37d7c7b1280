#include "CpuTranslator.h"
#include "sycl/detail/onepass_abi.hpp"

#include "BarrierLowering.h"
#include "BuiltinLibrary.h"
#include "Codegen.h"
#include "KernelModule.h"
#include "ParallelLoops.h"

#include "WorkItemLowering.h"

#include "../../builtins/common/work_item_abi.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <optional>

using namespace llvm;

namespace onepass::jit {

namespace {

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
  // Whether what `compare` decides is used in `blocks`.
  auto decidesThere = [&](ICmpInst *compare) {
    SmallPtrSet<const Value *, 16> seen;
    SmallVector<const Value *, 16> users{compare};
    while (!users.empty()) {
      const Value *value = users.pop_back_val();
      if (!seen.insert(value).second) continue;
      if (auto *inst = dyn_cast<Instruction>(value); inst && blocks.contains(inst->getParent())) return true;
      for (const User *user : value->users()) users.push_back(user);
    }
    return false;
  };
  SmallPtrSet<Value *, 16> seen;
  while (!work.empty()) {
    Value *value = work.pop_back_val();
    if (!seen.insert(value).second) continue;
    for (User *user : value->users()) {
      if (auto *compare = dyn_cast<ICmpInst>(user))
        if (compare->isEquality() && (isa<Constant>(compare->getOperand(0)) || isa<Constant>(compare->getOperand(1))) &&
            decidesThere(compare))
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

// void __onepass_cpu_launch(const void *object, const onepass_cpu_launch *launch)
// `kernel` is the kernel function, or with `stepped` its step (barriers).
// `localRange`: the work-group range if compiled in (see compileCpuKernel).
Function *buildLauncher(Module &module, Function &kernel, const image::KernelView &info, const SteppedKernel *stepped,
                        const std::array<uint64_t, 3> &localRange, uint64_t groupLocalBytes) {
  LLVMContext &ctx = module.getContext();
  Type *ptr = PointerType::get(ctx, 0);
  Function *launcher = Function::Create(FunctionType::get(Type::getVoidTy(ctx), {ptr, ptr}, false),
                                        GlobalValue::ExternalLinkage, kCpuLaunchSymbol, module);
  launcher->addFnAttr(Attribute::NoUnwind);
  Value *object = launcher->getArg(0);
  Value *launch = launcher->getArg(1);
  launcher->addParamAttr(0, Attribute::NoAlias);
  launcher->addParamAttr(0, Attribute::ReadOnly);
  launcher->addParamAttr(1, Attribute::NoAlias);
  launcher->addParamAttr(1, Attribute::ReadOnly);

  IRBuilder<> builder(BasicBlock::Create(ctx, "entry", launcher));
  Value *state = createWorkItemState(builder);

  // The kernel object is immutable during a launch: load every field once,
  // outside the loops, so nothing in the loop body has to reload them. (A
  // launch constant's load is dead: the driver compiled its value in.)
  std::vector<Value *> arguments;
  for (size_t i = 0; i < info.fields.size(); ++i) {
    Type *type = kernel.getArg(i)->getType();
    Value *address = builder.CreateConstInBoundsGEP1_32(builder.getInt8Ty(), object, info.fields[i].offset);
    arguments.push_back(builder.CreateAlignedLoad(type, address, Align(1)));
  }
  auto callKernel = [&](IRBuilder<> &b) { b.CreateCall(kernel.getFunctionType(), &kernel, arguments); };
  Type *i64 = builder.getInt64Ty();
  FunctionCallee allocate = module.getOrInsertFunction("aligned_alloc", ptr, i64, i64);
  FunctionCallee release = module.getOrInsertFunction("free", Type::getVoidTy(ctx), ptr);
  std::vector<Value *> allocations;  // freed at the end
  auto allocateBytes = [&](Value *bytes, uint64_t align) {
    // aligned_alloc wants a multiple of the alignment (and we want no 0).
    Value *rounded = builder.CreateMul(
        builder.CreateUDiv(builder.CreateAdd(bytes, builder.getInt64(align)), builder.getInt64(align)),
        builder.getInt64(align));
    Value *block = builder.CreateCall(allocate, {builder.getInt64(align), rounded});
    allocations.push_back(block);
    return block;
  };

  const unsigned dimensions = info.kind == image::KernelKind::SingleTask ? 0 : info.dimensions;
  const bool grouped = info.kind == image::KernelKind::NdRange;
  auto word = [&](IRBuilder<> &b, unsigned first, unsigned d) { return workItemStateWord(b, state, first + d); };
  auto store = [&](IRBuilder<> &b, Value *value, unsigned first, unsigned d) {
    b.CreateAlignedStore(value, word(b, first, d), Align(8));
  };
  std::vector<Value *> begins, ends, locals;
  for (unsigned d = 0; d < 3; ++d) {
    const bool real = d < dimensions;
    Value *range = real ? launchWord(builder, launch, 2, d) : builder.getInt64(1);
    store(builder, range, builtins::kGlobalRangeWord, d);
    if (!real) store(builder, builder.getInt64(0), builtins::kGlobalIdWord, d);
    if (grouped) {
      Value *local = real ? launchWord(builder, launch, 3, d) : builder.getInt64(1);
      // (Compiled in when the backend fixed it: constant trip counts.)
      if (real && localRange[0] != 0) local = builder.getInt64(localRange[d]);
      store(builder, local, builtins::kLocalRangeWord, d);
      store(builder, real ? builder.CreateUDiv(range, local) : builder.getInt64(1), builtins::kGroupRangeWord, d);
      if (real) {
        locals.push_back(local);
      } else {
        store(builder, builder.getInt64(0), builtins::kLocalIdWord, d);
        store(builder, builder.getInt64(0), builtins::kGroupIdWord, d);
      }
    }
    if (!real) continue;
    Value *begin = launchWord(builder, launch, 0, d), *end = launchWord(builder, launch, 1, d);
    // An nd_range launch covers whole work-groups: its loops count groups.
    begins.push_back(grouped ? builder.CreateUDiv(begin, locals[d]) : begin);
    ends.push_back(grouped ? builder.CreateUDiv(end, locals[d]) : end);
  }

  // Per resume point: whether its phase runs the edge work-items apart.
  std::vector<bool> peelEdges;
  if (stepped && grouped && localRange[0] != 0 && localRange[dimensions - 1] >= 3)
    for (unsigned k = 0; k <= stepped->barriers; ++k)
      peelEdges.push_back(comparesEdgeWorkItems(kernel, dimensions - 1, phaseBlocks(kernel, k)));
  // The work-group's local memory, reused by each group this call runs.
  if (grouped) {
    Value *localMemory = builder.getInt64(0);
    // (The memory the kernel allocates itself first: see allocateGroupLocal.)
    if (info.features & image::kFeatureLocalMemory)
      localMemory = builder.CreatePtrToInt(
          builder.CreateConstInBoundsGEP1_64(
              builder.getInt8Ty(),
              allocateBytes(builder.CreateAdd(launchWord(builder, launch, 4, 0), builder.getInt64(groupLocalBytes)),
                            64),
              groupLocalBytes),
          i64);
    store(builder, localMemory, builtins::kLocalMemoryWord, 0);
    Value *scratch = builder.getInt64(0);
    if (info.features & image::kFeatureGroupScratch) {
      Value *items = builder.getInt64(1);
      for (Value *local : locals) items = builder.CreateMul(items, local);
      scratch = builder.CreatePtrToInt(allocateBytes(builder.CreateMul(items, builder.getInt64(8)), 64), i64);
    }
    store(builder, scratch, builtins::kGroupScratchWord, 0);
  }
  // With barriers: the group's frames, and where each work-item stopped.
  Value *frames = nullptr, *groupCopies = nullptr, *resumes = nullptr, *groupSize = builder.getInt64(1);
  Value *groupState = nullptr, *groupUniform = nullptr, *discardedStop = nullptr;
  // Whether the group may part (a phase where work-items may stop at
  // different places), whether it may stop together at a place only
  // work-item 0 knows, and so whether the launcher reads where they stopped
  // (it does not when each phase's stop is known: SteppedKernel::stopsAt).
  bool mayPart = false, stopsAtUnknown = false;
  if (stepped) {
    for (size_t k = 0; k <= stepped->barriers; ++k) {
      mayPart = mayPart || !stepped->uniformExit[k];
      stopsAtUnknown = stopsAtUnknown || (stepped->uniformExit[k] && !stepped->stopsAt[k]);
    }
  }
  const bool readsStops = mayPart || stopsAtUnknown;
  if (stepped) {
    for (Value *local : locals) groupSize = builder.CreateMul(groupSize, local);
    frames = allocateBytes(builder.CreateMul(groupSize, builder.getInt64(std::max<uint64_t>(stepped->frameBytes, 1))),
                           std::max<uint64_t>(64, stepped->frameAlign));
    groupCopies = allocateBytes(builder.getInt64(stepped->groupBytes), std::max<uint64_t>(64, stepped->frameAlign));
    if (readsStops) resumes = allocateBytes(builder.CreateMul(groupSize, builder.getInt64(4)), 64);
    groupState = builder.CreateAlloca(builder.getInt32Ty(), nullptr, "group.from");
    if (mayPart) groupUniform = builder.CreateAlloca(builder.getInt1Ty(), nullptr, "group.uniform");
    // Where work-items tell a stop the launcher knows already.
    discardedStop = builder.CreateAlloca(builder.getInt32Ty(), nullptr, "known.stop");
  }
  // Runs the step of the work-item whose ids the state holds: from `from`
  // (every work-item of the group stopped there), or else from where it
  // stopped, unless it is done.
  Value *uniformFrom = nullptr;
  std::optional<int32_t> knownStop;    // together: stepped->stopsAt of uniformFrom
  std::vector<Value *> uniformValues;  // together: the uniforms' previous copies, read before the loops
  auto stepWorkItem = [&](IRBuilder<> &b) {
    Value *linear = b.getInt64(0);
    for (unsigned d = 0; d < dimensions; ++d)
      linear = b.CreateAdd(b.CreateMul(linear, locals[d]),
                           b.CreateAlignedLoad(i64, word(b, builtins::kLocalIdWord, d), Align(8)));
    Value *resume = knownStop ? discardedStop : b.CreateInBoundsGEP(b.getInt32Ty(), resumes, linear);
    std::vector<Value *> stepArguments = arguments;
    stepArguments.insert(stepArguments.end(),
                         {groupCopies, frames, linear, groupSize, nullptr, resume, b.getInt1(uniformFrom)});
    const size_t fromIndex = stepArguments.size() - 3;
    for (size_t u = 0; u < stepped->uniforms.size(); ++u)
      stepArguments.push_back(uniformFrom ? uniformValues[u] : PoisonValue::get(stepped->uniforms[u].type));
    Value *&fromArgument = stepArguments[fromIndex];
    if (uniformFrom) {
      fromArgument = uniformFrom;
      b.CreateCall(kernel.getFunctionType(), &kernel, stepArguments);
      return;
    }
    Function *fn = b.GetInsertBlock()->getParent();
    BasicBlock *run = BasicBlock::Create(ctx, "wi.step", fn), *next = BasicBlock::Create(ctx, "wi.next", fn);
    Value *from = b.CreateAlignedLoad(b.getInt32Ty(), resume, Align(4));
    b.CreateCondBr(b.CreateICmpNE(from, b.getInt32(kStepDone)), run, next);
    b.SetInsertPoint(run);
    fromArgument = from;
    b.CreateCall(kernel.getFunctionType(), &kernel, stepArguments);
    b.CreateBr(next);
    b.SetInsertPoint(next);
  };
  // The group's uniform values between phases (SteppedKernel::Uniform):
  // together before, this phase's copy becomes the previous one (and each
  // work-item's own if they part); apart before, work-item 0's own becomes
  // the previous phase's copy if they come together.
  auto at = [&](IRBuilder<> &in, uint64_t offset) {
    return in.CreateConstInBoundsGEP1_64(in.getInt8Ty(), groupCopies, offset);
  };
  // Together before and after: this phase's copies become the previous ones.
  auto carryTogether = [&](IRBuilder<> &b) {
    for (const SteppedKernel::Uniform &uniform : stepped->uniforms)
      b.CreateMemCpy(at(b, uniform.previous), Align(1), at(b, uniform.current), Align(1), uniform.bytes);
  };
  auto carryUniforms = [&](IRBuilder<> &b, Value *wasTogether, Value *staysTogether) {
    Function *fn = b.GetInsertBlock()->getParent();
    BasicBlock *fromCopy = BasicBlock::Create(ctx, "uniform.together", fn);
    BasicBlock *parting = BasicBlock::Create(ctx, "uniform.parting", fn);
    BasicBlock *fromOwn = BasicBlock::Create(ctx, "uniform.apart", fn);
    BasicBlock *done = BasicBlock::Create(ctx, "uniform.carried", fn);
    b.CreateCondBr(wasTogether, fromCopy, fromOwn);
    auto column = [&](IRBuilder<> &in, const SteppedKernel::Uniform &uniform) {
      return in.CreateInBoundsGEP(in.getInt8Ty(), frames, in.CreateMul(groupSize, in.getInt64(uniform.column)));
    };
    b.SetInsertPoint(fromCopy);
    carryTogether(b);
    b.CreateCondBr(staysTogether, done, parting);
    b.SetInsertPoint(parting);
    for (const SteppedKernel::Uniform &uniform : stepped->uniforms) {
      Value *base = column(b, uniform);
      emitLoop(b, b.getInt64(0), groupSize, nullptr, [&](IRBuilder<> &in, Value *index) {
        in.CreateMemCpy(in.CreateInBoundsGEP(in.getInt8Ty(), base, in.CreateMul(index, in.getInt64(uniform.bytes))),
                        Align(1), at(in, uniform.current), Align(1), uniform.bytes);
      });
    }
    b.CreateBr(done);
    b.SetInsertPoint(fromOwn);
    BasicBlock *rejoin = BasicBlock::Create(ctx, "uniform.rejoin", fn);
    b.CreateCondBr(staysTogether, rejoin, done);
    b.SetInsertPoint(rejoin);
    for (const SteppedKernel::Uniform &uniform : stepped->uniforms)
      b.CreateMemCpy(at(b, uniform.previous), Align(1), column(b, uniform), Align(1), uniform.bytes);
    b.CreateBr(done);
    b.SetInsertPoint(done);
  };
  // After a phase: whether every work-item stopped at the same place (then
  // the next phase runs them all from there) and whether any is not done.
  auto settlePhase = [&](IRBuilder<> &b, BasicBlock *again, BasicBlock *done) {
    Function *fn = b.GetInsertBlock()->getParent();
    Value *first = b.CreateAlignedLoad(b.getInt32Ty(), resumes, Align(4));
    BasicBlock *before = b.GetInsertBlock();
    BasicBlock *loop = BasicBlock::Create(ctx, "phase.check", fn), *end = BasicBlock::Create(ctx, "phase.checked", fn);
    b.CreateBr(loop);
    b.SetInsertPoint(loop);
    PHINode *index = b.CreatePHI(i64, 2, "check.item");
    PHINode *same = b.CreatePHI(b.getInt1Ty(), 2, "check.same");
    PHINode *left = b.CreatePHI(b.getInt1Ty(), 2, "check.left");
    index->addIncoming(b.getInt64(0), before);
    same->addIncoming(b.getTrue(), before);
    left->addIncoming(b.getFalse(), before);
    Value *at = b.CreateAlignedLoad(b.getInt32Ty(), b.CreateInBoundsGEP(b.getInt32Ty(), resumes, index), Align(4));
    Value *sameNext = b.CreateAnd(same, b.CreateICmpEQ(at, first));
    Value *leftNext = b.CreateOr(left, b.CreateICmpNE(at, b.getInt32(kStepDone)));
    Value *indexNext = b.CreateNUWAdd(index, b.getInt64(1));
    index->addIncoming(indexNext, loop);
    same->addIncoming(sameNext, loop);
    left->addIncoming(leftNext, loop);
    b.CreateCondBr(b.CreateICmpULT(indexNext, groupSize), loop, end);
    b.SetInsertPoint(end);
    if (!stepped->uniforms.empty()) carryUniforms(b, b.CreateLoad(b.getInt1Ty(), groupUniform), sameNext);
    b.CreateStore(sameNext, groupUniform);
    b.CreateStore(first, groupState);
    b.CreateCondBr(leftNext, again, done);
  };

  // The loop over a group's work-items in dimension `d`, then nest(`inner`).
  // (Work-items of a group are independent between barriers; see
  // ParallelLoops.h.) The innermost loop of a kernel that singles out the
  // first or last of them (comparesEdgeWorkItems), while the group is
  // together: those two run on their own, and the loop over the others has no
  // branch on them (one the vectorizer would see as an early exit).
  std::function<void(IRBuilder<> &, unsigned)> nest;
  auto workItemLoop = [&](IRBuilder<> &b, unsigned d, unsigned inner) {
    const bool innermost = d + 1 == dimensions;
    if (innermost && uniformFrom && !peelEdges.empty() && peelEdges[cast<ConstantInt>(uniformFrom)->getZExtValue()]) {
      const uint64_t n = localRange[d];
      auto single = [&](uint64_t id) {
        store(b, b.getInt64(id), builtins::kLocalIdWord, d);
        nest(b, inner);
      };
      single(0);
      emitLoop(
          b, b.getInt64(1), b.getInt64(n - 1), word(b, builtins::kLocalIdWord, d),
          [&](IRBuilder<> &in, Value *) { nest(in, inner); }, parallelWorkItemLoop(module, true));
      single(n - 1);
      return;
    }
    emitLoop(
        b, b.getInt64(0), locals[d], word(b, builtins::kLocalIdWord, d),
        [&](IRBuilder<> &in, Value *) { nest(in, inner); }, parallelWorkItemLoop(module, innermost));
  };
  // Dimension 0 outermost, the last dimension innermost: its work-items are
  // adjacent in memory in row-major code, so that loop is the one to vectorize.
  // An nd_range kernel loops over the work-groups, and in each over its
  // work-items.
  nest = [&](IRBuilder<> &b, unsigned level) {
    if (!grouped) {
      if (level == dimensions) return callKernel(b);
      emitLoop(
          b, begins[level], ends[level], word(b, builtins::kGlobalIdWord, level),
          [&](IRBuilder<> &inner, Value *) { nest(inner, level + 1); },
          parallelWorkItemLoop(module, level + 1 == dimensions));
      return;
    }
    if (level == 2 * dimensions) {
      for (unsigned d = 0; d < dimensions; ++d) {
        Value *group = b.CreateAlignedLoad(b.getInt64Ty(), word(b, builtins::kGroupIdWord, d), Align(8));
        Value *local = b.CreateAlignedLoad(b.getInt64Ty(), word(b, builtins::kLocalIdWord, d), Align(8));
        store(b, b.CreateNUWAdd(b.CreateNUWMul(group, locals[d]), local), builtins::kGlobalIdWord, d);
      }
      return stepped ? stepWorkItem(b) : callKernel(b);
    }
    if (stepped && level == dimensions) {
      // A group with barriers: phases until every work-item is done. Each
      // phase runs every work-item up to its next barrier: all of them from
      // the same place while they stay together (a loop per resume point,
      // each with its part of the kernel alone), else each from its own.
      if (readsStops) b.CreateMemSet(resumes, b.getInt8(0), b.CreateMul(groupSize, b.getInt64(4)), Align(16));
      b.CreateStore(b.getInt32(0), groupState);
      if (mayPart) b.CreateStore(b.getTrue(), groupUniform);
      Function *fn = b.GetInsertBlock()->getParent();
      BasicBlock *phase = BasicBlock::Create(ctx, "phase", fn), *after = BasicBlock::Create(ctx, "phase.done", fn);
      BasicBlock *together = BasicBlock::Create(ctx, "phase.together", fn);
      b.CreateBr(phase);
      b.SetInsertPoint(phase);
      BasicBlock *apart = nullptr, *settle = nullptr;
      if (mayPart) {
        apart = BasicBlock::Create(ctx, "phase.apart", fn);
        settle = BasicBlock::Create(ctx, "phase.settle", fn);
        b.CreateCondBr(b.CreateLoad(b.getInt1Ty(), groupUniform), together, apart);
      } else {
        b.CreateBr(together);
      }
      // A part of the kernel whose branches are all uniform: the group stops
      // together, at work-item 0's place (no check of every work-item), or
      // where the kernel says every work-item stops.
      BasicBlock *settleTogether = stopsAtUnknown ? BasicBlock::Create(ctx, "phase.settle.together", fn) : nullptr;
      auto workItems = [&](IRBuilder<> &at, bool stopsTogether) {
        workItemLoop(at, 0, level + 1);
        if (knownStop) {
          carryTogether(at);
          at.CreateStore(at.getInt32(*knownStop), groupState);
          at.CreateBr(*knownStop == kStepDone ? after : phase);
          return;
        }
        at.CreateBr(stopsTogether ? settleTogether : settle);
      };
      b.SetInsertPoint(together);
      // (A group that never parts resumes only where it stopped together.)
      BasicBlock *elsewhere = apart;
      if (!elsewhere) {
        elsewhere = BasicBlock::Create(ctx, "phase.unreachable", fn);
        IRBuilder<>(elsewhere).CreateUnreachable();
      }
      SwitchInst *resumeAt = b.CreateSwitch(b.CreateLoad(b.getInt32Ty(), groupState), elsewhere, stepped->barriers + 1);
      for (unsigned k = 0; k <= stepped->barriers; ++k) {
        BasicBlock *from = BasicBlock::Create(ctx, "phase.from." + std::to_string(k), fn);
        resumeAt->addCase(b.getInt32(static_cast<int32_t>(k)), from);
        b.SetInsertPoint(from);
        uniformFrom = b.getInt32(static_cast<int32_t>(k));
        knownStop = stepped->stopsAt[k];
        uniformValues.clear();
        for (const SteppedKernel::Uniform &uniform : stepped->uniforms)
          uniformValues.push_back(b.CreateAlignedLoad(uniform.type, at(b, uniform.previous), Align(1)));
        workItems(b, stepped->uniformExit[k]);
      }
      uniformFrom = nullptr;
      knownStop.reset();
      if (mayPart) {
        b.SetInsertPoint(apart);
        workItems(b, false);
        b.SetInsertPoint(settle);
        settlePhase(b, phase, after);
      }
      if (settleTogether) {
        b.SetInsertPoint(settleTogether);
        Value *first = b.CreateAlignedLoad(b.getInt32Ty(), resumes, Align(4));
        carryTogether(b);
        b.CreateStore(first, groupState);
        b.CreateCondBr(b.CreateICmpNE(first, b.getInt32(kStepDone)), phase, after);
      }
      b.SetInsertPoint(after);
      return;
    }
    if (level >= dimensions) return workItemLoop(b, level - dimensions, level + 1);
    emitLoop(b, begins[level], ends[level], word(b, builtins::kGroupIdWord, level),
             [&](IRBuilder<> &inner, Value *) { nest(inner, level + 1); });
  };
  nest(builder, 0);
  for (Value *block : allocations) builder.CreateCall(release, {block});
  builder.CreateRetVoid();
  return launcher;
}

}  // namespace

namespace {

class CpuTranslator final : public Translator {
public:
  const char *name() const override { return "CPU"; }

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
      Expected<SteppedKernel> built = buildSteppedKernel(module, *kernel.kernel, kernel.displayName);
      if (!built) return built.takeError();
      stepped_ = *built;
      dumpModuleIfRequested(module, kernel.kernel->getName().str() + ".stepped");
    }
    Function &body = stepped_ ? *stepped_->step : *kernel.kernel;
    Function *launcher = buildLauncher(module, body, features, stepped_ ? &*stepped_ : nullptr,
                                       specialization.localRange, groupLocalBytes_);
    return Entry{launcher, &body};
  }

  void beforeInlining(KernelModule &kernel, const Entry &entry) override {
    Module &module = *kernel.module;
    if (stepped_) {
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
  const char *dumpExtension() const override { return ".o"; }

private:
  std::unique_ptr<TargetMachine> machine_;
  uint64_t groupLocalBytes_ = 0;
  std::optional<SteppedKernel> stepped_;
};

}  // namespace

std::unique_ptr<Translator> makeCpuTranslator() { return std::make_unique<CpuTranslator>(); }

}  // namespace onepass::jit
