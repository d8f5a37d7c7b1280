#include "GenericAddressSpace.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <map>

using namespace llvm;

namespace onepass::jit::spirv {

namespace {

// Private pointer types to generic ones, through aggregates and functions.
class GenericTypes final : public ValueMapTypeRemapper {
public:
  explicit GenericTypes(LLVMContext &ctx) : ctx_(ctx) {}

  Type *remapType(Type *type) override {
    if (auto found = mapped_.find(type); found != mapped_.end()) return found->second;
    Type *result = compute(type);
    mapped_[type] = result;
    return result;
  }

private:
  Type *compute(Type *type) {
    if (auto *pointer = dyn_cast<PointerType>(type))
      return pointer->getAddressSpace() == kPrivateSpace ? PointerType::get(ctx_, kGenericSpace) : type;
    if (auto *array = dyn_cast<ArrayType>(type))
      return ArrayType::get(remapType(array->getElementType()), array->getNumElements());
    if (auto *vector = dyn_cast<VectorType>(type))
      return VectorType::get(remapType(vector->getElementType()), vector->getElementCount());
    if (auto *function = dyn_cast<FunctionType>(type)) {
      std::vector<Type *> params;
      for (Type *param : function->params()) params.push_back(remapType(param));
      return FunctionType::get(remapType(function->getReturnType()), params, function->isVarArg());
    }
    if (auto *structure = dyn_cast<StructType>(type)) {
      if (structure->isOpaque()) return type;
      std::vector<Type *> elements;
      bool changed = false;
      for (Type *element : structure->elements()) {
        elements.push_back(remapType(element));
        changed |= elements.back() != element;
      }
      if (!changed) return type;
      if (structure->isLiteral()) return StructType::get(ctx_, elements, structure->isPacked());
      // (Opaque pointers: a struct cannot contain itself, so no cycle.)
      return StructType::create(ctx_, elements, (structure->getName() + ".generic").str(), structure->isPacked());
    }
    return type;
  }

