// The frontend half of the OnePass clang plugin. It runs in the same clang
// invocation as code generation (AddBeforeMainAction): once the translation
// unit is complete, it finds every instantiation of a kernel entry template,
// records the kernel's parameter layout as an annotation for the stage-1 pass,
// and checks the kernel's reachable code for constructs device code may not use.
#include "DeviceCodeChecker.h"
#include "Diagnostics.h"
#include "KernelAttributes.h"
#include "KernelLayoutBuilder.h"
#include "LayoutAnnotation.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

#include <set>

using namespace clang;

namespace onepass::sscp {

namespace {

// Returns the kernel kind annotation ("onepass.kernel.<kind>") of `fn`, if any.
const AnnotateAttr *kernelAnnotation(const FunctionDecl &fn) {
  for (const auto *annotation : fn.specific_attrs<AnnotateAttr>())
    if (annotation->getAnnotation().starts_with(kKernelAnnotationPrefix)) return annotation;
  return nullptr;
}

bool hasLayoutAnnotation(const FunctionDecl &fn) {
  for (const auto *annotation : fn.specific_attrs<AnnotateAttr>())
    if (annotation->getAnnotation().starts_with(kLayoutAnnotationPrefix)) return true;
  return false;
}

// The kernel entry templates live in sycl::detail; look them up by name
// rather than walking the whole AST, which would cost compile time.
std::vector<FunctionTemplateDecl *> findEntryTemplates(ASTContext &ctx) {
  std::vector<FunctionTemplateDecl *> result;
  auto lookupNamespace = [&](DeclContext *parent, const char *name) -> DeclContext * {
    for (NamedDecl *decl : parent->lookup(&ctx.Idents.get(name)))
      if (auto *ns = dyn_cast<NamespaceDecl>(decl)) return ns;
    return nullptr;
  };
  DeclContext *sycl = lookupNamespace(ctx.getTranslationUnitDecl(), "sycl");
  DeclContext *detail = sycl ? lookupNamespace(sycl, "detail") : nullptr;
  if (!detail) return result;
  for (const char *name : {"kernel_entry_single_task", "kernel_entry_parallel_for", "kernel_entry_nd_range"})
    for (NamedDecl *decl : detail->lookup(&ctx.Idents.get(name)))
      if (auto *tmpl = dyn_cast<FunctionTemplateDecl>(decl))
        if (kernelAnnotation(*tmpl->getTemplatedDecl())) result.push_back(tmpl);
  return result;
}

// The user's kernel inside the wrappers the headers launch it in (their
// first template argument): sycl::detail::work_group_kernel<K, D> for
// parallel_for_work_group (`hierarchical`), kernel_with_handler<K> for a
// kernel taking a kernel_handler, offset_kernel<K, D> for a range with an
// offset. Its attributes are written on K.
const CXXRecordDecl &userKernel(const CXXRecordDecl &kernel, bool &hierarchical) {
  const CXXRecordDecl *current = &kernel;
  for (;;) {
    const auto *wrapper = dyn_cast<ClassTemplateSpecializationDecl>(current);
    if (!wrapper) return *current;
    const StringRef name = wrapper->getName();
    if (name != "work_group_kernel" && name != "kernel_with_handler" && name != "offset_kernel") return *current;
    const auto *detail = dyn_cast<NamespaceDecl>(wrapper->getDeclContext());
    const auto *sycl = detail ? dyn_cast<NamespaceDecl>(detail->getDeclContext()) : nullptr;
    if (!sycl || detail->getName() != "detail" || sycl->getName() != "sycl") return *current;
    const TemplateArgumentList &arguments = wrapper->getTemplateArgs();
    if (arguments.size() < 1 || arguments[0].getKind() != TemplateArgument::Type) return *current;
    const CXXRecordDecl *inner = arguments[0].getAsType()->getAsCXXRecordDecl();
    if (!inner) return *current;
    hierarchical |= name == "work_group_kernel";
    current = inner;
  }
}

class KernelConsumer : public ASTConsumer {
public:
  KernelConsumer(CompilerInstance &ci, const KernelAttributeRecorder &attributes) : ci_(ci), attributes_(attributes) {}

