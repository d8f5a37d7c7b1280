// An LD_PRELOAD shim for cache-fault tests (cache-faults.cpp): faults of the
// file system that cannot be staged with files alone, chosen by
// ONEPASS_TEST_CACHE_FAULT:
//   full      writes to a kernel cache entry being written (*.bin.tmp.*)
//             fail with ENOSPC, as on a full disk
//   readonly  opening such an entry for writing fails with EROFS
//   vanish    an entry (*.bin) is deleted just before it is opened for
//             reading, as when another process prunes it between the
//             lookup and the load
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <string>

namespace {

std::string fault() {
  const char *value = getenv("ONEPASS_TEST_CACHE_FAULT");
  return value ? value : "";
}

bool isTemporaryEntry(const char *path) { return path && strstr(path, ".bin.tmp.") != nullptr; }

bool isEntry(const char *path) {
  const size_t length = path ? strlen(path) : 0;
  return length > 4 && strcmp(path + length - 4, ".bin") == 0;
}

std::string pathOf(int fd) {
  char link[64], target[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t length = readlink(link, target, sizeof target - 1);
  return length > 0 ? std::string(target, length) : std::string();
}

template <typename Fn> Fn next(const char *name) { return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name)); }

FILE *openFile(const char *name, const char *path, const char *mode) {
  using Open = FILE *(*)(const char *, const char *);
  static const Open real = next<Open>(name);
  const bool writing = mode && (strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+'));
  if (writing && isTemporaryEntry(path) && fault() == "readonly") {
    errno = EROFS;
    return nullptr;
  }
  if (!writing && isEntry(path) && fault() == "vanish") unlink(path);
  return real(path, mode);
}

}  // namespace

extern "C" FILE *fopen(const char *path, const char *mode) { return openFile("fopen", path, mode); }
extern "C" FILE *fopen64(const char *path, const char *mode) { return openFile("fopen64", path, mode); }

extern "C" ssize_t write(int fd, const void *buffer, size_t count) {
  using Write = ssize_t (*)(int, const void *, size_t);
  static const Write real = next<Write>("write");
  if (fault() == "full" && isTemporaryEntry(pathOf(fd).c_str())) {
    errno = ENOSPC;
    return -1;
  }
  return real(fd, buffer, count);
}

extern "C" ssize_t writev(int fd, const struct iovec *vectors, int count) {
  using Writev = ssize_t (*)(int, const struct iovec *, int);
  static const Writev real = next<Writev>("writev");
  if (fault() == "full" && isTemporaryEntry(pathOf(fd).c_str())) {
    errno = ENOSPC;
    return -1;
  }
  return real(fd, vectors, count);
}
