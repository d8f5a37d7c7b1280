#include "HierarchicalLowering.h"

#include "WorkItemLowering.h"

#include "GroupLocalMemory.h"
#include "sycl/detail/onepass_abi.hpp"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <algorithm>
#include <limits>
#include <vector>

using namespace llvm;

namespace onepass::jit {

namespace {

constexpr StringLiteral kBegin = ONEPASS_ABI_HIERARCHICAL_REGION_BEGIN;
constexpr StringLiteral kEnd = ONEPASS_ABI_HIERARCHICAL_REGION_END;
constexpr StringLiteral kBarrier = ONEPASS_ABI_GROUP_BARRIER;
// Bytes of group-local memory the lowering may add (the work-group scope's
// variables, the values passed to regions); beyond it the leader runs all.
constexpr uint64_t kSharedBudget = 16 * 1024;

bool calls(const Instruction &inst, StringRef name) {
  const auto *call = dyn_cast<CallInst>(&inst);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->getName() == name;
}

// Erases every call of `name` in the module.
void eraseCalls(Module &module, StringRef name) {
  Function *function = module.getFunction(name);
  if (!function) return;
  for (User *user : make_early_inc_range(function->users()))
    if (auto *call = dyn_cast<CallInst>(user); call && call->getCalledFunction() == function) call->eraseFromParent();
}

// The work-item queries whose value differs between the work-items of a group.
bool isPerWorkItemQuery(const Function *callee) {
  if (!callee) return false;
  StringRef name = callee->getName();
  return name == ONEPASS_ABI_GET_LOCAL_ID || name == ONEPASS_ABI_GET_GLOBAL_ID ||
         name == ONEPASS_ABI_SUB_GROUP_LOCAL_ID || name == ONEPASS_ABI_SUB_GROUP_ID;
}

// `local linear id == 0`, at `builder`.
Value *isLeader(IRBuilder<> &builder, Module &module) {
  FunctionCallee localId =
      module.getOrInsertFunction(ONEPASS_ABI_GET_LOCAL_ID, builder.getInt64Ty(), builder.getInt32Ty());
  Value *any = builder.CreateCall(localId, {builder.getInt32(0)});
  for (unsigned d = 1; d < 3; ++d) any = builder.CreateOr(any, builder.CreateCall(localId, {builder.getInt32(d)}));
  return builder.CreateICmpEQ(any, builder.getInt64(0), "hier.leader");
}

// A new entry block that holds the kernel's allocas of constant size (so
// they are static, and every work-item has its own before any branch) and
// whatever the caller adds; returns it, without a terminator.
BasicBlock *makeEntryBlock(Function &kernel, const char *name) {
  BasicBlock *old = &kernel.getEntryBlock();
  BasicBlock *entry = BasicBlock::Create(kernel.getContext(), name, &kernel, old);
  std::vector<Instruction *> moved;
  for (Instruction &inst : instructions(kernel))
    if (auto *alloca = dyn_cast<AllocaInst>(&inst); alloca && isa<ConstantInt>(alloca->getArraySize()))
      moved.push_back(alloca);
  for (Instruction *inst : moved) inst->moveBefore(*entry, entry->end());
  return entry;
}

// The work-item queries as a group of one work-item answers them (the
// library's loops then take every id, as on the CPU device).
void queryAsLoneWorkItem(Module &module) {
  auto replace = [&](StringRef name, function_ref<Value *(CallInst &)> value) {
    Function *query = module.getFunction(name);
    if (!query) return;
    for (User *user : make_early_inc_range(query->users()))
      if (auto *call = dyn_cast<CallInst>(user); call && call->getCalledFunction() == query) {
        Value *answer = value(*call);
        if (isa<Instruction>(answer)) answer->takeName(call);
        call->replaceAllUsesWith(answer);
        call->eraseFromParent();
      }
  };
  auto constant = [](uint64_t v) {
    return [v](CallInst &call) -> Value * { return ConstantInt::get(call.getType(), v); };
  };
  auto asked = [&](StringRef other) {
    return [&module, other](CallInst &call) -> Value * {
      FunctionCallee query = module.getOrInsertFunction(other, call.getFunctionType());
      return CallInst::Create(query, {call.getArgOperand(0)}, "", call.getIterator());
    };
  };
  replace(ONEPASS_ABI_GET_LOCAL_ID, constant(0));
  replace(ONEPASS_ABI_GET_LOCAL_RANGE, constant(1));
  replace(ONEPASS_ABI_GET_GLOBAL_ID, asked(ONEPASS_ABI_GET_GROUP_ID));
  replace(ONEPASS_ABI_GET_GLOBAL_RANGE, asked(ONEPASS_ABI_GET_GROUP_RANGE));
}

// The fallback: the leader runs the whole work-group's code, in the order
// the CPU device runs it; the others return at once. Barriers would wait for
// them, and order nothing the leader alone does: they go.
void runOnLeader(Module &module, Function &kernel) {
  eraseCalls(module, kBegin);
  eraseCalls(module, kEnd);
  eraseCalls(module, kBarrier);
  queryAsLoneWorkItem(module);
  BasicBlock *old = &kernel.getEntryBlock();
  BasicBlock *entry = makeEntryBlock(kernel, "hier.entry");
  BasicBlock *others = BasicBlock::Create(kernel.getContext(), "hier.others", &kernel);
  IRBuilder<> builder(others);
  builder.CreateRetVoid();
  builder.SetInsertPoint(entry);
  builder.CreateCondBr(isLeader(builder, module), old, others);
}

class Lowering {
public:
  Lowering(Module &module, Function &kernel) : module_(module), kernel_(kernel), layout_(module.getDataLayout()) {}

