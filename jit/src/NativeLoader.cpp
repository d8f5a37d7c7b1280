#include "NativeLoader.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"

#include <atomic>
#include <mutex>

using namespace llvm;
using namespace llvm::orc;

namespace onepass::jit {

namespace {

struct Loader {
  std::mutex mutex;
  std::unique_ptr<LLJIT> jit;
  std::string error;
  unsigned nextDylib = 0;
};

Loader &loader() {
  static Loader instance;
  static std::once_flag once;
  std::call_once(once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    Expected<std::unique_ptr<LLJIT>> jit = LLJITBuilder().create();
    if (!jit) instance.error = "cannot create the native code loader: " + toString(jit.takeError());
    else instance.jit = std::move(*jit);
  });
  return instance;
}

}  // namespace

Expected<void *> loadNativeObject(const void *object, uint64_t size, const char *symbol) {
  Loader &l = loader();
  if (!l.jit) return createStringError(inconvertibleErrorCode(), l.error);
  std::lock_guard<std::mutex> lock(l.mutex);
  // One dylib per object: every object defines the same launch symbol.
  Expected<JITDylib &> dylib = l.jit->createJITDylib("onepass.kernel." + std::to_string(l.nextDylib++));
  if (!dylib) return dylib.takeError();
  Expected<std::unique_ptr<DynamicLibrarySearchGenerator>> process =
      DynamicLibrarySearchGenerator::GetForCurrentProcess(l.jit->getDataLayout().getGlobalPrefix());
  if (!process) return process.takeError();
  dylib->addGenerator(std::move(*process));
  std::unique_ptr<MemoryBuffer> buffer =
      MemoryBuffer::getMemBufferCopy(StringRef(static_cast<const char *>(object), size), "onepass-cpu-kernel");
  if (Error err = l.jit->addObjectFile(*dylib, std::move(buffer))) return err;
  Expected<ExecutorAddr> address = l.jit->lookup(*dylib, symbol);
  if (!address) return address.takeError();
  return address->toPtr<void *>();
}

}  // namespace onepass::jit
