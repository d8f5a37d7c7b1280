// The runtime's one logging facility. ONEPASS_LOG=error|warning|info|debug
// (default: warning) selects what reaches stderr, prefixed with "[onepass]".
#pragma once

#include <sstream>
#include <string>

namespace onepass::rt {

enum class LogLevel { Error = 0, Warning = 1, Info = 2, Debug = 3 };

bool logEnabled(LogLevel level);
// ONEPASS_LOG_FILE's path: `pattern` with %p the process id, %r the MPI
// rank and %% a percent sign (any other % stays as written).
std::string expandLogPath(const std::string &pattern, const std::string &pid, const std::string &rank);
void logMessage(LogLevel level, const std::string &message);

}  // namespace onepass::rt

#define ONEPASS_LOG(level, expr)                                                                                       \
  do {                                                                                                                 \
    if (::onepass::rt::logEnabled(::onepass::rt::LogLevel::level)) {                                                   \
      std::ostringstream onepass_log_stream;                                                                           \
      onepass_log_stream << expr;                                                                                      \
      ::onepass::rt::logMessage(::onepass::rt::LogLevel::level, onepass_log_stream.str());                             \
    }                                                                                                                  \
  } while (0)
