#include "CpuPassPipeline.h"

#include "CpuTranslator.h"
#include "HierarchicalLowering.h"
#include "ParallelLoops.h"
#include "WorkItemLoops.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace onepass::jit {

namespace {

Error failure(const Twine &message) { return createStringError(inconvertibleErrorCode(), message); }

// Calls `parameter(key, value)` for each `key[=value]` of `name`'s
// `<...>` (none without one).
Error forEachParameter(StringRef name, StringRef passName,
                       const std::function<Error(StringRef key, StringRef value)> &parameter) {
  Expected<bool> parsed = PassBuilder::parsePassParameters(
      [&](StringRef parameters) -> Expected<bool> {
        while (!parameters.empty()) {
          StringRef one;
          std::tie(one, parameters) = parameters.split(';');
          auto [key, value] = one.split('=');
          if (Error err = parameter(key, value)) return err;
        }
        return true;
      },
      name, passName);
  return parsed ? Error::success() : parsed.takeError();
}

template <typename Integer> Error parseInteger(StringRef key, StringRef value, Integer &out) {
  if (value.getAsInteger(10, out)) return failure("'" + key + "' wants a number, not '" + value + "'");
  return Error::success();
}

Expected<WorkItemLoopsKernel> parseWorkItemLoops(StringRef name, StringRef passName) {
  WorkItemLoopsKernel kernel;
  kernel.kind = image::KernelKind::ParallelFor;
  kernel.dimensions = 1;
  std::string local;
  Error err = forEachParameter(name, passName, [&](StringRef key, StringRef value) -> Error {
    if (key == "kernel") kernel.function = value.str();
    else if (key == "range") kernel.kind = image::KernelKind::ParallelFor;
    else if (key == "nd-range") kernel.kind = image::KernelKind::NdRange;
    else if (key == "single-task") kernel.kind = image::KernelKind::SingleTask;
    else if (key == "dims") return parseInteger(key, value, kernel.dimensions);
    else if (key == "local") local = value.str();
    else if (key == "group-local-bytes") return parseInteger(key, value, kernel.groupLocalBytes);
    else if (key == "phase-budget") return parseInteger(key, value, kernel.specializedPhaseBudget);
    else if (key == "local-memory") kernel.features |= image::kFeatureLocalMemory;
    else if (key == "group-scratch") kernel.features |= image::kFeatureGroupScratch;
    else if (key == "offsets") {
      SmallVector<StringRef, 8> offsets;
      value.split(offsets, ':');
      for (StringRef offset : offsets)
        if (Error err = parseInteger(key, offset, kernel.fieldOffsets.emplace_back())) return err;
    } else return failure("unknown parameter '" + key + "'");
    return Error::success();
  });
  if (err) return err;
  if (kernel.function.empty()) return failure("'kernel=NAME' is missing");
  if (kernel.dimensions < 1 || kernel.dimensions > 3) return failure("'dims' must be 1, 2 or 3");
  if (!local.empty()) {
    SmallVector<StringRef, 3> sizes;
    StringRef(local).split(sizes, 'x');
    if (sizes.size() != kernel.dimensions) return failure("'local' wants one size per dimension");
    kernel.localRange = {1, 1, 1};
    for (size_t d = 0; d < sizes.size(); ++d)
      if (Error err = parseInteger("local", sizes[d], kernel.localRange[d]); err || kernel.localRange[d] == 0)
        return err ? std::move(err) : failure("'local' sizes must not be 0");
  }
  return kernel;
}

// The launcher a function pass works on: __onepass_cpu_launch, or <launcher=NAME>.
Expected<std::string> parseLauncher(StringRef name, StringRef passName) {
  std::string launcher = kCpuLaunchSymbol;
  Error err = forEachParameter(name, passName, [&](StringRef key, StringRef value) -> Error {
    if (key != "launcher") return failure("unknown parameter '" + key + "'");
    launcher = value.str();
    return Error::success();
  });
  if (err) return err;
  return launcher;
}

// The kernel a module pass works on: <kernel=NAME>, required.
Expected<std::string> parseKernel(StringRef name, StringRef passName) {
  std::string kernel;
  Error err = forEachParameter(name, passName, [&](StringRef key, StringRef value) -> Error {
    if (key != "kernel") return failure("unknown parameter '" + key + "'");
    kernel = value.str();
    return Error::success();
  });
  if (!err && kernel.empty()) err = failure("'kernel=NAME' is missing");
  if (err) return err;
  return kernel;
}

constexpr StringLiteral kLowerGroupBarriers = "onepass-lower-group-barriers";
constexpr StringLiteral kBuildWorkItemLoops = "onepass-build-work-item-loops";
constexpr StringLiteral kUnswitchWorkItemLoops = "onepass-unswitch-work-item-loops";
constexpr StringLiteral kMarkWorkItemAccesses = "onepass-mark-work-item-accesses";
constexpr StringLiteral kLowerHierarchical = "onepass-lower-hierarchical";

}  // namespace

