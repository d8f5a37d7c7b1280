#include "Environment.h"

#include <cstdlib>
#include <thread>

namespace onepass::rt::env {

namespace {
std::string read(const char *name) {
  const char *value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

// A switch that is on unless set to "0", "off" or "false".
bool onUnlessSwitchedOff(const char *name) {
  std::string value = read(name);
  return !(value == "0" || value == "off" || value == "false");
}
}  // namespace

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
