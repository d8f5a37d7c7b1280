#include "Environment.h"

#include "../../common/platform/EnvironmentSwitch.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <thread>

namespace onepass::rt::env {

namespace {
std::string read(const char *name) {
  const char *value = std::getenv(name);
  return value ? std::string(value) : std::string();
}
}  // namespace

using onepass::onUnlessSwitchedOff;

std::string logLevel() { return read("ONEPASS_LOG"); }
std::string logFile() { return read("ONEPASS_LOG_FILE"); }
std::string deviceSelection() { return read("ONEPASS_DEVICE"); }
std::string deviceSelector() { return read("ONEPASS_DEVICE_SELECTOR"); }
std::string jitLibrary() { return read("ONEPASS_JIT_LIBRARY"); }
std::string jitLlvmArgs() { return read("ONEPASS_JIT_LLVM_ARGS"); }

bool cacheEnabled() { return onUnlessSwitchedOff("ONEPASS_CACHE"); }

std::string cacheDirectory() {
  std::string explicitDirectory = read("ONEPASS_CACHE_DIR");
  if (!explicitDirectory.empty()) return explicitDirectory;
  std::string xdg = read("XDG_CACHE_HOME");
  if (!xdg.empty()) return xdg + "/onepass";
  std::string home = read("HOME");
  return home.empty() ? std::string() : home + "/.cache/onepass";
}

bool parseSize(const std::string &value, uint64_t &bytes) {
  char *end = nullptr;
  if (value.empty() || !std::isdigit(static_cast<unsigned char>(value[0]))) return false;
  errno = 0;
  const unsigned long long number = std::strtoull(value.c_str(), &end, 10);
  if (errno == ERANGE) return false;  // more than 64 bits: malformed, not "unlimited"
  unsigned shift = 0;
  switch (*end) {
  case '\0': break;
  case 'k':
  case 'K':
    shift = 10;
    ++end;
    break;
  case 'm':
  case 'M':
    shift = 20;
    ++end;
    break;
  case 'g':
  case 'G':
    shift = 30;
    ++end;
    break;
  case 't':
  case 'T':
    shift = 40;
    ++end;
    break;
  default: return false;
  }
  if (shift && *end == 'i') ++end;
  if (*end == 'B' || *end == 'b') ++end;
  if (*end != '\0' || (shift && number > (~0ull >> shift))) return false;
  bytes = static_cast<uint64_t>(number) << shift;
  return true;
}

std::vector<std::string> cacheReadOnlyDirectories() {
  std::vector<std::string> list;
  const std::string value = read("ONEPASS_CACHE_READONLY_DIRS");
  for (size_t start = 0; start <= value.size();) {
    const size_t colon = value.find(':', start);
    const std::string part = value.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (!part.empty()) list.push_back(part);
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return list;
}

std::string cacheWrite() { return read("ONEPASS_CACHE_WRITE"); }

std::string mpiRank() {
  for (const char *name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK", "SLURM_PROCID"}) {
    const std::string value = read(name);
    if (!value.empty()) return value;
  }
  return "0";
}

uint64_t cacheMaxSize() {
  uint64_t bytes = uint64_t(4) << 30;  // the default, also for a malformed value
  parseSize(read("ONEPASS_CACHE_MAX_SIZE"), bytes);
  return bytes;
}

unsigned cpuThreads() {
  std::string value = read("ONEPASS_CPU_THREADS");
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (value.empty()) return cores;
  char *end = nullptr;
  unsigned long requested = std::strtoul(value.c_str(), &end, 10);
  if (*end != '\0' || requested == 0 || requested > 4096) return cores;
  return static_cast<unsigned>(requested);
}

bool jitWarmUp() { return onUnlessSwitchedOff("ONEPASS_JIT_WARMUP"); }
bool imageTextures() { return onUnlessSwitchedOff("ONEPASS_IMAGE_TEXTURES"); }

namespace {
bool onOff(const char *name, bool fallback) {
  std::string value = read(name);
  if (value == "1" || value == "on" || value == "true") return true;
  if (value == "0" || value == "off" || value == "false") return false;
  return fallback;
}
}  // namespace

bool spin(bool fallback) { return onOff("ONEPASS_SPIN", fallback); }
Feeder gpuFeeder(bool fallback) {
  if (read("ONEPASS_GPU_FEEDER") == "always") return Feeder::Always;
  return onOff("ONEPASS_GPU_FEEDER", fallback) ? Feeder::BackToBack : Feeder::Off;
}

unsigned gpuStreams(unsigned fallback) {
  std::string value = read("ONEPASS_GPU_STREAMS");
  if (value.empty()) return fallback;
  char *end = nullptr;
  unsigned long requested = std::strtoul(value.c_str(), &end, 10);
  if (*end != '\0' || requested > 64) return fallback;
  return static_cast<unsigned>(requested);
}

}  // namespace onepass::rt::env