  // Checks, then lowers; returns why not if it cannot (nothing changed but
  // inlining and block splits, which keep the kernel's meaning).
  Expected<bool> run(std::string &why) {
    if (!kernel_.getReturnType()->isVoidTy()) return fail(why, "the kernel function returns a value");
    if (!inlineRegions(why)) return false;
    if (!findRegions(why)) return false;
    if (!checkCalls(why)) return false;
    findUniformPrefix();
    if (!classifyAllocas(why)) return false;
    if (!findCrossings(why)) return false;
    if (sharedBytes_ > kSharedBudget)
      return fail(why, "its work-group scope needs " + std::to_string(sharedBytes_) +
                           " bytes of group-local memory to share, more than " + std::to_string(kSharedBudget));
    rewrite();
    std::string problems;
    raw_string_ostream stream(problems);
    if (verifyFunction(kernel_, &stream))
      return createStringError(inconvertibleErrorCode(),
                               "internal error: the hierarchical lowering made invalid IR: " + problems);
    return true;
  }

private:
  struct Region {
    CallInst *begin = nullptr, *end = nullptr;
    BasicBlock *head = nullptr, *last = nullptr, *after = nullptr;
    std::vector<BasicBlock *> blocks;
  };
  static constexpr unsigned kWorkGroupScope = 0;

  static bool fail(std::string &why, std::string text) {
    why = std::move(text);
    return false;
  }

  // Inlines into the kernel every function from which a region is reached.
  bool inlineRegions(std::string &why) {
    for (int round = 0; round < 1024; ++round) {
      SetVector<Function *> reaching;
      for (StringRef marker : {kBegin, kEnd})
        if (Function *f = module_.getFunction(marker)) reaching.set_union(transitiveCallers(*f));
      CallInst *target = nullptr;
      for (Instruction &inst : instructions(kernel_)) {
        auto *call = dyn_cast<CallInst>(&inst);
        Function *callee = call ? call->getCalledFunction() : nullptr;
        if (callee && callee != &kernel_ && !callee->isDeclaration() && reaching.contains(callee)) {
          target = call;
          break;
        }
      }
      if (!target) break;
      InlineFunctionInfo info;
      if (!InlineFunction(*target, info).isSuccess())
        return fail(why, "a parallel_for_work_item is in function '" + target->getCalledFunction()->getName().str() +
                             "', which cannot be inlined");
    }
    // (The module may still hold other kernels' code: only what this one reaches counts.)
    SmallPtrSet<const Function *, 16> reached{&kernel_};
    std::vector<const Function *> work{&kernel_};
    while (!work.empty()) {
      const Function *function = work.back();
      work.pop_back();
      for (const Instruction &inst : instructions(*function))
        if (const auto *call = dyn_cast<CallBase>(&inst))
          if (const Function *callee = call->getCalledFunction();
              callee && !callee->isDeclaration() && reached.insert(callee).second)
            work.push_back(callee);
    }
    for (StringRef marker : {kBegin, kEnd})
      if (Function *f = module_.getFunction(marker))
        for (User *user : f->users())
          if (auto *inst = dyn_cast<Instruction>(user);
              inst && inst->getFunction() != &kernel_ && reached.contains(inst->getFunction()))
            return fail(why, "a parallel_for_work_item is in function '" + inst->getFunction()->getName().str() +
                                 "', which the kernel cannot inline (recursion?)");
    return true;
  }

  // Splits blocks so that each region starts a block and ends one, and
  // collects the regions' blocks.
  bool findRegions(std::string &why) {
    std::vector<CallInst *> begins, ends;
    for (Instruction &inst : instructions(kernel_)) {
      if (calls(inst, kBegin)) begins.push_back(cast<CallInst>(&inst));
      else if (calls(inst, kEnd)) ends.push_back(cast<CallInst>(&inst));
    }
    if (begins.size() != ends.size()) return fail(why, "its regions' begin and end markers do not pair");
    for (CallInst *end : ends) end->getParent()->splitBasicBlock(end->getNextNode(), "hier.after");
    // (Always: the block before a region stays the leader's, e.g. where it
    // resumes after the region before.)
    for (CallInst *begin : begins) begin->getParent()->splitBasicBlock(begin, "hier.region");
    for (CallInst *begin : begins) {
      Region region;
      region.begin = begin;
      region.head = begin->getParent();
      const unsigned index = static_cast<unsigned>(regions_.size()) + 1;
      std::vector<BasicBlock *> work{region.head};
      if (!regionOf_.try_emplace(region.head, index).second) return fail(why, "a region that starts inside another");
      while (!work.empty()) {
        BasicBlock *block = work.back();
        work.pop_back();
        region.blocks.push_back(block);
        CallInst *end = nullptr;
        for (Instruction &inst : *block) {
          if (calls(inst, kBegin) && &inst != begin) return fail(why, "a parallel_for_work_item inside another");
          if (calls(inst, kEnd)) end = cast<CallInst>(&inst);
        }
        if (isa<ReturnInst>(block->getTerminator())) return fail(why, "a region that returns from the kernel");
        if (end) {
          if (region.end) return fail(why, "a region with two ends");
          region.end = end;
          region.last = block;
          region.after = block->getSingleSuccessor();
          continue;
        }
        for (BasicBlock *next : successors(block)) {
          auto [it, fresh] = regionOf_.try_emplace(next, index);
          if (fresh) work.push_back(next);
          else if (it->second != index) return fail(why, "regions that share code");
        }
      }
      if (!region.end || !region.after) return fail(why, "a region without its end");
      for (BasicBlock *block : region.blocks)
        for (BasicBlock *from : predecessors(block)) {
          const bool inside = regionOf_.lookup(from) == index;
          if (block == region.head ? inside : !inside)
            return fail(why, "a region entered other than at its start (a loop around its begin?)");
        }
      regions_.push_back(std::move(region));
    }
    return true;
  }

