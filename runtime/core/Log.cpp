#include "Log.h"

#include "Environment.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
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
// Where messages go: ONEPASS_LOG_FILE (appended to; %p the process id, %r
// the MPI rank, %% a percent sign), else stderr, also if the file cannot
// be opened (said once, on stderr).
FILE *logStream() {
  static FILE *stream = [] {
    const std::string pattern = env::logFile();
    if (pattern.empty()) return stderr;
    const std::string path = expandLogPath(pattern, std::to_string(getpid()), env::mpiRank());
    FILE *file = std::fopen(path.c_str(), "a");
    if (!file) {
      std::fprintf(stderr, "[onepass] warning: cannot open ONEPASS_LOG_FILE '%s'; logging to stderr\n", path.c_str());
      return stderr;
    }
    setvbuf(file, nullptr, _IOLBF, 0);  // whole lines, as they come
    return file;
  }();
  return stream;
}
}  // namespace

std::string expandLogPath(const std::string &pattern, const std::string &pid, const std::string &rank) {
  std::string path;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size()) {
      const char c = pattern[++i];
      if (c == 'p') path += pid;
      else if (c == 'r') path += rank;
      else if (c == '%') path += '%';
      else path += std::string("%") + c;
    } else {
      path += pattern[i];
    }
  }
  return path;
}

bool logEnabled(LogLevel level) { return level <= configuredLevel(); }

void logMessage(LogLevel level, const std::string &message) {
  static std::mutex mutex;
  static const char *names[] = {"error", "warning", "info", "debug"};
  std::lock_guard<std::mutex> lock(mutex);
  std::fprintf(logStream(), "[onepass] %s: %s\n", names[static_cast<int>(level)], message.c_str());
}

}  // namespace onepass::rt
