// onepass-cache (issue 19): looks after the persistent kernel cache, the one
// the runtime uses (ONEPASS_CACHE_DIR, else $XDG_CACHE_HOME/onepass, else
// ~/.cache/onepass; --dir picks another).
//
//   onepass-cache [--dir <directory>] ls       the entries, least recently used first
//   onepass-cache [--dir <directory>] stats    how many, how big, the cap
//   onepass-cache [--dir <directory>] prune [--max-size <size>]
//                                              least recently used entries out until the
//                                              cache fits (default: ONEPASS_CACHE_MAX_SIZE)
//   onepass-cache [--dir <directory>] verify   reads every entry, removes those that do not
//                                              check out (the runtime would rebuild them)
//   onepass-cache [--dir <directory>] clear    removes every entry
//
// Safe while programs use the cache: entries are whole files, replaced by
// rename; a program that opened one keeps it.
#include "Environment.h"
#include "KernelCache.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

using onepass::rt::KernelCache;

namespace {

std::string humanSize(uint64_t bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit ? "%.1f %s" : "%.0f %s", value, units[unit]);
  return text;
}

// A key's parts worth showing: the device, the kernel's symbol and what was
// compiled in (KernelProvider.cpp's cacheKey: toolchain|target|device...|
// image <id>|symbol|extras).
std::string describeKey(const std::string &key) {
  if (key.empty()) return "(not an entry)";
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    const size_t bar = key.find('|', start);
    parts.push_back(key.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  size_t image = 0;
  while (image < parts.size() && parts[image].compare(0, 6, "image ") != 0) ++image;
  if (image + 1 >= parts.size()) return key;
  std::string text;
  for (size_t i = 2; i < image; ++i) text += (text.empty() ? "" : " ") + parts[i];
  text += "  " + parts[image + 1];
  for (size_t i = image + 2; i < parts.size(); ++i) text += "  [" + parts[i] + "]";
  return text;
}

int usage(const char *problem) {
  std::fprintf(stderr,
               "onepass-cache: %s\nusage: onepass-cache [--dir <directory>] ls | stats | prune [--max-size <size>] | "
               "verify | clear\n",
               problem);
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  std::string directory = onepass::rt::env::cacheDirectory(), command;
  std::string maxSize;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--dir" && i + 1 < argc) directory = argv[++i];
    else if (arg == "--max-size" && i + 1 < argc) maxSize = argv[++i];
    else if (command.empty() && arg[0] != '-') command = arg;
    else return usage(("unexpected argument '" + arg + "'").c_str());
  }
  if (command.empty()) return usage("which command?");
  if (directory.empty()) return usage("no cache directory (set ONEPASS_CACHE_DIR or HOME, or pass --dir)");
  const KernelCache cache(directory);

  uint64_t cap = onepass::rt::env::cacheMaxSize();
  if (!maxSize.empty()) {
    if (command != "prune") return usage("--max-size goes with prune");
    if (!onepass::rt::env::parseSize(maxSize, cap))
      return usage(("--max-size '" + maxSize + "' is not a size (bytes, or with K, M, G, T)").c_str());
  }

  if (command == "ls" || command == "stats") {
    std::vector<KernelCache::Entry> entries = cache.entries(/*verify=*/false);
    std::sort(entries.begin(), entries.end(),
              [](const KernelCache::Entry &a, const KernelCache::Entry &b) { return a.lastUse < b.lastUse; });
    uint64_t total = 0;
    for (const KernelCache::Entry &entry : entries) total += entry.size;
    if (command == "ls") {
      const std::time_t now = std::time(nullptr);
      for (const KernelCache::Entry &entry : entries) {
        const std::string name = entry.path.substr(entry.path.rfind('/') + 1);
        std::printf("%s  %10s  used %6.1f h ago  %s\n", name.c_str(), humanSize(entry.size).c_str(),
                    (now - entry.lastUse) / 3600.0, describeKey(entry.key).c_str());
      }
    }
    std::printf("%s: %zu entries, %s (cap %s, ONEPASS_CACHE_MAX_SIZE)\n", directory.c_str(), entries.size(),
                humanSize(total).c_str(), cap ? humanSize(cap).c_str() : "none");
    return 0;
  }
  if (command == "prune") {
    if (cap == 0) {
      std::printf("%s: no cap (ONEPASS_CACHE_MAX_SIZE=0): nothing to prune\n", directory.c_str());
      return 0;
    }
    const uint64_t removed = cache.prune(cap);
    std::printf("%s: removed %s of least recently used entries (cap %s)\n", directory.c_str(),
                humanSize(removed).c_str(), humanSize(cap).c_str());
    return 0;
  }
  if (command == "verify") {
    size_t good = 0, bad = 0;
    for (const KernelCache::Entry &entry : cache.entries(/*verify=*/true)) {
      if (entry.valid) {
        ++good;
      } else {
        std::printf("removed %s: %s\n", entry.path.c_str(),
                    entry.entry ? "damaged (size, key or checksum)" : "not a cache entry");
        std::remove(entry.path.c_str());
        ++bad;
      }
    }
    std::printf("%s: %zu entries check out, %zu removed\n", directory.c_str(), good, bad);
    return 0;
  }
  if (command == "clear") {
    const std::vector<KernelCache::Entry> entries = cache.entries(/*verify=*/false);
    size_t removed = 0;
    for (const KernelCache::Entry &entry : entries) removed += std::remove(entry.path.c_str()) == 0;
    std::printf("%s: removed %zu entries\n", directory.c_str(), removed);
    return 0;
  }
  return usage(("unknown command '" + command + "'").c_str());
}
