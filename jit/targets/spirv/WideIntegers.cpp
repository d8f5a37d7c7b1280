#include "WideIntegers.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/InstSimplifyFolder.h"
#include "llvm/Analysis/Utils/Local.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Local.h"

#include <string>
#include <vector>

using namespace llvm;

namespace onepass::jit::spirv {
namespace {

constexpr unsigned kMostBits = 128;

// (Folding what the halves make trivial: shifts by 0, selects on constants.)
using Builder = IRBuilder<InstSimplifyFolder>;

unsigned wideBits(Type *type) {
  auto *integer = dyn_cast<IntegerType>(type);
  if (!integer || integer->getBitWidth() <= 64 || integer->getBitWidth() > kMostBits) return 0;
  return integer->getBitWidth();
}

bool holdsWideIntegers(Type *type) {
  if (auto *vector = dyn_cast<VectorType>(type)) type = vector->getElementType();
  auto *integer = dyn_cast<IntegerType>(type);
  return integer && integer->getBitWidth() > 64;
}

// Memory of a wide integer type (an alloca of one, a getelementptr over an
// array of them) is addressed in bytes instead: SPIR-V's pointers are typed,
// so the backend would make a pointer to a 128-bit integer type.
void addressInBytes(Function &fn) {
  const DataLayout &layout = fn.getDataLayout();
  std::vector<Instruction *> work;
  for (BasicBlock &block : fn)
    for (Instruction &inst : block) {
      if (auto *gep = dyn_cast<GetElementPtrInst>(&inst);
          gep && !gep->getType()->isVectorTy() && typeHoldsWideIntegers(gep->getSourceElementType()))
        work.push_back(gep);
      if (auto *alloca = dyn_cast<AllocaInst>(&inst); alloca && typeHoldsWideIntegers(alloca->getAllocatedType()))
        work.push_back(alloca);
    }
  for (Instruction *inst : work) {
    IRBuilder<> b(inst);
    Value *replacement;
    if (auto *gep = dyn_cast<GetElementPtrInst>(inst)) {
      replacement = b.CreateGEP(b.getInt8Ty(), gep->getPointerOperand(), emitGEPOffset(&b, layout, gep), "",
                                gep->isInBounds() ? GEPNoWrapFlags::inBounds() : GEPNoWrapFlags::none());
    } else {
      auto *alloca = cast<AllocaInst>(inst);
      auto *bytes = b.CreateAlloca(ArrayType::get(b.getInt8Ty(), layout.getTypeAllocSize(alloca->getAllocatedType())),
                                   alloca->getAddressSpace(), alloca->getArraySize());
      bytes->setAlignment(alloca->getAlign());
      replacement = bytes;
    }
    replacement->takeName(inst);
    inst->replaceAllUsesWith(replacement);
    inst->eraseFromParent();
  }
}

// A wide value as two i64: its low 64 bits and the rest, zero-extended from
// the value's width (so an i65's high half is 0 or 1). Operations that may
// set the bits above the width (add, sub, mul, shl, ashr, sext) clear them
// again; signed operations sign-extend the high half first.
struct Halves {
  Value *lo;
  Value *hi;
};

class WideIntegerSplitter {
public:
  WideIntegerSplitter(Function &fn, StringRef kernelName) : fn_(fn), kernelName_(kernelName) {}

  Error run() {
    removeUnreachableBlocks(fn_);
    addressInBytes(fn_);
    std::vector<Instruction *> work;
    for (BasicBlock *block : ReversePostOrderTraversal<Function *>(&fn_))
      for (Instruction &inst : *block)
        if (touchesWideIntegers(inst)) work.push_back(&inst);
    if (work.empty()) return Error::success();
    for (Instruction *inst : work) {
      split(*inst);
      if (!failure_.empty()) return error();
    }
    for (auto &[phi, halves] : phis_)
      for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
        Halves incoming = get(phi->getIncomingValue(i));
        cast<PHINode>(halves.lo)->addIncoming(incoming.lo, phi->getIncomingBlock(i));
        cast<PHINode>(halves.hi)->addIncoming(incoming.hi, phi->getIncomingBlock(i));
      }
    if (!failure_.empty()) return error();
    for (Instruction *inst : work) inst->dropAllReferences();
    for (Instruction *inst : work) {
      if (!inst->use_empty()) inst->replaceAllUsesWith(PoisonValue::get(inst->getType()));
      inst->eraseFromParent();
    }
    // The halves nobody reads (the high half of a value only truncated).
    for (BasicBlock &block : fn_)
      for (Instruction &inst : make_early_inc_range(reverse(block)))
        if (isInstructionTriviallyDead(&inst)) inst.eraseFromParent();
    return Error::success();
  }

private:
  static bool touchesWideIntegers(const Instruction &inst) {
    if (holdsWideIntegers(inst.getType())) return true;
    for (const Value *operand : inst.operands())
      if (holdsWideIntegers(operand->getType())) return true;
    return false;
  }

