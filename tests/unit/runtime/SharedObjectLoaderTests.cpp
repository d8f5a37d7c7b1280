// Unit tests of common/platform/SharedObjectLoader.h, which loads the CPU
// device's kernels (shared objects from the JIT or the persistent cache) from
// memory: two different objects loaded one after the other must both be
// loaded (glibc would hand back the first for a repeated /proc/self/fd/N
// name), and bad bytes give errors, not crashes.
#include <catch2/catch.hpp>

#include "../../../common/platform/SharedObjectLoader.h"

#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

namespace {
std::vector<char> readFile(const char *path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
using Answer = int (*)();
}  // namespace

TEST_CASE("load paths are distinct and name the same file", "[shared-object]") {
  const int fd = memfd_create("path-test", MFD_CLOEXEC);
  REQUIRE(fd >= 0);
  struct stat expected {};
  REQUIRE(fstat(fd, &expected) == 0);
  std::set<std::string> seen;
  for (uint64_t load = 1; load <= 3000; ++load) {
    const std::string path = onepass::detail::uniqueFdPath(fd, load);
    CHECK(seen.insert(path).second);
    if (load % 97 == 1 || load == 3000) {
      struct stat actual {};
      REQUIRE(stat(path.c_str(), &actual) == 0);
      CHECK(actual.st_ino == expected.st_ino);
      CHECK(actual.st_dev == expected.st_dev);
    }
  }
  CHECK(onepass::detail::uniqueFdPath(fd, 3000).size() < 64);
  close(fd);
}

TEST_CASE("two shared objects from memory are both loaded", "[shared-object]") {
  const std::vector<char> three = readFile(ONEPASS_TEST_ANSWER3), five = readFile(ONEPASS_TEST_ANSWER5);
  std::string error;
  auto first =
      reinterpret_cast<Answer>(onepass::loadSharedObject(three.data(), three.size(), "onepass_test_answer", error));
  REQUIRE(first);
  auto second =
      reinterpret_cast<Answer>(onepass::loadSharedObject(five.data(), five.size(), "onepass_test_answer", error));
  REQUIRE(second);
  CHECK(first() == 3);
  CHECK(second() == 5);
  // The same bytes again: a third copy, still right.
  auto third =
      reinterpret_cast<Answer>(onepass::loadSharedObject(three.data(), three.size(), "onepass_test_answer", error));
  REQUIRE(third);
  CHECK(third() == 3);
}

TEST_CASE("bad bytes are errors", "[shared-object]") {
  std::string error;
  const char text[] = "not an object at all";
  CHECK(onepass::loadSharedObject(text, sizeof text, "onepass_test_answer", error) == nullptr);
  CHECK(error == "not an ELF shared object");

  const std::vector<char> three = readFile(ONEPASS_TEST_ANSWER3);
  error.clear();
  CHECK(onepass::loadSharedObject(three.data(), three.size(), "no_such_symbol", error) == nullptr);
  CHECK(error == "the CPU kernel has no symbol no_such_symbol");

  error.clear();
  CHECK(onepass::loadSharedObject(three.data(), 64, "onepass_test_answer", error) == nullptr);
  CHECK(error.find("cannot load the CPU kernel") == 0);
}