void registerCpuPasses(PassBuilder &builder, CpuPassState &state) {
  // (A malformed pass is still accepted, so that the error below, not
  // "unknown pass name", is what the user reads.)
  auto report = [&state](StringRef passName, Error err) {
    state.errors.push_back(passName.str() + ": " + toString(std::move(err)));
  };
  builder.registerPipelineParsingCallback(
      [&state, report](StringRef name, ModulePassManager &passes, ArrayRef<PassBuilder::PipelineElement>) {
        if (PassBuilder::checkParametrizedPassName(name, kLowerGroupBarriers)) {
          Expected<std::string> kernel = parseKernel(name, kLowerGroupBarriers);
          if (!kernel) report(kLowerGroupBarriers, kernel.takeError());
          else passes.addPass(LowerGroupBarriersPass(*kernel, *kernel, state.lowered[*kernel]));
          return true;
        }
        if (PassBuilder::checkParametrizedPassName(name, kLowerHierarchical)) {
          Expected<std::string> kernel = parseKernel(name, kLowerHierarchical);
          if (!kernel) report(kLowerHierarchical, kernel.takeError());
          else passes.addPass(LowerHierarchicalPass(*kernel));
          return true;
        }
        if (PassBuilder::checkParametrizedPassName(name, kBuildWorkItemLoops)) {
          Expected<WorkItemLoopsKernel> kernel = parseWorkItemLoops(name, kBuildWorkItemLoops);
          if (!kernel) {
            report(kBuildWorkItemLoops, kernel.takeError());
            return true;
          }
          kernel->stepped = &state.lowered[kernel->function].stepped;
          passes.addPass(BuildWorkItemLoopsPass(std::move(*kernel)));
          return true;
        }
        return false;
      });
  builder.registerPipelineParsingCallback(
      [report](StringRef name, FunctionPassManager &passes, ArrayRef<PassBuilder::PipelineElement>) {
        for (StringRef passName : {StringRef(kUnswitchWorkItemLoops), StringRef(kMarkWorkItemAccesses)}) {
          if (!PassBuilder::checkParametrizedPassName(name, passName)) continue;
          Expected<std::string> launcher = parseLauncher(name, passName);
          if (!launcher) report(passName, launcher.takeError());
          else if (passName == kUnswitchWorkItemLoops) passes.addPass(UnswitchWorkItemLoopsPass(*launcher));
          else passes.addPass(MarkWorkItemAccessesPass(*launcher));
          return true;
        }
        return false;
      });
}

Expected<std::string> runCpuPassPipeline(Module &module, StringRef pipeline) {
  // Passes report errors to the context (LLVMContext::emitError).
  std::string diagnostics;
  module.getContext().setDiagnosticHandlerCallBack(
      [](const DiagnosticInfo *info, void *context) {
        if (info->getSeverity() != DS_Error) return;
        raw_string_ostream stream(*static_cast<std::string *>(context));
        DiagnosticPrinterRawOStream printer(stream);
        info->print(printer);
        stream << "\n";
      },
      &diagnostics);

  LoopAnalysisManager loopAnalyses;
  FunctionAnalysisManager functionAnalyses;
  CGSCCAnalysisManager cgsccAnalyses;
  ModuleAnalysisManager moduleAnalyses;
  PassBuilder builder;
  builder.registerModuleAnalyses(moduleAnalyses);
  builder.registerCGSCCAnalyses(cgsccAnalyses);
  builder.registerFunctionAnalyses(functionAnalyses);
  builder.registerLoopAnalyses(loopAnalyses);
  builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses, moduleAnalyses);
  CpuPassState state;
  registerCpuPasses(builder, state);
  ModulePassManager passes;
  if (Error err = builder.parsePassPipeline(passes, pipeline)) return err;
  if (!state.errors.empty()) return failure(state.errors.front());
  passes.run(module, moduleAnalyses);

  for (const auto &lowered : state.lowered)
    if (!lowered.second.error.empty()) return failure(lowered.second.error);
  if (!diagnostics.empty()) return failure(StringRef(diagnostics).rtrim());
  std::string text;
  raw_string_ostream stream(text);
  if (verifyModule(module, &stream)) return failure("the passes left invalid IR: " + text);
  for (const auto &lowered : state.lowered)
    if (lowered.second.stepped) stream << describeSteppedKernel(*lowered.second.stepped);
  module.print(stream, nullptr);
  return text;
}

}  // namespace onepass::jit
