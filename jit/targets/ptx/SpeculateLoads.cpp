#include "SpeculateLoads.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>

using namespace llvm;

namespace onepass::jit {

namespace {

class Speculator {
public:
  explicit Speculator(Function &kernel)
      : kernel_(kernel), entry_(kernel.getEntryBlock()), dominators_(kernel), postDominators_(kernel) {}

  unsigned run() {
    // (Weak handles: deleting a speculated load's dead address arithmetic
    // may delete another candidate.)
    std::vector<WeakTrackingVH> candidates;
    for (BasicBlock &block : kernel_)
      if (&block != &entry_)
        for (Instruction &inst : block)
          if (auto *load = dyn_cast<LoadInst>(&inst); load && load->isSimple()) candidates.emplace_back(load);
    unsigned made = 0;
    for (WeakTrackingVH &candidate : candidates)
      if (auto *load = dyn_cast_or_null<LoadInst>(candidate)) made += speculate(*load);
    // Copies of arithmetic that a failed attempt left unused.
    for (auto copy = created_.rbegin(); copy != created_.rend(); ++copy)
      if (isInstructionTriviallyDead(*copy)) (*copy)->eraseFromParent();
    return made;
  }

private:
  // The entry block's unconditional load of the same parameter's buffer, with
  // the same type: the fallback address.
  LoadInst *fallbackFor(const LoadInst &load, const Argument &buffer) {
    for (Instruction &inst : entry_) {
      auto *candidate = dyn_cast<LoadInst>(&inst);
      if (candidate && candidate->isSimple() && candidate->getType() == load.getType() &&
          getUnderlyingObject(candidate->getPointerOperand()) == &buffer)
        return candidate;
      // (Past a call that may not return, later loads are not certain.)
      if (!isGuaranteedToTransferExecutionToSuccessor(&inst)) return nullptr;
    }
    return nullptr;
  }

  // The condition under which `block` runs, as a value at `at` (true if it
  // always runs), or nullptr if it is not a chain of single conditional
  // branches from blocks that always run.
  // A block with several predecessors runs if one of its incoming edges is
  // taken (at most one is, outside loops, which are refused).
  Value *conditionOf(BasicBlock *block, Instruction *at) {
    if (postDominators_.dominates(block, &entry_)) return ConstantInt::getTrue(kernel_.getContext());
    auto &conditions = made_[at].conditions;
    if (auto known = conditions.find(block); known != conditions.end()) return known->second;
    if (!visiting_.insert(block).second) return nullptr;  // a loop
    Value *condition = nullptr;
    for (BasicBlock *from : predecessors(block)) {
      Value *edge = edgeCondition(from, block, at);
      if (!edge) {
        condition = nullptr;
        break;
      }
      condition = condition ? or_(condition, edge, at) : edge;
    }
    visiting_.erase(block);
    if (condition) made_[at].conditions[block] = condition;
    return condition;
  }

  // The condition under which control goes from `from` to `to`.
  Value *edgeCondition(BasicBlock *from, BasicBlock *to, Instruction *at) {
    auto *branch = dyn_cast<BranchInst>(from->getTerminator());
    if (!branch) return nullptr;
    Value *before = conditionOf(from, at);
    if (!before || !branch->isConditional() || branch->getSuccessor(0) == branch->getSuccessor(1)) return before;
    Value *edge = rematerialize(branch->getCondition(), at);
    if (!edge) return nullptr;
    IRBuilder<> builder(at);
    if (branch->getSuccessor(1) == to) edge = track(builder.CreateNot(edge));
    return and_(before, edge, at);
  }

  Value *and_(Value *a, Value *b, Instruction *at) {
    if (auto *constant = dyn_cast<ConstantInt>(a); constant && constant->isOne()) return b;
    IRBuilder<> builder(at);
    return track(builder.CreateAnd(a, b));
  }
  Value *or_(Value *a, Value *b, Instruction *at) {
    IRBuilder<> builder(at);
    return track(builder.CreateOr(a, b));
  }

  // A phi's value, where its block runs: the incoming value of the edge taken.
  Value *phiValue(PHINode &phi, Instruction *at) {
    Value *value = rematerialize(phi.getIncomingValue(phi.getNumIncomingValues() - 1), at);
    for (unsigned i = phi.getNumIncomingValues() - 1; value && i-- > 0;) {
      Value *edge = edgeCondition(phi.getIncomingBlock(i), phi.getParent(), at);
      Value *incoming = rematerialize(phi.getIncomingValue(i), at);
      if (!edge || !incoming) return nullptr;
      IRBuilder<> builder(at);
      value = track(builder.CreateSelect(edge, incoming, value));
    }
    return value;
  }

  Value *track(Value *made) {
    if (auto *inst = dyn_cast<Instruction>(made)) created_.push_back(inst);
    return made;
  }

