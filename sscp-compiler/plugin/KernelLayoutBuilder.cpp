#include "KernelLayoutBuilder.h"

#include "Diagnostics.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace onepass::sscp {

namespace {

// Large arrays and opaque bytes (unions, bit-fields) become integer chunks of
// at most 8 bytes, so every field maps to one scalar parameter on any target.
constexpr uint64_t kMaxArrayElementsFlattened = 64;

class LayoutFlattener {
public:
  LayoutFlattener(ASTContext &ctx, Diagnostics &diags) : ctx_(ctx), diags_(diags) {}

  // `what` names the capture for diagnostics; `loc` is where it is declared.
  bool flatten(QualType type, uint64_t offset, const std::string &what, SourceLocation loc) {
    type = type.getCanonicalType();
    const uint64_t size = ctx_.getTypeSizeInChars(type).getQuantity();
    if (type->isReferenceType()) {
      diags_.captureByReference(loc, what);
      return false;
    }
    if (type->isPointerType()) return add(offset, size, image::FieldKind::Pointer);
    if (type->isIntegralOrEnumerationType()) return addBytes(offset, size);
    if (type->isRealFloatingType()) {
      if (size != 2 && size != 4 && size != 8)
        return reject(loc, what, type, "this floating-point type has no device representation");
      return add(offset, size, image::FieldKind::Float);
    }
    if (const auto *complex = type->getAs<ComplexType>()) {
      uint64_t half = size / 2;
      return flatten(complex->getElementType(), offset, what, loc) &&
             flatten(complex->getElementType(), offset + half, what, loc);
    }
    if (const auto *vector = type->getAs<VectorType>()) {
      QualType element = vector->getElementType();
      uint64_t elementSize = ctx_.getTypeSizeInChars(element).getQuantity();
      for (unsigned i = 0; i < vector->getNumElements(); ++i)
        if (!flatten(element, offset + i * elementSize, what, loc)) return false;
      return true;
    }
    if (const auto *array = ctx_.getAsConstantArrayType(type)) {
      QualType element = array->getElementType();
      uint64_t count = array->getSize().getZExtValue();
      uint64_t elementSize = ctx_.getTypeSizeInChars(element).getQuantity();
      if (count > kMaxArrayElementsFlattened && element->isScalarType() && !element->isPointerType())
        return addBytes(offset, size);
      for (uint64_t i = 0; i < count; ++i)
        if (!flatten(element, offset + i * elementSize, what, loc)) return false;
      return true;
    }
    if (const auto *record = type->getAsCXXRecordDecl()) return flattenRecord(*record, offset, what, loc);
    if (type->isMemberPointerType()) return reject(loc, what, type, "member pointers are not supported in kernels");
    return reject(loc, what, type, "this type is not supported in kernels");
  }

  // The members a class names in its ONEPASS_LAUNCH_CONSTANTS annotation
  // (include/sycl/detail/defines.hpp).
  static std::vector<StringRef> launchConstantMembers(const CXXRecordDecl &record) {
    std::vector<StringRef> names;
    for (const AnnotateAttr *annotation : record.specific_attrs<AnnotateAttr>()) {
      if (annotation->getAnnotation() != "onepass.launch_constants") continue;
      for (const Expr *argument : annotation->args())
        if (const auto *name = dyn_cast<StringLiteral>(argument->IgnoreParenImpCasts()))
          names.push_back(name->getString());
    }
    return names;
  }

  static bool isLocalAccessor(const CXXRecordDecl &record) {
    for (const AnnotateAttr *annotation : record.specific_attrs<AnnotateAttr>())
      if (annotation->getAnnotation() == "onepass.local_accessor") return true;
    return false;
  }

  // A record's fields; those of a local_accessor flagged as such.
  bool flattenRecord(const CXXRecordDecl &record, uint64_t offset, const std::string &what, SourceLocation loc) {
    const uint32_t outerFlags = flags_;
    if (isLocalAccessor(record)) flags_ |= image::kFieldLocalAccessor;
    const bool flattened = flattenRecordFields(record, offset, what, loc);
    flags_ = outerFlags;
    return flattened;
  }