  Error error() const {
    return createStringError(inconvertibleErrorCode(),
                             "kernel '" + kernelName_.str() + "' " + failure_ +
                                 ", which SPIR-V devices cannot do (integers of at most 64 bits; OnePass splits "
                                 "integers of up to 128 bits into halves for arithmetic, shifts, comparisons, "
                                 "loads and stores, but not for this)");
  }

  void fail(const Instruction &inst, const std::string &what) {
    if (!failure_.empty()) return;
    std::string type;
    raw_string_ostream stream(type);
    for (const Value *operand : inst.operands())
      if (holdsWideIntegers(operand->getType())) {
        operand->getType()->print(stream);
        break;
      }
    if (type.empty()) inst.getType()->print(stream);
    failure_ = what + " " + type + " values";
  }

  Type *i64() const { return Type::getInt64Ty(fn_.getContext()); }
  Constant *constant(uint64_t value) const { return ConstantInt::get(i64(), value); }

  // The high half with the bits above `bits` cleared.
  Value *clearAbove(IRBuilderBase &b, Value *hi, unsigned bits) {
    if (bits == kMostBits) return hi;
    return b.CreateAnd(hi, constant((uint64_t(1) << (bits - 64)) - 1));
  }
  // The high half sign-extended from bit `bits` - 1.
  Value *signExtended(IRBuilderBase &b, Value *hi, unsigned bits) {
    if (bits == kMostBits) return hi;
    const uint64_t unused = kMostBits - bits;
    return b.CreateAShr(b.CreateShl(hi, unused), unused);
  }

  Halves get(Value *value) {
    if (auto found = halves_.find(value); found != halves_.end()) return found->second;
    if (auto *integer = dyn_cast<ConstantInt>(value)) {
      const APInt bits = integer->getValue().zext(kMostBits);
      return {constant(bits.trunc(64).getZExtValue()), constant(bits.lshr(64).trunc(64).getZExtValue())};
    }
    if (isa<UndefValue>(value)) return {constant(0), constant(0)};  // (poison too: any value will do)
    if (!failure_.empty()) return {constant(0), constant(0)};
    if (auto *inst = dyn_cast<Instruction>(value)) fail(*inst, "computes with");
    else failure_ = "receives or computes constant expressions of wide integer values";
    return {constant(0), constant(0)};
  }

  void define(Instruction &inst, Value *lo, Value *hi) { halves_[&inst] = {lo, hi}; }

  // The high 64 bits of the 128-bit product of two i64, in 32-bit pieces.
  Value *multiplyHigh(IRBuilderBase &b, Value *x, Value *y) {
    Constant *low32 = constant(0xffffffffu);
    Value *x0 = b.CreateAnd(x, low32), *x1 = b.CreateLShr(x, 32);
    Value *y0 = b.CreateAnd(y, low32), *y1 = b.CreateLShr(y, 32);
    Value *p00 = b.CreateMul(x0, y0), *p01 = b.CreateMul(x0, y1);
    Value *p10 = b.CreateMul(x1, y0), *p11 = b.CreateMul(x1, y1);
    Value *middle =
        b.CreateAdd(b.CreateAdd(b.CreateLShr(p00, 32), b.CreateAnd(p01, low32)), b.CreateAnd(p10, low32));
    return b.CreateAdd(b.CreateAdd(p11, b.CreateLShr(p01, 32)),
                       b.CreateAdd(b.CreateLShr(p10, 32), b.CreateLShr(middle, 32)));
  }

