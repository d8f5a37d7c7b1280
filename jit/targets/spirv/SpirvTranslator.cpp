#include "SpirvTranslator.h"

#include "BuiltinLibrary.h"
#include "Codegen.h"
#include "GenericAddressSpace.h"
#include "GridEntry.h"
#include "SpirvBinary.h"
#include "KernelModule.h"
#include "WideIntegers.h"
#include "WorkItemLowering.h"

#include "llvm/CodeGen/AtomicExpandUtils.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LowerSwitch.h"

#include <cstring>
#include <functional>
#include <map>
#include <mutex>

using namespace llvm;

namespace onepass::jit {

namespace {

using spirv::kGenericSpace;
using spirv::kGlobalSpace;
using spirv::kLocalSpace;

// An OpenCL C work-item function (OpenCL C 3.0 §6.15.1) by its Itanium
// name, which LLVM's SPIR-V backend turns into a load of the built-in variable.
Value *workItemQuery(IRBuilder<> &builder, const char *mangledName, unsigned axis) {
  Module &module = *builder.GetInsertBlock()->getModule();
  FunctionCallee query =
      module.getOrInsertFunction(mangledName, FunctionType::get(builder.getInt64Ty(), {builder.getInt32Ty()}, false));
  if (auto *declaration = dyn_cast<Function>(query.getCallee())) {
    declaration->setDoesNotAccessMemory();
    declaration->setDoesNotThrow();
    declaration->setWillReturn();
  }
  return builder.CreateCall(query, {builder.getInt32(axis)});
}

// OpenCL.std's math (OpenCL C 3.0 §6.15.2) for the C library's: the C name
// (double; float adds 'f'), OpenCL's, and what pointer parameters point to
// ('i': int, 'v': the value type).
struct MathFunction {
  const char *c;
  const char *opencl;
  char pointee;
};
constexpr MathFunction kMath[] = {
    {"acos", "acos", 0},      {"acosh", "acosh", 0},         {"asin", "asin", 0},   {"asinh", "asinh", 0},
    {"atan", "atan", 0},      {"atan2", "atan2", 0},         {"atanh", "atanh", 0}, {"cbrt", "cbrt", 0},
    {"ceil", "ceil", 0},      {"copysign", "copysign", 0},   {"cos", "cos", 0},     {"cosh", "cosh", 0},
    {"cospi", "cospi", 0},    {"erf", "erf", 0},             {"erfc", "erfc", 0},   {"exp", "exp", 0},
    {"exp2", "exp2", 0},      {"exp10", "exp10", 0},         {"expm1", "expm1", 0}, {"fabs", "fabs", 0},
    {"fdim", "fdim", 0},      {"floor", "floor", 0},         {"fma", "fma", 0},     {"fmax", "fmax", 0},
    {"fmin", "fmin", 0},      {"fmod", "fmod", 0},           {"frexp", "frexp", 'i'}, {"hypot", "hypot", 0},
    {"ilogb", "ilogb", 0},    {"ldexp", "ldexp", 0},         {"lgamma", "lgamma", 0}, {"log", "log", 0},
    {"log10", "log10", 0},    {"log1p", "log1p", 0},         {"log2", "log2", 0},   {"logb", "logb", 0},
    {"modf", "modf", 'v'},    {"nearbyint", "rint", 0},      {"nextafter", "nextafter", 0},
    {"pow", "pow", 0},        {"remainder", "remainder", 0}, {"remquo", "remquo", 'i'}, {"rint", "rint", 0},
    {"round", "round", 0},    {"scalbn", "ldexp", 0},        {"sin", "sin", 0},     {"sincos", "sincos", 'v'},
    {"sinh", "sinh", 0},      {"sinpi", "sinpi", 0},         {"sqrt", "sqrt", 0},   {"tan", "tan", 0},
    {"tanh", "tanh", 0},      {"tgamma", "tgamma", 0},       {"trunc", "trunc", 0}};

// A parameter's code in an Itanium name ("" if OpenCL has no such type here).
std::string typeCode(Type *type) {
  if (type->isFloatTy()) return "f";
  if (type->isDoubleTy()) return "d";
  if (type->isHalfTy()) return "Dh";
  if (auto *integer = dyn_cast<IntegerType>(type)) {
    switch (integer->getBitWidth()) {
    case 8: return "c";
    case 16: return "s";
    case 32: return "i";
    case 64: return "l";
    default: return "";
    }
  }
  if (auto *vector = dyn_cast<FixedVectorType>(type)) {
    std::string element = typeCode(vector->getElementType());
    return element.empty() ? "" : "Dv" + std::to_string(vector->getNumElements()) + "_" + element;
  }
  return "";
}

// The C library's math calls become calls of OpenCL's functions (by
// Itanium name, the pointers generic as they will be). Calls to other C
// library functions are left for the final check.
void lowerMathToOpenCL(Module &module) {
  for (Function &fn : make_early_inc_range(module)) {
    if (!fn.isDeclaration() || fn.isIntrinsic() || fn.use_empty()) continue;
    StringRef name = fn.getName();
    Type *value = nullptr;
    for (Type *type : fn.getFunctionType()->params())
      if (!value && type->isFloatingPointTy()) value = type;
    if (!value && fn.getReturnType()->isFloatingPointTy()) value = fn.getReturnType();
    if (!value || !(value->isFloatTy() || value->isDoubleTy())) continue;
    StringRef base = name;
    if (value->isFloatTy() && !base.consume_back("f")) continue;
    const MathFunction *math = nullptr;
    for (const MathFunction &entry : kMath)
      if (base == entry.c) math = &entry;
    if (!math) continue;
    std::string mangled = "_Z" + std::to_string(std::strlen(math->opencl)) + math->opencl;
    bool expressible = true;
    for (Type *param : fn.getFunctionType()->params()) {
      std::string code = param->isPointerTy() ? std::string("PU3AS4") + (math->pointee == 'i' ? "i" : typeCode(value))
                                              : typeCode(param);
      expressible &= !code.empty();
      mangled += code;
    }
    if (!expressible) continue;
    if (Function *existing = module.getFunction(mangled); existing && existing->getFunctionType() == fn.getFunctionType()) {
      fn.replaceAllUsesWith(existing);
      fn.eraseFromParent();
    } else {
      fn.setName(mangled);
    }
  }
}

// Math intrinsics LLVM's SPIR-V backend cannot select (it aborts the process
// on them) become calls of OpenCL's functions.
void lowerUnsupportedIntrinsics(Module &module) {
  static const std::pair<Intrinsic::ID, const char *> kIntrinsics[] = {{Intrinsic::exp10, "exp10"}};
  for (Function &fn : make_early_inc_range(module)) {
    for (const auto &[id, name] : kIntrinsics) {
      if (fn.getIntrinsicID() != id) continue;
      std::string code = typeCode(fn.getReturnType());
      if (code.empty()) continue;
      FunctionCallee opencl = module.getOrInsertFunction(
          "_Z" + std::to_string(std::strlen(name)) + name + code, fn.getFunctionType());
      if (auto *declaration = dyn_cast<Function>(opencl.getCallee()))
        declaration->setCallingConv(CallingConv::SPIR_FUNC);
      for (User *user : make_early_inc_range(fn.users()))
        if (auto *call = dyn_cast<CallInst>(user)) {
          call->setCalledFunction(opencl);
          call->setCallingConv(CallingConv::SPIR_FUNC);
        }
    }
  }
}

// Arithmetic with overflow (the optimizer makes llvm.uadd.with.overflow and
// the like of checked loops) as plain arithmetic and comparisons: LLVM's
// backend emits OpIAddCarry/OpISubBorrow/OpUMulExtended, which LLVM 15's
// translator does not know (it exits the process on them).
void lowerOverflowArithmetic(Function &fn) {
  std::vector<IntrinsicInst *> work;
  for (Instruction &inst : instructions(fn))
    if (auto *intrinsic = dyn_cast<IntrinsicInst>(&inst))
      switch (intrinsic->getIntrinsicID()) {
      case Intrinsic::uadd_with_overflow:
      case Intrinsic::usub_with_overflow:
      case Intrinsic::sadd_with_overflow:
      case Intrinsic::ssub_with_overflow:
      case Intrinsic::umul_with_overflow:
        if (intrinsic->getType()->getStructElementType(0)->isIntegerTy()) work.push_back(intrinsic);
        break;
      default: break;
      }
  for (IntrinsicInst *intrinsic : work) {
    IRBuilder<> builder(intrinsic);
    Value *a = intrinsic->getArgOperand(0), *b = intrinsic->getArgOperand(1);
    Value *result = nullptr, *overflow = nullptr;
    switch (intrinsic->getIntrinsicID()) {
    case Intrinsic::uadd_with_overflow:
      result = builder.CreateAdd(a, b);
      overflow = builder.CreateICmpULT(result, a);
      break;
    case Intrinsic::usub_with_overflow:
      result = builder.CreateSub(a, b);
      overflow = builder.CreateICmpULT(a, b);
      break;
    case Intrinsic::sadd_with_overflow:  // the sum's sign differs from both operands'
      result = builder.CreateAdd(a, b);
      overflow = builder.CreateICmpSLT(
          builder.CreateAnd(builder.CreateXor(a, result), builder.CreateXor(b, result)), ConstantInt::get(a->getType(), 0));
      break;
    case Intrinsic::ssub_with_overflow:  // the operands' signs differ and the result's is b's
      result = builder.CreateSub(a, b);
      overflow = builder.CreateICmpSLT(
          builder.CreateAnd(builder.CreateXor(a, b), builder.CreateXor(a, result)), ConstantInt::get(a->getType(), 0));
      break;
    default: {  // umul: the high half of the product is not zero
      auto *type = cast<IntegerType>(a->getType());
      result = builder.CreateMul(a, b);
      if (type->getBitWidth() <= 32) {
        Type *wide = builder.getIntNTy(type->getBitWidth() * 2);
        Value *product = builder.CreateMul(builder.CreateZExt(a, wide), builder.CreateZExt(b, wide));
        overflow = builder.CreateICmpNE(builder.CreateLShr(product, type->getBitWidth()), ConstantInt::get(wide, 0));
      } else {
        overflow = builder.CreateAnd(builder.CreateICmpNE(a, ConstantInt::get(type, 0)),
                                     builder.CreateICmpNE(builder.CreateUDiv(result, builder.CreateSelect(
                                                              builder.CreateICmpEQ(a, ConstantInt::get(type, 0)),
                                                              ConstantInt::get(type, 1), a)),
                                                          b));
      }
      break;
    }
    }
    for (User *user : make_early_inc_range(intrinsic->users()))
      if (auto *extract = dyn_cast<ExtractValueInst>(user); extract && extract->getNumIndices() == 1) {
        extract->replaceAllUsesWith(extract->getIndices()[0] == 0 ? result : overflow);
        extract->eraseFromParent();
      }
    if (!intrinsic->use_empty()) {
      Value *pair = builder.CreateInsertValue(PoisonValue::get(intrinsic->getType()), result, 0);
      intrinsic->replaceAllUsesWith(builder.CreateInsertValue(pair, overflow, 1));
    }
    intrinsic->eraseFromParent();
  }
}

// A bitcast between a vector and an integer of an odd width (<3 x half> to
// i48: SROA makes them of 3-element vectors) goes through the next legal
// width: LLVM's SPIR-V backend widens the integer alone and aborts the
// process on the then unequal bitcast. The vector is padded (or cut) with a
// shuffle and the integer extended (or truncated).
void widenOddBitcasts(Function &fn) {
  auto odd = [](Type *type) {
    auto *integer = dyn_cast<IntegerType>(type);
    if (!integer) return false;
    const unsigned bits = integer->getBitWidth();
    return bits < 64 && bits != 8 && bits != 16 && bits != 32;
  };
  std::vector<BitCastInst *> work;
  for (Instruction &inst : instructions(fn))
    if (auto *bitcast = dyn_cast<BitCastInst>(&inst))
      if ((odd(bitcast->getDestTy()) && isa<FixedVectorType>(bitcast->getSrcTy())) ||
          (odd(bitcast->getSrcTy()) && isa<FixedVectorType>(bitcast->getDestTy())))
        work.push_back(bitcast);
  for (BitCastInst *bitcast : work) {
    const bool toInteger = bitcast->getDestTy()->isIntegerTy();
    auto *vector = cast<FixedVectorType>(toInteger ? bitcast->getSrcTy() : bitcast->getDestTy());
    auto *integer = cast<IntegerType>(toInteger ? bitcast->getDestTy() : bitcast->getSrcTy());
    const unsigned elementBits = vector->getScalarSizeInBits();
    const unsigned wideBits = integer->getBitWidth() <= 16 ? 16 : integer->getBitWidth() <= 32 ? 32 : 64;
    if (elementBits == 0 || wideBits % elementBits != 0) continue;
    const unsigned lanes = vector->getNumElements(), wideLanes = wideBits / elementBits;
    IRBuilder<> builder(bitcast);
    Type *wideInteger = builder.getIntNTy(wideBits);
    auto *wideVector = FixedVectorType::get(vector->getElementType(), wideLanes);
    Value *replacement;
    if (toInteger) {
      SmallVector<int, 8> mask;
      for (unsigned i = 0; i < wideLanes; ++i) mask.push_back(i < lanes ? int(i) : -1);
      Value *padded = builder.CreateShuffleVector(bitcast->getOperand(0), PoisonValue::get(vector), mask);
      replacement = builder.CreateTrunc(builder.CreateBitCast(padded, wideInteger), integer);
    } else {
      SmallVector<int, 8> mask;
      for (unsigned i = 0; i < lanes; ++i) mask.push_back(int(i));
      Value *wide = builder.CreateBitCast(builder.CreateZExt(bitcast->getOperand(0), wideInteger), wideVector);
      replacement = builder.CreateShuffleVector(wide, PoisonValue::get(wideVector), mask);
    }
    bitcast->replaceAllUsesWith(replacement);
    bitcast->eraseFromParent();
  }
}

// Memory accesses of an odd-width integer (the i24 SROA makes of a 3-byte
// copy, such as a marray<bool, 3>) go byte by byte: LLVM's backend widens
// the integer to the next legal width, so a store of an i24 became a 4-byte
// OpStore that wrote over the next byte in memory (another work-item's
// element). The bytes are little-endian, as SPIR-V devices' memory is.
void splitOddWidthAccesses(Function &fn) {
  auto odd = [](Type *type) {
    auto *integer = dyn_cast<IntegerType>(type);
    if (!integer) return false;
    const unsigned bits = integer->getBitWidth();
    return bits % 8 == 0 && bits != 8 && bits != 16 && bits != 32 && bits != 64;
  };
  std::vector<Instruction *> work;
  for (Instruction &inst : instructions(fn)) {
    if (auto *load = dyn_cast<LoadInst>(&inst); load && load->isSimple() && odd(load->getType()))
      work.push_back(load);
    if (auto *store = dyn_cast<StoreInst>(&inst); store && store->isSimple() && odd(store->getValueOperand()->getType()))
      work.push_back(store);
  }
  for (Instruction *access : work) {
    IRBuilder<> builder(access);
    Type *byte = builder.getInt8Ty();
    const bool isLoad = isa<LoadInst>(access);
    Value *address = isLoad ? cast<LoadInst>(access)->getPointerOperand() : cast<StoreInst>(access)->getPointerOperand();
    const Align align = isLoad ? cast<LoadInst>(access)->getAlign() : cast<StoreInst>(access)->getAlign();
    auto *integer = cast<IntegerType>(isLoad ? access->getType() : cast<StoreInst>(access)->getValueOperand()->getType());
    const unsigned bytes = integer->getBitWidth() / 8;
    Value *value = isLoad ? static_cast<Value *>(ConstantInt::get(integer, 0)) : cast<StoreInst>(access)->getValueOperand();
    for (unsigned i = 0; i < bytes; ++i) {
      Value *place = builder.CreateConstInBoundsGEP1_64(byte, address, i);
      const Align byteAlign = commonAlignment(align, i);
      if (isLoad) {
        Value *part = builder.CreateZExt(builder.CreateAlignedLoad(byte, place, byteAlign), integer);
        value = builder.CreateOr(value, builder.CreateShl(part, 8 * i));
      } else {
        builder.CreateAlignedStore(builder.CreateTrunc(builder.CreateLShr(value, 8 * i), byte), place, byteAlign);
      }
    }
    if (isLoad) access->replaceAllUsesWith(value);
    access->eraseFromParent();
  }
}

// Sub-groups of one work-item each (jit_api.h,
// ONEPASS_JIT_SPIRV_ONE_ITEM_SUB_GROUPS), for devices without OpenCL's
// sub-group extensions (PoCL's CPU device): the sub-group builtins,
// linked but not yet inlined, get bodies that need no device support. A
// shuffle reads the work-item's own value, a vote is its own predicate, the
// sub-group's id is the work-item's linear id in its work-group, and a
// sub-group barrier has no other work-item to wait for (program order
// already orders one work-item's accesses).
void defineOneItemSubGroups(Module &module) {
  auto redefine = [&](const char *name, const std::function<Value *(IRBuilder<> &, Function &)> &body) {
    Function *fn = module.getFunction(name);
    if (!fn || fn->isDeclaration()) return;
    fn->deleteBody();
    IRBuilder<> builder(BasicBlock::Create(module.getContext(), "entry", fn));
    Value *result = body(builder, *fn);
    if (result) builder.CreateRet(builder.CreateZExtOrTrunc(result, fn->getReturnType()));
    else builder.CreateRetVoid();
  };
  auto constant = [](unsigned value) {
    return [value](IRBuilder<> &builder, Function &) -> Value * { return builder.getInt32(value); };
  };
  auto firstArgument = [](IRBuilder<> &, Function &fn) -> Value * { return fn.getArg(0); };
  auto predicate = [](IRBuilder<> &builder, Function &fn) -> Value * {
    return builder.CreateICmpNE(fn.getArg(0), ConstantInt::get(fn.getArg(0)->getType(), 0));
  };
  redefine(ONEPASS_ABI_SUB_GROUP_LOCAL_ID, constant(0));
  redefine(ONEPASS_ABI_SUB_GROUP_SIZE, constant(1));
  redefine(ONEPASS_ABI_SUB_GROUP_MAX_SIZE, constant(1));
  redefine(ONEPASS_ABI_SUB_GROUP_ID, [](IRBuilder<> &builder, Function &) -> Value * {
    // local_id(0) + local_size(0) * (local_id(1) + local_size(1) * local_id(2))
    Value *linear = workItemQuery(builder, "_Z12get_local_idj", 2);
    for (int axis = 1; axis >= 0; --axis)
      linear = builder.CreateAdd(workItemQuery(builder, "_Z12get_local_idj", axis),
                                 builder.CreateMul(workItemQuery(builder, "_Z14get_local_sizej", axis), linear));
    return linear;
  });
  redefine(ONEPASS_ABI_SUB_GROUP_COUNT, [](IRBuilder<> &builder, Function &) -> Value * {
    Value *count = workItemQuery(builder, "_Z14get_local_sizej", 0);
    for (unsigned axis = 1; axis < 3; ++axis)
      count = builder.CreateMul(count, workItemQuery(builder, "_Z14get_local_sizej", axis));
    return count;
  });
  for (const char *shuffle : {ONEPASS_ABI_SUB_GROUP_SHUFFLE, ONEPASS_ABI_SUB_GROUP_SHUFFLE_DOWN,
                              ONEPASS_ABI_SUB_GROUP_SHUFFLE_UP, ONEPASS_ABI_SUB_GROUP_SHUFFLE_XOR})
    redefine(shuffle, firstArgument);
  redefine(ONEPASS_ABI_SUB_GROUP_ANY, predicate);
  redefine(ONEPASS_ABI_SUB_GROUP_ALL, predicate);
  redefine(ONEPASS_ABI_SUB_GROUP_BARRIER, [](IRBuilder<> &, Function &) -> Value * { return nullptr; });
}

// Pointer comparisons as integer comparisons: LLVM's backend emits
// OpPtrEqual and the like (SPIR-V 1.4), which older consumers lack (LLVM 15's
// translator, which makes SPIR for PoCL, aborts on them).
void comparePointersAsIntegers(Function &fn) {
  std::vector<ICmpInst *> work;
  for (Instruction &inst : instructions(fn))
    if (auto *compare = dyn_cast<ICmpInst>(&inst); compare && compare->getOperand(0)->getType()->isPointerTy())
      work.push_back(compare);
  for (ICmpInst *compare : work) {
    IRBuilder<> builder(compare);
    Type *address = builder.getInt64Ty();
    Value *replacement =
        builder.CreateICmp(compare->getPredicate(), builder.CreatePtrToInt(compare->getOperand(0), address),
                           builder.CreatePtrToInt(compare->getOperand(1), address), compare->getName());
    compare->replaceAllUsesWith(replacement);
    compare->eraseFromParent();
  }
}

// SPIR-V has integers of 8, 16, 32 and 64 bits (others need an FPGA
// extension), and LLVM's backend aborts the process on a wider one. Those of
// up to 128 bits were split into halves (WideIntegers.h); a kernel that
// still has one (an i256, a vector of i128) is an error naming it.
Error checkIntegerWidths(Module &module, StringRef kernelName) {
  auto wideTypeOf = [](const Instruction &inst) -> Type * {
    if (spirv::typeHoldsWideIntegers(inst.getType())) return inst.getType();
    for (const Value *operand : inst.operands())
      if (spirv::typeHoldsWideIntegers(operand->getType())) return operand->getType();
    if (auto *gep = dyn_cast<GetElementPtrInst>(&inst); gep && spirv::typeHoldsWideIntegers(gep->getSourceElementType()))
      return gep->getSourceElementType();
    if (auto *alloca = dyn_cast<AllocaInst>(&inst); alloca && spirv::typeHoldsWideIntegers(alloca->getAllocatedType()))
      return alloca->getAllocatedType();
    return nullptr;
  };
  Type *bad = nullptr;
  for (Function &fn : module) {
    if (!fn.use_empty() && spirv::typeHoldsWideIntegers(fn.getFunctionType())) bad = fn.getFunctionType();
    for (Instruction &inst : instructions(fn))
      if (!bad) bad = wideTypeOf(inst);
    if (bad) break;
  }
  for (GlobalVariable &global : module.globals())
    if (!bad && spirv::typeHoldsWideIntegers(global.getValueType())) bad = global.getValueType();
  if (!bad) return Error::success();
  std::string type;
  raw_string_ostream stream(type);
  bad->print(stream);
  return createStringError(inconvertibleErrorCode(),
                           "kernel '" + kernelName.str() + "' computes with " + type +
                               " values, which SPIR-V devices cannot hold (integers of at most 64 bits); "
                               "OnePass splits scalar integers of up to 128 bits into halves, but not these");
}

// sycl::ext::oneapi::experimental::printf: OpenCL C's printf (OpenCL.std's
// printf instruction), whose format string, and string arguments, live in
// constant memory: constant copies of the string literals are made. (Its
// Itanium name tells the backend the format's type: constant char*.)
constexpr unsigned kConstantSpace = 2;

// OpenCL C's printf (OpenCL 1.2 §6.12.13.2) knows the length modifiers hh,
// h and l (and the vector ones), not C's ll, j, z or t. On SPIR-V devices
// long, long long, size_t, intmax_t and ptrdiff_t are all 64 bits: all
// become l.
std::string openclPrintfFormat(StringRef format) {
  std::string result;
  for (size_t i = 0; i < format.size(); ++i) {
    result += format[i];
    if (format[i] != '%') continue;
    size_t next = i + 1;
    if (next < format.size() && format[next] == '%') {
      result += '%';
      i = next;
      continue;
    }
    while (next < format.size() && StringRef("-+ #0123456789.*").contains(format[next])) result += format[next++];
    if (format.substr(next, 2) == "ll") {
      result += 'l';
      next += 2;
    } else if (next < format.size() && StringRef("zjt").contains(format[next])) {
      result += 'l';
      ++next;
    }
    i = next - 1;
  }
  return result;
}

Error lowerPrintf(Module &module, StringRef kernelName) {
  Function *printf = module.getFunction(ONEPASS_ABI_PRINTF);
  if (!printf) return Error::success();
  LLVMContext &ctx = module.getContext();
  FunctionCallee opencl = module.getOrInsertFunction(
      "_Z6printfPU3AS2Kcz",
      FunctionType::get(Type::getInt32Ty(ctx), {PointerType::get(ctx, kConstantSpace)}, /*isVarArg=*/true));
  std::map<std::pair<GlobalVariable *, bool>, GlobalVariable *> copies;
  auto constantCopy = [&](Value *value, bool isFormat) -> Value * {
    auto *global = dyn_cast<GlobalVariable>(value->stripPointerCasts());
    if (!global || !global->isConstant() || !global->hasInitializer()) return nullptr;
    GlobalVariable *&copy = copies[{global, isFormat}];
    if (!copy) {
      Constant *text = global->getInitializer();
      if (auto *array = dyn_cast<ConstantDataArray>(text); isFormat && array && array->isString())
        text = ConstantDataArray::getString(ctx, openclPrintfFormat(array->getAsString()), /*AddNull=*/false);
      copy = new GlobalVariable(module, text->getType(), true, GlobalValue::PrivateLinkage, text,
                                global->getName() + (isFormat ? ".format" : ".constant"), nullptr,
                                GlobalValue::NotThreadLocal, kConstantSpace);
      copy->setAlignment(global->getAlign());
      copy->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    }
    return copy;
  };
  for (User *user : make_early_inc_range(printf->users())) {
    auto *call = dyn_cast<CallInst>(user);
    if (!call) continue;
    Value *format = constantCopy(call->getArgOperand(0), /*isFormat=*/true);
    if (!format)
      return createStringError(inconvertibleErrorCode(),
                               "kernel '" + kernelName.str() +
                                   "' calls printf with a format that is not a string literal: SPIR-V devices need "
                                   "it in constant memory");
    std::vector<Value *> arguments{format};
    for (unsigned i = 1; i < call->arg_size(); ++i) {
      Value *argument = call->getArgOperand(i);
      if (argument->getType()->isPointerTy())
        if (Value *string = constantCopy(argument, /*isFormat=*/false)) argument = string;
      arguments.push_back(argument);
    }
    IRBuilder<> builder(call);
    CallInst *replacement = builder.CreateCall(opencl, arguments);
    call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
  if (printf->use_empty()) printf->eraseFromParent();
  return Error::success();
}

// OpenCL's atomics have no floating-point read-modify-write (without
// extensions) and no nand or wrapping increments: those become
// compare-exchange loops on the value's bits.
void createIntegerCmpXchg(IRBuilderBase &builder, Value *address, Value *loaded, Value *desired, Align align,
                          AtomicOrdering ordering, SyncScope::ID scope, Value *&success, Value *&newLoaded,
                          Instruction *) {
  Type *type = loaded->getType();
  Type *bits = builder.getIntNTy(type->getPrimitiveSizeInBits());
  auto *pair = builder.CreateAtomicCmpXchg(address, builder.CreateBitCast(loaded, bits),
                                           builder.CreateBitCast(desired, bits), MaybeAlign(align), ordering,
                                           AtomicCmpXchgInst::getStrongestFailureOrdering(ordering), scope);
  success = builder.CreateExtractValue(pair, 1);
  newLoaded = builder.CreateBitCast(builder.CreateExtractValue(pair, 0), type);
}

void expandUnsupportedAtomics(Module &module) {
  for (Function &fn : module) {
    std::vector<AtomicRMWInst *> work;
    for (Instruction &inst : instructions(fn))
      if (auto *rmw = dyn_cast<AtomicRMWInst>(&inst)) {
        const AtomicRMWInst::BinOp op = rmw->getOperation();
        if (rmw->isFloatingPointOperation() || op == AtomicRMWInst::Nand || op == AtomicRMWInst::UIncWrap ||
            op == AtomicRMWInst::UDecWrap || op == AtomicRMWInst::USubCond || op == AtomicRMWInst::USubSat ||
            (op == AtomicRMWInst::Xchg && !rmw->getType()->isIntegerTy()))
          work.push_back(rmw);
      }
    for (AtomicRMWInst *rmw : work) expandAtomicRMWToCmpXchg(rmw, createIntegerCmpXchg);
  }
}

// SPIR-V's functions are all spir_func but the kernel; calls must match
// their callees' convention (a mismatch is undefined, and the optimizer
// drops such calls).
void normalizeCallingConventions(Module &module, Function &entry) {
  for (Function &fn : module)
    if (&fn != &entry && !fn.isIntrinsic()) fn.setCallingConv(CallingConv::SPIR_FUNC);
  entry.setCallingConv(CallingConv::SPIR_KERNEL);
  for (Function &fn : module)
    for (Instruction &inst : instructions(fn))
      if (auto *call = dyn_cast<CallBase>(&inst))
        if (Function *callee = call->getCalledFunction()) call->setCallingConv(callee->getCallingConv());
}

// LLVM's SPIR-V backend mistypes a phi of an aggregate (the optimizer makes
// one of a compare-exchange's {value, success} pair in a retry loop: the
// phi's type came out as the value's): each field gets a phi of its own.
void splitAggregatePhis(Function &fn) {
  std::vector<PHINode *> work;
  for (BasicBlock &block : fn)
    for (PHINode &phi : block.phis())
      if (phi.getType()->isStructTy()) work.push_back(&phi);
  for (PHINode *phi : work) {
    auto *type = cast<StructType>(phi->getType());
    IRBuilder<> builder(phi);
    std::vector<PHINode *> fields;
    for (unsigned i = 0; i < type->getNumElements(); ++i)
      fields.push_back(builder.CreatePHI(type->getElementType(i), phi->getNumIncomingValues(),
                                         phi->getName() + ".field" + Twine(i)));
    for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) {
      Value *incoming = phi->getIncomingValue(k);
      BasicBlock *from = phi->getIncomingBlock(k);
      for (unsigned i = 0; i < type->getNumElements(); ++i) {
        Value *part;
        if (incoming == phi) part = fields[i];
        else if (auto *constant = dyn_cast<Constant>(incoming)) part = constant->getAggregateElement(i);
        else part = IRBuilder<>(from->getTerminator()).CreateExtractValue(incoming, i);
        fields[i]->addIncoming(part, from);
      }
    }
    for (User *user : make_early_inc_range(phi->users()))
      if (auto *extract = dyn_cast<ExtractValueInst>(user); extract && extract->getNumIndices() == 1) {
        extract->replaceAllUsesWith(fields[extract->getIndices()[0]]);
        extract->eraseFromParent();
      }
    if (!phi->use_empty()) {
      IRBuilder<> after(phi->getParent(), phi->getParent()->getFirstInsertionPt());
      Value *whole = PoisonValue::get(type);
      for (unsigned i = 0; i < type->getNumElements(); ++i) whole = after.CreateInsertValue(whole, fields[i], i);
      phi->replaceAllUsesWith(whole);
    }
    phi->eraseFromParent();
  }
}

void inferAddressSpaces(Module &module, bool lowerSwitches = false) {
  PassBuilder builder;
  runPipeline(module, builder, [&](PassBuilder &) {
    FunctionPassManager passes;
    // (SpirvBinary.h's label renumbering expects no OpSwitch.)
    if (lowerSwitches) passes.addPass(LowerSwitchPass());
    passes.addPass(InferAddressSpacesPass(kGenericSpace));
    ModulePassManager modulePasses;
    modulePasses.addPass(createModuleToFunctionPassAdaptor(std::move(passes)));
    return modulePasses;
  });
}

// What is left undefined must be something the SPIR-V backend or the
// device provides: OpenCL's functions and SPIR-V's instructions by their
// (mangled) names, and LLVM's intrinsics.
Error checkCallees(Module &module, StringRef kernelName) {
  for (Function &fn : module) {
    if (!fn.isDeclaration() || fn.isIntrinsic() || fn.use_empty()) continue;
    StringRef name = fn.getName();
    if (name.starts_with("_Z") || name.starts_with("__spirv_")) continue;
    return createStringError(inconvertibleErrorCode(), "kernel '" + kernelName.str() + "' calls '" + name.str() +
                                                           "', which has no definition for SPIR-V devices");
  }
  return Error::success();
}

class SpirvTranslator final : public Translator {
public:
  explicit SpirvTranslator(bool oneItemSubGroups) : oneItemSubGroups_(oneItemSubGroups) {}