  unsigned regionOf(const BasicBlock *block) const { return regionOf_.lookup(block); }

  // Sub-group operations and other collective calls have no meaning on the
  // leader alone, nor in a region whose work-items loop unequally.
  bool checkCalls(std::string &why) {
    for (Instruction &inst : instructions(kernel_)) {
      auto *call = dyn_cast<CallInst>(&inst);
      if (!call || !call->isConvergent() || calls(inst, kBegin) || calls(inst, kEnd) || calls(inst, kBarrier)) continue;
      Function *callee = call->getCalledFunction();
      return fail(why, "it calls the collective operation '" + (callee ? callee->getName().str() : "(indirect)") +
                           "' at work-group scope or in parallel_for_work_item");
    }
    return true;
  }

  bool isGroupLocalAllocation(const Value *value) const {
    const auto *call = dyn_cast<CallInst>(value);
    return call && call->getCalledFunction() && call->getCalledFunction()->getName() == ir::kGroupLocalMemoryBuiltin &&
           isa<ConstantInt>(call->getArgOperand(0)) && isa<ConstantInt>(call->getArgOperand(1));
  }

  // --- The uniform prefix -------------------------------------------------
  // The start of the kernel's entry block that every work-item can run
  // itself before the leader goes on alone: it builds the objects the regions
  // read (the kernel object's copy, the group, the closures) from the
  // kernel's arguments and the group's queries. Those objects are "frozen":
  // written only there, their addresses kept only in allocas (no call, no
  // other memory sees them). Each work-item then keeps its own copy, the same
  // as the leader's, and the optimizer reads the regions' captures from
  // registers instead of through group-local memory.

  using Objects = SmallPtrSet<AllocaInst *, 4>;
  // A place in an alloca: its offset, or kAnyOffset.
  using Location = std::pair<AllocaInst *, int64_t>;
  static constexpr int64_t kAnyOffset = std::numeric_limits<int64_t>::min();
  using Locations = SmallDenseSet<Location, 4>;
  using PointsTo = DenseMap<const Value *, Locations>;

  static bool merge(Locations &into, const Locations &from) {
    bool grew = false;
    for (const Location &l : from) grew |= into.insert(l).second;
    return grew;
  }

