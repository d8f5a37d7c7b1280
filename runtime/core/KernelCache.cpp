#include "KernelCache.h"

#include "Environment.h"
#include "KernelImage.h"
#include "Log.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <thread>

namespace onepass::rt {

namespace {

constexpr char kMagic[8] = {'O', 'P', 'C', 'A', 'C', 'H', 'E', '1'};

struct EntryHeader {
  char magic[8];
  uint64_t keySize;
  uint64_t dataSize;
  uint64_t checksum;  // over key and data
};

uint64_t checksumOf(const std::string &key, const void *data, size_t size) {
  return image::hashBytes(data, size, image::hashBytes(key.data(), key.size()));
}

// The head of an entry file: its header and stored key. `sized`: the sizes
// the header gives add up to the file's (checked before anything is
// allocated for the data: a damaged header cannot ask for gigabytes).
struct EntryHead {
  EntryHeader header{};
  std::string key;
  bool magic = false;
  bool sized = false;
};
EntryHead readHead(std::ifstream &in, uint64_t fileSize) {
  EntryHead head;
  head.magic = in.read(reinterpret_cast<char *>(&head.header), sizeof head.header) &&
               std::memcmp(head.header.magic, kMagic, sizeof kMagic) == 0;
  if (!head.magic || head.header.keySize >= (1u << 16) || sizeof head.header + head.header.keySize > fileSize)
    return head;
  head.key.resize(head.header.keySize);
  if (!in.read(&head.key[0], head.key.size())) {
    head.key.clear();
    return head;
  }
  head.sized = head.header.dataSize < (uint64_t(1) << 32) &&
               sizeof head.header + head.header.keySize + head.header.dataSize == fileSize;
  return head;
}
// Reads the data after a sized head and checks it against the checksum.
bool readData(std::ifstream &in, const EntryHead &head, std::vector<uint8_t> &data) {
  data.resize(head.header.dataSize);
  return in.read(reinterpret_cast<char *>(data.data()), data.size()) && in.peek() == EOF &&
         checksumOf(head.key, data.data(), data.size()) == head.header.checksum;
}

bool makeDirectories(const std::string &path) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    if (mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) return false;
    if (slash == std::string::npos) return true;
  }
}

}  // namespace

KernelCache::KernelCache(std::string directory, std::vector<std::string> readOnly, bool writable)
    : directory_(std::move(directory)), readOnly_(std::move(readOnly)), writable_(writable) {}

KernelCache &KernelCache::instance() {
  // Never destroyed: the JIT warm-up thread may still ask it during exit.
  static KernelCache *cache = [] {
    if (!env::cacheEnabled()) return new KernelCache(std::string());
    std::string directory = env::cacheDirectory();
    if (directory.empty() || !makeDirectories(directory)) {
      ONEPASS_LOG(Warning, "kernel cache disabled: cannot create its directory '" << directory << "'");
      directory.clear();
    }
    bool writable = !directory.empty();
    const std::string mode = env::cacheWrite();
    if (mode == "0" || mode == "off" || mode == "false") writable = false;
    else if (mode == "rank0") writable = writable && env::mpiRank() == "0";
    else if (!mode.empty() && mode != "1" && mode != "on" && mode != "true")
      ONEPASS_LOG(Warning, "ONEPASS_CACHE_WRITE='" << mode << "' is not 1, 0 or rank0; ignoring it");
    return new KernelCache(directory, env::cacheReadOnlyDirectories(), writable);
  }();
  return *cache;
}

std::string KernelCache::pathFor(const std::string &key) const { return pathIn(directory_, key); }

std::string KernelCache::pathIn(const std::string &directory, const std::string &key) {
  return directory + "/" + image::hexId(image::hashBytes(key.data(), key.size())) + ".bin";
}

bool KernelCache::contains(const std::string &key) const {
  struct stat info {};
  if (!directory_.empty() && stat(pathFor(key).c_str(), &info) == 0) return true;
  for (const std::string &site : readOnly_)
    if (stat(pathIn(site, key).c_str(), &info) == 0) return true;
  return false;
}

bool KernelCache::load(const std::string &key, std::vector<uint8_t> &data) const {
  if (!directory_.empty() && loadFrom(directory_, key, data, /*own=*/true)) return true;
  for (const std::string &site : readOnly_)
    if (loadFrom(site, key, data, /*own=*/false)) return true;
  return false;
}

bool KernelCache::loadFrom(const std::string &directory, const std::string &key, std::vector<uint8_t> &data,
                           bool own) const {
  std::string path = pathIn(directory, key);
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  in.seekg(0, std::ios::end);
  const uint64_t fileSize = static_cast<uint64_t>(in.tellg());
  in.seekg(0);
  const EntryHead head = readHead(in, fileSize);
  const bool valid = head.sized && head.key == key && readData(in, head, data);
  if (valid) {
    if (own) utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // used now: the last to be pruned
  } else if (own) {
    ONEPASS_LOG(Warning, "kernel cache entry " << path << " is corrupt or stale; rebuilding it");
    std::remove(path.c_str());
    data.clear();
  } else {  // a site cache is not ours to mend
    ONEPASS_LOG(Warning, "kernel cache entry " << path
                                               << " (ONEPASS_CACHE_READONLY_DIRS) is corrupt or stale; "
                                                  "ignoring it");
    data.clear();
  }
  return valid;
}

