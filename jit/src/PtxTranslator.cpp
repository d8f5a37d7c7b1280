#include "PtxTranslator.h"

#include "BuiltinLibrary.h"
#include "Codegen.h"
#include "KernelModule.h"
#include "WorkItemLowering.h"

#include "../builtins/common/work_item_abi.h"

#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Verifier.h"

using namespace llvm;

namespace onepass::jit {

namespace {

struct AxisIntrinsics {
  Intrinsic::ID threadId, blockDim, blockId;
};
constexpr AxisIntrinsics kAxes[3] = {
    {Intrinsic::nvvm_read_ptx_sreg_tid_x, Intrinsic::nvvm_read_ptx_sreg_ntid_x, Intrinsic::nvvm_read_ptx_sreg_ctaid_x},
    {Intrinsic::nvvm_read_ptx_sreg_tid_y, Intrinsic::nvvm_read_ptx_sreg_ntid_y, Intrinsic::nvvm_read_ptx_sreg_ctaid_y},
    {Intrinsic::nvvm_read_ptx_sreg_tid_z, Intrinsic::nvvm_read_ptx_sreg_ntid_z, Intrinsic::nvvm_read_ptx_sreg_ctaid_z},
};

// blockIdx * blockDim + threadIdx along one CUDA axis, as a 64-bit id.
Value *globalThreadIndex(IRBuilder<> &builder, unsigned axis) {
  auto read = [&](Intrinsic::ID id) {
    return builder.CreateZExt(builder.CreateIntrinsic(builder.getInt32Ty(), id, {}), builder.getInt64Ty());
  };
  return builder.CreateNUWAdd(builder.CreateNUWMul(read(kAxes[axis].blockId), read(kAxes[axis].blockDim)),
                              read(kAxes[axis].threadId));
}

Function *buildPtxEntry(Module &module, Function &kernel, const image::KernelView &info) {
  LLVMContext &ctx = module.getContext();
  std::vector<Type *> params;
  for (Argument &arg : kernel.args()) params.push_back(arg.getType());
  for (int d = 0; d < 3; ++d) params.push_back(Type::getInt64Ty(ctx));
  Function *entry = Function::Create(FunctionType::get(Type::getVoidTy(ctx), params, false),
                                     GlobalValue::ExternalLinkage, kPtxKernelSymbol, module);
  entry->setCallingConv(CallingConv::PTX_Kernel);
  entry->addFnAttr(Attribute::NoUnwind);

  IRBuilder<> builder(BasicBlock::Create(ctx, "entry", entry));
  Value *state = createWorkItemState(builder);
  const unsigned dimensions = info.kind == image::KernelKind::SingleTask ? 0 : info.dimensions;
  const unsigned fieldCount = static_cast<unsigned>(kernel.arg_size());
  Value *outside = builder.getFalse();
  for (unsigned d = 0; d < 3; ++d) {
    Value *range = d < dimensions ? static_cast<Value *>(entry->getArg(fieldCount + d)) : builder.getInt64(1);
    // SYCL's last dimension varies fastest: it is CUDA's x.
    Value *id = d < dimensions ? globalThreadIndex(builder, dimensions - 1 - d) : builder.getInt64(0);
    builder.CreateAlignedStore(range, workItemStateWord(builder, state, builtins::kGlobalRangeWord + d), Align(8));
    builder.CreateAlignedStore(id, workItemStateWord(builder, state, builtins::kGlobalIdWord + d), Align(8));
    if (d < dimensions) outside = builder.CreateOr(outside, builder.CreateICmpUGE(id, range));
  }
  BasicBlock *body = BasicBlock::Create(ctx, "body", entry);
  BasicBlock *exit = BasicBlock::Create(ctx, "exit", entry);
  builder.CreateCondBr(outside, exit, body);
  builder.SetInsertPoint(body);
  std::vector<Value *> arguments;
  for (unsigned i = 0; i < fieldCount; ++i) arguments.push_back(entry->getArg(i));
  builder.CreateCall(kernel.getFunctionType(), &kernel, arguments);
  builder.CreateBr(exit);
  builder.SetInsertPoint(exit);
  builder.CreateRetVoid();
  return entry;
}

}  // namespace

Expected<std::string> compilePtxKernel(const void *image, uint64_t imageSize, const char *kernelSymbol,
                                       unsigned smVersion, unsigned ptxVersion) {
  LLVMContext ctx;
  Expected<KernelModule> loaded = loadKernelModule(ctx, image, imageSize, kernelSymbol);
  if (!loaded) return loaded.takeError();
  Module &module = *loaded->module;
  if (loaded->info.features & image::kFeatureFp64 && smVersion < 13)
    return createStringError(inconvertibleErrorCode(), "the kernel uses double precision, which sm_" +
                                                           std::to_string(smVersion) + " lacks");

  Expected<std::unique_ptr<TargetMachine>> machine = createNvptxTargetMachine(smVersion, ptxVersion);
  if (!machine) return machine.takeError();
  setTarget(module, **machine);
  if (Error err = linkBuiltins(module, BuiltinTarget::Ptx)) return err;

  Function *entry = buildPtxEntry(module, *loaded->kernel, loaded->info);
  stampTargetAttributes(module, **machine);
  inlineIntoWrapper(module, *loaded->kernel, *entry);
  if (Error err = substituteWorkItemState(module, *entry, kernelSymbol)) return err;

  std::string verifierOutput;
  raw_string_ostream verifierStream(verifierOutput);
  if (verifyModule(module, &verifierStream))
    return createStringError(inconvertibleErrorCode(), "internal error: invalid PTX kernel module: " + verifierOutput);
  optimize(module, **machine);
  dumpModuleIfRequested(module, std::string(kernelSymbol) + ".sm_" + std::to_string(smVersion));
  Expected<std::vector<char>> ptx = emitFile(module, **machine, CodeGenFileType::AssemblyFile);
  if (!ptx) return ptx.takeError();
  return std::string(ptx->begin(), ptx->end());
}

}  // namespace onepass::jit
