// Test tool: runs the JIT's CPU barrier lowering on one function of a bitcode
// file and prints the step function it builds (for the FileCheck tests in
// tests/lit/jit/).
//   jit-lower-barriers <input.bc> <function>
// The JIT library is the build tree's (ONEPASS_TEST_JIT_LIBRARY).
#include "onepass/jit/jit_api.h"

#include <dlfcn.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <input.bc> <function>\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "error: cannot read '%s'\n", argv[1]);
    return 2;
  }
  const std::string bitcode((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  void *jit = dlopen(ONEPASS_TEST_JIT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!jit) {
    std::fprintf(stderr, "error: cannot load the JIT: %s\n", dlerror());
    return 2;
  }
  auto lower =
      reinterpret_cast<decltype(&onepass_jit_test_lower_barriers)>(dlsym(jit, "onepass_jit_test_lower_barriers"));
  auto release = reinterpret_cast<decltype(&onepass_jit_free)>(dlsym(jit, "onepass_jit_free"));
  if (!lower || !release) {
    std::fprintf(stderr, "error: the JIT lacks its test entry points\n");
    return 2;
  }
  onepass_jit_buffer result{};
  char *error = nullptr;
  if (lower(bitcode.data(), bitcode.size(), argv[2], &result, &error) != 0) {
    std::fprintf(stderr, "error: %s\n", error ? error : "unknown");
    release(error);
    return 1;
  }
  std::fputs(static_cast<const char *>(result.data), stdout);
  release(result.data);
  return 0;
}
