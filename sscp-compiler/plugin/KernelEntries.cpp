#include "KernelEntries.h"
#include "LayoutAnnotation.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace onepass::sscp {

std::vector<KernelEntry> findKernelEntries(Module &module) {
  std::vector<KernelEntry> entries;
  GlobalVariable *annotations = module.getGlobalVariable("llvm.global.annotations");
  if (!annotations || !annotations->hasInitializer()) return entries;
  auto *array = dyn_cast<ConstantArray>(annotations->getInitializer());
  if (!array) return entries;

  std::map<Function *, size_t> index;
  for (const Use &element : array->operands()) {
    auto *record = dyn_cast<ConstantStruct>(element.get());
    if (!record || record->getNumOperands() < 2) continue;
    auto *fn = dyn_cast<Function>(record->getOperand(0)->stripPointerCasts());
    StringRef text;
    if (!fn || fn->isDeclaration() || !getConstantStringInfo(record->getOperand(1), text)) continue;

    bool isKind = text.starts_with(kKernelAnnotationPrefix);
    bool isLayout = text.starts_with(kLayoutAnnotationPrefix);
    if (!isKind && !isLayout) continue;
    auto [it, inserted] = index.try_emplace(fn, entries.size());
    if (inserted) {
      entries.emplace_back();
      entries.back().function = fn;
    }
    KernelEntry &entry = entries[it->second];
    if (isKind) {
      entry.kind = text.ends_with("parallel_for") ? image::KernelKind::ParallelFor
                   : text.ends_with("nd_range")   ? image::KernelKind::NdRange
                                                  : image::KernelKind::SingleTask;
    } else {
      entry.hasLayout = decodeLayout(text.str(), entry.layout);
    }
  }
  return entries;
}

std::vector<Function *> findSyclExternalDefinitions(Module &module) {
  std::vector<Function *> found;
  GlobalVariable *annotations = module.getGlobalVariable("llvm.global.annotations");
  if (!annotations || !annotations->hasInitializer()) return found;
  auto *array = dyn_cast<ConstantArray>(annotations->getInitializer());
  if (!array) return found;
  for (const Use &element : array->operands()) {
    auto *record = dyn_cast<ConstantStruct>(element.get());
    if (!record || record->getNumOperands() < 2) continue;
    auto *fn = dyn_cast<Function>(record->getOperand(0)->stripPointerCasts());
    StringRef text;
    if (!fn || fn->isDeclaration() || !getConstantStringInfo(record->getOperand(1), text)) continue;
    if (text == kSyclExternalAnnotation && std::find(found.begin(), found.end(), fn) == found.end())
      found.push_back(fn);
  }
  return found;
}

}  // namespace onepass::sscp