  // Shifts by an amount below the width (LLVM: a larger one is poison, so
  // any result will do); `amount` is the amount's low half.
  Halves shift(IRBuilderBase &b, Instruction::BinaryOps op, Halves value, Value *amount, unsigned bits) {
    Value *small = b.CreateAnd(amount, constant(63));  // the amount modulo 64
    Value *rest = b.CreateXor(small, constant(63));    // 63 - small
    Value *big = b.CreateICmpUGE(amount, constant(64));
    if (op == Instruction::Shl) {
      Value *lo = b.CreateShl(value.lo, small);
      // (lo >> 1) >> (63 - small): the bits that cross into the high half, none for a shift by 0.
      Value *hi = b.CreateOr(b.CreateShl(value.hi, small), b.CreateLShr(b.CreateLShr(value.lo, 1), rest));
      return {b.CreateSelect(big, constant(0), lo), clearAbove(b, b.CreateSelect(big, lo, hi), bits)};
    }
    const bool arithmetic = op == Instruction::AShr;
    Value *top = arithmetic ? signExtended(b, value.hi, bits) : value.hi;
    Value *hi = arithmetic ? b.CreateAShr(top, small) : b.CreateLShr(top, small);
    Value *lo = b.CreateOr(b.CreateLShr(value.lo, small), b.CreateShl(b.CreateShl(top, 1), rest));
    Value *fill = arithmetic ? b.CreateAShr(top, 63) : constant(0);
    return {b.CreateSelect(big, hi, lo), clearAbove(b, b.CreateSelect(big, fill, hi), bits)};
  }

  Value *compare(IRBuilderBase &b, CmpInst::Predicate predicate, Halves x, Halves y, unsigned bits) {
    if (predicate == CmpInst::ICMP_EQ)
      return b.CreateAnd(b.CreateICmpEQ(x.lo, y.lo), b.CreateICmpEQ(x.hi, y.hi));
    if (predicate == CmpInst::ICMP_NE)
      return b.CreateOr(b.CreateICmpNE(x.lo, y.lo), b.CreateICmpNE(x.hi, y.hi));
    Value *xHi = x.hi, *yHi = y.hi;
    if (CmpInst::isSigned(predicate)) {
      xHi = signExtended(b, xHi, bits);
      yHi = signExtended(b, yHi, bits);
    }
    // The high halves decide unless they are equal; then the low halves, unsigned.
    const CmpInst::Predicate strict = CmpInst::getStrictPredicate(predicate);
    return b.CreateOr(b.CreateICmp(strict, xHi, yHi),
                      b.CreateAnd(b.CreateICmpEQ(xHi, yHi),
                                  b.CreateICmp(ICmpInst::getUnsignedPredicate(predicate), x.lo, y.lo)));
  }

  Halves subtract(IRBuilderBase &b, Halves x, Halves y, unsigned bits) {
    Value *lo = b.CreateSub(x.lo, y.lo);
    Value *borrow = b.CreateZExt(b.CreateICmpULT(x.lo, y.lo), i64());
    return {lo, clearAbove(b, b.CreateSub(b.CreateSub(x.hi, y.hi), borrow), bits)};
  }

