#include "HostRegistration.h"
#include "sycl/detail/onepass_abi.hpp"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace onepass::sscp {

namespace {

// The host body reports misuse through the runtime. Each stub passes its own
// kernel name, so no two stubs are identical and no linker folds them into
// one address.
void replaceHostBody(Module &host, Function &entry, StringRef displayName) {
  GlobalValue::LinkageTypes linkage = entry.getLinkage();
  Comdat *comdat = entry.getComdat();
  entry.deleteBody();
  entry.setLinkage(linkage);
  entry.setComdat(comdat);

  LLVMContext &ctx = host.getContext();
  IRBuilder<> builder(BasicBlock::Create(ctx, "entry", &entry));
  FunctionCallee report =
      host.getOrInsertFunction(ONEPASS_ABI_HOST_KERNEL_CALLED, Type::getVoidTy(ctx), PointerType::get(ctx, 0));
  builder.CreateCall(report, {builder.CreateGlobalString(displayName, "onepass.kernel.name")});
  builder.CreateRetVoid();
}

}  // namespace

void embedKernelImage(Module &host, const std::vector<KernelEntry> &entries, const std::vector<uint8_t> &image) {
  LLVMContext &ctx = host.getContext();
  Type *ptrTy = PointerType::get(ctx, 0);
  Type *i64Ty = Type::getInt64Ty(ctx);

  Constant *bytes = ConstantDataArray::get(ctx, ArrayRef<uint8_t>(image));
  auto *imageVar = new GlobalVariable(host, bytes->getType(), /*isConstant=*/true, GlobalValue::InternalLinkage, bytes,
                                      "__onepass_kernel_image");
  imageVar->setSection(image::kSectionName);
  imageVar->setAlignment(Align(8));

  std::vector<Constant *> entryPointers;
  for (const KernelEntry &entry : entries) entryPointers.push_back(entry.function);
  auto *tableType = ArrayType::get(ptrTy, entryPointers.size());
  auto *tableVar = new GlobalVariable(host, tableType, true, GlobalValue::InternalLinkage,
                                      ConstantArray::get(tableType, entryPointers), "__onepass_kernel_entries");

  for (const KernelEntry &entry : entries) replaceHostBody(host, *entry.function, entry.layout.displayName);

  auto makeHook = [&](const char *name, const char *runtimeFunction, bool withTable) {
    Function *hook =
        Function::Create(FunctionType::get(Type::getVoidTy(ctx), false), GlobalValue::InternalLinkage, name, host);
    IRBuilder<> builder(BasicBlock::Create(ctx, "entry", hook));
    if (withTable) {
      FunctionCallee fn = host.getOrInsertFunction(runtimeFunction, Type::getVoidTy(ctx), ptrTy, i64Ty, ptrTy, i64Ty);
      builder.CreateCall(fn, {imageVar, ConstantInt::get(i64Ty, image.size()), tableVar,
                              ConstantInt::get(i64Ty, entryPointers.size())});
    } else {
      FunctionCallee fn = host.getOrInsertFunction(runtimeFunction, Type::getVoidTy(ctx), ptrTy);
      builder.CreateCall(fn, {imageVar});
    }
    builder.CreateRetVoid();
    return hook;
  };
  appendToGlobalCtors(host, makeHook("__onepass_register_kernels", ONEPASS_ABI_REGISTER_IMAGE, true), 65535);
  appendToGlobalDtors(host, makeHook("__onepass_unregister_kernels", ONEPASS_ABI_UNREGISTER_IMAGE, false), 65535);
}

}  // namespace onepass::sscp
