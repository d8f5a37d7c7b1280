#include "WorkItemLowering.h"

#include "Codegen.h"
#include "KernelModule.h"

#include "../builtins/common/work_item_abi.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"

using namespace llvm;

namespace onepass::jit {

namespace {
constexpr const char *kStateName = "wi.state";

void runAlwaysInliner(Module &module) {
  PassBuilder builder;
  runPipeline(module, builder, [](PassBuilder &) {
    ModulePassManager passes;
    passes.addPass(AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/true));
    return passes;
  });
}
}  // namespace

Value *createWorkItemState(IRBuilder<> &builder) {
  return builder.CreateAlloca(ArrayType::get(builder.getInt64Ty(), builtins::kStateWords), nullptr, kStateName);
}

Value *workItemStateWord(IRBuilder<> &builder, Value *state, unsigned word) {
  return builder.CreateConstInBoundsGEP1_32(builder.getInt64Ty(), state, word);
}

SetVector<Function *> transitiveCallers(Function &target) {
  SetVector<Function *> callers;
  std::vector<Function *> work{&target};
  while (!work.empty()) {
    Function *fn = work.back();
    work.pop_back();
    for (User *user : fn->users())
      if (auto *call = dyn_cast<CallBase>(user))
        if (Function *caller = call->getFunction(); caller && callers.insert(caller)) work.push_back(caller);
  }
  return callers;
}

void inlineIntoWrapper(Module &module, Function &kernel, Function &wrapper) {
  SetVector<Function *> mustInline;
  mustInline.insert(&kernel);
  if (Function *builtin = module.getFunction(kWorkItemBuiltin)) mustInline.set_union(transitiveCallers(*builtin));
  for (Function *fn : mustInline) {
    if (fn == &wrapper) continue;
    fn->removeFnAttr(Attribute::NoInline);
    fn->removeFnAttr(Attribute::OptimizeNone);
    fn->addFnAttr(Attribute::AlwaysInline);
  }
  internalizeAllBut(module, wrapper);  // lets the inliner delete what it fully inlined
  runAlwaysInliner(module);
}

Error substituteWorkItemState(Module &module, Function &wrapper, StringRef kernelName) {
  Function *builtin = module.getFunction(kWorkItemBuiltin);
  if (!builtin) return Error::success();
  // Found by name: inlining moves the callees' allocas to the top of the entry block.
  Value *state = nullptr;
  for (Instruction &inst : wrapper.getEntryBlock())
    if (isa<AllocaInst>(inst) && inst.getName() == kStateName) state = &inst;
  if (!state) return createStringError(inconvertibleErrorCode(), "internal error: the launch wrapper lost its state");
  for (User *user : make_early_inc_range(builtin->users())) {
    auto *call = dyn_cast<CallInst>(user);
    if (!call || call->getFunction() != &wrapper)
      return createStringError(inconvertibleErrorCode(),
                               "kernel '" + kernelName.str() +
                                   "' queries its work-item from a function that cannot be inlined into the "
                                   "kernel (recursion?); OnePass does not support this yet");
    // (A target whose allocas live in their own address space, AMDGPU's 5:
    // the builtins see the state through a flat pointer.)
    Value *pointer = state;
    if (state->getType() != call->getType()) pointer = new AddrSpaceCastInst(state, call->getType(), "", call->getIterator());
    call->replaceAllUsesWith(pointer);
    call->eraseFromParent();
  }
  builtin->eraseFromParent();
  return Error::success();
}

}  // namespace onepass::jit