  // Where each pointer value may point (allocas and offsets in them) and
  // which such places each place may hold (a fixpoint over the kernel), and
  // the allocas whose addresses go where the fixpoint does not follow.
  void trackPointers(PointsTo &pointsTo, Objects &escaped) const {
    DenseMap<Location, Locations> holds;
    for (Instruction &inst : instructions(kernel_))
      if (auto *alloca = dyn_cast<AllocaInst>(&inst)) pointsTo[alloca].insert({alloca, 0});
    auto found = [&](const Value *v) -> const Locations * {
      auto it = pointsTo.find(v);
      return it == pointsTo.end() ? nullptr : &it->second;
    };
    // What a load from `places` may give: what the places hold, and what
    // the places of the same allocas at unknown offsets (or any place, when
    // the offset is unknown) hold.
    auto held = [&](const Locations &places) {
      Locations contents;
      for (const auto &[place, stored] : holds)
        for (const Location &at : places)
          if (place.first == at.first &&
              (place.second == at.second || place.second == kAnyOffset || at.second == kAnyOffset)) {
            contents.insert(stored.begin(), stored.end());
            break;
          }
      return contents;
    };
    const DataLayout &layout = layout_;
    for (bool changed = true; changed;) {
      changed = false;
      for (Instruction &inst : instructions(kernel_)) {
        if (auto *gep = dyn_cast<GetElementPtrInst>(&inst)) {
          const Locations *from = found(gep->getPointerOperand());
          if (!from) continue;
          APInt offset(layout.getIndexTypeSizeInBits(gep->getType()), 0);
          const bool known = gep->accumulateConstantOffset(layout, offset);
          Locations moved;
          for (const auto &[alloca, at] : *from)
            moved.insert({alloca, known && at != kAnyOffset ? at + offset.getSExtValue() : kAnyOffset});
          changed |= merge(pointsTo[gep], moved);
        } else if (isa<CastInst, PHINode, SelectInst, FreezeInst>(inst)) {
          for (const Value *operand : inst.operands())
            if (const Locations *from = found(operand)) {
              const Locations copy = *from;
              changed |= merge(pointsTo[&inst], copy);
            }
        } else if (auto *load = dyn_cast<LoadInst>(&inst)) {
          if (const Locations *from = found(load->getPointerOperand())) {
            const Locations loaded = held(*from);
            if (!loaded.empty()) changed |= merge(pointsTo[load], loaded);
          }
        } else if (auto *store = dyn_cast<StoreInst>(&inst)) {
          const Locations *value = found(store->getValueOperand());
          if (!value) continue;
          const Locations copy = *value;
          if (const Locations *to = found(store->getPointerOperand())) {
            const Locations targets = *to;
            for (const Location &at : targets) changed |= merge(holds[at], copy);
          } else {
            for (const Location &l : copy) changed |= escaped.insert(l.first).second;
          }
        } else if (auto *transfer = dyn_cast<MemTransferInst>(&inst)) {
          const Locations *from = found(transfer->getSource());
          if (!from) continue;
          const Locations contents = held(*from);
          if (contents.empty()) continue;
          if (const Locations *to = found(transfer->getDest())) {
            const Locations targets = *to;
            for (const Location &at : targets) changed |= merge(holds[{at.first, kAnyOffset}], contents);
          } else {
            for (const Location &l : contents) changed |= escaped.insert(l.first).second;
          }
        }
      }
    }
    for (Instruction &inst : instructions(kernel_))
      for (const Use &use : inst.operands()) {
        auto it = pointsTo.find(use.get());
        if (it == pointsTo.end()) continue;
        bool kept =
            isa<GetElementPtrInst, PHINode, SelectInst, FreezeInst, ICmpInst, BitCastInst, AddrSpaceCastInst>(inst);
        if (auto *load = dyn_cast<LoadInst>(&inst)) kept = load->isSimple();
        if (auto *store = dyn_cast<StoreInst>(&inst)) kept = store->isSimple();
        if (auto *call = dyn_cast<CallInst>(&inst)) {
          const auto *intrinsic = dyn_cast<IntrinsicInst>(call);
          const auto *memory = dyn_cast<MemIntrinsic>(call);
          kept = calls(inst, kBegin) || (intrinsic && intrinsic->isLifetimeStartOrEnd()) ||
                 (memory && !memory->isVolatile() && use.getOperandNo() < 2);
        }
        if (!kept)
          for (const Location &l : it->second) escaped.insert(l.first);
      }
  }

  // The longest start of the entry block every work-item may run, given the
  // frozen allocas: allocas, pure code, loads of frozen allocas or of memory
  // that is no alloca's, and writes of the same values to frozen allocas.
  std::vector<Instruction *> prefixFor(const Objects &frozen, const PointsTo &pointsTo) const {
    auto onlyFrozen = [&](const Value *pointer) {
      auto it = pointsTo.find(pointer);
      if (it == pointsTo.end()) return false;
      for (const Location &l : it->second)
        if (!frozen.contains(l.first)) return false;
      return true;
    };
    auto readable = [&](const Value *pointer) {
      return !perWorkItem(pointer) && (onlyFrozen(pointer) || !pointsTo.count(pointer));
    };
    std::vector<Instruction *> prefix;
    for (Instruction &inst : kernel_.getEntryBlock()) {
      bool ok = false;
      if (isa<AllocaInst>(inst)) ok = true;
      else if (auto *intrinsic = dyn_cast<IntrinsicInst>(&inst); intrinsic && intrinsic->isLifetimeStartOrEnd())
        ok = true;
      else if (auto *load = dyn_cast<LoadInst>(&inst)) ok = load->isSimple() && readable(load->getPointerOperand());
      else if (auto *store = dyn_cast<StoreInst>(&inst))
        ok = store->isSimple() && onlyFrozen(store->getPointerOperand()) && !perWorkItem(store->getValueOperand());
      else if (auto *set = dyn_cast<MemSetInst>(&inst))
        ok = !set->isVolatile() && onlyFrozen(set->getDest()) && !perWorkItem(set->getValue()) &&
             !perWorkItem(set->getLength());
      else if (auto *transfer = dyn_cast<MemTransferInst>(&inst))
        ok = !transfer->isVolatile() && onlyFrozen(transfer->getDest()) && readable(transfer->getSource()) &&
             !perWorkItem(transfer->getLength());
      else if (isPure(inst)) ok = true;
      if (!ok) break;
      prefix.push_back(&inst);
    }
    return prefix;
  }

