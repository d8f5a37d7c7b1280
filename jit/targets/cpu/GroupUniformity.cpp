#include "GroupUniformity.h"
#include "sycl/detail/onepass_abi.hpp"

#include "WorkItemLowering.h"

#include "../../builtins/common/work_item_abi.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace onepass::jit {

bool isWorkItemState(const Value *value) {
  const auto *call = dyn_cast<CallInst>(value);
  return call && call->getCalledFunction() && call->getCalledFunction()->getName() == kWorkItemBuiltin;
}

std::optional<uint64_t> loadedStateWord(const LoadInst &load) {
  APInt offset(64, 0);
  const Value *base =
      load.getPointerOperand()->stripAndAccumulateInBoundsConstantOffsets(load.getModule()->getDataLayout(), offset);
  if (!isWorkItemState(base)) return std::nullopt;
  return offset.getZExtValue() / 8;
}

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
      const std::optional<uint64_t> word = loadedStateWord(*load);
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

}  // namespace onepass::jit
