// Checks the code reachable from each kernel for constructs SYCL 2020 §5.4
// forbids in device code (exceptions, RTTI, virtual calls, dynamic
// allocation, calls to functions this TU cannot provide), so the user gets a
// compile error at the offending line instead of a JIT failure at run time.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <set>

namespace onepass::sscp {

class Diagnostics;

// Whether a declaration of `fn` carries SYCL_EXTERNAL (SYCL 2020 §5.10.1).
bool isSyclExternal(const clang::FunctionDecl &fn);

class DeviceCodeChecker {
public:
  DeviceCodeChecker(clang::ASTContext &ctx, Diagnostics &diags) : ctx_(ctx), diags_(diags) {}

  // Walks everything `entry` can call. Returns false if any error was
  // reported (a function shared by several kernels is checked once).
  bool checkKernel(const clang::FunctionDecl &entry);

private:
  clang::ASTContext &ctx_;
  Diagnostics &diags_;
  std::set<const clang::FunctionDecl *> checked_;  // shared by all kernels of the TU
};

}  // namespace onepass::sscp
