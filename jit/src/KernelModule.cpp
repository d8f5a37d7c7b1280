#include "KernelModule.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace onepass::jit {

Expected<KernelModule> loadKernelModule(LLVMContext &ctx, const void *imageData, uint64_t imageSize,
                                        StringRef kernelSymbol) {
  image::ImageView view;
  std::string error;
  if (!view.parse(imageData, imageSize, /*verifyHash=*/true, error))
    return createStringError(inconvertibleErrorCode(), error);
  const image::KernelView *info = view.findKernel(std::string_view(kernelSymbol.data(), kernelSymbol.size()));
  if (!info)
    return createStringError(inconvertibleErrorCode(), "kernel image has no kernel named '" + kernelSymbol.str() + "'");
  std::vector<uint8_t> bitcode;
  if (!image::extractBitcode(view, bitcode, error)) return createStringError(inconvertibleErrorCode(), error);

  MemoryBufferRef buffer(StringRef(reinterpret_cast<const char *>(bitcode.data()), bitcode.size()),
                         "onepass-kernel-image");
  Expected<std::unique_ptr<Module>> parsed = parseBitcodeFile(buffer, ctx);
  if (!parsed)
    return createStringError(inconvertibleErrorCode(),
                             "kernel image bitcode is unreadable: " + toString(parsed.takeError()));

  KernelModule result;
  result.module = std::move(*parsed);
  result.info = *info;
  result.displayName = info->displayName.empty() ? kernelSymbol.str() : std::string(info->displayName);
  // The string views point into the image; keep the record but not the views.
  result.info.symbol = {};
  result.info.displayName = {};
  result.info.sourceFile = {};
  result.kernel = result.module->getFunction(kernelSymbol);
  if (!result.kernel || result.kernel->isDeclaration())
    return createStringError(inconvertibleErrorCode(),
                             "kernel image bitcode lacks the kernel function '" + kernelSymbol.str() + "'");
  if (result.kernel->arg_size() != info->fields.size())
    return createStringError(inconvertibleErrorCode(),
                             "kernel '" + kernelSymbol.str() + "' takes " + std::to_string(result.kernel->arg_size()) +
                                 " parameters but its record lists " + std::to_string(info->fields.size()) + " fields");
  internalizeAllBut(*result.module, *result.kernel);
  return result;
}

void eraseUnusedFunctions(Module &module) {
  for (bool erased = true; erased;) {
    erased = false;
    for (Function &fn : make_early_inc_range(module.functions()))
      if (fn.hasLocalLinkage() && fn.use_empty()) {
        fn.eraseFromParent();
        erased = true;
      }
  }
}

void internalizeAllBut(Module &module, const Function &keep) {
  for (Function &fn : module.functions())
    if (!fn.isDeclaration() && &fn != &keep) fn.setLinkage(GlobalValue::InternalLinkage);
}

Expected<ir::GroupLocalLayout>
placeGroupLocalMemory(const KernelModule &kernel,
                      function_ref<Value *(IRBuilder<> &, uint64_t offset, const ir::GroupLocalLayout &)> slot) {
  ir::GroupLocalLayout layout = ir::layoutGroupLocalMemory(*kernel.kernel);
  if (!layout.error.empty())
    return createStringError(inconvertibleErrorCode(), "kernel '" + kernel.displayName + "' allocates " + layout.error);
  for (auto [call, offset] : layout.offsets) {
    IRBuilder<> at(call);
    call->replaceAllUsesWith(slot(at, offset, layout));
    call->eraseFromParent();
  }
  return layout;
}

Expected<uint64_t> checkedFieldConstant(const KernelModule &kernel, const FieldConstant &constant) {
  if (constant.field >= kernel.info.fields.size() ||
      kernel.info.fields[constant.field].kind != image::FieldKind::Integer ||
      kernel.info.fields[constant.field].size != constant.size)
    return createStringError(inconvertibleErrorCode(), "internal error: launch constant for field " +
                                                           std::to_string(constant.field) + " of kernel '" +
                                                           kernel.displayName + "', which is not an integer of " +
                                                           std::to_string(constant.size) + " bytes");
  return constant.value;
}

}  // namespace onepass::jit