  void binary(BinaryOperator &inst, unsigned bits) {
    Builder b(inst.getContext(), InstSimplifyFolder(fn_.getDataLayout()));
    b.SetInsertPoint(&inst);
    const Halves x = get(inst.getOperand(0)), y = get(inst.getOperand(1));
    switch (inst.getOpcode()) {
    case Instruction::Add: {
      Value *lo = b.CreateAdd(x.lo, y.lo);
      Value *carry = b.CreateZExt(b.CreateICmpULT(lo, x.lo), i64());
      define(inst, lo, clearAbove(b, b.CreateAdd(b.CreateAdd(x.hi, y.hi), carry), bits));
      return;
    }
    case Instruction::Sub: {
      const Halves difference = subtract(b, x, y, bits);
      define(inst, difference.lo, difference.hi);
      return;
    }
    case Instruction::Mul: {
      Value *hi = b.CreateAdd(multiplyHigh(b, x.lo, y.lo), b.CreateAdd(b.CreateMul(x.lo, y.hi), b.CreateMul(x.hi, y.lo)));
      define(inst, b.CreateMul(x.lo, y.lo), clearAbove(b, hi, bits));
      return;
    }
    case Instruction::And: define(inst, b.CreateAnd(x.lo, y.lo), b.CreateAnd(x.hi, y.hi)); return;
    case Instruction::Or: define(inst, b.CreateOr(x.lo, y.lo), b.CreateOr(x.hi, y.hi)); return;
    case Instruction::Xor: define(inst, b.CreateXor(x.lo, y.lo), b.CreateXor(x.hi, y.hi)); return;
    case Instruction::Shl:
    case Instruction::LShr:
    case Instruction::AShr: {
      const Halves shifted = shift(b, inst.getOpcode(), x, y.lo, bits);
      define(inst, shifted.lo, shifted.hi);
      return;
    }
    default: fail(inst, "divides"); return;
    }
  }

  void intrinsic(IntrinsicInst &call, unsigned bits) {
    Builder b(call.getContext(), InstSimplifyFolder(fn_.getDataLayout()));
    b.SetInsertPoint(&call);
    switch (call.getIntrinsicID()) {
    case Intrinsic::umin:
    case Intrinsic::umax:
    case Intrinsic::smin:
    case Intrinsic::smax: {
      const Halves x = get(call.getArgOperand(0)), y = get(call.getArgOperand(1));
      // x < y for min, x > y for max
      Value *first = compare(b, MinMaxIntrinsic::getPredicate(call.getIntrinsicID()), x, y, bits);
      define(call, b.CreateSelect(first, x.lo, y.lo), b.CreateSelect(first, x.hi, y.hi));
      return;
    }
    case Intrinsic::abs: {
      const Halves x = get(call.getArgOperand(0));
      const Halves negated = subtract(b, {constant(0), constant(0)}, x, bits);
      Value *negative = b.CreateICmpSLT(signExtended(b, x.hi, bits), constant(0));
      define(call, b.CreateSelect(negative, negated.lo, x.lo), b.CreateSelect(negative, negated.hi, x.hi));
      return;
    }
    case Intrinsic::ctpop: {
      const Halves x = get(call.getArgOperand(0));
      define(call, b.CreateAdd(b.CreateUnaryIntrinsic(Intrinsic::ctpop, x.lo), b.CreateUnaryIntrinsic(Intrinsic::ctpop, x.hi)),
             constant(0));
      return;
    }
    case Intrinsic::ctlz: {  // of the zero-extended 128 bits, less the bits above the width
      const Halves x = get(call.getArgOperand(0));
      Value *inHi = b.CreateBinaryIntrinsic(Intrinsic::ctlz, x.hi, b.getFalse());
      Value *inLo = b.CreateAdd(b.CreateBinaryIntrinsic(Intrinsic::ctlz, x.lo, b.getFalse()), constant(64));
      Value *count = b.CreateSelect(b.CreateICmpNE(x.hi, constant(0)), inHi, inLo);
      define(call, b.CreateSub(count, constant(kMostBits - bits)), constant(0));
      return;
    }
    case Intrinsic::cttz: {  // a zero value has `bits` trailing zeros, not 128
      const Halves x = get(call.getArgOperand(0));
      Value *inLo = b.CreateBinaryIntrinsic(Intrinsic::cttz, x.lo, b.getFalse());
      Value *inHi = b.CreateAdd(b.CreateBinaryIntrinsic(Intrinsic::cttz, x.hi, b.getFalse()), constant(64));
      Value *count = b.CreateSelect(b.CreateICmpNE(x.lo, constant(0)), inLo, inHi);
      define(call, b.CreateBinaryIntrinsic(Intrinsic::umin, count, constant(bits)), constant(0));
      return;
    }
    default: fail(call, std::string("calls ") + call.getCalledFunction()->getName().str() + " on"); return;
    }
  }

