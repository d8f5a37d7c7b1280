#include "JitLibrary.h"

#include "Environment.h"
#include "Error.h"
#include "Log.h"

#include "../../common/platform/LibraryDirectory.h"

#include <dlfcn.h>
#include <elf.h>
#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <mutex>
#include <vector>

namespace onepass::rt {

const std::string &runtimeLibraryDirectory() {
  // Never destroyed: the JIT warm-up thread may still read it while the
  // process exits (found by ASan: a use after free in exit handlers).
  static const std::string *directory =
      new std::string(directoryOfLibraryContaining(reinterpret_cast<const void *>(&runtimeLibraryDirectory)));
  return *directory;
}

std::string jitLibraryPath() {
  std::string path = env::jitLibrary();
  return path.empty() ? runtimeLibraryDirectory() + "/onepass/libonepass-jit.so" : path;
}

namespace {

// The NT_GNU_BUILD_ID note of the 64-bit ELF file at `path`, in hex, or "".
std::string elfBuildId(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  Elf64_Ehdr header;
  if (!file.read(reinterpret_cast<char *>(&header), sizeof header) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phnum > 256)
    return {};
  std::vector<Elf64_Phdr> segments(header.e_phnum);
  file.seekg(static_cast<std::streamoff>(header.e_phoff));
  if (!file.read(reinterpret_cast<char *>(segments.data()), segments.size() * sizeof(Elf64_Phdr))) return {};
  for (const Elf64_Phdr &segment : segments) {
    if (segment.p_type != PT_NOTE || segment.p_filesz > (1u << 16)) continue;
    std::vector<unsigned char> notes(segment.p_filesz);
    file.seekg(static_cast<std::streamoff>(segment.p_offset));
    if (!file.read(reinterpret_cast<char *>(notes.data()), notes.size())) return {};
    auto aligned = [](size_t size) { return (size + 3) / 4 * 4; };
    for (size_t at = 0; at + sizeof(Elf64_Nhdr) <= notes.size();) {
      Elf64_Nhdr note;
      std::memcpy(&note, notes.data() + at, sizeof note);
      const size_t name = at + sizeof note, desc = name + aligned(note.n_namesz);
      if (desc + note.n_descsz > notes.size()) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(notes.data() + name, "GNU", 4) == 0) {
        static const char digits[] = "0123456789abcdef";
        std::string hex;
        for (size_t i = 0; i < note.n_descsz; ++i) hex += {digits[notes[desc + i] >> 4], digits[notes[desc + i] & 15]};
        return hex;
      }
      at = desc + aligned(note.n_descsz);
    }
  }
  return {};
}

}  // namespace

std::string jitLibraryIdentity() {
  const std::string path = jitLibraryPath();
  const std::string id = elfBuildId(path);
  if (!id.empty()) return "build-id " + id;
  struct stat info;
  if (stat(path.c_str(), &info) != 0) return {};
  return "size " + std::to_string(info.st_size) + " mtime " + std::to_string(info.st_mtim.tv_sec) + "." +
         std::to_string(info.st_mtim.tv_nsec);
}

namespace {

struct LoadResult {
  JitLibrary library;
  std::string error;
};

LoadResult load() {
  LoadResult result;
  const std::string path = jitLibraryPath();
  result.library.path = path;
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    result.error = "OnePass cannot load its JIT library '" + path + "': " + (reason ? reason : "unknown error") +
                   " (reinstall OnePass, or set ONEPASS_JIT_LIBRARY to the library's path)";
    return result;
  }
  auto version =
      reinterpret_cast<decltype(&onepass_jit_interface_version)>(dlsym(handle, "onepass_jit_interface_version"));
  if (!version || version() != ONEPASS_JIT_INTERFACE_VERSION) {
    result.error = "the OnePass JIT library '" + path + "' has an incompatible interface (version " +
                   (version ? std::to_string(version()) : std::string("unknown")) + ", expected " +
                   std::to_string(ONEPASS_JIT_INTERFACE_VERSION) + ")";
    return result;
  }
  JitLibrary &lib = result.library;
  lib.compile = reinterpret_cast<decltype(lib.compile)>(dlsym(handle, "onepass_jit_compile"));
  lib.warmUp = reinterpret_cast<decltype(lib.warmUp)>(dlsym(handle, "onepass_jit_warm_up"));
  lib.free = reinterpret_cast<decltype(lib.free)>(dlsym(handle, "onepass_jit_free"));
  lib.versionString = reinterpret_cast<decltype(lib.versionString)>(dlsym(handle, "onepass_jit_version_string"));
  if (!lib.compile || !lib.warmUp || !lib.free || !lib.versionString)
    result.error = "the OnePass JIT library '" + path + "' lacks required functions";
  else ONEPASS_LOG(Info, "loaded JIT library " << path << " (" << lib.versionString() << ")");
  return result;
}

}  // namespace

const JitLibrary *loadJitLibrary(std::string &error) {
  static std::once_flag once;
  static LoadResult *result = nullptr;  // never destroyed: kernels may be built during exit
  std::call_once(once, [] { result = new LoadResult(load()); });
  if (!result->error.empty()) {
    error = result->error;
    return nullptr;
  }
  return &result->library;
}

const JitLibrary &jitLibrary() {
  std::string error;
  const JitLibrary *library = loadJitLibrary(error);
  if (!library) raise(Errc::runtime, error);
  return *library;
}

}  // namespace onepass::rt