  // `value` computed at `at`: itself if available there, else a copy of its
  // arithmetic (nothing that reads memory or may trap).
  Value *rematerialize(Value *value, Instruction *at) {
    auto *inst = dyn_cast<Instruction>(value);
    if (!inst) return isa<Argument, Constant>(value) ? value : nullptr;
    if (dominators_.dominates(inst, at)) return inst;
    auto &copies = made_[at].copies;
    if (auto known = copies.find(inst); known != copies.end()) return known->second;
    if (auto *phi = dyn_cast<PHINode>(inst)) {
      Value *value = phiValue(*phi, at);
      if (value) made_[at].copies[inst] = cast<Instruction>(value);
      return value;
    }
    if (inst->mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(inst)) return nullptr;
    Instruction *copy = inst->clone();
    for (Use &operand : copy->operands()) {
      Value *available = rematerialize(operand.get(), at);
      if (!available) {
        copy->deleteValue();
        return nullptr;
      }
      operand.set(available);
    }
    copy->insertBefore(at->getIterator());
    copy->setName(inst->getName() + ".early");
    made_[at].copies[inst] = copy;
    created_.push_back(copy);
    return copy;
  }

  // Whether a plain write to a shared-memory global.
  static bool writesSharedMemoryOnly(const Instruction &inst) {
    const Value *pointer = nullptr;
    if (auto *store = dyn_cast<StoreInst>(&inst); store && store->isSimple()) pointer = store->getPointerOperand();
    if (auto *set = dyn_cast<MemSetInst>(&inst); set && !set->isVolatile()) pointer = set->getDest();
    auto *global = pointer ? dyn_cast<GlobalVariable>(getUnderlyingObject(pointer)) : nullptr;
    return global && global->getAddressSpace() == kSharedAddressSpace;
  }

  // Whether anything from after `start` to `load` (in its block, before it)
  // may write memory other than the shared memory, or synchronize.
  bool clobberedBetween(Instruction &start, LoadInst &load) {
    auto clobbers = [&](Instruction &inst) { return inst.mayWriteToMemory() && !writesSharedMemoryOnly(inst); };
    for (Instruction *inst = start.getNextNode(); inst; inst = inst->getNextNode())
      if (clobbers(*inst)) return true;
    // Every block on a way from the entry to the load's.
    SmallPtrSet<BasicBlock *, 16> seen{load.getParent()};
    SmallVector<BasicBlock *, 16> work(predecessors(load.getParent()));
    while (!work.empty()) {
      BasicBlock *block = work.pop_back_val();
      if (block == &entry_ || !seen.insert(block).second) continue;
      for (Instruction &inst : *block)
        if (clobbers(inst)) return true;
      for (BasicBlock *previous : predecessors(block)) work.push_back(previous);
    }
    for (Instruction *inst = load.getPrevNode(); inst; inst = inst->getPrevNode())
      if (clobbers(*inst)) return true;
    return false;
  }

  unsigned speculate(LoadInst &load) {
    auto *buffer = dyn_cast<Argument>(getUnderlyingObject(load.getPointerOperand()));
    if (!buffer) return 0;
    LoadInst *fallback = fallbackFor(load, *buffer);
    if (!fallback || clobberedBetween(*fallback, load)) return 0;
    // Right after the fallback load, so that they issue together (the same
    // point for every load that falls back on it: what earlier ones copied
    // lies before it).
    Instruction *&at = insertionPoints_[fallback];
    if (!at) at = fallback->getNextNode();
    Value *condition = conditionOf(load.getParent(), at);
    Value *address = condition ? rematerialize(load.getPointerOperand(), at) : nullptr;
    if (!condition || !address) return 0;  // (run() deletes what this made)
    IRBuilder<> builder(at);
    Value *chosen =
        builder.CreateSelect(condition, address, fallback->getPointerOperand(), load.getName() + ".address");
    LoadInst *early = builder.CreateAlignedLoad(load.getType(), chosen, std::min(load.getAlign(), fallback->getAlign()),
                                                load.getName() + ".early");
    early->copyMetadata(load, {LLVMContext::MD_tbaa, LLVMContext::MD_alias_scope, LLVMContext::MD_noalias});
    load.replaceAllUsesWith(early);
    Value *oldAddress = load.getPointerOperand();
    load.eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructions(oldAddress);
    return 1;
  }

  static constexpr unsigned kSharedAddressSpace = 3;
  Function &kernel_;
  BasicBlock &entry_;
  DominatorTree dominators_;
  PostDominatorTree postDominators_;
  // What was computed at each insertion point (one per fallback load): an
  // instruction's copy, a block's condition. Valid there and after only.
  struct Made {
    DenseMap<Instruction *, Instruction *> copies;
    DenseMap<BasicBlock *, Value *> conditions;
  };
  DenseMap<Instruction *, Made> made_;
  SmallPtrSet<BasicBlock *, 8> visiting_;
  DenseMap<LoadInst *, Instruction *> insertionPoints_;
  std::vector<Instruction *> created_;  // copies and conditions, in order
};

}  // namespace

unsigned speculateGuardedLoads(Function &kernel) {
  if (kernel.isDeclaration()) return 0;
  return Speculator(kernel).run();
}

}  // namespace onepass::jit
