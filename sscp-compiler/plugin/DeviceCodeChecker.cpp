#include "DeviceCodeChecker.h"

#include "Diagnostics.h"
#include "LayoutAnnotation.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <vector>

using namespace clang;

namespace onepass::sscp {

namespace {

bool isSyclExternal(const FunctionDecl &fn) {
  for (const FunctionDecl *redecl : fn.redecls())
    for (const auto *annotation : redecl->specific_attrs<AnnotateAttr>())
      if (annotation->getAnnotation() == kSyclExternalAnnotation) return true;
  return false;
}

bool isOnePassBuiltin(const FunctionDecl &fn) {
  const IdentifierInfo *id = fn.getIdentifier();
  return id && id->getName().starts_with("__onepass_");
}

// Visits one function body and queues the functions it calls.
class BodyVisitor : public RecursiveASTVisitor<BodyVisitor> {
public:
  BodyVisitor(Diagnostics &diags, std::vector<const FunctionDecl *> &queue, unsigned &errors)
      : diags_(diags), queue_(queue), errors_(errors) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

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
    if (const auto *member = dyn_cast<CXXMemberCallExpr>(call))
      if (isVirtualDispatch(*member)) {
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
  static bool isVirtualDispatch(const CXXMemberCallExpr &call) {
    const CXXMethodDecl *method = call.getMethodDecl();
    if (!method || !method->isVirtual()) return false;
    if (const auto *member = dyn_cast<MemberExpr>(call.getCallee()->IgnoreParens()))
      if (member->hasQualifier()) return false;  // Base::f() is a direct call
    if (method->hasAttr<FinalAttr>() || method->getParent()->hasAttr<FinalAttr>()) return false;
    return true;
  }

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

  Diagnostics &diags_;
  std::vector<const FunctionDecl *> &queue_;
  unsigned &errors_;
};

}  // namespace

bool DeviceCodeChecker::checkKernel(const FunctionDecl &entry, SourceLocation kernelLoc,
                                    const std::string &kernelName) {
  std::vector<const FunctionDecl *> queue{&entry};
  unsigned errors = 0;
  BodyVisitor visitor(diags_, queue, errors);
  while (!queue.empty()) {
    const FunctionDecl *fn = queue.back();
    queue.pop_back();
    if (!checked_.insert(fn).second) continue;
    visitor.TraverseDecl(const_cast<FunctionDecl *>(fn));
  }
  if (errors > 0) diags_.calledFromKernel(kernelLoc, kernelName);
  return errors == 0;
}

}  // namespace onepass::sscp