  const char *name() const override { return "SPIR-V"; }
  std::string dumpSuffix() const override { return ".spirv"; }

  Expected<TargetMachine *> machine() override {
    if (!machine_) {
      Expected<std::unique_ptr<TargetMachine>> created = createSpirvTargetMachine();
      if (!created) return created.takeError();
      machine_ = std::move(*created);
    }
    return machine_.get();
  }

  BuiltinTarget builtins() const override { return BuiltinTarget::Spirv; }

  // Static work-group memory: a module-scope Workgroup variable.
  Error placeGroupLocalMemory(KernelModule &kernel) override {
    return placeGroupLocalVariable(kernel, "__onepass_spirv_group_local", kLocalSpace);
  }

  Expected<Entry> buildEntry(KernelModule &kernel, const Specialization &) override {
    Module &module = *kernel.module;
    LLVMContext &ctx = module.getContext();
    GridEntryAbi abi;
    abi.name = kSpirvKernelSymbol;
    abi.callingConvention = CallingConv::SPIR_KERNEL;
    // A kernel's pointers point into global memory (USM, buffers); they are
    // passed as 64-bit integers, so backends set every argument by value
    // (OpenCL's SVM and USM pointers, Level Zero's).
    abi.parameterType = [&](Argument &arg) -> Type * {
      return arg.getType()->isPointerTy() ? Type::getInt64Ty(ctx) : arg.getType();
    };
    abi.integerPointerSpace = kGlobalSpace;
    const bool localMemory = module.getFunction(ONEPASS_ABI_LOCAL_MEMORY) != nullptr;
    if (localMemory) abi.extraParameters.push_back(PointerType::get(ctx, kLocalSpace));
    GridQueries queries;
    queries.localId = [](IRBuilder<> &b, unsigned axis) { return workItemQuery(b, "_Z12get_local_idj", axis); };
    queries.localRange = [](IRBuilder<> &b, unsigned axis) { return workItemQuery(b, "_Z14get_local_sizej", axis); };
    queries.groupId = [](IRBuilder<> &b, unsigned axis) { return workItemQuery(b, "_Z12get_group_idj", axis); };
    queries.groupRange = [](IRBuilder<> &b, unsigned axis) { return workItemQuery(b, "_Z14get_num_groupsj", axis); };
    Function *entry = buildGridEntry(module, *kernel.kernel, kernel.info, abi, queries);
    localMemory_ = localMemory ? entry->getArg(entry->arg_size() - 1) : nullptr;
    // [[sycl::reqd_work_group_size]]: OpExecutionMode LocalSize (x is SYCL's last dimension).
    const image::KernelView &info = kernel.info;
    if (info.kind == image::KernelKind::NdRange && info.reqdWorkGroupSize[0] != 0 &&
        !(info.features & image::kFeatureHierarchical)) {
      Metadata *size[3];
      for (unsigned axis = 0; axis < 3; ++axis) {
        const uint64_t extent = axis < info.dimensions ? info.reqdWorkGroupSize[info.dimensions - 1 - axis] : 1;
        size[axis] = ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(ctx), extent));
      }
      entry->setMetadata("reqd_work_group_size", MDNode::get(ctx, size));
    }
    return Entry{entry, kernel.kernel};
  }

