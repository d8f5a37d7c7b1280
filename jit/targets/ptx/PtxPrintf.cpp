#include "PtxPrintf.h"
#include "sycl/detail/onepass_abi.hpp"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <vector>

using namespace llvm;

namespace onepass::jit {

namespace {

// Whether vprintf can take `type` as an argument: what C's default argument
// promotions leave of a printf argument (int and wider integers, double,
// pointers of any address space).
bool printable(Type *type) {
  if (auto *integer = dyn_cast<IntegerType>(type)) return integer->getBitWidth() <= 64;
  return type->isDoubleTy() || type->isFloatTy() || type->isPointerTy();
}

std::string describe(Type *type) {
  std::string text;
  raw_string_ostream stream(text);
  type->print(stream);
  return text;
}

}  // namespace

Error lowerPrintfToVprintf(Module &module, StringRef kernelName) {
  Function *printf = module.getFunction(ONEPASS_ABI_PRINTF);
  if (!printf) return Error::success();
  LLVMContext &ctx = module.getContext();
  const DataLayout &layout = module.getDataLayout();
  Type *ptr = PointerType::get(ctx, 0);
  FunctionCallee vprintf =
      module.getOrInsertFunction(kVprintfSymbol, FunctionType::get(Type::getInt32Ty(ctx), {ptr, ptr}, false));

  std::vector<CallBase *> calls;
  for (User *user : printf->users())
    if (auto *call = dyn_cast<CallBase>(user); call && call->getCalledOperand() == printf) calls.push_back(call);
  for (CallBase *call : calls) {
    IRBuilder<> builder(call);
    std::vector<Value *> values;
    std::vector<Type *> fields;
    for (unsigned i = 1; i < call->arg_size(); ++i) {
      Value *value = call->getArgOperand(i);
      Type *type = value->getType();
      if (!printable(type))
        return createStringError(inconvertibleErrorCode(),
                                 "kernel '" + kernelName.str() + "' passes a value of type " + describe(type) +
                                     " to printf (argument " + std::to_string(i) +
                                     "), which CUDA's printf cannot print: pass integers, floating-point "
                                     "values up to double, or pointers");
      // C's promotions already made a float a double; a direct call of the
      // builtin might not have.
      if (type->isFloatTy()) value = builder.CreateFPExt(value, builder.getDoubleTy());
      if (type->isPointerTy() && type->getPointerAddressSpace() != 0) value = builder.CreateAddrSpaceCast(value, ptr);
      values.push_back(value);
      fields.push_back(value->getType());
    }
    Value *arguments = ConstantPointerNull::get(cast<PointerType>(ptr));
    if (!values.empty()) {
      // A struct of the values has each at its natural alignment: vprintf's
      // layout. The buffer lives in the function's entry block.
      StructType *record = StructType::get(ctx, fields);
      IRBuilder<> entry(&*call->getFunction()->getEntryBlock().getFirstInsertionPt());
      AllocaInst *buffer = entry.CreateAlloca(record, layout.getAllocaAddrSpace(), nullptr, "printf.args");
      buffer->setAlignment(layout.getABITypeAlign(record));
      for (unsigned i = 0; i < values.size(); ++i)
        builder.CreateStore(values[i], builder.CreateStructGEP(record, buffer, i));
      arguments = builder.CreatePointerBitCastOrAddrSpaceCast(buffer, ptr);
    }
    Value *format = builder.CreatePointerBitCastOrAddrSpaceCast(call->getArgOperand(0), ptr);
    CallInst *replacement = builder.CreateCall(vprintf, {format, arguments});
    call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
  if (printf->use_empty()) printf->eraseFromParent();
  return Error::success();
}

}  // namespace onepass::jit
