#include "Driver.h"

#include "Codegen.h"
#include "FloatingPointAttributes.h"
#include "HierarchicalLowering.h"
#include "WorkItemLowering.h"
#include "onepass/jit/jit_api.h"
#include "sycl/detail/onepass_abi.hpp"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace llvm;

namespace onepass::jit {

namespace {

// The launch's global offset (ONEPASS_JIT_GLOBAL_OFFSET_FIELD constants) in
// place of every __onepass_get_global_offset call: no target defines it.
void substituteGlobalOffset(Module &module, const uint64_t (&offset)[3]) {
  Function *query = module.getFunction(ONEPASS_ABI_GET_GLOBAL_OFFSET);
  if (!query) return;
  for (User *user : make_early_inc_range(query->users())) {
    auto *call = dyn_cast<CallInst>(user);
    if (!call || call->getCalledFunction() != query) continue;
    Type *type = call->getType();
    Value *dimension = call->getArgOperand(0);
    Value *value;
    if (auto *known = dyn_cast<ConstantInt>(dimension)) {
      uint64_t d = known->getZExtValue();
      value = ConstantInt::get(type, d < 3 ? offset[d] : 0);
    } else {  // a dimension only known at run time: pick among the three
      IRBuilder<> builder(call);
      value = ConstantInt::get(type, offset[2]);
      for (int d = 1; d >= 0; --d)
        value = builder.CreateSelect(builder.CreateICmpEQ(dimension, ConstantInt::get(dimension->getType(), d)),
                                     ConstantInt::get(type, offset[d]), value);
    }
    call->replaceAllUsesWith(value);
    call->eraseFromParent();
  }
}

// A hierarchical kernel the target runs at its work-group size but that the
// JIT could not spread over the group (HierarchicalLowering.h): correct, but
// slow, so said once per compile, as the runtime's warnings are (ONEPASS_LOG
// "error" silences it).
void warnSerialHierarchical(const KernelModule &kernel, const Translator &translator, const std::string &why) {
  const char *level = std::getenv("ONEPASS_LOG");
  if (level && std::strcmp(level, "error") == 0) return;
  std::fprintf(stderr,
               "[onepass] warning: kernel '%s': each parallel_for_work_group work-group runs on one work-item "
               "on %s devices (%s)\n",
               kernel.displayName.c_str(), translator.name(), why.c_str());
}

}  // namespace

Expected<std::vector<char>> Translator::emit(Module &module, TargetMachine &machine) {
  return emitFile(module, machine, output());
}

Error applyLaunchConstants(KernelModule &kernel, const std::vector<FieldConstant> &constants) {
  uint64_t offset[3] = {0, 0, 0};
  for (const FieldConstant &constant : constants) {
    if (constant.field >= ONEPASS_JIT_GLOBAL_OFFSET_FIELD && constant.field < ONEPASS_JIT_GLOBAL_OFFSET_FIELD + 3) {
      offset[constant.field - ONEPASS_JIT_GLOBAL_OFFSET_FIELD] = constant.value;
      continue;
    }
    Expected<uint64_t> value = checkedFieldConstant(kernel, constant);
    if (!value) return value.takeError();
    Argument *parameter = kernel.kernel->getArg(constant.field);
    if (!parameter->getType()->isIntegerTy())
      return createStringError(inconvertibleErrorCode(), "internal error: launch constant for field " +
                                                             std::to_string(constant.field) + " of kernel '" +
                                                             kernel.displayName + "', whose parameter is no integer");
    parameter->replaceAllUsesWith(ConstantInt::get(parameter->getType(), *value));
  }
  substituteGlobalOffset(*kernel.module, offset);
  return Error::success();
}

namespace {
// Errors a backend reports as diagnostics (an operation it cannot select, an
// initializer local memory cannot have) become the compile's error, instead
// of LLVM's default, which exits the process.
struct CollectErrors final : DiagnosticHandler {
  std::string *errors;
  explicit CollectErrors(std::string *errors) : errors(errors) {}
  bool handleDiagnostics(const DiagnosticInfo &info) override {
    if (info.getSeverity() != DS_Error) return false;  // remarks and warnings: LLVM's own handling
    std::string text;
    raw_string_ostream stream(text);
    DiagnosticPrinterRawOStream printer(stream);
    info.print(printer);
    if (!errors->empty()) *errors += "; ";
    *errors += text;
    return true;
  }
};
}  // namespace

Expected<std::vector<char>> compileKernel(const void *image, uint64_t imageSize, const char *kernelSymbol,
                                          const Specialization &specialization, Translator &translator) {
  LLVMContext ctx;
  std::string backendErrors;
  ctx.setDiagnosticHandler(std::make_unique<CollectErrors>(&backendErrors));
  Expected<KernelModule> loaded = loadKernelModule(ctx, image, imageSize, kernelSymbol);
  if (!loaded) return loaded.takeError();
  KernelModule &kernel = *loaded;
  if (kernel.info.features & image::kFeatureExternalCalls)
    if (Error err = linkExternalDefinitions(kernel, specialization.libraries)) return err;
  Module &module = *kernel.module;
  const std::string dumpName = std::string(kernelSymbol) + translator.dumpSuffix();
  stripHostSanitizers(module, translator.runsInHostProcess());

  if (Error err = translator.checkKernel(kernel)) return err;
  // Launch constants, once for every target: a local accessor's range makes
  // its row stride a constant (immediate offsets, fewer registers, and on the
  // CPU fewer values kept across barriers).
  if (Error err = applyLaunchConstants(kernel, specialization.constants)) return err;
  Expected<TargetMachine *> machine = translator.machine();
  if (!machine) return machine.takeError();
  setTarget(module, **machine);
  Expected<HierarchicalOutcome> hierarchical =
      lowerHierarchicalRegions(module, *kernel.kernel, kernel.info.features & image::kFeatureHierarchical,
                               translator.hierarchicalGroupsAtSize());
  if (!hierarchical) return hierarchical.takeError();
  if (!hierarchical->serialWhy.empty()) warnSerialHierarchical(kernel, translator, hierarchical->serialWhy);
  if (Error err = translator.placeGroupLocalMemory(kernel)) return err;
  if (Error err = linkBuiltins(module, translator.builtins())) return err;

  Expected<Entry> entry = translator.buildEntry(kernel, specialization);
  if (!entry) return entry.takeError();
  ir::copyFloatingPointAttributes(*kernel.kernel, *entry->entry);
  translator.beforeInlining(kernel, *entry);
  inlineIntoWrapper(module, *entry->body, *entry->entry);
  if (Error err = substituteWorkItemState(module, *entry->entry, kernel.displayName)) {
    dumpModuleIfRequested(module, dumpName + ".failed");
    return err;
  }
  if (Error err = translator.beforeOptimizer(kernel, *entry->entry)) return err;
  std::string verifierOutput;
  raw_string_ostream verifierStream(verifierOutput);
  if (verifyModule(module, &verifierStream)) {
    dumpModuleIfRequested(module, dumpName + ".invalid");
    return createStringError(inconvertibleErrorCode(), std::string("internal error: invalid ") + translator.name() +
                                                           " kernel module: " + verifierOutput);
  }
  dumpModuleIfRequested(module, dumpName + ".unoptimized");
  optimize(module, **machine, translator.passesBeforeVectorizer());
  if (Error err = translator.afterOptimizer(kernel, *entry->entry)) {
    dumpModuleIfRequested(module, dumpName + ".failed");
    return err;
  }
  dumpModuleIfRequested(module, dumpName);
  Expected<std::vector<char>> binary = translator.emit(module, **machine);
  if (binary && !backendErrors.empty())
    return createStringError(inconvertibleErrorCode(), std::string("LLVM's ") + translator.name() +
                                                           " backend cannot compile kernel '" + kernel.displayName +
                                                           "': " + backendErrors);
  if (binary) dumpObjectIfRequested(*binary, dumpName, translator.dumpExtension());
  return binary;
}

}  // namespace onepass::jit
