#include "BuiltinLibrary.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"

#include "../../common/platform/LibraryDirectory.h"

#include <mutex>

using namespace llvm;

namespace onepass::jit {

namespace {

const char *libraryFileName(BuiltinTarget target) {
  switch (target) {
  case BuiltinTarget::Cpu: return "onepass-builtins-cpu.bc";
  case BuiltinTarget::Ptx: return "onepass-builtins-ptx.bc";
  case BuiltinTarget::Spirv: return "onepass-builtins-spirv.bc";
  case BuiltinTarget::Amdgcn: return "onepass-builtins-amdgcn.bc";
  }
  return "";
}

struct LoadedLibrary {
  std::once_flag once;
  std::unique_ptr<MemoryBuffer> buffer;
  std::string error;
};

LoadedLibrary &library(BuiltinTarget target) {
  static LoadedLibrary libraries[4];
  LoadedLibrary &lib = libraries[static_cast<int>(target)];
  std::call_once(lib.once, [&] {
    std::string path = jitLibraryDirectory() + "/bitcode/" + libraryFileName(target);
    ErrorOr<std::unique_ptr<MemoryBuffer>> file = MemoryBuffer::getFile(path);
    if (!file)
      lib.error = "cannot read the OnePass builtin library '" + path + "': " + file.getError().message() +
                  " (is the OnePass installation complete?)";
    else lib.buffer = std::move(*file);
  });
  return lib;
}

}  // namespace

const std::string &jitLibraryDirectory() {
  static const std::string directory =
      directoryOfLibraryContaining(reinterpret_cast<const void *>(&jitLibraryDirectory));
  return directory;
}

Error linkBitcodeLibrary(Module &module, MemoryBufferRef library, StringRef description) {
  // Lazily: only the functions the module reaches are read.
  Expected<std::unique_ptr<Module>> parsed = getLazyBitcodeModule(library, module.getContext());
  if (!parsed)
    return createStringError(inconvertibleErrorCode(),
                             description + " is not readable bitcode: " + toString(parsed.takeError()));
  (*parsed)->setDataLayout(module.getDataLayout());
  (*parsed)->setTargetTriple(module.getTargetTriple());
  if (Linker::linkModules(module, std::move(*parsed), Linker::LinkOnlyNeeded))
    return createStringError(inconvertibleErrorCode(), "linking " + description + " failed");
  return Error::success();
}

Error linkBuiltins(Module &module, BuiltinTarget target) {
  LoadedLibrary &lib = library(target);
  if (!lib.buffer) return createStringError(inconvertibleErrorCode(), lib.error);
  return linkBitcodeLibrary(module, lib.buffer->getMemBufferRef(), "the builtin library");
}

}  // namespace onepass::jit