  void findUniformPrefix() {
    PointsTo pointsTo;
    Objects escaped;
    trackPointers(pointsTo, escaped);
    Objects frozen;
    for (Instruction &inst : instructions(kernel_))
      if (auto *alloca = dyn_cast<AllocaInst>(&inst);
          alloca && isa<ConstantInt>(alloca->getArraySize()) && !escaped.contains(alloca))
        frozen.insert(alloca);
    // A write outside the prefix thaws what it may write; the prefix may
    // then end sooner: until nothing changes.
    std::vector<Instruction *> prefix;
    for (bool changed = true; changed;) {
      changed = false;
      prefix = prefixFor(frozen, pointsTo);
      const SmallPtrSet<Instruction *, 32> inPrefix(prefix.begin(), prefix.end());
      for (Instruction &inst : instructions(kernel_)) {
        const Value *written = nullptr;
        if (auto *store = dyn_cast<StoreInst>(&inst)) written = store->getPointerOperand();
        else if (auto *memory = dyn_cast<MemIntrinsic>(&inst)) written = memory->getDest();
        if (!written || inPrefix.contains(&inst)) continue;
        auto it = pointsTo.find(written);
        if (it == pointsTo.end()) continue;
        for (const Location &l : it->second) changed |= frozen.erase(l.first);
      }
    }
    common_.insert(prefix.begin(), prefix.end());
    frozen_ = std::move(frozen);
  }

  // An alloca only one region uses is each work-item's own, as is a frozen
  // one; any other is the group's, in group-local memory.
  bool classifyAllocas(std::string &why) {
    for (Instruction &inst : instructions(kernel_)) {
      auto *alloca = dyn_cast<AllocaInst>(&inst);
      if (!alloca || alloca->use_empty()) continue;
      if (frozen_.contains(alloca)) {
        private_.push_back(alloca);
        continue;
      }

      // (Lifetime markers aside: a variable of the work-item function may
      // end its life after the region's end marker.)
      SmallSet<unsigned, 4> users;
      for (User *user : alloca->users())
        if (auto *intrinsic = dyn_cast<IntrinsicInst>(user); !intrinsic || !intrinsic->isLifetimeStartOrEnd())
          users.insert(regionOf(cast<Instruction>(user)->getParent()));
      if (users.empty()) continue;
      const unsigned home = regionOf(alloca->getParent());
      if (users.size() == 1 && *users.begin() != kWorkGroupScope) {
        const bool constantSize = isa<ConstantInt>(alloca->getArraySize());
        if (home != *users.begin() && (home != kWorkGroupScope || !constantSize))
          return fail(why, "a variable of one part of the kernel used only by a region elsewhere");
        private_.push_back(alloca);  // each work-item's: stays an alloca
        continue;
      }
      if (home != kWorkGroupScope) return fail(why, "a region's variable used after the region");
      if (!isa<ConstantInt>(alloca->getArraySize())) return fail(why, "a variable-size array at work-group scope");
      std::optional<TypeSize> size = alloca->getAllocationSize(layout_);
      if (!size || size->isScalable()) return fail(why, "a work-group scope variable of unknown size");
      shared_.push_back(alloca);
      sharedBytes_ += alignTo(std::max<uint64_t>(size->getFixedValue(), 1), 16);
    }
    return true;
  }

  // Pure: recomputing the value elsewhere gives the value that place would
  // have computed (work-item queries give each work-item its own).
  static bool isPure(const Instruction &inst) {
    if (isa<PHINode>(inst) || isa<AllocaInst>(inst) || inst.isTerminator() || inst.mayReadOrWriteMemory() ||
        inst.mayHaveSideEffects() || isa<LandingPadInst>(inst))
      return false;
    if (const auto *call = dyn_cast<CallInst>(&inst))
      return !call->isConvergent() && call->doesNotAccessMemory() && call->getCalledFunction();
    return true;
  }

  // Whether a work-item's value of `value` can differ from the leader's.
  static bool perWorkItem(const Value *value) {
    SmallPtrSet<const Value *, 32> seen;
    std::vector<const Value *> work{value};
    while (!work.empty()) {
      const auto *inst = dyn_cast<Instruction>(work.back());
      work.pop_back();
      if (!inst || !seen.insert(inst).second) continue;
      if (const auto *call = dyn_cast<CallInst>(inst); call && isPerWorkItemQuery(call->getCalledFunction()))
        return true;
      for (const Value *operand : inst->operands()) work.push_back(operand);
    }
    return false;
  }

  // Whether `value` can be had in region `target` (kWorkGroupScope: the
  // leader's code): recomputed if pure, loaded from its slot if the leader
  // computed it.
  bool available(const Value *value, unsigned target, int depth, std::string &why) {
    const auto *inst = dyn_cast<Instruction>(value);
    if (!inst || isa<AllocaInst>(inst) || isGroupLocalAllocation(inst) || common_.contains(inst)) return true;
    const unsigned home = regionOf(inst->getParent());
    if (home == target) return true;
    if (isPure(*inst) && depth < 32) {
      for (const Value *operand : inst->operands())
        if (!available(operand, target, depth + 1, why)) return false;
      return true;
    }
    if (home != kWorkGroupScope) return fail(why, "a value computed in parallel_for_work_item is used after it");
    if (inst->getType()->isTokenTy() || !inst->getType()->isSized())
      return fail(why, "a work-group scope value of a type that cannot be stored");
    if (perWorkItem(inst))
      return fail(why, "a work-group scope value that depends on the work-item is used in parallel_for_work_item");
    if (spilled_.insert(inst).second) sharedBytes_ += alignTo(layout_.getTypeStoreSize(inst->getType()), 16);
    return true;
  }