  // A wide value in memory: its low half first (SPIR-V devices are
  // little-endian), then the bytes of its store size (LLVM: an i65 stores 9
  // bytes), so the high half of an i128 whole and of narrower ones byte by
  // byte.
  Value *highByte(IRBuilderBase &b, Value *address, unsigned index) {
    return b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), address, 8 + index);
  }
  static unsigned highBytes(unsigned bits) { return (bits - 64 + 7) / 8; }

  Value *loadHighHalf(IRBuilderBase &b, Value *address, Align align, unsigned bits) {
    if (bits == kMostBits) return b.CreateAlignedLoad(i64(), highByte(b, address, 0), commonAlignment(align, 8));
    Value *hi = constant(0);
    for (unsigned i = 0; i < highBytes(bits); ++i) {
      Value *byte = b.CreateAlignedLoad(b.getInt8Ty(), highByte(b, address, i), commonAlignment(align, 8 + i));
      hi = b.CreateOr(hi, b.CreateShl(b.CreateZExt(byte, i64()), 8 * i));
    }
    return hi;
  }

  void storeHighHalf(IRBuilderBase &b, Value *hi, Value *address, Align align, unsigned bits) {
    if (bits == kMostBits) {
      b.CreateAlignedStore(hi, highByte(b, address, 0), commonAlignment(align, 8));
      return;
    }
    for (unsigned i = 0; i < highBytes(bits); ++i)
      b.CreateAlignedStore(b.CreateTrunc(b.CreateLShr(hi, 8 * i), b.getInt8Ty()), highByte(b, address, i),
                           commonAlignment(align, 8 + i));
  }

  void split(Instruction &inst) {
    Builder b(inst.getContext(), InstSimplifyFolder(fn_.getDataLayout()));
    b.SetInsertPoint(&inst);
    const unsigned bits = wideBits(inst.getType());
    if (isa<VectorType>(inst.getType()) && holdsWideIntegers(inst.getType()) && !isa<BitCastInst>(inst))
      return fail(inst, "computes with vectors of");
    if (auto *op = dyn_cast<BinaryOperator>(&inst); op && bits) return binary(*op, bits);
    if (auto *call = dyn_cast<IntrinsicInst>(&inst); call && bits) return intrinsic(*call, bits);
    switch (inst.getOpcode()) {
    case Instruction::ICmp: {
      auto &cmp = cast<ICmpInst>(inst);
      const unsigned operandBits = wideBits(cmp.getOperand(0)->getType());
      if (!operandBits) return fail(inst, "compares vectors of");
      inst.replaceAllUsesWith(
          compare(b, cmp.getPredicate(), get(cmp.getOperand(0)), get(cmp.getOperand(1)), operandBits));
      return;
    }
    case Instruction::Select: {
      if (!bits || inst.getOperand(0)->getType()->isVectorTy()) return fail(inst, "selects vectors of");
      const Halves x = get(inst.getOperand(1)), y = get(inst.getOperand(2));
      define(inst, b.CreateSelect(inst.getOperand(0), x.lo, y.lo), b.CreateSelect(inst.getOperand(0), x.hi, y.hi));
      return;
    }
    case Instruction::PHI: {
      auto &phi = cast<PHINode>(inst);
      PHINode *lo = b.CreatePHI(i64(), phi.getNumIncomingValues());
      PHINode *hi = b.CreatePHI(i64(), phi.getNumIncomingValues());
      define(inst, lo, hi);
      phis_.push_back({&phi, {lo, hi}});
      return;
    }
    case Instruction::Freeze: {
      const Halves x = get(inst.getOperand(0));
      define(inst, b.CreateFreeze(x.lo), b.CreateFreeze(x.hi));
      return;
    }
    case Instruction::ZExt:
    case Instruction::SExt: {
      Value *source = inst.getOperand(0);
      const bool sign = inst.getOpcode() == Instruction::SExt;
      if (const unsigned sourceBits = wideBits(source->getType())) {
        const Halves x = get(source);
        define(inst, x.lo, sign ? clearAbove(b, signExtended(b, x.hi, sourceBits), bits) : x.hi);
        return;
      }
      Value *lo = sign ? b.CreateSExt(source, i64()) : b.CreateZExt(source, i64());
      define(inst, lo, sign ? clearAbove(b, b.CreateAShr(lo, 63), bits) : constant(0));
      return;
    }
    case Instruction::Trunc: {
      const Halves x = get(inst.getOperand(0));
      if (bits) return define(inst, x.lo, clearAbove(b, x.hi, bits));
      inst.replaceAllUsesWith(b.CreateTrunc(x.lo, inst.getType()));
      return;
    }
    case Instruction::Load: {
      auto &load = cast<LoadInst>(inst);
      if (!bits || !load.isSimple()) return fail(inst, "loads");
      Value *lo = b.CreateAlignedLoad(i64(), load.getPointerOperand(), load.getAlign());
      define(inst, lo, clearAbove(b, loadHighHalf(b, load.getPointerOperand(), load.getAlign(), bits), bits));
      return;
    }
    case Instruction::Store: {
      auto &store = cast<StoreInst>(inst);
      const unsigned storedBits = wideBits(store.getValueOperand()->getType());
      if (!storedBits || !store.isSimple()) return fail(inst, "stores");
      const Halves x = get(store.getValueOperand());
      b.CreateAlignedStore(x.lo, store.getPointerOperand(), store.getAlign());
      storeHighHalf(b, x.hi, store.getPointerOperand(), store.getAlign(), storedBits);
      return;
    }
    case Instruction::BitCast: {  // to or from 128 bits of another type: through <2 x i64>
      auto *pair = FixedVectorType::get(i64(), 2);
      Value *source = inst.getOperand(0);
      if (wideBits(source->getType()) == kMostBits && inst.getType()->isVectorTy()) {
        const Halves x = get(source);
        Value *vector = b.CreateInsertElement(b.CreateInsertElement(PoisonValue::get(pair), x.lo, uint64_t(0)), x.hi,
                                              uint64_t(1));
        inst.replaceAllUsesWith(b.CreateBitCast(vector, inst.getType()));
        return;
      }
      if (bits == kMostBits && source->getType()->isVectorTy() && !holdsWideIntegers(source->getType())) {
        Value *vector = b.CreateBitCast(source, pair);
        define(inst, b.CreateExtractElement(vector, uint64_t(0)), b.CreateExtractElement(vector, uint64_t(1)));
        return;
      }
      return fail(inst, "reinterprets");
    }
    case Instruction::UIToFP:
    case Instruction::SIToFP:
    case Instruction::FPToUI:
    case Instruction::FPToSI: return fail(inst, "converts between floating point and");
    case Instruction::Call: return fail(inst, "passes or returns");
    default: return fail(inst, std::string("computes (") + inst.getOpcodeName() + ") with");
    }
  }

  Function &fn_;
  StringRef kernelName_;
  DenseMap<Value *, Halves> halves_;
  std::vector<std::pair<PHINode *, Halves>> phis_;
  std::string failure_;
};

}  // namespace