  bool flattenRecordFields(const CXXRecordDecl &record, uint64_t offset, const std::string &what, SourceLocation loc) {
    const uint64_t size = ctx_.getTypeSizeInChars(QualType(ctx_.getCanonicalTagType(&record))).getQuantity();
    if (record.isUnion()) return addBytes(offset, size);
    if (record.getNumVBases() > 0)
      return reject(loc, what, QualType(ctx_.getCanonicalTagType(&record)), "virtual base classes are not supported");
    if (record.isPolymorphic())
      return reject(loc, what, QualType(ctx_.getCanonicalTagType(&record)),
                    "classes with virtual functions cannot be passed to a kernel");
    const ASTRecordLayout &layout = ctx_.getASTRecordLayout(&record);
    for (const CXXBaseSpecifier &base : record.bases()) {
      const CXXRecordDecl *baseDecl = base.getType()->getAsCXXRecordDecl();
      uint64_t baseOffset = offset + layout.getBaseClassOffset(baseDecl).getQuantity();
      if (!flattenRecord(*baseDecl, baseOffset, what, loc)) return false;
    }
    const std::vector<StringRef> launchConstants = launchConstantMembers(record);
    for (const FieldDecl *field : record.fields()) {
      uint64_t bitOffset = layout.getFieldOffset(field->getFieldIndex());
      if (field->isBitField()) {
        uint64_t width = field->getBitWidthValue();
        if (width == 0) continue;
        uint64_t first = bitOffset / 8, last = (bitOffset + width + 7) / 8;
        if (!addBytes(offset + first, last - first)) return false;
        continue;
      }
      if (field->isZeroSize(ctx_)) continue;
      // For a lambda, name the captured variable; for a class, the member.
      std::string name = what.empty() ? field->getNameAsString() : what;
      SourceLocation fieldLoc = what.empty() ? field->getLocation() : loc;
      const uint32_t outerFlags = flags_;
      // A member the class names a launch constant (a local accessor's range
      // and offset, set up by the command group).
      if (std::find(launchConstants.begin(), launchConstants.end(), field->getName()) != launchConstants.end())
        flags_ |= image::kFieldLaunchConstant;
      const bool flattened = flatten(field->getType(), offset + bitOffset / 8, name, fieldLoc);
      flags_ = outerFlags;
      if (!flattened) return false;
    }
    return true;
  }

  // Fields sorted by offset and disjoint. Bit-field and union chunks can
  // overlap each other (two bit-fields sharing a byte); overlapping fields
  // merge into one byte range, passed as integer chunks.
  std::vector<image::FieldDesc> takeFields() {
    std::sort(fields_.begin(), fields_.end(),
              [](const image::FieldDesc &a, const image::FieldDesc &b) { return a.offset < b.offset; });
    std::vector<image::FieldDesc> merged;
    for (const image::FieldDesc &f : fields_) {
      if (merged.empty() || f.offset >= merged.back().offset + merged.back().size) {
        merged.push_back(f);
        continue;
      }
      image::FieldDesc &last = merged.back();
      uint32_t end = std::max(last.offset + last.size, f.offset + f.size);
      last.size = end - last.offset;
      last.kind = image::FieldKind::Integer;  // a merged range is opaque bytes
      last.flags &= f.flags;
    }
    fields_.clear();
    for (const image::FieldDesc &f : merged) {
      bool scalar = f.size == 1 || f.size == 2 || f.size == 4 || f.size == 8;
      if (f.kind == image::FieldKind::Integer && !(scalar && f.offset % f.size == 0))
        addBytes(f.offset, f.size);  // re-chunk a merged range
      else fields_.push_back(f);
    }
    return std::move(fields_);
  }

private:
  bool add(uint64_t offset, uint64_t size, image::FieldKind kind) {
    fields_.push_back(image::FieldDesc{static_cast<uint32_t>(offset), static_cast<uint32_t>(size), kind, flags_});
    return true;
  }

