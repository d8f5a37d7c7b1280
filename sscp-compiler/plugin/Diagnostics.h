// The plugin's error messages, in one place, reported through clang's
// DiagnosticsEngine so they carry file, line and caret like clang's own.
#pragma once

#include "clang/Basic/Diagnostic.h"

#include <set>
#include <string>

namespace onepass::sscp {

class Diagnostics {
public:
  explicit Diagnostics(clang::DiagnosticsEngine &engine);

  void throwInKernel(clang::SourceLocation loc);
  void tryInKernel(clang::SourceLocation loc);
  void rttiInKernel(clang::SourceLocation loc, const char *construct);
  void virtualCallInKernel(clang::SourceLocation loc, const std::string &function);
  void undefinedFunctionInKernel(clang::SourceLocation loc, const std::string &function);
  void allocationInKernel(clang::SourceLocation loc, const char *construct);
  void captureByReference(clang::SourceLocation loc, const std::string &name);
  void unsupportedCapture(clang::SourceLocation loc, const std::string &name, const std::string &type, const char *why);
  void calledFromKernel(clang::SourceLocation kernelLoc, const std::string &kernelName);
  void inSyclExternal(clang::SourceLocation loc, const std::string &function);
  // A sycl:: kernel attribute (KernelAttributes.h) that cannot be read or
  // does not fit the kernel; one that is on no kernel (a warning).
  void kernelAttribute(clang::SourceLocation loc, const std::string &problem);
  void unusedKernelAttribute(clang::SourceLocation loc, const std::string &name);

  bool hadErrors() const { return errors_ > 0; }

private:
  // Reports each location once, however many kernels reach it.
  bool firstTime(clang::SourceLocation loc, unsigned id);

  clang::DiagnosticsEngine &engine_;
  unsigned throwId_, tryId_, rttiId_, virtualId_, undefinedId_, allocId_, byRefId_, captureTypeId_, noteId_, externalNoteId_,
      attributeId_, unusedAttributeId_;
  std::set<std::pair<unsigned, unsigned>> reported_;
  unsigned errors_ = 0;
};

}  // namespace onepass::sscp