  // The SYCL_EXTERNAL definitions at namespace scope, as they are parsed (no
  // walk of the whole AST later): device code, checked like a kernel's.
  bool HandleTopLevelDecl(DeclGroupRef group) override {
    for (Decl *decl : group) collectSyclExternal(decl);
    return true;
  }

  void HandleTranslationUnit(ASTContext &ctx) override {
    if (ci_.getDiagnostics().hasErrorOccurred()) return;
    Diagnostics diags(ci_.getDiagnostics());
    DeviceCodeChecker checker(ctx, diags);
    std::set<unsigned> usedAttributes;
    for (FunctionTemplateDecl *tmpl : findEntryTemplates(ctx)) {
      const bool singleTask = tmpl->getName() == "kernel_entry_single_task";
      for (FunctionDecl *entry : tmpl->specializations()) {
        const FunctionDecl *definition = nullptr;
        if (!entry->isDefined(definition) || !definition->hasBody() || hasLayoutAnnotation(*entry)) continue;
        const CXXRecordDecl *kernel = kernelObjectType(*entry);
        if (!kernel) continue;  // not an entry of the expected shape `void(const Kernel *)`
        KernelLayout layout;
        bool layoutOk = buildKernelLayout(ctx, diags, *entry, layout);
        KernelAttributes attributes;
        bool hierarchical = false;
        const CXXRecordDecl &written = userKernel(*kernel, hierarchical);
        layout.hierarchical = hierarchical;
        layoutOk &= readKernelAttributes(ctx, diags, attributes_, written, singleTask ? 0 : layout.dimensions,
                                         attributes, usedAttributes);
        std::copy(attributes.workGroupSize, attributes.workGroupSize + 3, layout.reqdWorkGroupSize);
        layout.reqdSubGroupSize = attributes.subGroupSize;
        layout.deviceHas = attributes.deviceHas;
        layout.requiredAspects = attributes.aspects;
        bool codeOk = checker.checkKernel(*definition);
        if (!layoutOk || !codeOk) {
          diags.calledFromKernel(kernel->getLocation(), layout.displayName);
          continue;
        }
        // Attach the layout to the instantiation; codegen emits the
        // annotation with the function, after this consumer has run.
        const_cast<FunctionDecl *>(definition)
            ->addAttr(AnnotateAttr::CreateImplicit(ctx, encodeLayout(layout), nullptr, 0));
      }
    }
    for (const FunctionDecl *external : syclExternal_)
      if (!checker.checkKernel(*external)) diags.inSyclExternal(external->getLocation(), external->getQualifiedNameAsString());
    warnUnusedKernelAttributes(ctx, diags, attributes_, usedAttributes);
  }

private:
  void collectSyclExternal(Decl *decl) {
    if (auto *fn = dyn_cast<FunctionDecl>(decl)) {
      if (fn->doesThisDeclarationHaveABody() && !fn->isDependentContext() && isSyclExternal(*fn))
        syclExternal_.push_back(fn);
    } else if (auto *ns = dyn_cast<NamespaceDecl>(decl)) {
      for (Decl *inner : ns->decls()) collectSyclExternal(inner);
    } else if (auto *linkage = dyn_cast<LinkageSpecDecl>(decl)) {
      for (Decl *inner : linkage->decls()) collectSyclExternal(inner);
    }
  }

  std::vector<const FunctionDecl *> syclExternal_;
  CompilerInstance &ci_;
  const KernelAttributeRecorder &attributes_;
};

class KernelFrontendAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) override {
    // Before parsing: the sycl:: kernel attributes are unknown to clang, and
    // this keeps its warnings about them (KernelAttributes.h). The engine
    // owns it.
    auto *attributes = new KernelAttributeRecorder(ci.getDiagnostics());
    if (ci.hasPreprocessor()) attributes->setPreprocessor(ci.getPreprocessor());
    return std::make_unique<KernelConsumer>(ci, *attributes);
  }
  bool ParseArgs(const CompilerInstance &, const std::vector<std::string> &) override { return true; }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

}  // namespace

}  // namespace onepass::sscp

static clang::FrontendPluginRegistry::Add<onepass::sscp::KernelFrontendAction>
    registerFrontend("onepass-sscp", "OnePass SYCL single-pass kernel frontend");
