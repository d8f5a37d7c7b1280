#include "KernelEntries.h"
#include "LayoutAnnotation.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace onepass::sscp {

namespace {

// Calls `visit(function, text)` for every annotation of a defined function in
// the module's llvm.global.annotations, in order.
void forEachFunctionAnnotation(Module &module, function_ref<void(Function &, StringRef)> visit) {
  GlobalVariable *annotations = module.getGlobalVariable("llvm.global.annotations");
  if (!annotations || !annotations->hasInitializer()) return;
  auto *array = dyn_cast<ConstantArray>(annotations->getInitializer());
  if (!array) return;
  for (const Use &element : array->operands()) {
    auto *record = dyn_cast<ConstantStruct>(element.get());
    if (!record || record->getNumOperands() < 2) continue;
    auto *fn = dyn_cast<Function>(record->getOperand(0)->stripPointerCasts());
    StringRef text;
    if (!fn || fn->isDeclaration() || !getConstantStringInfo(record->getOperand(1), text)) continue;
    visit(*fn, text);
  }
}

}  // namespace

std::vector<KernelEntry> findKernelEntries(Module &module) {
  std::vector<KernelEntry> entries;
  std::map<Function *, size_t> index;
  forEachFunctionAnnotation(module, [&](Function &fn, StringRef text) {
    bool isKind = text.starts_with(kKernelAnnotationPrefix);
    bool isLayout = text.starts_with(kLayoutAnnotationPrefix);
    if (!isKind && !isLayout) return;
    auto [it, inserted] = index.try_emplace(&fn, entries.size());
    if (inserted) {
      entries.emplace_back();
      entries.back().function = &fn;
    }
    KernelEntry &entry = entries[it->second];
    if (isKind) {
      entry.kind = text.ends_with("parallel_for") ? image::KernelKind::ParallelFor
                   : text.ends_with("nd_range")   ? image::KernelKind::NdRange
                                                  : image::KernelKind::SingleTask;
    } else {
      entry.hasLayout = decodeLayout(text.str(), entry.layout);
    }
  });
  return entries;
}

std::vector<Function *> findSyclExternalDefinitions(Module &module) {
  std::vector<Function *> found;
  forEachFunctionAnnotation(module, [&](Function &fn, StringRef text) {
    if (text == kSyclExternalAnnotation && std::find(found.begin(), found.end(), &fn) == found.end())
      found.push_back(&fn);
  });
  return found;
}

}  // namespace onepass::sscp
