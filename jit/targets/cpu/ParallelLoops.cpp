#include "ParallelLoops.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace onepass::jit {

namespace {

constexpr const char *kAccessGroupName = "onepass.work_item_accesses";

// The module's access group for work-item accesses (made once).
MDNode *accessGroup(Module &module) {
  NamedMDNode *named = module.getOrInsertNamedMetadata(kAccessGroupName);
  if (named->getNumOperands() == 0) named->addOperand(MDNode::getDistinct(module.getContext(), {}));
  return named->getOperand(0);
}

// Whether `inst` is a plain access a work-item makes to memory it does not
// own alone (given no alloca is left): loads, stores and memory intrinsics,
// neither atomic nor volatile.
bool independentAccess(const Instruction &inst) {
  if (auto *load = dyn_cast<LoadInst>(&inst)) return load->isSimple();
  if (auto *store = dyn_cast<StoreInst>(&inst)) return store->isSimple();
  if (auto *intrinsic = dyn_cast<MemIntrinsic>(&inst)) return !intrinsic->isVolatile();
  return false;
}

// Whether `loop` is one of parallelWorkItemLoop's (or another parallel loop).
bool isWorkItemLoop(const Loop &loop) {
  MDNode *id = loop.getLoopID();
  if (!id) return false;
  for (const MDOperand &operand : drop_begin(id->operands()))
    if (auto *property = dyn_cast<MDNode>(operand.get()); property && property->getNumOperands() > 0)
      if (auto *name = dyn_cast<MDString>(property->getOperand(0).get());
          name && name->getString() == "llvm.loop.parallel_accesses")
        return true;
  return false;
}

unsigned instructionCount(const Loop &loop) {
  unsigned count = 0;
  for (const BasicBlock *block : loop.blocks()) count += static_cast<unsigned>(block->size());
  return count;
}

// A condition that does not change in `loop` (computed before it, or
// movable there: arithmetic on such values) and decides `condition`'s value
// when true or when false: the condition itself, or a uniform part of an
// `a || b` or `a && b` (`i == 0 || j == 0`, i the same for a row).
// (`moved`: whether it moved instructions out of the loop.)
Value *uniformPart(const Loop &loop, Value *condition, bool &moved, unsigned depth = 0) {
  if (isa<Constant>(condition)) return nullptr;
  if (loop.makeLoopInvariant(condition, moved, loop.getLoopPreheader()->getTerminator())) return condition;
  if (depth == 4) return nullptr;
  Value *left = nullptr, *right = nullptr;
  using namespace PatternMatch;
  if (match(condition, m_LogicalOr(m_Value(left), m_Value(right))) ||
      match(condition, m_LogicalAnd(m_Value(left), m_Value(right)))) {
    if (Value *part = uniformPart(loop, left, moved, depth + 1)) return part;
    return uniformPart(loop, right, moved, depth + 1);
  }
  return nullptr;
}

// A uniform condition one of `loop`'s branches depends on (uniformPart).
Value *uniformCondition(const Loop &loop, bool &moved) {
  for (BasicBlock *block : loop.blocks())
    if (auto *branch = dyn_cast<BranchInst>(block->getTerminator()); branch && branch->isConditional())
      if (Value *condition = uniformPart(loop, branch->getCondition(), moved)) return condition;
  return nullptr;
}

// Removes what fixing a condition left: branches on constants, blocks no
// longer reached, empty blocks between others (a loop's latch among them:
// the vectorizer wants its exit there) and straight chains of blocks.
void tidyAfterUnswitching(Function &function, ArrayRef<BasicBlock *> changed) {
  for (BasicBlock *block : changed) {
    SimplifyInstructionsInBlock(block);
    ConstantFoldTerminator(block, true);
  }
  removeUnreachableBlocks(function);
  for (bool changed = true; changed;) {
    changed = false;
    for (BasicBlock &block : make_early_inc_range(function)) {
      if (&block == &function.getEntryBlock()) continue;
      if (MergeBlockIntoPredecessor(&block)) {
        changed = true;
        continue;
      }
      if (block.size() == 1 && isa<BranchInst>(block.getTerminator()) &&
          cast<BranchInst>(block.getTerminator())->isUnconditional() && TryToSimplifyUncondBranchFromEmptyBlock(&block))
        changed = true;
    }
  }
}

// Splits `loop` on `condition`: the loop runs with it true, a copy with it
// false, and the preheader chooses.
void unswitch(Function &function, Loop &loop, Value *condition, DominatorTree &tree, LoopInfo &loops) {
  simplifyLoop(&loop, &tree, &loops, nullptr, nullptr, nullptr, false);
  formLCSSA(loop, tree, &loops, nullptr);
  // The choice goes before a preheader of the loop's own (a block that
  // only enters it), which the copy gets a copy of.
  BasicBlock *choice = loop.getLoopPreheader();
  BasicBlock *preheader = SplitEdge(choice, loop.getHeader(), &tree, &loops);
  SmallVector<BasicBlock *, 16> copied;
  ValueToValueMapTy map;
  cloneLoopWithPreheader(preheader, choice, &loop, map, ".uniform", &loops, &tree, copied);
  remapInstructionsInBlocks(copied, map);
  // Leaving the copy: the exits' phis (LCSSA: the only uses of the loop's
  // values outside it) take its values too.
  SmallVector<BasicBlock *, 4> exits;
  loop.getUniqueExitBlocks(exits);
  for (BasicBlock *exit : exits)
    for (PHINode &phi : exit->phis())
      for (unsigned i = 0, n = phi.getNumIncomingValues(); i < n; ++i)
        if (loop.contains(phi.getIncomingBlock(i))) {
          Value *value = phi.getIncomingValue(i);
          Value *mapped = map.lookup(value);
          phi.addIncoming(mapped ? mapped : value, cast<BasicBlock>(map[phi.getIncomingBlock(i)]));
        }
  // Branching on poison is undefined: the loop may not have reached the
  // branch, the choice always does.
  IRBuilder<> at(choice->getTerminator());
  Value *chosen = isGuaranteedNotToBeUndefOrPoison(condition) ? condition : at.CreateFreeze(condition);
  at.CreateCondBr(chosen, preheader, cast<BasicBlock>(map[preheader]));
  choice->getTerminator()->eraseFromParent();
  SmallPtrSet<BasicBlock *, 16> inCopy(copied.begin(), copied.end());
  LLVMContext &ctx = function.getContext();
  condition->replaceUsesWithIf(ConstantInt::getTrue(ctx), [&](Use &use) {
    auto *user = dyn_cast<Instruction>(use.getUser());
    return user && loop.contains(user);
  });
  condition->replaceUsesWithIf(ConstantInt::getFalse(ctx), [&](Use &use) {
    auto *user = dyn_cast<Instruction>(use.getUser());
    return user && inCopy.contains(user->getParent());
  });
  SmallVector<BasicBlock *, 32> changed(loop.blocks());
  changed.append(copied.begin(), copied.end());
  tidyAfterUnswitching(function, changed);
}

}  // namespace