  // Collects the values the leader computed that regions use, and checks
  // every other crossing.
  bool findCrossings(std::string &why) {
    for (Instruction &inst : instructions(kernel_)) {
      if (isa<AllocaInst>(inst) || isGroupLocalAllocation(&inst) || calls(inst, kBegin) || calls(inst, kEnd) ||
          common_.contains(&inst))
        continue;
      const unsigned home = regionOf(inst.getParent());
      for (Use &use : inst.uses()) {
        const auto *user = cast<Instruction>(use.getUser());
        if (calls(*user, kBegin)) continue;  // (the closure: its captures are in memory)
        const unsigned target = regionOf(user->getParent());
        if (target == home) continue;
        if (!available(&inst, target, 0, why)) return false;
        crossings_.push_back(&use);
      }
    }
    return true;
  }

  // The value of `value` at `at` in region `target` (see available()).
  Value *materialize(Value *value, unsigned target, Instruction *at,
                     DenseMap<std::pair<Value *, unsigned>, Value *> &made) {
    auto *inst = dyn_cast<Instruction>(value);
    if (!inst || isa<AllocaInst>(inst) || isGroupLocalAllocation(inst) || common_.contains(inst)) return value;
    if (regionOf(inst->getParent()) == target) return value;
    // One copy per region (at its head); in the leader's code, one per use.
    const bool cached = target != kWorkGroupScope;
    if (cached)
      if (Value *done = made.lookup({value, target})) return done;
    Value *result;
    if (isPure(*inst)) {
      Instruction *copy = inst->clone();
      for (Use &operand : copy->operands()) operand.set(materialize(operand.get(), target, at, made));
      copy->insertBefore(at->getIterator());
      copy->setName(inst->getName() + ".here");
      result = copy;
    } else {
      IRBuilder<> builder(at);
      result = builder.CreateAlignedLoad(inst->getType(), slotFor(inst), layout_.getABITypeAlign(inst->getType()),
                                         inst->getName() + ".shared");
    }
    if (cached) made[{value, target}] = result;
    return result;
  }

  // The group-local slot through which the leader passes `inst` to the
  // regions; the store follows its definition.
  Value *slotFor(Instruction *inst) {
    if (Value *slot = slots_.lookup(inst)) return slot;
    IRBuilder<> builder(entry_, entry_->end());
    Value *slot = allocateGroupLocal(builder, layout_.getTypeStoreSize(inst->getType()).getFixedValue(),
                                     layout_.getABITypeAlign(inst->getType()).value());
    slot->setName(inst->getName() + ".slot");
    slots_[inst] = slot;
    BasicBlock::iterator after =
        isa<PHINode>(inst) ? inst->getParent()->getFirstInsertionPt() : std::next(inst->getIterator());
    IRBuilder<> store(inst->getParent(), after);
    store.CreateAlignedStore(inst, slot, layout_.getABITypeAlign(inst->getType()));
    return slot;
  }

  Value *allocateGroupLocal(IRBuilder<> &builder, uint64_t size, uint64_t alignment) {
    FunctionCallee allocate = module_.getOrInsertFunction(ir::kGroupLocalMemoryBuiltin, builder.getPtrTy(),
                                                          builder.getInt64Ty(), builder.getInt64Ty());
    return builder.CreateCall(
        allocate, {builder.getInt64(std::max<uint64_t>(size, 1)), builder.getInt64(std::max<uint64_t>(alignment, 1))});
  }

  // Closing regions: no region follows one, and every way from its end to a
  // return passes its end (no early return joins it). After such a region the
  // others are done and leave at once; the leader then returns without
  // another barrier (its returns past a closing region's end). One barrier
  // fewer per group for the usual kernel, whose last call ends it.
  void findClosingRegions(std::vector<bool> &closing, SmallPtrSetImpl<BasicBlock *> &directReturns) {
    DominatorTree tree(kernel_);
    closing.assign(regions_.size(), false);
    for (unsigned i = 0; i < regions_.size(); ++i) {
      BasicBlock *after = regions_[i].after;
      SmallPtrSet<BasicBlock *, 16> seen{after};
      std::vector<BasicBlock *> work{after};
      bool ok = true;
      while (!work.empty() && ok) {
        BasicBlock *block = work.back();
        work.pop_back();
        if (regionOf(block) != kWorkGroupScope) ok = false;  // another region follows
        else if (isa<ReturnInst>(block->getTerminator()) && !tree.dominates(after, block)) ok = false;
        for (BasicBlock *next : successors(block))
          if (seen.insert(next).second) work.push_back(next);
      }
      closing[i] = ok;
    }
    for (BasicBlock &block : kernel_)
      if (isa<ReturnInst>(block.getTerminator()))
        for (unsigned i = 0; i < regions_.size(); ++i)
          if (closing[i] && tree.dominates(regions_[i].after, &block)) directReturns.insert(&block);
  }

  // Erases an instruction the sets above may name (an address a new
  // instruction could take next).
  void erase(Instruction *inst) {
    common_.erase(inst);
    inst->eraseFromParent();
  }