  // The local memory's users are inlined into the entry, which owns it.
  void beforeInlining(KernelModule &kernel, const Entry &entry) override {
    if (oneItemSubGroups_) defineOneItemSubGroups(*kernel.module);
    normalizeCallingConventions(*kernel.module, *entry.entry);
    if (Function *local = kernel.module->getFunction(ONEPASS_ABI_LOCAL_MEMORY))
      for (Function *caller : transitiveCallers(*local))
        if (caller != entry.entry) {
          caller->removeFnAttr(Attribute::NoInline);
          caller->removeFnAttr(Attribute::OptimizeNone);
          caller->addFnAttr(Attribute::AlwaysInline);
        }
  }

  Error beforeOptimizer(KernelModule &kernel, Function &entry) override {
    Module &module = *kernel.module;
    if (Function *local = module.getFunction(ONEPASS_ABI_LOCAL_MEMORY)) {
      for (User *user : make_early_inc_range(local->users())) {
        auto *call = dyn_cast<CallInst>(user);
        if (!call || call->getFunction() != &entry || !localMemory_)
          return createStringError(inconvertibleErrorCode(),
                                   "kernel '" + kernel.displayName +
                                       "' reaches its local memory from a function that cannot be inlined into the "
                                       "kernel (recursion?); OnePass does not support this for SPIR-V");
        IRBuilder<> builder(call);
        call->replaceAllUsesWith(builder.CreateAddrSpaceCast(localMemory_, call->getType()));
        call->eraseFromParent();
      }
      local->eraseFromParent();
    }
    eraseUnusedFunctions(module);
    if (Error err = lowerPrintf(module, kernel.displayName)) return err;
    lowerMathToOpenCL(module);
    lowerUnsupportedIntrinsics(module);
    internalizeAllBut(module, entry);
    shareDenormalMode(module, entry);
    if (Error err = spirv::moveToGenericAddressSpace(module)) return err;
    normalizeCallingConventions(module, entry);
    expandUnsupportedAtomics(module);
    inferAddressSpaces(module);
    return checkCallees(module, kernel.displayName);
  }