  // Opaque bytes: naturally aligned integer chunks of 8, 4, 2 or 1 bytes.
  bool addBytes(uint64_t offset, uint64_t size) {
    while (size > 0) {
      uint64_t chunk = 8;
      while (chunk > size || offset % chunk != 0) chunk /= 2;
      add(offset, chunk, image::FieldKind::Integer);
      offset += chunk;
      size -= chunk;
    }
    return true;
  }

  bool reject(SourceLocation loc, const std::string &what, QualType type, const char *why) {
    diags_.unsupportedCapture(loc, what, type.getAsString(), why);
    return false;
  }

  uint32_t flags_ = 0;  // image::FieldFlag of the fields being flattened
  ASTContext &ctx_;
  Diagnostics &diags_;
  std::vector<image::FieldDesc> fields_;
};

std::string displayNameOf(ASTContext &ctx, const FunctionDecl &entry, const CXXRecordDecl &kernel) {
  const TemplateArgumentList *args = entry.getTemplateSpecializationArgs();
  QualType name = args->get(0).getAsType();
  if (name->getAsCXXRecordDecl() == &kernel && kernel.isLambda()) {
    PresumedLoc loc =
        ctx.getSourceManager().getPresumedLoc(ctx.getSourceManager().getExpansionLoc(kernel.getLocation()));
    if (loc.isValid())
      return "lambda at " + std::string(loc.getFilename()) + ":" + std::to_string(loc.getLine()) + ":" +
             std::to_string(loc.getColumn());
  }
  PrintingPolicy policy(ctx.getLangOpts());
  policy.SuppressTagKeyword = true;
  policy.SuppressUnwrittenScope = true;
  return name.getAsString(policy);
}

}  // namespace

const CXXRecordDecl *kernelObjectType(const FunctionDecl &entry) {
  if (entry.getNumParams() != 1) return nullptr;
  QualType param = entry.getParamDecl(0)->getType();
  if (!param->isPointerType()) return nullptr;
  return param->getPointeeType()->getAsCXXRecordDecl();
}

bool buildKernelLayout(ASTContext &ctx, Diagnostics &diags, const FunctionDecl &entry, KernelLayout &layout) {
  const CXXRecordDecl *kernel = kernelObjectType(entry);
  if (!kernel) return false;
  QualType kernelType = QualType(ctx.getCanonicalTagType(kernel));
  layout.objectSize = static_cast<uint32_t>(ctx.getTypeSizeInChars(kernelType).getQuantity());
  layout.objectAlign = static_cast<uint32_t>(ctx.getTypeAlignInChars(kernelType).getQuantity());

  SourceManager &sm = ctx.getSourceManager();
  PresumedLoc loc = sm.getPresumedLoc(sm.getExpansionLoc(kernel->getLocation()));
  if (loc.isValid()) {
    layout.file = loc.getFilename();
    layout.line = loc.getLine();
    layout.column = loc.getColumn();
  }
  layout.displayName = displayNameOf(ctx, entry, *kernel);
  const TemplateArgumentList *args = entry.getTemplateSpecializationArgs();
  if (args->size() > 2 && args->get(2).getKind() == TemplateArgument::Integral)
    layout.dimensions = static_cast<uint32_t>(args->get(2).getAsIntegral().getZExtValue());

  LayoutFlattener flattener(ctx, diags);
  bool ok = true;
  if (kernel->isLambda()) {
    // Name each capture after the captured variable, at the capture's location.
    auto capture = kernel->captures_begin();
    const ASTRecordLayout &recordLayout = ctx.getASTRecordLayout(kernel);
    for (const FieldDecl *field : kernel->fields()) {
      std::string name = "this";
      SourceLocation captureLoc = kernel->getLocation();
      if (capture != kernel->captures_end()) {
        if (capture->capturesVariable()) name = capture->getCapturedVar()->getNameAsString();
        captureLoc = capture->getLocation();
        ++capture;
      }
      uint64_t offset = recordLayout.getFieldOffset(field->getFieldIndex()) / 8;
      ok &= flattener.flatten(field->getType(), offset, name, captureLoc);
    }
  } else {
    ok = flattener.flattenRecord(*kernel, 0, "", kernel->getLocation());
  }
  layout.fields = flattener.takeFields();
  return ok;
}

}  // namespace onepass::sscp
