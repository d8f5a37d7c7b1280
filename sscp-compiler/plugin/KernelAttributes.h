// SYCL 2020 kernel attributes (§5.8.1): [[sycl::reqd_work_group_size(...)]],
// [[sycl::reqd_sub_group_size(n)]], [[sycl::device_has(aspect...)]] and
// [[sycl::work_group_size_hint(...)]] (accepted, no effect).
//
// Clang 22 does not know them, and a plugin cannot give them a meaning where
// SYCL puts them on a lambda: after the parameter list, where C++ makes an
// attribute appertain to the function *type* and clang rejects every
// attribute it knows that is not a type attribute. So they stay unknown to
// clang, and a diagnostic consumer in front of clang's keeps the locations of
// clang's "unknown attribute ignored" warnings for them instead of printing
// them. Once the translation unit is parsed, a kernel's attributes are those
// in its lambda's head (between the introducer and the body) or on its
// function object's operator() (before the declaration, or between the name
// and the parameters). Their arguments are read from the tokens (object-like
// macros expanded) as integral constant expressions of literals, constants
// and enumerators; anything else is an error naming the attribute.
#pragma once

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/Diagnostic.h"

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace onepass::sscp {

class Diagnostics;

struct KernelAttributes {
  uint32_t workGroupSize[3] = {0, 0, 0};  // per dimension; 0: none
  uint32_t subGroupSize = 0;              // 0: none
  bool deviceHas = false;                 // [[sycl::device_has(...)]] written
  uint64_t aspects = 0;                   // its aspects: bit a for sycl::aspect value a (< image::kAspectCount)
};

// Installs itself as `engine`'s client, forwarding everything but clang's
// warnings for the unknown sycl:: kernel attributes, whose locations it keeps.
class KernelAttributeRecorder : public clang::DiagnosticConsumer {
public:
  explicit KernelAttributeRecorder(clang::DiagnosticsEngine &engine);

  void BeginSourceFile(const clang::LangOptions &options, const clang::Preprocessor *preprocessor) override;
  void EndSourceFile() override;
  void finish() override;
  void clear() override;
  bool IncludeInDiagnosticCounts() const override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info) override;

  // The kept attribute locations (the attribute's scope name `sycl`).
  const std::vector<clang::SourceLocation> &locations() const { return locations_; }
  // The translation unit's preprocessor (macros in attribute arguments).
  void setPreprocessor(const clang::Preprocessor &preprocessor) { preprocessor_ = &preprocessor; }
  const clang::Preprocessor *preprocessor() const { return preprocessor_; }
  // Whether the user turned clang's unknown-attribute warnings off.
  bool userIgnoresUnknownAttributes() const { return userIgnoresUnknown_; }

private:
  clang::DiagnosticConsumer *target_;
  std::unique_ptr<clang::DiagnosticConsumer> ownedTarget_;
  clang::LangOptions options_;
  const clang::Preprocessor *preprocessor_ = nullptr;
  std::vector<clang::SourceLocation> locations_;
  bool userIgnoresWarnings_ = false, userIgnoresUnknown_ = false;  // -w, -Wno-unknown-attributes
  bool userErrorsUnknown_ = false;                                 // -Werror(=unknown-attributes)
  bool droppingNotes_ = false;                                     // the notes of a dropped diagnostic
};

// Reads the attributes written on `kernel` (a lambda closure or function
// object type) whose range has `dimensions` dimensions (0: a single_task);
// reports malformed ones through `diags` and returns false for them. Marks
// the locations it used in `used`.
bool readKernelAttributes(clang::ASTContext &ctx, Diagnostics &diags, const KernelAttributeRecorder &recorder,
                          const clang::CXXRecordDecl &kernel, uint32_t dimensions, KernelAttributes &attributes,
                          std::set<unsigned> &used);

// Warns about kept attributes that are on no kernel (they have no effect),
// unless the user turned unknown-attribute warnings off.
void warnUnusedKernelAttributes(clang::ASTContext &ctx, Diagnostics &diags, const KernelAttributeRecorder &recorder,
                                const std::set<unsigned> &used);

}  // namespace onepass::sscp
