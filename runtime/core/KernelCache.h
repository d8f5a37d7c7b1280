// The persistent cache of finished device binaries (e.g. CUDA cubins), shared
// by all backends. An entry is found by a key string that names everything
// that changes the binary; its file name is a hash of that key.
//
// Safe to share between processes (MPI ranks): entries are written to a
// temporary file and renamed into place, so readers see a whole entry or
// none; each entry repeats its key and carries a checksum, so a corrupt,
// truncated or colliding file is a miss (and is replaced), never used.
//
// ONEPASS_CACHE_DIR sets the directory (default $XDG_CACHE_HOME/onepass, else
// ~/.cache/onepass); ONEPASS_CACHE=0 turns the cache off;
// ONEPASS_CACHE_MAX_SIZE caps it (least recently used entries go first);
// ONEPASS_CACHE_READONLY_DIRS adds site caches searched after it (never
// written); ONEPASS_CACHE_WRITE=0|rank0 stops storing (in every process, or
// in every MPI rank but 0).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace onepass::rt {

class KernelCache {
public:
  // A cache in `directory` (empty: none of its own), also looking in the
  // read-only directories `readOnly` (site caches) after it; `writable`:
  // whether entries are stored.
  explicit KernelCache(std::string directory, std::vector<std::string> readOnly = {}, bool writable = true);

  // The process's cache, configured from the environment.
  static KernelCache &instance();

  bool enabled() const { return !directory_.empty() || !readOnly_.empty(); }
  const std::string &directory() const { return directory_; }

  // Returns true and fills `data` if a valid entry for `key` exists.
  bool load(const std::string &key, std::vector<uint8_t> &data) const;
  // Whether an entry for `key` exists (not whether it is valid: load checks that).
  bool contains(const std::string &key) const;
  // Stores an entry; failures (read-only disk, full disk) only cost the cache.
  void store(const std::string &key, const void *data, size_t size) const;

  // The file that holds `key`'s entry.
  std::string pathFor(const std::string &key) const;

  // Held while this process builds `key`'s entry (an exclusive flock on
  // <directory>/locks/<hash>.lock): processes that start at once on an empty
  // cache build each kernel once, the others wait and load the entry. The
  // lock goes with the object, or with the process if it dies. Without a
  // directory of its own (or a lock file it can open) it locks nothing.
  class BuildLock {
  public:
    BuildLock() = default;
    BuildLock(BuildLock &&other) noexcept : fd_(other.fd_), waited_(other.waited_) { other.fd_ = -1; }
    BuildLock &operator=(BuildLock &&) = delete;
    ~BuildLock();
    // Whether another process held it first (it may have stored the entry).
    bool waited() const { return waited_; }

  private:
    friend class KernelCache;
    int fd_ = -1;
    bool waited_ = false;
  };
  // `beforeWaiting`, if given, is called before waiting for another process.
  BuildLock lockForBuild(const std::string &key, void (*beforeWaiting)() = nullptr) const;

  // The entries in the directory (onepass-cache, pruning). `key` is read
  // from the file ("" if its header is not an entry's); `valid` says whether
  // the whole entry checks out (only with `verify`: it reads every byte).
  struct Entry {
    std::string path;
    uint64_t size = 0;
    int64_t lastUse = 0;  // modification time, seconds: loads refresh it
    std::string key;
    bool entry = false;  // begins as a cache entry does (its magic number)
    bool valid = false;
  };
  std::vector<Entry> entries(bool verify) const;
  // Removes the least recently used entries until the directory holds at
  // most `maxBytes` of them; returns how many bytes it removed. Safe while
  // other processes use the cache: a reader that opened an entry keeps it.
  uint64_t prune(uint64_t maxBytes) const;

private:
  static std::string pathIn(const std::string &directory, const std::string &key);
  bool loadFrom(const std::string &directory, const std::string &key, std::vector<uint8_t> &data, bool own) const;

  std::string directory_;
  std::vector<std::string> readOnly_;
  bool writable_ = true;
};

}  // namespace onepass::rt