bool typeHoldsWideIntegers(Type *type) {
  if (auto *integer = dyn_cast<IntegerType>(type)) return integer->getBitWidth() > 64;
  if (auto *vector = dyn_cast<VectorType>(type)) return typeHoldsWideIntegers(vector->getElementType());
  if (auto *array = dyn_cast<ArrayType>(type)) return typeHoldsWideIntegers(array->getElementType());
  if (auto *function = dyn_cast<FunctionType>(type))
    return any_of(function->subtypes(), [](Type *part) { return typeHoldsWideIntegers(part); });
  if (auto *structure = dyn_cast<StructType>(type))
    return any_of(structure->elements(), [](Type *part) { return typeHoldsWideIntegers(part); });
  return false;
}

Error splitWideIntegers(Module &module, StringRef kernelName) {
  for (Function &fn : module)
    if (!fn.isDeclaration())
      if (Error err = WideIntegerSplitter(fn, kernelName).run()) return err;
  // The intrinsics' declarations the split made unused (llvm.ctpop.i128...).
  for (Function &fn : make_early_inc_range(module.functions()))
    if (fn.isDeclaration() && fn.use_empty() && typeHoldsWideIntegers(fn.getFunctionType())) fn.eraseFromParent();
  return Error::success();
}

}  // namespace onepass::jit::spirv
