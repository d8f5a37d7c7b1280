// libFuzzer target for stage 1's kernel attribute reader
// (sscp-compiler/plugin/KernelAttributes.cpp), in process: each input is the
// text of an attribute list, written as `[[<input>]]` both on a function
// object's operator() and after a lambda's parameters; clang parses the
// translation unit (in memory, no headers) and the reader reads what it finds
// on both kernels, as the plugin does. Whatever the text, clang and the reader
// must answer with diagnostics, never a crash, a hang or a sanitizer report.
// The first byte picks the kernels' dimensions (0: a single_task).
//
// Built by scripts/fuzz.sh against Debian's libclang-cpp and libLLVM (the
// plugin itself is built without them: clang provides them at load time).
#include "Diagnostics.h"
#include "KernelAttributes.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Basic/FileManager.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace clang;

// What the kernels' attributes may name: aspects, constants, enumerators,
// object-like macros (KernelAttributes.h), and a namespace to look through.
const char *const kPrelude = R"(namespace sycl {
enum class aspect { cpu, gpu, accelerator, custom, emulated, host_debuggable, fp16, fp64, atomic64, image,
                    online_compiler, online_linker, queue_profiling, usm_device_allocations, usm_host_allocations,
                    usm_atomic_host_allocations, usm_shared_allocations, usm_atomic_shared_allocations,
                    usm_system_allocations };
}
namespace consts { constexpr int kEight = 8; enum Sizes { kFour = 4, kSixteen = 16 }; }
using namespace consts;
constexpr unsigned long kBig = 1ul << 40;
#define SIZE 32
#define SIZE_MAX_LIKE 18446744073709551615ul
#define ASPECT sycl::aspect::gpu
)";

class Visitor : public RecursiveASTVisitor<Visitor> {
public:
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitCXXRecordDecl(CXXRecordDecl *record) {
    if (record->isThisDeclarationADefinition() && (record->isLambda() || record->getName() == "Functor"))
      kernels.push_back(record);
    return true;
  }
  std::vector<const CXXRecordDecl *> kernels;
};

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &ci, const onepass::sscp::KernelAttributeRecorder &recorder, uint32_t dimensions)
      : ci_(ci), recorder_(recorder), dimensions_(dimensions) {}
  void HandleTranslationUnit(ASTContext &ctx) override {
    onepass::sscp::Diagnostics diags(ci_.getDiagnostics());
    Visitor visitor;
    visitor.TraverseDecl(ctx.getTranslationUnitDecl());
    std::set<unsigned> used;
    for (const CXXRecordDecl *kernel : visitor.kernels) {
      onepass::sscp::KernelAttributes attributes;
      onepass::sscp::readKernelAttributes(ctx, diags, recorder_, *kernel, dimensions_, attributes, used);
    }
    onepass::sscp::warnUnusedKernelAttributes(ctx, diags, recorder_, used);
  }

private:
  CompilerInstance &ci_;
  const onepass::sscp::KernelAttributeRecorder &recorder_;
  uint32_t dimensions_;
};

class Action : public ASTFrontendAction {
public:
  explicit Action(uint32_t dimensions) : dimensions_(dimensions) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) override {
    // As the plugin does: the recorder is installed before parsing, and the
    // diagnostics engine owns it.
    auto *recorder = new onepass::sscp::KernelAttributeRecorder(ci.getDiagnostics());
    if (ci.hasPreprocessor()) recorder->setPreprocessor(ci.getPreprocessor());
    return std::make_unique<Consumer>(ci, *recorder, dimensions_);
  }

private:
  uint32_t dimensions_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0 || size > 512) return 0;
  const uint32_t dimensions = data[0] % 4;
  const std::string attribute(reinterpret_cast<const char *>(data) + 1, size - 1);
  // (An attribute text that ends the attribute list early and opens another
  // construct is fine: clang reports it; the reader sees what clang kept.)
  std::string code = kPrelude;
  code += "struct Functor {\n  [[" + attribute + "]] void operator()() const {}\n};\n";
  code += "void use() {\n  auto kernel = []() [[" + attribute + "]] {};\n  (void)kernel;\n}\n";
  // In memory; diagnostics are counted, not printed.
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  overlay->pushOverlay(memory);
  memory->addFile("/fuzz/kernel.cpp", 0, llvm::MemoryBuffer::getMemBufferCopy(code));
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), overlay);
  clang::tooling::ToolInvocation invocation(
      {"onepass-attribute-fuzzer", "-std=c++17", "-fsyntax-only", "-ferror-limit=20", "-fno-caret-diagnostics", "/fuzz/kernel.cpp"},
      std::make_unique<Action>(dimensions), files.get());
  clang::IgnoringDiagConsumer quiet;
  invocation.setDiagnosticConsumer(&quiet);
  invocation.run();
  return 0;
}
