// Unit tests of the environment variables' parsers (runtime/core):
// ONEPASS_DEVICE_SELECTOR's terms, ONEPASS_CACHE_MAX_SIZE's sizes and
// ONEPASS_LOG_FILE's path pattern. (tests/fuzz/environment_fuzzer.cpp
// feeds them arbitrary input.)
#include <catch2/catch.hpp>

#include "DeviceSelector.h"
#include "Environment.h"
#include "Log.h"

#include <string>
#include <vector>

using onepass::rt::SelectorTerm;

namespace {
std::vector<SelectorTerm> parsed(const std::string &text) {
  std::vector<SelectorTerm> terms;
  std::string error;
  REQUIRE(onepass::rt::parseSelector(text, terms, error));
  REQUIRE(error.empty());
  return terms;
}
std::string refused(const std::string &text) {
  std::vector<SelectorTerm> terms;
  std::string error;
  REQUIRE_FALSE(onepass::rt::parseSelector(text, terms, error));
  REQUIRE(terms.empty());
  return error;
}
}  // namespace

TEST_CASE("ONEPASS_DEVICE_SELECTOR terms", "[environment]") {
  const std::vector<SelectorTerm> terms = parsed(" !CPU , h100,cuda:1,cuda:*,gpu");
  REQUIRE(terms.size() == 5);
  CHECK((terms[0].negated && terms[0].type == "cpu"));
  CHECK((!terms[1].negated && terms[1].name == "h100"));
  CHECK((terms[2].backend == "cuda" && terms[2].index == 1));
  CHECK((terms[3].backend == "cuda" && terms[3].index == -1));
  CHECK(terms[4].type == "gpu");

  CHECK(refused("cpu,,gpu").find("empty term") != std::string::npos);
  CHECK(refused("rocm:0").find("names no backend") != std::string::npos);
  std::vector<onepass::rt::SelectorTerm> opencl;
  std::string why;
  REQUIRE(onepass::rt::parseSelector("opencl:1,opencl,level_zero:*,hip", opencl, why));
  CHECK((opencl[0].backend == "opencl" && opencl[0].index == 1));
  CHECK((opencl[1].backend == "opencl" && opencl[1].index == -1));
  CHECK((opencl[2].backend == "level_zero" && opencl[2].index == -1));
  CHECK((opencl[3].backend == "hip" && opencl[3].index == -1 && opencl[3].name.empty()));
  CHECK(refused("cuda:x").find("device index") != std::string::npos);
  CHECK(refused("cuda:12345").find("device index") != std::string::npos);
  CHECK(refused("!").find("empty term") != std::string::npos);
}

TEST_CASE("ONEPASS_DEVICE_SELECTOR selection", "[environment]") {
  using onepass::rt::selectorSelects;
  // Positive terms: any of them; negated ones: none of them.
  CHECK(selectorSelects(parsed("cuda:1"), "cuda", true, "NVIDIA H100", 1));
  CHECK_FALSE(selectorSelects(parsed("cuda:1"), "cuda", true, "NVIDIA H100", 0));
  CHECK_FALSE(selectorSelects(parsed("cuda:1"), "cpu", false, "Xeon", 0));
  CHECK(selectorSelects(parsed("!cpu"), "cuda", true, "NVIDIA H100", 0));
  CHECK_FALSE(selectorSelects(parsed("!cpu"), "cpu", false, "Xeon", 0));
  CHECK(selectorSelects(parsed("h100,cpu"), "cpu", false, "Xeon", 0));
  CHECK_FALSE(selectorSelects(parsed("gpu,!h100"), "cuda", true, "NVIDIA H100 80GB", 0));
  CHECK(selectorSelects(parsed("gpu,!h100"), "cuda", true, "NVIDIA A100", 0));
  CHECK(selectorSelects(parsed("XEON"), "cpu", false, "Intel(R) Xeon(R)", 0));  // names: any case
}

TEST_CASE("ONEPASS_CACHE_MAX_SIZE sizes", "[environment]") {
  using onepass::rt::env::parseSize;
  uint64_t bytes = 0;
  CHECK((parseSize("0", bytes) && bytes == 0));
  CHECK((parseSize("4G", bytes) && bytes == (uint64_t(4) << 30)));
  CHECK((parseSize("512MiB", bytes) && bytes == (uint64_t(512) << 20)));
  CHECK((parseSize("16TB", bytes) && bytes == (uint64_t(16) << 40)));
  CHECK((parseSize("1000", bytes) && bytes == 1000));
  CHECK_FALSE(parseSize("", bytes));
  CHECK_FALSE(parseSize("G", bytes));
  CHECK_FALSE(parseSize("-1", bytes));
  CHECK_FALSE(parseSize("4X", bytes));
  CHECK_FALSE(parseSize("16777216T", bytes));              // 2^64: wraps
  CHECK_FALSE(parseSize("99999999999999999999999", bytes));  // more than 64 bits
}

TEST_CASE("ONEPASS_LOG_FILE patterns", "[environment]") {
  using onepass::rt::expandLogPath;
  CHECK(expandLogPath("/tmp/run.log", "12", "3") == "/tmp/run.log");
  CHECK(expandLogPath("log-%p-%r.txt", "12", "3") == "log-12-3.txt");
  CHECK(expandLogPath("100%%-%p", "12", "3") == "100%-12");
  CHECK(expandLogPath("%%p %x %", "12", "3") == "%p %x %");
}