void KernelCache::store(const std::string &key, const void *data, size_t size) const {
  if (!writable_ || directory_.empty()) return;
  std::string path = pathFor(key);
  static std::atomic<unsigned> serial{0};  // two threads may store one key at once
  std::string temporary = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(serial++);
  EntryHeader header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.keySize = key.size();
  header.dataSize = size;
  header.checksum = checksumOf(key, data, size);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(&header), sizeof header);
    out.write(key.data(), key.size());
    out.write(static_cast<const char *>(data), size);
    // The buffered tail reaches the file at close: a full disk may fail
    // only then, and a short file must not be renamed into place.
    out.close();
    if (!out) {
      ONEPASS_LOG(Warning, "cannot write kernel cache entry " << temporary << ": " << std::strerror(errno));
      std::remove(temporary.c_str());
      return;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    return;
  }
  // The cap: a process looks at its first store, then each time it has
  // stored a sixteenth of the cap more, in the background (a large cache
  // takes a while to scan, and no launch should wait for it).
  static const uint64_t cap = env::cacheMaxSize();
  static std::atomic<bool> scanned{false};
  static std::atomic<uint64_t> storedSinceScan{0};
  if (cap == 0) return;
  if (!scanned.exchange(true) || storedSinceScan.fetch_add(size) + size > cap / 16) {
    storedSinceScan = 0;
    std::thread([directory = directory_] { KernelCache(directory).prune(cap); }).detach();
  }
}

std::vector<KernelCache::Entry> KernelCache::entries(bool verify) const {
  std::vector<Entry> list;
  if (directory_.empty()) return list;
  DIR *dir = opendir(directory_.c_str());
  if (!dir) return list;
  while (const dirent *item = readdir(dir)) {
    const std::string name = item->d_name;
    if (name.size() != 20 || name.compare(16, 4, ".bin") != 0) continue;  // <16 hex digits>.bin
    Entry entry;
    entry.path = directory_ + "/" + name;
    struct stat info {};
    if (stat(entry.path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
    entry.size = static_cast<uint64_t>(info.st_size);
    entry.lastUse = info.st_mtim.tv_sec;
    std::ifstream in(entry.path, std::ios::binary);
    const EntryHead head = readHead(in, entry.size);
    entry.entry = head.magic;
    entry.key = head.key;
    std::vector<uint8_t> data;
    if (verify && head.sized && !entry.key.empty() && pathFor(entry.key) == entry.path)
      entry.valid = readData(in, head, data);
    list.push_back(std::move(entry));
  }
  closedir(dir);
  return list;
}

namespace {
std::string lockPathFor(const std::string &entryPath) {
  const size_t slash = entryPath.rfind('/');
  return entryPath.substr(0, slash) + "/locks" + entryPath.substr(slash, entryPath.size() - slash - 4) + ".lock";
}
}  // namespace

KernelCache::BuildLock::~BuildLock() {
  if (fd_ >= 0) close(fd_);  // (closing releases the flock)
}

KernelCache::BuildLock KernelCache::lockForBuild(const std::string &key, void (*beforeWaiting)()) const {
  BuildLock lock;
  if (directory_.empty()) return lock;
  const std::string path = lockPathFor(pathFor(key));
  // A process that does not write the cache still waits for one that does.
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && writable_) {
    mkdir((directory_ + "/locks").c_str(), 0755);
    fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  }
  if (fd < 0) return lock;
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) {
      close(fd);
      return lock;
    }
    lock.waited_ = true;
    ONEPASS_LOG(Debug, "kernel cache: waiting for another process to build " << pathFor(key));
    if (beforeWaiting) beforeWaiting();
    while (flock(fd, LOCK_EX) != 0) {
      if (errno != EINTR) {
        close(fd);
        return lock;
      }
    }
  }
  lock.fd_ = fd;
  return lock;
}

uint64_t KernelCache::prune(uint64_t maxBytes) const {
  std::vector<Entry> list = entries(/*verify=*/false);
  uint64_t total = 0;
  for (const Entry &entry : list) total += entry.size;
  if (total <= maxBytes) return 0;
  std::sort(list.begin(), list.end(), [](const Entry &a, const Entry &b) { return a.lastUse < b.lastUse; });
  uint64_t removed = 0;
  for (const Entry &entry : list) {
    if (total - removed <= maxBytes) break;
    if (std::remove(entry.path.c_str()) == 0) removed += entry.size;
    std::remove(lockPathFor(entry.path).c_str());  // (a process holding it builds on; a newcomer makes another)
  }
  ONEPASS_LOG(Info, "kernel cache: removed " << removed << " bytes of least recently used entries (cap " << maxBytes
                                             << " bytes, ONEPASS_CACHE_MAX_SIZE)");
  return removed;
}

}  // namespace onepass::rt
