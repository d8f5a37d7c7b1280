// Loads a shared object held in memory (a CPU kernel the JIT linked, read
// back from the persistent cache) with the system's dynamic loader, so that a
// process whose CPU kernels all come from the cache never loads the JIT
// library (its ~100 MB of LLVM cost some 15 ms at start-up).
//
// The bytes go to an anonymous memory file (memfd_create), which dlopen opens
// as /proc/self/fd/N. glibc knows a loaded object by the name it was opened
// under and hands back the old object for a name it has seen, and fd numbers
// repeat once closed: so the N-th load spells its path uniquely, with empty
// and "." components that name the same file (load 5 = binary 101 opens
// "/proc/.//./self/fd/N"). Where no memory file can be made (old kernels,
// vm.memfd_noexec), a temporary file in $TMPDIR (else /tmp) serves, named
// uniquely by process and load and removed once loaded.
//
// Header-only: the runtime's CPU backend and the JIT library (its
// onepass_jit_load_cpu, for tests and tools) each compile it.
#pragma once

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace onepass {

namespace detail {

inline bool writeAll(int fd, const void *data, uint64_t size) {
  const char *bytes = static_cast<const char *>(data);
  while (size > 0) {
    const ssize_t written = ::write(fd, bytes, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    bytes += written;
    size -= static_cast<uint64_t>(written);
  }
  return true;
}

// "/proc/self/fd/<fd>" spelt uniquely for load number `load` (>= 1).
inline std::string uniqueFdPath(int fd, uint64_t load) {
  std::string components;
  for (int bit = 63; bit >= 0; --bit)
    if (load >> bit) components += (load >> bit) & 1 ? "/." : "/";
  return "/proc" + components + "/self/fd/" + std::to_string(fd);
}

}  // namespace detail

// Loads the shared object of `size` bytes at `data` for the process's life
// and returns the address of `symbol` in it, or nullptr with `error` set.
inline void *loadSharedObject(const void *data, uint64_t size, const char *symbol, std::string &error) {
  static std::atomic<uint64_t> loads{0};
  const uint64_t load = ++loads;
  static const char kElfMagic[4] = {0x7f, 'E', 'L', 'F'};
  if (size < sizeof kElfMagic || std::memcmp(data, kElfMagic, sizeof kElfMagic) != 0) {
    error = "not an ELF shared object";
    return nullptr;
  }
  void *handle = nullptr;
  std::string why;
  const int fd = ::memfd_create("onepass-cpu-kernel", MFD_CLOEXEC);
  if (fd >= 0) {
    if (detail::writeAll(fd, data, size)) {
      handle = ::dlopen(detail::uniqueFdPath(fd, load).c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) why = ::dlerror();
    } else {
      why = std::string("cannot write a memory file: ") + std::strerror(errno);
    }
    ::close(fd);
  } else {
    why = std::string("memfd_create: ") + std::strerror(errno);
  }
  if (!handle) {  // a temporary file instead
    const char *tmp = std::getenv("TMPDIR");
    std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/onepass-kernel-" + std::to_string(::getpid()) + "-" +
                       std::to_string(load) + "-XXXXXX";
    const int file = ::mkstemp(path.data());
    if (file < 0) {
      error = "cannot load the CPU kernel (" + why + "; a temporary file '" + path + "': " + std::strerror(errno) + ")";
      return nullptr;
    }
    const bool written = detail::writeAll(file, data, size);
    ::close(file);
    if (written) handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    const std::string fileWhy = written ? (handle ? "" : ::dlerror()) : "cannot write " + path;
    ::unlink(path.c_str());
    if (!handle) {
      error = "cannot load the CPU kernel (" + why + "; from a temporary file: " + fileWhy + ")";
      return nullptr;
    }
  }
  void *address = ::dlsym(handle, symbol);
  if (!address) {
    error = std::string("the CPU kernel has no symbol ") + symbol;
    ::dlclose(handle);
    return nullptr;
  }
  return address;
}

}  // namespace onepass
