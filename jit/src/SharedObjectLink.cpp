#include "SharedObjectLink.h"

#include "lld/Common/Driver.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

using namespace llvm;

namespace onepass::jit {

Expected<std::vector<char>> linkSharedObject(ArrayRef<char> object, StringRef what, ArrayRef<const char *> options) {
  static std::mutex lldMutex;
  std::lock_guard<std::mutex> lock(lldMutex);
  SmallString<128> input, output;
  if (std::error_code ec = sys::fs::createTemporaryFile("onepass-link", "o", input))
    return createStringError(ec, "cannot create a temporary file for lld: " + ec.message());
  if (std::error_code ec = sys::fs::createTemporaryFile("onepass-link", "so", output)) {
    sys::fs::remove(input);
    return createStringError(ec, "cannot create a temporary file for lld: " + ec.message());
  }
  scope_exit cleanup([&] {
    sys::fs::remove(input);
    sys::fs::remove(output);
  });
  {
    std::error_code ec;
    raw_fd_ostream out(input, ec, sys::fs::OF_None);
    if (ec) return createStringError(ec, "cannot write '" + input.str().str() + "': " + ec.message());
    out.write(object.data(), object.size());
  }
  std::vector<const char *> arguments = {"ld.lld", "-shared"};
  arguments.insert(arguments.end(), options.begin(), options.end());
  arguments.insert(arguments.end(), {input.c_str(), "-o", output.c_str()});
  std::string messages;
  raw_string_ostream stream(messages);
  lld::Result result = lld::lldMain(arguments, stream, stream, {{lld::Gnu, &lld::elf::link}});
  if (result.retCode != 0)
    return createStringError(inconvertibleErrorCode(), "linking " + what.str() + " failed: " + messages);
  ErrorOr<std::unique_ptr<MemoryBuffer>> linked = MemoryBuffer::getFile(output);
  if (!linked) return createStringError(linked.getError(), "cannot read the linked " + what.str());
  return std::vector<char>((*linked)->getBufferStart(), (*linked)->getBufferEnd());
}

}  // namespace onepass::jit