  void rewrite() {
    LLVMContext &ctx = kernel_.getContext();
    std::vector<bool> closing;
    SmallPtrSet<BasicBlock *, 8> directReturns;
    findClosingRegions(closing, directReturns);
    std::vector<BasicBlock *> leaderBlocks;
    for (BasicBlock &block : kernel_)
      if (regionOf(&block) == kWorkGroupScope) leaderBlocks.push_back(&block);
    BasicBlock *oldEntry = &kernel_.getEntryBlock();
    entry_ = makeEntryBlock(kernel_, "hier.entry");
    // Group-local allocations are placed, not executed: all work-items see them.
    std::vector<Instruction *> placed;
    for (Instruction &inst : instructions(kernel_))
      if (isGroupLocalAllocation(&inst)) placed.push_back(&inst);
    for (Instruction *inst : placed) inst->moveBefore(*entry_, entry_->end());
    IRBuilder<> builder(entry_, entry_->end());
    for (AllocaInst *alloca : shared_) {
      Value *memory =
          allocateGroupLocal(builder, alloca->getAllocationSize(layout_)->getFixedValue(), alloca->getAlign().value());
      for (User *user : make_early_inc_range(alloca->users()))
        if (auto *intrinsic = dyn_cast<IntrinsicInst>(user); intrinsic && intrinsic->isLifetimeStartOrEnd())
          erase(intrinsic);
      memory->takeName(alloca);
      alloca->replaceAllUsesWith(memory);
      erase(alloca);
    }
    // A work-item's variable lives in its region (its markers elsewhere,
    // which only the leader would reach, go).
    for (AllocaInst *alloca : private_) {
      for (User *user : make_early_inc_range(alloca->users()))
        if (auto *intrinsic = dyn_cast<IntrinsicInst>(user);
            intrinsic && intrinsic->isLifetimeStartOrEnd() && regionOf(intrinsic->getParent()) == kWorkGroupScope)
          erase(intrinsic);
    }
    // The uniform prefix, for every work-item (its allocas are there already).
    for (Instruction &inst : make_early_inc_range(*oldEntry))
      if (common_.contains(&inst)) inst.moveBefore(*entry_, entry_->end());
    Value *next = allocateGroupLocal(builder, 4, 4);
    next->setName("hier.next");

    // Values crossing between the leader's code and the regions.
    DenseMap<std::pair<Value *, unsigned>, Value *> made;
    for (Use *use : crossings_) {
      auto *user = cast<Instruction>(use->getUser());
      const unsigned target = regionOf(user->getParent());
      Instruction *at = target == kWorkGroupScope
                            ? (isa<PHINode>(user) ? cast<PHINode>(user)->getIncomingBlock(*use)->getTerminator() : user)
                            : &*regions_[target - 1].head->getFirstInsertionPt();
      use->set(materialize(use->get(), target, at, made));
    }

    FunctionCallee barrier = module_.getOrInsertFunction(kBarrier, Type::getVoidTy(ctx));
    if (auto *declared = dyn_cast<Function>(barrier.getCallee())) declared->setConvergent();
    BasicBlock *sync = BasicBlock::Create(ctx, "hier.sync", &kernel_);
    BasicBlock *exit = BasicBlock::Create(ctx, "hier.exit", &kernel_);
    BasicBlock *joined = BasicBlock::Create(ctx, "hier.joined", &kernel_);
    BasicBlock *resume = BasicBlock::Create(ctx, "hier.resume", &kernel_);
    BasicBlock *unreachable = BasicBlock::Create(ctx, "hier.unreachable", &kernel_);
    Value *leader = isLeader(builder, module_);
    builder.CreateCondBr(leader, oldEntry, sync);

    // The leader's returns end the group (the others wait at the barrier
    // unless a closing region let them go).
    for (BasicBlock *block : leaderBlocks)
      if (auto *ret = dyn_cast<ReturnInst>(block->getTerminator()); ret && !directReturns.contains(block)) {
        IRBuilder<> at(ret);
        at.CreateAlignedStore(at.getInt32(0), next, Align(4));
        at.CreateBr(sync);
        ret->eraseFromParent();
      }
    builder.SetInsertPoint(sync);
    builder.CreateCall(barrier);
    Value *chosen = builder.CreateAlignedLoad(builder.getInt32Ty(), next, Align(4), "hier.chosen");
    SwitchInst *dispatch = builder.CreateSwitch(chosen, exit, static_cast<unsigned>(regions_.size()));
    builder.SetInsertPoint(exit);
    builder.CreateRetVoid();
    builder.SetInsertPoint(joined);
    PHINode *which = builder.CreatePHI(builder.getInt32Ty(), static_cast<unsigned>(regions_.size()), "hier.which");
    builder.CreateCall(barrier);
    BasicBlock *others = sync;
    if (std::find(closing.begin(), closing.end(), true) != closing.end()) {
      others = BasicBlock::Create(ctx, "hier.others", &kernel_);
      IRBuilder<> at(others);
      SwitchInst *leave = at.CreateSwitch(which, sync);
      for (unsigned i = 0; i < regions_.size(); ++i)
        if (closing[i]) leave->addCase(at.getInt32(i + 1), exit);
    }
    builder.CreateCondBr(leader, resume, others);
    builder.SetInsertPoint(unreachable);
    builder.CreateUnreachable();
    builder.SetInsertPoint(resume);
    SwitchInst *resumeAt = builder.CreateSwitch(which, unreachable, static_cast<unsigned>(regions_.size()));

    std::vector<BasicBlock *> yields;
    for (unsigned i = 0; i < regions_.size(); ++i) {
      Region &region = regions_[i];
      ConstantInt *index = builder.getInt32(i + 1);
      // The leader names the region and joins the others.
      BasicBlock *yield = BasicBlock::Create(ctx, "hier.yield", &kernel_);
      IRBuilder<> at(yield);
      at.CreateAlignedStore(index, next, Align(4));
      at.CreateBr(sync);
      std::vector<BasicBlock *> from(pred_begin(region.head), pred_end(region.head));
      for (BasicBlock *pred : from) pred->getTerminator()->replaceSuccessorWith(region.head, yield);
      dispatch->addCase(index, region.head);
      yields.push_back(yield);
      region.begin->eraseFromParent();
      region.end->eraseFromParent();
      // A closing region after which the leader only returns: everyone
      // returns, with no barrier (nothing reads what the region wrote).
      if (closing[i] && region.after->size() == 1 && isa<ReturnInst>(region.after->getTerminator())) {
        region.last->getTerminator()->replaceSuccessorWith(region.after, exit);
        continue;
      }
      region.last->getTerminator()->replaceSuccessorWith(region.after, joined);
      which->addIncoming(index, region.last);
      resumeAt->addCase(index, region.after);
    }
    // Nothing for the leader to do before a region: everyone enters it at once.
    BasicBlock *walk = oldEntry;
    for (SmallPtrSet<BasicBlock *, 8> seen; walk && seen.insert(walk).second;) {
      auto *branch = dyn_cast<BranchInst>(walk->getTerminator());
      if (walk->size() != 1 || !branch || branch->isConditional()) break;
      walk = branch->getSuccessor(0);
      auto found = std::find(yields.begin(), yields.end(), walk);
      if (found == yields.end()) continue;
      Instruction *start = entry_->getTerminator();
      BranchInst::Create(regions_[found - yields.begin()].head, start->getIterator());
      start->eraseFromParent();
      break;
    }
    // The regions' bounds are the group's barriers; the leader needs none.
    for (Instruction &inst : make_early_inc_range(instructions(kernel_)))
      if (calls(inst, kBarrier) && inst.getParent() != sync && inst.getParent() != joined) inst.eraseFromParent();

    // The leader's values that reach its own later code through a region
    // (the others' path to it) go through its private memory; the
    // optimizer makes them values again.
    const SmallPtrSet<BasicBlock *, 32> wasLeaders(leaderBlocks.begin(), leaderBlocks.end());
    removeUnreachableBlocks(kernel_);  // (e.g. the dispatch a lone region no longer needs)
    DominatorTree tree(kernel_);
    std::vector<Instruction *> demote;
    for (BasicBlock &block : kernel_) {
      if (!wasLeaders.contains(&block)) continue;
      for (Instruction &inst : block) {
        if (isa<AllocaInst>(inst)) continue;
        for (Use &use : inst.uses())
          if (!tree.dominates(&inst, use)) {
            demote.push_back(&inst);
            break;
          }
      }
    }
    for (Instruction *inst : demote) DemoteRegToStack(*inst, false, entry_->getFirstInsertionPt());
  }

