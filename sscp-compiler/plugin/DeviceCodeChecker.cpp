#include "DeviceCodeChecker.h"
#include "sycl/detail/onepass_abi.hpp"

#include "Diagnostics.h"
#include "LayoutAnnotation.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <optional>
#include <set>
#include <vector>

using namespace clang;

namespace onepass::sscp {

bool isSyclExternal(const FunctionDecl &fn) {
  for (const FunctionDecl *redecl : fn.redecls())
    for (const auto *annotation : redecl->specific_attrs<AnnotateAttr>())
      if (annotation->getAnnotation() == kSyclExternalAnnotation) return true;
  return false;
}

namespace {

bool isOnePassBuiltin(const FunctionDecl &fn) {
  const IdentifierInfo *id = fn.getIdentifier();
  return id && id->getName().starts_with(ONEPASS_ABI_PREFIX);
}

// Visits one function body and queues the functions it calls.
class BodyVisitor : public RecursiveASTVisitor<BodyVisitor> {
public:
  BodyVisitor(ASTContext &ctx, Diagnostics &diags, std::vector<const FunctionDecl *> &queue, unsigned &errors)
      : ctx_(ctx), diags_(diags), queue_(queue), errors_(errors) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  // Code that generates nothing is not device code: types (decltype), the
  // operands of sizeof/alignof/noexcept, and discarded `if constexpr` branches.
  bool TraverseType(QualType, bool = true) { return true; }
  bool TraverseTypeLoc(TypeLoc, bool = true) { return true; }
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *, DataRecursionQueue * = nullptr) { return true; }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *, DataRecursionQueue * = nullptr) { return true; }
  bool TraverseIfStmt(IfStmt *s, DataRecursionQueue *queue = nullptr) {
    if (!s->isConstexpr()) return RecursiveASTVisitor::TraverseIfStmt(s, queue);
    if (s->getInit()) TraverseStmt(s->getInit());
    if (std::optional<Stmt *> taken = s->getNondiscardedCase(ctx_))
      if (*taken) TraverseStmt(*taken);
    return true;
  }

  // A function whose address is taken may be called through the pointer.
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    if (const auto *fn = dyn_cast<FunctionDecl>(ref->getDecl()))
      if (!isDirectCallee(ref)) use(*fn, ref->getLocation());
    return true;
  }

  bool VisitCXXThrowExpr(CXXThrowExpr *e) {
    diags_.throwInKernel(e->getThrowLoc());
    ++errors_;
    return true;
  }
  bool VisitCXXTryStmt(CXXTryStmt *s) {
    diags_.tryInKernel(s->getTryLoc());
    ++errors_;
    return true;
  }
  bool VisitCXXTypeidExpr(CXXTypeidExpr *e) {
    diags_.rttiInKernel(e->getBeginLoc(), "typeid");
    ++errors_;
    return true;
  }
  bool VisitCXXDynamicCastExpr(CXXDynamicCastExpr *e) {
    diags_.rttiInKernel(e->getBeginLoc(), "dynamic_cast");
    ++errors_;
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr *e) {
    // Placement new of the reserved global form allocates nothing.
    if (!e->getOperatorNew() || !e->getOperatorNew()->isReservedGlobalPlacementOperator()) {
      diags_.allocationInKernel(e->getBeginLoc(), "new");
      ++errors_;
    }
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *e) {
    diags_.allocationInKernel(e->getBeginLoc(), "delete");
    ++errors_;
    return true;
  }

  bool VisitCallExpr(CallExpr *call) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee) return true;  // indirect calls are checked by the function they reach
    directCallees_.insert(call->getCallee()->IgnoreParenImpCasts());
    if (isVirtualDispatch(*call)) {
      diags_.virtualCallInKernel(call->getExprLoc(), callee->getQualifiedNameAsString());
      ++errors_;
      return true;
    }
    use(*callee, call->getExprLoc());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *e) {
    use(*e->getConstructor(), e->getBeginLoc());
    return true;
  }
  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *e) {
    if (const CXXDestructorDecl *dtor = e->getTemporary()->getDestructor()) use(*dtor, e->getBeginLoc());
    return true;
  }
  bool VisitVarDecl(VarDecl *var) {
    if (const CXXRecordDecl *record = var->getType()->getAsCXXRecordDecl())
      if (record->hasDefinition() && !record->hasTrivialDestructor())
        if (const CXXDestructorDecl *dtor = record->getDestructor()) use(*dtor, var->getLocation());
    return true;
  }

private:
  // Member calls (a.f(), p->f()) and operator calls (a(x), *p + 1) dispatch
  // through the vtable unless the callee is final, the call is qualified
  // (Base::f()), or the object is a complete object of known type.
  static bool isVirtualDispatch(const CallExpr &call) {
    const auto *method = dyn_cast_or_null<CXXMethodDecl>(call.getDirectCallee());
    if (!method || !method->isVirtual()) return false;
    if (method->hasAttr<FinalAttr>() || method->getParent()->hasAttr<FinalAttr>()) return false;
    const Expr *object = nullptr;
    if (const auto *member = dyn_cast<CXXMemberCallExpr>(&call)) {
      if (const auto *callee = dyn_cast<MemberExpr>(member->getCallee()->IgnoreParens()))
        if (callee->hasQualifier()) return false;  // Base::f() is a direct call
      object = member->getImplicitObjectArgument();
    } else if (const auto *op = dyn_cast<CXXOperatorCallExpr>(&call)) {
      object = op->getNumArgs() > 0 ? op->getArg(0) : nullptr;
    }
    if (!object) return true;
    if (const auto *ref = dyn_cast<DeclRefExpr>(object->IgnoreParenImpCasts()))
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        if (!var->getType()->isReferenceType() && var->getType()->isRecordType()) return false;
    return true;
  }

  bool isDirectCallee(const DeclRefExpr *ref) const { return directCallees_.count(ref) != 0; }

  void use(const FunctionDecl &fn, SourceLocation loc) {
    if (fn.getBuiltinID() != 0 || isOnePassBuiltin(fn)) return;
    if (fn.isTrivial() && !fn.hasBody()) return;
    const FunctionDecl *definition = nullptr;
    if (fn.isDefined(definition) && definition->hasBody()) {
      queue_.push_back(definition);
      return;
    }
    if (isa<CXXMethodDecl>(fn) && fn.isDefaulted()) return;  // implicitly defined when emitted
    if (isSyclExternal(fn)) return;
    diags_.undefinedFunctionInKernel(loc, fn.getQualifiedNameAsString());
    ++errors_;
  }

  ASTContext &ctx_;
  Diagnostics &diags_;
  std::vector<const FunctionDecl *> &queue_;
  unsigned &errors_;
  // Callee expressions of calls seen so far: a reference to a function that is
  // not one of them takes the function's address. (Calls are visited before
  // their callee expression, see RecursiveASTVisitor's pre-order.)
  std::set<const Expr *> directCallees_;
};

}  // namespace

bool DeviceCodeChecker::checkKernel(const FunctionDecl &entry) {
  std::vector<const FunctionDecl *> queue{&entry};
  unsigned errors = 0;
  BodyVisitor visitor(ctx_, diags_, queue, errors);
  while (!queue.empty()) {
    const FunctionDecl *fn = queue.back();
    queue.pop_back();
    if (!checked_.insert(fn).second) continue;
    visitor.TraverseDecl(const_cast<FunctionDecl *>(fn));
  }
  return errors == 0;
}

}  // namespace onepass::sscp
