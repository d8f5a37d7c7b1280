#include "PtxMath.h"
#include "sycl/detail/onepass_abi.hpp"

#include "BuiltinLibrary.h"
#include "PtxPrintf.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <mutex>

using namespace llvm;

namespace onepass::jit {

namespace {

// C library functions libdevice implements as __nv_<name> (double; the float
// versions add 'f'). C99/C23 math, where libdevice has it.
constexpr const char *kLibdeviceMath[] = {
    "acos",      "acosh",  "asin",      "asinh",  "atan",   "atan2", "atanh",  "cbrt",  "ceil",   "copysign",
    "cos",       "cosh",   "cospi",     "erf",    "erfc",   "exp",   "exp2",   "exp10", "expm1",  "fabs",
    "fdim",      "floor",  "fma",       "fmax",   "fmin",   "fmod",  "frexp",  "hypot", "ilogb",  "ldexp",
    "lgamma",    "llrint", "llround",   "log",    "log10",  "log1p", "log2",   "logb",  "modf",   "nearbyint",
    "nextafter", "pow",    "remainder", "remquo", "rint",   "round", "scalbn", "sin",   "sincos", "sinh",
    "sinpi",     "sqrt",   "tan",       "tanh",   "tgamma", "trunc"};

// libdevice's approximate single-precision versions (__nv_fast_<name>f), for
// calls that allow approximate functions (the `afn` flag).
constexpr const char *kLibdeviceFast[] = {"sin", "cos", "tan", "exp", "exp10", "log", "log2", "log10", "pow"};

// LLVM math intrinsics NVPTX cannot select as exact operations, and their C
// names.
const std::map<Intrinsic::ID, const char *> &intrinsicNames() {
  static const std::map<Intrinsic::ID, const char *> names = {
      {Intrinsic::sin, "sin"},     {Intrinsic::cos, "cos"},   {Intrinsic::tan, "tan"},
      {Intrinsic::asin, "asin"},   {Intrinsic::acos, "acos"}, {Intrinsic::atan, "atan"},
      {Intrinsic::atan2, "atan2"}, {Intrinsic::sinh, "sinh"}, {Intrinsic::cosh, "cosh"},
      {Intrinsic::tanh, "tanh"},   {Intrinsic::exp, "exp"},   {Intrinsic::exp2, "exp2"},
      {Intrinsic::exp10, "exp10"}, {Intrinsic::log, "log"},   {Intrinsic::log2, "log2"},
      {Intrinsic::log10, "log10"}, {Intrinsic::pow, "pow"},   {Intrinsic::ldexp, "ldexp"},
      {Intrinsic::powi, "powi"}};
  return names;
}

bool contains(const char *const *begin, const char *const *end, StringRef name) {
  return std::find_if(begin, end, [&](const char *entry) { return name == entry; }) != end;
}

// The libdevice function a call should go to, or "" if it is not math.
std::string libdeviceFunction(const CallBase &call) {
  const Function *callee = call.getCalledFunction();
  if (!callee || !callee->isDeclaration()) return "";
  Type *type = call.getType()->isVoidTy() && call.arg_size() ? call.getArgOperand(0)->getType() : call.getType();
  std::string base;
  bool single = false;
  if (Intrinsic::ID id = callee->getIntrinsicID()) {
    auto found = intrinsicNames().find(id);
    if (found == intrinsicNames().end() || !(type->isFloatTy() || type->isDoubleTy())) return "";
    base = found->second;
    single = type->isFloatTy();
  } else {
    StringRef name = callee->getName();
    // long is 64 bits on this target: lrint is llrint.
    static const std::map<std::string, std::string, std::less<>> kAliases = {
        {"lrint", "llrint"}, {"lrintf", "llrintf"}, {"lround", "llround"}, {"lroundf", "llroundf"}, {"labs", "llabs"}};
    if (auto alias = kAliases.find(name); alias != kAliases.end()) name = alias->second;
    if (name == "abs" || name == "llabs") return "__nv_" + name.str();
    // detail/builtins.hpp: math whose best form differs per target.
    if (name == ONEPASS_ABI_RSQRTF) return "__nv_rsqrtf";
    if (name == ONEPASS_ABI_RSQRT) return "__nv_rsqrt";
    if (contains(std::begin(kLibdeviceMath), std::end(kLibdeviceMath), name)) {
      base = name.str();
    } else if (name.ends_with("f") &&
               contains(std::begin(kLibdeviceMath), std::end(kLibdeviceMath), name.drop_back())) {
      base = name.drop_back().str();
      single = true;
    } else {
      return "";
    }
  }
  if (single && isa<FPMathOperator>(call) && call.hasApproxFunc() &&
      contains(std::begin(kLibdeviceFast), std::end(kLibdeviceFast), base))
    return "__nv_fast_" + base + "f";
  return "__nv_" + base + (single ? "f" : "");
}

struct LoadedLibdevice {
  std::unique_ptr<MemoryBuffer> buffer;
  std::string error;
};

// libdevice.10.bc, read once per path and process.
const LoadedLibdevice &readLibdevice(const std::string &path) {
  static std::mutex mutex;
  static std::map<std::string, LoadedLibdevice> files;
  std::lock_guard<std::mutex> lock(mutex);
  auto [entry, inserted] = files.try_emplace(path);
  if (inserted) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> file = MemoryBuffer::getFile(path);
    if (file) entry->second.buffer = std::move(*file);
    else entry->second.error = "cannot read NVIDIA's libdevice '" + path + "': " + file.getError().message();
  }
  return entry->second;
}

std::string displayName(StringRef symbol) { return demangle(symbol.str()); }

Error linkLibdevice(Module &module, const LibdeviceLocation &libdevice, StringRef kernelName, StringRef firstUse) {
  if (libdevice.path.empty())
    return createStringError(inconvertibleErrorCode(),
                             "kernel '" + kernelName.str() + "' calls '" + firstUse.str() +
                                 "', which NVIDIA GPUs get from libdevice (libdevice.10.bc, part of the CUDA "
                                 "toolkit), but no libdevice was found" +
                                 (libdevice.searched.empty() ? "" : " (" + libdevice.searched + ")"));
  const LoadedLibdevice &file = readLibdevice(libdevice.path);
  if (!file.buffer) return createStringError(inconvertibleErrorCode(), file.error);
  return linkBitcodeLibrary(module, file.buffer->getMemBufferRef(), "NVIDIA's libdevice '" + libdevice.path + "'");
}

}  // namespace