  Module &module_;
  Function &kernel_;
  const DataLayout &layout_;
  std::vector<Region> regions_;
  DenseMap<const BasicBlock *, unsigned> regionOf_;  // absent: work-group scope
  std::vector<AllocaInst *> shared_, private_;
  uint64_t sharedBytes_ = 4;
  std::vector<Use *> crossings_;
  SmallPtrSet<const Instruction *, 16> spilled_;
  SmallPtrSet<const Instruction *, 32> common_;  // the uniform prefix
  Objects frozen_;
  DenseMap<Instruction *, Value *> slots_;
  BasicBlock *entry_ = nullptr;
};

}  // namespace

Expected<HierarchicalOutcome> lowerHierarchicalRegions(Module &module, Function &kernel, bool hierarchical,
                                                       bool atGroupSize) {
  HierarchicalOutcome outcome;
  if (!hierarchical || !atGroupSize) {
    eraseCalls(module, kBegin);
    eraseCalls(module, kEnd);
    return outcome;
  }
  Lowering lowering(module, kernel);
  Expected<bool> lowered = lowering.run(outcome.serialWhy);
  if (!lowered) return lowered.takeError();
  outcome.parallel = *lowered;
  if (!outcome.parallel) runOnLeader(module, kernel);
  return outcome;
}

PreservedAnalyses LowerHierarchicalPass::run(Module &module, ModuleAnalysisManager &) {
  Function *kernel = module.getFunction(kernel_);
  if (!kernel || kernel->isDeclaration()) {
    errs() << "onepass-lower-hierarchical: no function '" << kernel_ << "'\n";
    return PreservedAnalyses::all();
  }
  Expected<HierarchicalOutcome> outcome = lowerHierarchicalRegions(module, *kernel, true, true);
  if (!outcome) errs() << "onepass-lower-hierarchical: " << toString(outcome.takeError()) << "\n";
  else if (!outcome->parallel) errs() << "onepass-lower-hierarchical: on the leader: " << outcome->serialWhy << "\n";
  return PreservedAnalyses::none();
}

}  // namespace onepass::jit