  // The optimizer's inlining and SROA leave casts InferAddressSpaces can
  // now see through.
  Error afterOptimizer(KernelModule &kernel, Function &entry) override {
    inferAddressSpaces(*kernel.module, /*lowerSwitches=*/true);
    for (Function &fn : *kernel.module)
      if (!fn.isDeclaration()) {
        splitAggregatePhis(fn);
        comparePointersAsIntegers(fn);
        lowerOverflowArithmetic(fn);
      }
    if (Error err = spirv::splitWideIntegers(*kernel.module, kernel.displayName)) return err;
    for (Function &fn : *kernel.module)
      if (!fn.isDeclaration()) {
        widenOddBitcasts(fn);
        splitOddWidthAccesses(fn);
      }
    lowerUnsupportedIntrinsics(*kernel.module);
    return checkIntegerWidths(*kernel.module, kernel.displayName);
  }

  // The backend's module analysis is process-wide state (a static of
  // SPIRVModuleAnalysis): one module at a time, and its block ids mended.
  // When two blocks of a function still share an id (an old
  // MachineFunction address reused with an old block number: SpirvBinary.h),
  // the module is compiled again from a copy while blocks of the
  // MachineFunction's size are held, so that its new MachineFunction lands at
  // another address.
  Expected<std::vector<char>> emit(Module &module, TargetMachine &machine) override {
    static std::mutex codegen;
    std::lock_guard<std::mutex> lock(codegen);
    constexpr unsigned kAttempts = 6;
    std::vector<std::unique_ptr<char[]>> held;
    std::unique_ptr<TargetMachine> fresh;
    for (unsigned attempt = 1;; ++attempt) {
      // Code generation changes the module, and the backend's global
      // registry (per target machine) remembers the module's values: each
      // attempt is a copy of the module on a target machine of its own.
      std::unique_ptr<Module> copy = attempt < kAttempts ? CloneModule(module) : nullptr;
      if (attempt > 1) {
        Expected<std::unique_ptr<TargetMachine>> created = createSpirvTargetMachine();
        if (!created) return created.takeError();
        fresh = std::move(*created);
      }
      Expected<std::vector<char>> binary = emitFile(copy ? *copy : module, fresh ? *fresh : machine, output());
      if (!binary) return binary.takeError();
      bool ambiguous = false;
      if (Error err = spirv::renumberLabels(*binary, ambiguous)) return Expected<std::vector<char>>(std::move(err));
      if (!ambiguous) {
        if (Error err = spirv::spellOutScalarNulls(*binary)) return Expected<std::vector<char>>(std::move(err));
        return binary;
      }
      if (attempt == kAttempts)
        return createStringError(inconvertibleErrorCode(),
                                 "internal error: LLVM's SPIR-V backend gave two blocks of one function the same id "
                                 "in " + std::to_string(kAttempts) + " attempts");
      for (unsigned i = 0; i < 4 * attempt; ++i) held.push_back(std::make_unique<char[]>(sizeof(MachineFunction)));
    }
  }

  CodeGenFileType output() const override { return CodeGenFileType::ObjectFile; }
  const char *dumpExtension() const override { return ".spv"; }

private:
  bool oneItemSubGroups_;
  std::unique_ptr<TargetMachine> machine_;
  Argument *localMemory_ = nullptr;
};

}  // namespace

std::unique_ptr<Translator> makeSpirvTranslator(bool oneItemSubGroups) {
  return std::make_unique<SpirvTranslator>(oneItemSubGroups);
}

}  // namespace onepass::jit