Error lowerMathToLibdevice(Module &module, Function &entry, const LibdeviceLocation &libdevice, StringRef kernelName) {
  std::string firstUse;
  for (Function &fn : module)
    for (Instruction &inst : instructions(fn)) {
      auto *call = dyn_cast<CallBase>(&inst);
      if (!call) continue;
      std::string target = libdeviceFunction(*call);
      if (target.empty()) continue;
      if (firstUse.empty()) firstUse = call->getCalledFunction()->getName().str();
      FunctionCallee replacement = module.getOrInsertFunction(target, call->getFunctionType());
      call->setCalledFunction(replacement);
    }

  bool needsLibdevice = false;
  for (Function &fn : module)
    if (fn.isDeclaration() && fn.getName().starts_with("__nv_") && !fn.use_empty()) {
      needsLibdevice = true;
      if (firstUse.empty()) firstUse = fn.getName().str();
    }
  if (needsLibdevice) {
    if (Error err = linkLibdevice(module, libdevice, kernelName, firstUse)) return err;
    // libdevice asks __nvvm_reflect("__CUDA_FTZ") whether single precision
    // flushes denormals; NVVMReflect answers from this flag.
    DenormalMode mode = entry.getDenormalMode(APFloat::IEEEsingle());
    const bool flush = mode.Output == DenormalMode::PreserveSign || mode.Output == DenormalMode::PositiveZero;
    module.addModuleFlag(Module::Override, "nvvm-reflect-ftz", flush ? 1 : 0);
  }

  for (Function &fn : module) {
    if (!fn.isDeclaration() || fn.isIntrinsic() || fn.use_empty() || fn.getName() == "__nvvm_reflect" ||
        fn.getName() == kVprintfSymbol)
      continue;
    return createStringError(inconvertibleErrorCode(),
                             "kernel '" + kernelName.str() + "' calls '" + displayName(fn.getName()) +
                                 "', which has no definition for NVIDIA GPUs (it is neither defined in the "
                                 "program's device code nor a SYCL or C math function)");
  }
  return Error::success();
}

}  // namespace onepass::jit
