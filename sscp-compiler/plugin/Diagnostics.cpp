#include "Diagnostics.h"

using namespace clang;

namespace onepass::sscp {

Diagnostics::Diagnostics(DiagnosticsEngine &engine) : engine_(engine) {
  throwId_ = engine_.getCustomDiagID(DiagnosticsEngine::Error, "SYCL kernel code cannot throw exceptions");
  tryId_ = engine_.getCustomDiagID(DiagnosticsEngine::Error, "SYCL kernel code cannot use exception handling ('try')");
  rttiId_ =
      engine_.getCustomDiagID(DiagnosticsEngine::Error, "SYCL kernel code cannot use run-time type information ('%0')");
  virtualId_ = engine_.getCustomDiagID(DiagnosticsEngine::Error, "SYCL kernel code cannot call virtual function '%0'");
  undefinedId_ = engine_.getCustomDiagID(DiagnosticsEngine::Error,
                                         "SYCL kernel code calls '%0', which is not defined in this translation unit "
                                         "and is not declared SYCL_EXTERNAL");
  allocId_ =
      engine_.getCustomDiagID(DiagnosticsEngine::Error, "SYCL kernel code cannot allocate memory dynamically ('%0')");
  byRefId_ = engine_.getCustomDiagID(DiagnosticsEngine::Error,
                                     "SYCL kernel captures '%0' by reference; kernels must capture by value");
  captureTypeId_ = engine_.getCustomDiagID(
      DiagnosticsEngine::Error, "SYCL kernel captures '%0' of type '%1', which cannot be passed to a device: %2");
  noteId_ = engine_.getCustomDiagID(DiagnosticsEngine::Note, "in SYCL kernel '%0' defined here");
  externalNoteId_ = engine_.getCustomDiagID(DiagnosticsEngine::Note,
                                            "in SYCL_EXTERNAL function '%0' defined here (device code: SYCL 2020 §5.10.1)");
  attributeId_ = engine_.getCustomDiagID(DiagnosticsEngine::Error, "%0");
  unusedAttributeId_ = engine_.getCustomDiagID(
      DiagnosticsEngine::Warning, "'%0' ignored: it is not on a SYCL kernel's lambda or function object operator()");
}

bool Diagnostics::firstTime(SourceLocation loc, unsigned id) {
  if (!reported_.insert({loc.getRawEncoding(), id}).second) return false;
  ++errors_;
  return true;
}

void Diagnostics::throwInKernel(SourceLocation loc) {
  if (firstTime(loc, throwId_)) engine_.Report(loc, throwId_);
}
void Diagnostics::tryInKernel(SourceLocation loc) {
  if (firstTime(loc, tryId_)) engine_.Report(loc, tryId_);
}
void Diagnostics::rttiInKernel(SourceLocation loc, const char *construct) {
  if (firstTime(loc, rttiId_)) engine_.Report(loc, rttiId_) << construct;
}
void Diagnostics::virtualCallInKernel(SourceLocation loc, const std::string &function) {
  if (firstTime(loc, virtualId_)) engine_.Report(loc, virtualId_) << function;
}
void Diagnostics::undefinedFunctionInKernel(SourceLocation loc, const std::string &function) {
  if (firstTime(loc, undefinedId_)) engine_.Report(loc, undefinedId_) << function;
}
void Diagnostics::allocationInKernel(SourceLocation loc, const char *construct) {
  if (firstTime(loc, allocId_)) engine_.Report(loc, allocId_) << construct;
}
void Diagnostics::captureByReference(SourceLocation loc, const std::string &name) {
  if (firstTime(loc, byRefId_)) engine_.Report(loc, byRefId_) << name;
}
void Diagnostics::unsupportedCapture(SourceLocation loc, const std::string &name, const std::string &type,
                                     const char *why) {
  if (firstTime(loc, captureTypeId_)) engine_.Report(loc, captureTypeId_) << name << type << why;
}
void Diagnostics::kernelAttribute(SourceLocation loc, const std::string &problem) {
  if (firstTime(loc, attributeId_)) engine_.Report(loc, attributeId_) << problem;
}
void Diagnostics::unusedKernelAttribute(SourceLocation loc, const std::string &name) {
  engine_.Report(loc, unusedAttributeId_) << name;
}
void Diagnostics::calledFromKernel(SourceLocation kernelLoc, const std::string &kernelName) {
  engine_.Report(kernelLoc, noteId_) << kernelName;
}

void Diagnostics::inSyclExternal(SourceLocation loc, const std::string &function) {
  engine_.Report(loc, externalNoteId_) << function;
}

}  // namespace onepass::sscp
