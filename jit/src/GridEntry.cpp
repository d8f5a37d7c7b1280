#include "GridEntry.h"

#include "WorkItemLowering.h"

#include "../builtins/common/work_item_abi.h"

using namespace llvm;

namespace onepass::jit {

Error placeGroupLocalVariable(KernelModule &kernel, StringRef name, unsigned space, GlobalValue::LinkageTypes linkage) {
  GlobalVariable *groupLocal = nullptr;
  Module &module = *kernel.module;
  Expected<ir::GroupLocalLayout> layout =
      placeGroupLocalMemory(kernel, [&](IRBuilder<> &at, uint64_t offset, const ir::GroupLocalLayout &all) {
        if (!groupLocal) {
          auto *type = ArrayType::get(at.getInt8Ty(), all.total);
          groupLocal = new GlobalVariable(module, type, false, linkage, UndefValue::get(type), name, nullptr,
                                          GlobalValue::NotThreadLocal, space);
          groupLocal->setAlignment(Align(all.alignment));
        }
        return at.CreateAddrSpaceCast(at.CreateConstInBoundsGEP1_64(at.getInt8Ty(), groupLocal, offset),
                                      at.getPtrTy());
      });
  return layout ? Error::success() : layout.takeError();
}

bool gridEntryTakesRange(const image::KernelView &info) {
  return info.kind == image::KernelKind::ParallelFor && info.dimensions > 0;
}

Function *buildGridEntry(Module &module, Function &kernel, const image::KernelView &info, const GridEntryAbi &abi,
                         const GridQueries &queries) {
  LLVMContext &ctx = module.getContext();
  const unsigned dimensions = info.kind == image::KernelKind::SingleTask ? 0 : info.dimensions;
  const bool grouped = info.kind == image::KernelKind::NdRange;
  // Every parameter costs the driver time at each launch: only a range
  // kernel gets its range.
  const unsigned rangeParams = gridEntryTakesRange(info) ? dimensions : 0;
  std::vector<Type *> params;
  for (Argument &arg : kernel.args()) params.push_back(abi.parameterType ? abi.parameterType(arg) : arg.getType());
  for (unsigned d = 0; d < rangeParams; ++d) params.push_back(Type::getInt64Ty(ctx));
  params.insert(params.end(), abi.extraParameters.begin(), abi.extraParameters.end());
  Function *entry = Function::Create(FunctionType::get(Type::getVoidTy(ctx), params, false),
                                     GlobalValue::ExternalLinkage, abi.name, module);
  entry->setCallingConv(abi.callingConvention);
  entry->addFnAttr(Attribute::NoUnwind);

  IRBuilder<> builder(BasicBlock::Create(ctx, "entry", entry));
  Value *state = createWorkItemState(builder);
  const unsigned fieldCount = static_cast<unsigned>(kernel.arg_size());
  Value *outside = builder.getFalse();
  auto store = [&](Value *value, unsigned first, unsigned d) {
    builder.CreateAlignedStore(value, workItemStateWord(builder, state, first + d), Align(8));
  };
  for (unsigned d = 0; d < 3; ++d) {
    const bool real = d < dimensions;
    const unsigned axis = real ? dimensions - 1 - d : 0;  // SYCL's last dimension varies fastest
    Value *range = !real     ? builder.getInt64(1)
                   : grouped ? builder.CreateNUWMul(queries.groupRange(builder, axis), queries.localRange(builder, axis))
                             : static_cast<Value *>(entry->getArg(fieldCount + d));
    Value *id = real ? builder.CreateNUWAdd(
                           builder.CreateNUWMul(queries.groupId(builder, axis), queries.localRange(builder, axis)),
                           queries.localId(builder, axis))
                     : builder.getInt64(0);
    store(range, builtins::kGlobalRangeWord, d);
    store(id, builtins::kGlobalIdWord, d);
    if (grouped) {
      store(real ? queries.localId(builder, axis) : builder.getInt64(0), builtins::kLocalIdWord, d);
      store(real ? queries.localRange(builder, axis) : builder.getInt64(1), builtins::kLocalRangeWord, d);
      store(real ? queries.groupId(builder, axis) : builder.getInt64(0), builtins::kGroupIdWord, d);
      store(real ? queries.groupRange(builder, axis) : builder.getInt64(1), builtins::kGroupRangeWord, d);
    } else if (real) {
      outside = builder.CreateOr(outside, builder.CreateICmpUGE(id, range));
    }
  }
  BasicBlock *body = BasicBlock::Create(ctx, "body", entry);
  BasicBlock *exit = BasicBlock::Create(ctx, "exit", entry);
  builder.CreateCondBr(outside, exit, body);
  builder.SetInsertPoint(body);
  std::vector<Value *> arguments;
  for (unsigned i = 0; i < fieldCount; ++i) {
    Value *argument = entry->getArg(i);
    Type *wanted = kernel.getArg(i)->getType();
    if (argument->getType()->isIntegerTy() && wanted->isPointerTy())
      argument = builder.CreateIntToPtr(argument, PointerType::get(ctx, abi.integerPointerSpace));
    if (argument->getType() != wanted) argument = builder.CreateAddrSpaceCast(argument, wanted);
    arguments.push_back(argument);
  }
  builder.CreateCall(kernel.getFunctionType(), &kernel, arguments);
  builder.CreateBr(exit);
  builder.SetInsertPoint(exit);
  builder.CreateRetVoid();
  return entry;
}

}  // namespace onepass::jit
