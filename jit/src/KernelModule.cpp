#include "KernelModule.h"

#include "sycl/detail/onepass_abi.hpp"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Linker/Linker.h"
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
  result.sourceFile = std::string(info->sourceFile);
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

namespace {

// The C++ functions (mangled names) the module calls but does not define.
std::vector<std::string> undefinedCxxFunctions(const Module &module) {
  std::vector<std::string> names;
  for (const Function &fn : module)
    if (fn.isDeclaration() && !fn.isIntrinsic() && !fn.use_empty() && fn.getName().starts_with("_Z"))
      names.push_back(fn.getName().str());
  return names;
}

}  // namespace

Error linkExternalDefinitions(KernelModule &kernel, const std::vector<LibraryImage> &libraries) {
  Module &module = *kernel.module;
  eraseUnusedFunctions(module);  // the image's other kernels, and what only they call
  std::vector<std::string> missing = undefinedCxxFunctions(module);
  // Each library's bitcode, decompressed once; its module is parsed again for
  // every link (the linker consumes it), lazily: only what is linked is read.
  std::vector<std::vector<uint8_t>> bitcode(libraries.size());
  std::vector<bool> loaded(libraries.size(), false);
  std::vector<std::string> linked;
  for (bool progress = true; progress && !missing.empty();) {
    progress = false;
    for (size_t i = 0; i < libraries.size() && !missing.empty(); ++i) {
      if (!loaded[i]) {
        loaded[i] = true;
        image::ImageView view;
        std::string error;
        if (!view.parse(libraries[i].data, libraries[i].size, /*verifyHash=*/true, error) ||
            !image::extractBitcode(view, bitcode[i], error))
          return createStringError(inconvertibleErrorCode(),
                                   "a kernel image that exports SYCL_EXTERNAL functions is unusable: " + error);
      }
      if (bitcode[i].empty()) continue;
      MemoryBufferRef buffer(StringRef(reinterpret_cast<const char *>(bitcode[i].data()), bitcode[i].size()),
                             "onepass-library-image");
      Expected<std::unique_ptr<Module>> library = getLazyBitcodeModule(buffer, module.getContext());
      if (!library)
        return createStringError(inconvertibleErrorCode(), "a kernel image that exports SYCL_EXTERNAL functions has "
                                                           "unreadable bitcode: " +
                                                               toString(library.takeError()));
      bool defines = false;
      for (const std::string &name : missing)
        if (const Function *fn = (*library)->getFunction(name); fn && !fn->isDeclaration() && fn->hasExternalLinkage())
          defines = true;
      if (!defines) continue;
      if (Linker::linkModules(module, std::move(*library), Linker::Flags::LinkOnlyNeeded))
        return createStringError(inconvertibleErrorCode(), "kernel '" + kernel.displayName +
                                                               "': linking the SYCL_EXTERNAL functions it calls failed");
      progress = true;
      linked.insert(linked.end(), missing.begin(), missing.end());
      missing = undefinedCxxFunctions(module);
    }
  }
  kernel.kernel = module.getFunction(kernel.kernel->getName());
  internalizeAllBut(module, *kernel.kernel);
  // The linked definitions are inlined first, as stage 1 inlined the callees
  // of the kernel's own TU: the optimizer then simplifies their code once, in
  // the kernel, not once alone and again inlined (which made a kernel with
  // callees in other TUs up to 30% slower to compile on the GPU).
  for (const std::string &name : linked)
    if (Function *fn = module.getFunction(name); fn && !fn->isDeclaration() && !fn->hasFnAttribute(Attribute::NoInline))
      fn->addFnAttr(Attribute::AlwaysInline);
  if (!missing.empty())
    return createStringError(
        inconvertibleErrorCode(),
        "kernel '" + kernel.displayName + "'" + (kernel.sourceFile.empty() ? "" : " (" + kernel.sourceFile + ")") +
            " calls '" + llvm::demangle(missing.front()) +
            "', which no translation unit or library of the program compiled with onepass++ -fsycl-sscp defines "
            "(a SYCL_EXTERNAL function needs a definition in device code, SYCL 2020 §5.10.1)");
  return Error::success();
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

void stripHostSanitizers(Module &module, bool keepChecks) {
  for (Function &fn : module.functions()) {
    for (Attribute::AttrKind kind : {Attribute::SanitizeAddress, Attribute::SanitizeThread, Attribute::SanitizeMemory,
                                     Attribute::SanitizeHWAddress, Attribute::SanitizeMemTag})
      fn.removeFnAttr(kind);
    if (keepChecks || !fn.isDeclaration() || !fn.getName().starts_with("__ubsan_handle_")) continue;
    for (User *user : make_early_inc_range(fn.users()))
      if (auto *call = dyn_cast<CallBase>(user); call && call->getCalledOperand() == &fn) {
        // A handler that does not return is followed by `unreachable`; one
        // that does (recoverable checks) falls through to the checked code.
        call->eraseFromParent();
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