MDNode *parallelWorkItemLoop(Module &module, bool innermost) {
  LLVMContext &ctx = module.getContext();
  SmallVector<Metadata *, 3> properties{
      nullptr, MDNode::get(ctx, {MDString::get(ctx, "llvm.loop.parallel_accesses"), accessGroup(module)})};
  if (innermost) properties.push_back(MDNode::get(ctx, {MDString::get(ctx, "llvm.loop.unroll.disable")}));
  MDNode *loop = MDNode::getDistinct(ctx, properties);
  loop->replaceOperandWith(0, loop);  // a loop ID refers to itself
  return loop;
}

PreservedAnalyses MarkWorkItemAccessesPass::run(Function &function, FunctionAnalysisManager &) {
  if (function.getName() != launcher || !function.getParent()->getNamedMetadata(kAccessGroupName))
    return PreservedAnalyses::all();
  for (Instruction &inst : instructions(function))
    if (isa<AllocaInst>(inst)) return PreservedAnalyses::all();  // a work-item's own memory: not independent
  MDNode *group = accessGroup(*function.getParent());
  bool changed = false;
  for (Instruction &inst : instructions(function))
    if (independentAccess(inst)) {
      inst.setMetadata(LLVMContext::MD_access_group, group);
      changed = true;
    }
  if (!changed) return PreservedAnalyses::all();
  PreservedAnalyses kept;
  kept.preserveSet<CFGAnalyses>();
  return kept;
}

PreservedAnalyses UnswitchWorkItemLoopsPass::run(Function &function, FunctionAnalysisManager &) {
  if (function.getName() != launcher) return PreservedAnalyses::all();
  unsigned budget = kUnswitchBudget;
  bool changed = false;
  for (;;) {
    DominatorTree tree(function);
    LoopInfo loops(tree);
    Loop *chosen = nullptr;
    Value *condition = nullptr;
    for (Loop *loop : loops.getLoopsInPreorder()) {
      if (!loop->isInnermost() || !isWorkItemLoop(*loop)) continue;
      const unsigned size = instructionCount(*loop);
      if (size > kUnswitchLoopSize || size > budget) continue;
      // (Tidying may have merged a copy's preheader into the choice.)
      if (!loop->getLoopPreheader() && simplifyLoop(loop, &tree, &loops, nullptr, nullptr, nullptr, false))
        changed = true;
      bool moved = false;
      condition = uniformCondition(*loop, moved);
      changed = changed || moved;
      if (condition) {
        chosen = loop;
        budget -= size;
        break;
      }
    }
    if (!chosen) break;
    unswitch(function, *chosen, condition, tree, loops);
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace onepass::jit
