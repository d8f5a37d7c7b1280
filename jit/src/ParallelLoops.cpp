#include "ParallelLoops.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

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

}  // namespace onepass::jit
