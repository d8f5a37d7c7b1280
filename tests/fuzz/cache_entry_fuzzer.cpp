// libFuzzer target (issue 21): the persistent kernel cache's entry reader
// (runtime/core/KernelCache). The input is written as the entry of one key,
// then loaded: a file that is not a whole, valid entry of that key must be a
// miss (and removed), never a crash, a partial binary, or an allocation its
// size does not justify.
#include "KernelCache.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {
const std::string &directory() {
  static const std::string path = [] {
    char pattern[] = "/tmp/onepass-fuzz-cache-XXXXXX";
    const char *made = mkdtemp(pattern);
    if (!made) __builtin_trap();
    return std::string(made);
  }();
  return path;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const onepass::rt::KernelCache cache(directory());
  const std::string key = "OnePass fuzz|target 1 90 0|image 0123456789abcdef|kernel";
  // A valid entry first (so that half the inputs mutate a real one), then the input in its place.
  const std::vector<uint8_t> binary(data, data + size);
  cache.store(key, binary.data(), binary.size());
  std::vector<uint8_t> loaded;
  if (!cache.load(key, loaded) || loaded != binary) __builtin_trap();  // a whole entry round-trips
  FILE *file = std::fopen(cache.pathFor(key).c_str(), "wb");
  if (!file) __builtin_trap();
  if (size) std::fwrite(data, 1, size, file);
  std::fclose(file);
  loaded.clear();
  if (cache.load(key, loaded)) {
    // Only an input that is itself a whole entry of this key loads.
    if (loaded.size() + 32 + key.size() != size) __builtin_trap();
  }
  std::remove(cache.pathFor(key).c_str());
  return 0;
}
