#include "KernelCache.h"

#include "Environment.h"
#include "KernelImage.h"
#include "Log.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>

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

bool makeDirectories(const std::string &path) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    if (mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) return false;
    if (slash == std::string::npos) return true;
  }
}

}  // namespace

KernelCache::KernelCache(std::string directory) : directory_(std::move(directory)) {}

KernelCache &KernelCache::instance() {
  // Never destroyed: the JIT warm-up thread may still ask it during exit.
  static KernelCache *cache = new KernelCache([] {
    if (!env::cacheEnabled()) return std::string();
    std::string directory = env::cacheDirectory();
    if (directory.empty() || !makeDirectories(directory)) {
      ONEPASS_LOG(Warning, "kernel cache disabled: cannot create its directory '" << directory << "'");
      return std::string();
    }
    return directory;
  }());
  return *cache;
}

std::string KernelCache::pathFor(const std::string &key) const {
  return directory_ + "/" + image::hexId(image::hashBytes(key.data(), key.size())) + ".bin";
}

bool KernelCache::contains(const std::string &key) const {
  struct stat info {};
  return enabled() && stat(pathFor(key).c_str(), &info) == 0;
}

bool KernelCache::load(const std::string &key, std::vector<uint8_t> &data) const {
  if (!enabled()) return false;
  std::string path = pathFor(key);
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  in.seekg(0, std::ios::end);
  const uint64_t fileSize = static_cast<uint64_t>(in.tellg());
  in.seekg(0);
  EntryHeader header{};
  std::string storedKey;
  // The sizes must add up to the file's before anything is allocated for
  // them (a damaged header cannot ask for gigabytes).
  bool valid = in.read(reinterpret_cast<char *>(&header), sizeof header) &&
               std::memcmp(header.magic, kMagic, sizeof kMagic) == 0 && header.keySize == key.size() &&
               header.dataSize < (uint64_t(1) << 32) && sizeof header + header.keySize + header.dataSize == fileSize;
  if (valid) {
    storedKey.resize(header.keySize);
    data.resize(header.dataSize);
    valid = in.read(&storedKey[0], storedKey.size()) && in.read(reinterpret_cast<char *>(data.data()), data.size()) &&
            in.peek() == EOF && storedKey == key && checksumOf(key, data.data(), data.size()) == header.checksum;
  }
  if (!valid) {
    ONEPASS_LOG(Warning, "kernel cache entry " << path << " is corrupt or stale; rebuilding it");
    std::remove(path.c_str());
    data.clear();
  }
  return valid;
}

void KernelCache::store(const std::string &key, const void *data, size_t size) const {
  if (!enabled()) return;
  std::string path = pathFor(key);
  std::string temporary = path + ".tmp." + std::to_string(getpid());
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
    if (!out) {
      ONEPASS_LOG(Warning, "cannot write kernel cache entry " << temporary);
      out.close();
      std::remove(temporary.c_str());
      return;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) std::remove(temporary.c_str());
}

}  // namespace onepass::rt
