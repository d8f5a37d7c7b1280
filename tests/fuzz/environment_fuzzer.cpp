// libFuzzer target (issue 21): the parsers of the runtime's environment
// variables. The input's lines are, in turn, an ONEPASS_DEVICE_SELECTOR
// value (runtime/core/DeviceSelector), an ONEPASS_CACHE_MAX_SIZE value
// (env::parseSize) and an ONEPASS_LOG_FILE pattern (expandLogPath). Each must
// be parsed or refused with a reason, never crash, and what they accept must
// keep its meaning:
//  - a selector that parses has one term per comma-separated part, each of
//    one kind; one that does not has an error naming the reason;
//  - an accepted size is its leading number times its unit, without
//    wrap-around (a number of more than 64 bits is refused);
//  - a log pattern without '%' is the path itself; %% %p %r expand, and
//    the path is at most twice as long as the pattern (pid "4242").
#include "DeviceSelector.h"
#include "Environment.h"
#include "Log.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

namespace {

void checkSelector(const std::string &text) {
  std::vector<onepass::rt::SelectorTerm> terms;
  std::string error;
  if (!onepass::rt::parseSelector(text, terms, error)) {
    if (error.empty() || !terms.empty()) __builtin_trap();
    return;
  }
  if (!error.empty()) __builtin_trap();
  if (terms.size() != static_cast<size_t>(std::count(text.begin(), text.end(), ',')) + 1) __builtin_trap();
  for (const onepass::rt::SelectorTerm &term : terms) {
    const int kinds = !term.type.empty() + !term.name.empty() + (!term.backend.empty() && term.name.empty());
    if (kinds != 1 || term.index > 9999) __builtin_trap();
    // Matching never fails on any device: a GPU or CPU of either backend.
    (void)term.matches("cuda", true, "NVIDIA H100 80GB HBM3", 0);
    (void)term.matches("cpu", false, text, 3);
  }
  (void)onepass::rt::selectorSelects(terms, "cpu", false, "Intel(R) Xeon(R)", 0);
}

void checkSize(const std::string &text) {
  uint64_t bytes = 0;
  if (!onepass::rt::env::parseSize(text, bytes)) return;
  // An accepted size starts with its number, then maybe a unit.
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0) __builtin_trap();
  unsigned __int128 number = 0;
  for (size_t i = 0; i < digits; ++i) {
    number = number * 10 + static_cast<unsigned>(text[i] - '0');
    if (number > UINT64_MAX) __builtin_trap();  // more than 64 bits must be refused
  }
  unsigned shift = 0;
  if (digits < text.size()) {
    switch (text[digits]) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    default: shift = 0;
    }
  }
  const unsigned __int128 expected = number << shift;
  if (expected > UINT64_MAX || bytes != static_cast<uint64_t>(expected)) __builtin_trap();
}

void checkLogPath(const std::string &pattern) {
  const std::string path = onepass::rt::expandLogPath(pattern, "4242", "7");
  if (pattern.find('%') == std::string::npos && path != pattern) __builtin_trap();
  // Each two-character % sequence becomes at most the four-character pid.
  if (path.size() > 2 * pattern.size()) __builtin_trap();
  // "%%" is a percent sign, never the start of another sequence.
  if (onepass::rt::expandLogPath("%%p", "4242", "7") != "%p") __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<std::string> lines(1);
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') lines.emplace_back();
    else lines.back() += static_cast<char>(data[i]);
  }
  lines.resize(3);
  checkSelector(lines[0]);
  checkSize(lines[1]);
  checkLogPath(lines[2]);
  return 0;
}
