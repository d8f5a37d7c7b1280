#include "SharedObjectLink.h"

#include "lld/Common/Driver.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

#include <signal.h>

LLD_HAS_DRIVER(elf)

using namespace llvm;

namespace onepass::jit {

namespace {
// lld writes its output through a temporary file that LLVM removes on a
// fatal signal: its first link installs LLVM's signal handlers in the
// process, with an alternate signal stack from malloc on the calling thread
// (a thread of the program: when it ends, AddressSanitizer unmaps the
// thread's alternate stack and dies on that one). The program's signal
// handling is its own: this puts back what the link changed.
class SignalStateGuard {
public:
  SignalStateGuard() {
    altStackSaved_ = sigaltstack(nullptr, &altStack_) == 0;
    for (int signal = 1; signal < kSignals; ++signal)
      saved_[signal] = sigaction(signal, nullptr, &actions_[signal]) == 0;
  }
  ~SignalStateGuard() {
    for (int signal = 1; signal < kSignals; ++signal) {
      struct sigaction now {};
      if (saved_[signal] && sigaction(signal, nullptr, &now) == 0 && now.sa_sigaction != actions_[signal].sa_sigaction)
        sigaction(signal, &actions_[signal], nullptr);
    }
    stack_t now{};
    if (altStackSaved_ && sigaltstack(nullptr, &now) == 0 &&
        (now.ss_sp != altStack_.ss_sp || (now.ss_flags & SS_DISABLE) != (altStack_.ss_flags & SS_DISABLE))) {
      stack_t restore = altStack_;
      restore.ss_flags &= SS_DISABLE;
      sigaltstack(&restore, nullptr);
    }
  }

private:
  static constexpr int kSignals = 32;
  struct sigaction actions_[kSignals] = {};
  bool saved_[kSignals] = {};
  stack_t altStack_{};
  bool altStackSaved_ = false;
};
}  // namespace

Expected<std::vector<char>> linkSharedObject(ArrayRef<char> object, StringRef what, ArrayRef<const char *> options) {
  static std::mutex lldMutex;
  std::lock_guard<std::mutex> lock(lldMutex);
  const SignalStateGuard signals;
  SmallString<128> input, output;
  if (std::error_code ec = sys::fs::createTemporaryFile("onepass-link", "o", input))
    return createStringError(ec, "cannot create a temporary file for lld: " + ec.message());
  // The output's name is the input's (created exclusively) with ".so" added,
  // a file that does not exist: lld removes an existing output on a thread
  // of its own (a thread per link), and writes a new one through a temporary
  // file it renames.
  output = input;
  output += ".so";
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
