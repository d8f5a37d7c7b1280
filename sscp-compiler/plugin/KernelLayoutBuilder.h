// Computes a kernel's flattened parameter layout from the AST of its kernel
// object (a lambda closure or a function object): every scalar leaf with its
// offset, size and kind. This is the neutral kernel ABI of ARCHITECTURE.md.
#pragma once

#include "LayoutAnnotation.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace onepass::sscp {

class Diagnostics;

// Fills `layout` for the kernel entry instantiation `entry` (whose only
// parameter is `const Kernel *`). Reports unsupported captures through
// `diags` and returns false if there were any.
bool buildKernelLayout(clang::ASTContext &ctx, Diagnostics &diags, const clang::FunctionDecl &entry,
                       KernelLayout &layout);

// The kernel object type of a kernel entry instantiation.
const clang::CXXRecordDecl *kernelObjectType(const clang::FunctionDecl &entry);

}  // namespace onepass::sscp