  LLVMContext &ctx_;
  std::map<Type *, Type *> mapped_;
};

// Attributes that carry a type (byval(T), sret(T), elementtype(T), ...).
AttributeList remapTypeAttributes(LLVMContext &ctx, AttributeList list, GenericTypes &types) {
  static const Attribute::AttrKind kinds[] = {Attribute::ByVal,       Attribute::StructRet, Attribute::ByRef,
                                              Attribute::InAlloca,    Attribute::Preallocated,
                                              Attribute::ElementType};
  for (unsigned index : list.indexes())
    for (Attribute::AttrKind kind : kinds)
      if (Type *type = list.getAttributeAtIndex(index, kind).getValueAsType())
        list = list.replaceAttributeTypeAtIndex(ctx, index, kind, types.remapType(type));
  return list;
}

// The intrinsic `old` overloaded on the new types, or an error.
Expected<Function *> remappedIntrinsic(Module &module, Function &old, FunctionType *type) {
  const Intrinsic::ID id = old.getIntrinsicID();
  SmallVector<Intrinsic::IITDescriptor, 8> table;
  Intrinsic::getIntrinsicInfoTableEntries(id, table);
  ArrayRef<Intrinsic::IITDescriptor> rest = table;
  SmallVector<Type *, 4> overloads;
  if (Intrinsic::matchIntrinsicSignature(type, rest, overloads) != Intrinsic::MatchIntrinsicTypes_Match)
    return createStringError(inconvertibleErrorCode(), "internal error: the intrinsic '" + old.getName().str() +
                                                           "' has no form with generic pointers for SPIR-V");
  return Intrinsic::getOrInsertDeclaration(&module, id, overloads);
}

// Allocas stay private: the remapper made them generic; each gets a cast to
// generic for its uses. (Lifetime markers must name an alloca, not a cast:
// they go, being only hints.)
void keepAllocasPrivate(Function &fn) {
  LLVMContext &ctx = fn.getContext();
  std::vector<AllocaInst *> allocas;
  for (Instruction &inst : instructions(fn))
    if (auto *alloca = dyn_cast<AllocaInst>(&inst); alloca && alloca->getAddressSpace() == kGenericSpace)
      allocas.push_back(alloca);
  for (AllocaInst *alloca : allocas) {
    alloca->mutateType(PointerType::get(ctx, kPrivateSpace));
    for (User *user : make_early_inc_range(alloca->users()))
      if (auto *marker = dyn_cast<IntrinsicInst>(user); marker && marker->isLifetimeStartOrEnd())
        marker->eraseFromParent();
    auto *generic = new AddrSpaceCastInst(alloca, PointerType::get(ctx, kGenericSpace), alloca->getName() + ".generic");
    generic->insertAfter(alloca->getIterator());
    alloca->replaceUsesWithIf(generic, [&](Use &use) { return use.getUser() != generic; });
  }
}

}  // namespace

Error moveToGenericAddressSpace(Module &module) {
  LLVMContext &ctx = module.getContext();
  GenericTypes types(ctx);
  ValueToValueMapTy map;
  PointerType *generic = PointerType::get(ctx, kGenericSpace);

  // Host-only lists have no meaning in a kernel (and are arrays of pointers).
  for (const char *name : {"llvm.used", "llvm.compiler.used", "llvm.global_ctors", "llvm.global_dtors"})
    if (GlobalVariable *list = module.getGlobalVariable(name)) list->eraseFromParent();

  // Global variables: private-space ones move to the global space; others
  // change only if their contents hold private pointers.
  std::vector<std::pair<GlobalVariable *, GlobalVariable *>> globals;
  for (GlobalVariable &old : module.globals()) {
    Type *valueType = types.remapType(old.getValueType());
    const bool moves = old.getAddressSpace() == kPrivateSpace;
    if (!moves && valueType == old.getValueType()) continue;
    const unsigned space = moves ? kGlobalSpace : old.getAddressSpace();
    auto *replacement = new GlobalVariable(module, valueType, old.isConstant(), old.getLinkage(), nullptr, "", nullptr,
                                           old.getThreadLocalMode(), space, old.isExternallyInitialized());
    replacement->copyAttributesFrom(&old);
    globals.emplace_back(&old, replacement);
    map[&old] = moves ? ConstantExpr::getAddrSpaceCast(replacement, generic) : static_cast<Constant *>(replacement);
  }
  for (auto &[old, replacement] : globals) replacement->takeName(old);

  // Functions: new declarations first (calls between them are mapped), then bodies.
  std::vector<std::pair<Function *, Function *>> functions;  // old, new (the same if its type stays)
  std::vector<Function *> originals;  // (the loop below adds functions to the module)
  for (Function &fn : module) originals.push_back(&fn);
  for (Function *oldFunction : originals) {
    Function &old = *oldFunction;
    auto *type = cast<FunctionType>(types.remapType(old.getFunctionType()));
    Function *replacement = &old;
    if (type != old.getFunctionType()) {
      if (old.isIntrinsic()) {
        Expected<Function *> intrinsic = remappedIntrinsic(module, old, type);
        if (!intrinsic) return intrinsic.takeError();
        replacement = *intrinsic;
      } else {
        replacement = Function::Create(type, old.getLinkage(), old.getAddressSpace(), "", &module);
        replacement->copyAttributesFrom(&old);
        replacement->setAttributes(remapTypeAttributes(ctx, old.getAttributes(), types));
      }
    }
    functions.emplace_back(&old, replacement);
    map[&old] = replacement;
  }
  for (auto &[old, replacement] : functions)
    if (replacement != old && !old->isIntrinsic()) replacement->takeName(old);

  for (auto &[old, replacement] : globals)
    if (old->hasInitializer())
      replacement->setInitializer(MapValue(old->getInitializer(), map, RF_None, &types));

  for (auto &[old, replacement] : functions) {
    if (old->isDeclaration()) continue;
    // A function that keeps its type keeps its object: its body is cloned
    // into a scratch function and moved back.
    Function *target = replacement;
    if (replacement == old)
      target = Function::Create(old->getFunctionType(), GlobalValue::InternalLinkage, old->getAddressSpace(),
                                old->getName() + ".scratch", &module);
    for (auto [from, to] : zip(old->args(), target->args())) {
      to.setName(from.getName());
      map[&from] = &to;
    }
    SmallVector<ReturnInst *, 4> returns;
    CloneFunctionInto(target, old, map, CloneFunctionChangeType::GlobalChanges, returns, "", nullptr, &types);
    target->setAttributes(remapTypeAttributes(ctx, target->getAttributes(), types));
    keepAllocasPrivate(*target);
    if (target != replacement) {
      // (deleteBody drops the function's own metadata too: kept across it.)
      SmallVector<std::pair<unsigned, MDNode *>, 4> metadata;
      old->getAllMetadata(metadata);
      old->deleteBody();
      for (const auto &[kind, node] : metadata) old->setMetadata(kind, node);
      old->splice(old->end(), target);
      for (auto [from, to] : zip(target->args(), old->args())) from.replaceAllUsesWith(&to);
      target->eraseFromParent();
    }
  }

  // The old functions and globals, now unused but by each other.
  for (auto &[old, replacement] : functions)
    if (replacement != old) old->dropAllReferences();
  for (auto &[old, replacement] : globals) old->dropAllReferences();
  for (auto &[old, replacement] : functions)
    if (replacement != old) {
      if (!old->use_empty()) old->replaceAllUsesWith(PoisonValue::get(old->getType()));
      old->eraseFromParent();
    }
  for (auto &[old, replacement] : globals) {
    if (!old->use_empty()) old->replaceAllUsesWith(PoisonValue::get(old->getType()));
    old->eraseFromParent();
  }
  return Error::success();
}

}  // namespace onepass::jit::spirv
