// Captures what a piece of a test writes to stdout and stderr (file
// descriptors 1 and 2, so text that a device driver prints is caught too).
#pragma once

#include <cstdio>
#include <string>
#include <utility>
#include <fcntl.h>
#include <cstdlib>
#include <unistd.h>

namespace onepass_test {

// Runs `body` with stdout (and stderr) going to files, and returns what was
// written to them.
template <typename Body> std::pair<std::string, std::string> capture(Body &&body) {
  std::fflush(stdout);
  std::fflush(stderr);
  char outName[] = "/tmp/onepass-test-out-XXXXXX", errName[] = "/tmp/onepass-test-err-XXXXXX";
  const int out = mkstemp(outName), err = mkstemp(errName);
  const int savedOut = dup(1), savedErr = dup(2);
  dup2(out, 1);
  dup2(err, 2);
  try {
    body();
  } catch (...) {
    std::fflush(stdout);
    dup2(savedOut, 1);
    dup2(savedErr, 2);
    throw;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(savedOut, 1);
  dup2(savedErr, 2);
  close(savedOut);
  close(savedErr);
  auto read = [](int fd, const char *name) {
    std::string text;
    lseek(fd, 0, SEEK_SET);
    char chunk[4096];
    for (ssize_t n; (n = ::read(fd, chunk, sizeof(chunk))) > 0;) text.append(chunk, static_cast<std::size_t>(n));
    close(fd);
    unlink(name);
    return text;
  };
  return {read(out, outName), read(err, errName)};
}

}  // namespace onepass_test
