#include "Log.h"

#include "Environment.h"

#include <cstdio>
#include <mutex>

namespace onepass::rt {

namespace {
LogLevel configuredLevel() {
  static const LogLevel level = [] {
    std::string name = env::logLevel();
    if (name == "error") return LogLevel::Error;
    if (name == "info") return LogLevel::Info;
    if (name == "debug") return LogLevel::Debug;
    return LogLevel::Warning;
  }();
  return level;
}
}  // namespace

bool logEnabled(LogLevel level) { return level <= configuredLevel(); }

void logMessage(LogLevel level, const std::string &message) {
  static std::mutex mutex;
  static const char *names[] = {"error", "warning", "info", "debug"};
  std::lock_guard<std::mutex> lock(mutex);
  std::fprintf(stderr, "[onepass] %s: %s\n", names[static_cast<int>(level)], message.c_str());
}

}  // namespace onepass::rt
