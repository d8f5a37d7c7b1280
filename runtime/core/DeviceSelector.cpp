#include "DeviceSelector.h"

#include <algorithm>
#include <cctype>

namespace onepass::rt {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool SelectorTerm::matches(const std::string &deviceBackend, bool isGpu, const std::string &deviceName,
                           int deviceIndex) const {
  if (!backend.empty() && backend != deviceBackend) return false;
  if (!type.empty() && type != (isGpu ? "gpu" : "cpu")) return false;
  if (index >= 0 && index != deviceIndex) return false;
  return name.empty() || lowercase(deviceName).find(name) != std::string::npos;
}

namespace {
// The backends a term may name besides `cpu` (which is also a device kind).
bool isBackendWord(const std::string &word) {
  return word == "cuda" || word == "opencl" || word == "level_zero" || word == "hip";
}
}  // namespace

bool parseSelector(const std::string &text, std::vector<SelectorTerm> &terms, std::string &error) {
  terms.clear();
  auto bad = [&](const std::string &token, const std::string &why) {
    error = "'" + token + "' " + why +
            " (terms, separated by commas, each maybe negated with '!': cpu, gpu, cuda, opencl, level_zero, hip, "
            "<backend>:<index>, "
            "<backend>:*, or a part of a device's name)";
    terms.clear();
    return false;
  };
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    std::string token = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    token.erase(0, token.find_first_not_of(" \t"));
    token.erase(token.find_last_not_of(" \t") + 1);
    SelectorTerm term;
    std::string word = lowercase(token);
    if (!word.empty() && word[0] == '!') {
      term.negated = true;
      word.erase(0, 1);
    }
    if (word.empty()) return bad(token, "is an empty term");
    const std::size_t colon = word.find(':');
    if (colon != std::string::npos) {
      term.backend = word.substr(0, colon);
      const std::string which = word.substr(colon + 1);
      if (term.backend != "cpu" && !isBackendWord(term.backend))
        return bad(token, "names no backend OnePass has (cpu, cuda, opencl, level_zero, hip)");
      if (which != "*") {
        if (which.empty() || which.size() > 4 || which.find_first_not_of("0123456789") != std::string::npos)
          return bad(token, "needs a device index or '*' after the colon");
        term.index = std::stoi(which);
      }
    } else if (word == "cpu" || word == "gpu") {
      term.type = word;
    } else if (isBackendWord(word)) {
      term.backend = word;
    } else {
      term.name = word;
    }
    terms.push_back(term);
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

bool selectorSelects(const std::vector<SelectorTerm> &terms, const std::string &deviceBackend, bool isGpu,
                     const std::string &deviceName, int deviceIndex) {
  bool anyPositive = false, positiveMatch = false;
  for (const SelectorTerm &term : terms) {
    const bool match = term.matches(deviceBackend, isGpu, deviceName, deviceIndex);
    if (term.negated && match) return false;
    if (!term.negated) {
      anyPositive = true;
      positiveMatch = positiveMatch || match;
    }
  }
  return !anyPositive || positiveMatch;
}

}  // namespace onepass::rt
