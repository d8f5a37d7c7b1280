#include "SpirConverter.h"

#include <dlfcn.h>

#include <mutex>
#include <sstream>

namespace onepass::opencl {

namespace {

// LLVM 15's types, opaque here: only pointers to them cross.
struct Context;
struct Module;
struct MemoryBuffer;
struct Value;
struct Use;
struct Builder;

struct Translator {
  // llvm::readSpirv(LLVMContext &, std::istream &, Module *&, std::string &)
  bool (*readSpirv)(Context &, std::istream &, Module *&, std::string &) = nullptr;
  // LLVM 15's C API (llvm-c/Core.h, llvm-c/BitWriter.h).
  Context *(*contextCreate)() = nullptr;
  void (*setOpaquePointers)(Context *, int) = nullptr;
  void (*contextDispose)(Context *) = nullptr;
  void (*disposeModule)(Module *) = nullptr;
  MemoryBuffer *(*writeBitcode)(Module *) = nullptr;
  const char *(*bufferStart)(MemoryBuffer *) = nullptr;
  size_t (*bufferSize)(MemoryBuffer *) = nullptr;
  void (*disposeBuffer)(MemoryBuffer *) = nullptr;
  Value *(*namedFunction)(Module *, const char *) = nullptr;
  Use *(*firstUse)(Value *) = nullptr;
  Value *(*user)(Use *) = nullptr;
  Builder *(*createBuilder)(Context *) = nullptr;
  void (*positionBefore)(Builder *, Value *) = nullptr;
  Value *(*buildFence)(Builder *, int ordering, int singleThread, const char *name) = nullptr;
  void (*eraseInstruction)(Value *) = nullptr;
  void (*deleteFunction)(Value *) = nullptr;
  void (*disposeBuilder)(Builder *) = nullptr;
  std::string missing;
};

template <typename T> bool bind(void *library, const char *symbol, T &function, std::string &missing) {
  function = reinterpret_cast<T>(dlsym(library, symbol));
  if (!function && missing.empty()) missing = std::string("the function ") + symbol + " is missing";
  return function != nullptr;
}

Translator &translator() {
  static Translator *loaded = [] {
    auto *t = new Translator;  // never destroyed: PoCL may build programs during exit
    void *spirv = dlopen("libLLVMSPIRVLib.so.15", RTLD_NOW | RTLD_LOCAL);
    void *llvm = dlopen("libLLVM-15.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!spirv || !llvm) {
      t->missing = std::string(!spirv ? "libLLVMSPIRVLib.so.15 (Debian package libllvmspirvlib15)"
                                      : "libLLVM-15.so.1 (Debian package libllvm15)") +
                   " cannot be loaded";
      return t;
    }
    bind(spirv, "_ZN4llvm9readSpirvERNS_11LLVMContextERSiRPNS_6ModuleERNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
         t->readSpirv, t->missing);
    bind(llvm, "LLVMContextCreate", t->contextCreate, t->missing);
    bind(llvm, "LLVMContextDispose", t->contextDispose, t->missing);
    // SPIR 1.2 is typed-pointer bitcode (LLVM 15 defaults to opaque pointers).
    bind(llvm, "LLVMContextSetOpaquePointers", t->setOpaquePointers, t->missing);
    bind(llvm, "LLVMDisposeModule", t->disposeModule, t->missing);
    bind(llvm, "LLVMWriteBitcodeToMemoryBuffer", t->writeBitcode, t->missing);
    bind(llvm, "LLVMGetBufferStart", t->bufferStart, t->missing);
    bind(llvm, "LLVMGetBufferSize", t->bufferSize, t->missing);
    bind(llvm, "LLVMDisposeMemoryBuffer", t->disposeBuffer, t->missing);
    bind(llvm, "LLVMGetNamedFunction", t->namedFunction, t->missing);
    bind(llvm, "LLVMGetFirstUse", t->firstUse, t->missing);
    bind(llvm, "LLVMGetUser", t->user, t->missing);
    bind(llvm, "LLVMCreateBuilderInContext", t->createBuilder, t->missing);
    bind(llvm, "LLVMPositionBuilderBefore", t->positionBefore, t->missing);
    bind(llvm, "LLVMBuildFence", t->buildFence, t->missing);
    bind(llvm, "LLVMInstructionEraseFromParent", t->eraseInstruction, t->missing);
    bind(llvm, "LLVMDeleteFunction", t->deleteFunction, t->missing);
    bind(llvm, "LLVMDisposeBuilder", t->disposeBuilder, t->missing);
    return t;
  }();
  return *loaded;
}

// OpenCL 1.2's fences (what the translator makes of OpMemoryBarrier), which
// PoCL 3.1's kernel library lacks ("Cannot find symbol _Z9mem_fencej"):
// each call becomes an LLVM fence, sequentially consistent (at least as
// strong as any of their flags asks).
void replaceFenceCalls(Translator &t, Context *context, Module *module) {
  constexpr int kSequentiallyConsistent = 7;  // LLVMAtomicOrderingSequentiallyConsistent
  Builder *builder = t.createBuilder(context);
  for (const char *name : {"_Z9mem_fencej", "_Z14read_mem_fencej", "_Z15write_mem_fencej"}) {
    Value *fence = t.namedFunction(module, name);
    if (!fence) continue;
    while (Use *use = t.firstUse(fence)) {  // (every use is a call)
      Value *call = t.user(use);
      t.positionBefore(builder, call);
      t.buildFence(builder, kSequentiallyConsistent, 0, "");
      t.eraseInstruction(call);
    }
    t.deleteFunction(fence);
  }
  t.disposeBuilder(builder);
}

}  // namespace

std::mutex &llvm15Lock() {
  static auto *lock = new std::mutex;  // never destroyed
  return *lock;
}

bool spirConverterAvailable(std::string &why) {
  why = translator().missing;
  return why.empty();
}

bool convertSpirvToSpir(const void *spirv, size_t size, std::vector<char> &spir, std::string &error) {
  Translator &t = translator();
  if (!t.missing.empty()) {
    error = "cannot turn SPIR-V into SPIR: " + t.missing;
    return false;
  }
  std::lock_guard<std::mutex> lock(llvm15Lock());
  std::istringstream stream(std::string(static_cast<const char *>(spirv), size));
  Context *context = t.contextCreate();
  t.setOpaquePointers(context, 0);
  Module *module = nullptr;
  std::string message;
  if (!t.readSpirv(*context, stream, module, message) || !module) {
    t.contextDispose(context);
    error = "the SPIR-V/LLVM translator rejected the module: " + message;
    return false;
  }
  replaceFenceCalls(t, context, module);
  MemoryBuffer *bitcode = t.writeBitcode(module);
  spir.assign(t.bufferStart(bitcode), t.bufferStart(bitcode) + t.bufferSize(bitcode));
  t.disposeBuffer(bitcode);
  t.disposeModule(module);
  t.contextDispose(context);
  return true;
}

}  // namespace onepass::opencl
