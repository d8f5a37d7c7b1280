// Test tool: runs a pipeline of the JIT's passes (LLVM's and OnePass's own,
// jit/targets/cpu/CpuPassPipeline.h) on a bitcode file and prints the
// resulting module, after a summary of each kernel whose barriers were
// lowered (for the FileCheck tests in tests/lit/jit/), like LLVM's opt:
//   jit-opt -passes=<pipeline> <input.bc>
// e.g. -passes='onepass-lower-group-barriers<kernel=k>'.
// The JIT library is the build tree's (ONEPASS_TEST_JIT_LIBRARY).
#include "onepass/jit/jit_api.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char **argv) {
  auto usage = [&] {
    std::fprintf(stderr, "usage: %s -passes=<pipeline> <input.bc>\n", argv[0]);
    return 2;
  };
  const char *pipeline = nullptr, *input = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "-passes=", 8) == 0) pipeline = argv[i] + 8;
    else if (!input && argv[i][0] != '-') input = argv[i];
    else return usage();
  }
  if (!pipeline || !input) return usage();
  std::ifstream in(input, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "error: cannot read '%s'\n", input);
    return 2;
  }
  const std::string bitcode((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  void *jit = dlopen(ONEPASS_TEST_JIT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!jit) {
    std::fprintf(stderr, "error: cannot load the JIT: %s\n", dlerror());
    return 2;
  }
  auto run = reinterpret_cast<decltype(&onepass_jit_test_run_passes)>(dlsym(jit, "onepass_jit_test_run_passes"));
  auto release = reinterpret_cast<decltype(&onepass_jit_free)>(dlsym(jit, "onepass_jit_free"));
  if (!run || !release) {
    std::fprintf(stderr, "error: the JIT lacks its test entry points\n");
    return 2;
  }
  onepass_jit_buffer result{};
  char *error = nullptr;
  if (run(bitcode.data(), bitcode.size(), pipeline, &result, &error) != 0) {
    std::fprintf(stderr, "error: %s\n", error ? error : "unknown");
    release(error);
    return 1;
  }
  std::fputs(static_cast<const char *>(result.data), stdout);
  release(result.data);
  return 0;
}
