// After `onepass-cache warm`, a kernel whose binary has launch values compiled
// in (on the CPU an nd_range kernel's work-group range; a local accessor's
// size) starts with its generic binary, while its own binary is compiled in
// the background; a launch after that compile loads it in place of the
// generic one, and results are right before and after. With "wait", the
// program launches until its log (ONEPASS_LOG_FILE) says the binary was
// replaced (at most 60 s). The next process finds that binary in the cache
// and compiles nothing.
// (Compiled, then linked: a sanitizer build of OnePass links with its
// sanitizers, and the kernels checked here must be compiled without them.)
// RUN: %onepass -fsycl-sscp -O2 -c %s -o %t.o
// RUN: %onepass -fsycl-sscp %t.o -o %t
// RUN: rm -rf %t.cache %t.log %t.log2
// RUN: onepass-cache --dir %t.cache warm %t --device cpu | FileCheck %s --check-prefix=WARM
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info ONEPASS_LOG_FILE=%t.log %t %t.log wait | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=FIRST < %t.log
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info ONEPASS_LOG_FILE=%t.log2 %t %t.log2 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=SECOND < %t.log2
// WARM: 1 kernel binaries built or found in the cache for 1 device(s)
// OUT: results right with the generic binary and with the binary for the launch values
// FIRST: kernel_entry_nd_range{{.*}}: its generic binary from the cache serves the launches while the binary for this launch's values is compiled in the background
// FIRST: kernel_entry_nd_range{{.*}}: JIT {{[0-9]+}} us (in the background)
// FIRST: kernel_entry_nd_range{{.*}}: the binary for its launch values replaced the generic one after {{[0-9]+}} us
// SECOND: kernel_entry_nd_range{{.*}}: binary from the cache in
// SECOND-NOT: : JIT {{[0-9]}}
// SECOND-NOT: generic binary
#include <sycl/sycl.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace {
bool logSays(const char *path, const char *text) {
  std::ifstream in(path);
  const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return log.find(text) != std::string::npos;
}

// Reverses each work-group's values through local memory: wrong if the
// work-group range or the local accessor's size were wrong in the binary.
bool reverseGroups(sycl::queue &q, int *data, size_t n, size_t group) {
  for (size_t i = 0; i < n; ++i) data[i] = static_cast<int>(i);
  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<int, 1> tile(group, h);
     h.parallel_for(sycl::nd_range<1>(n, group), [=](sycl::nd_item<1> it) {
       const size_t l = it.get_local_id(0);
       tile[l] = data[it.get_global_id(0)];
       sycl::group_barrier(it.get_group());
       data[it.get_global_id(0)] = tile[it.get_local_range(0) - 1 - l];
     });
   }).wait();
  for (size_t i = 0; i < n; ++i) {
    const size_t base = i / group * group;
    if (data[i] != static_cast<int>(base + group - 1 - (i - base))) {
      std::printf("wrong value at %zu: %d\n", i, data[i]);
      return false;
    }
  }
  return true;
}
}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  sycl::queue q(sycl::cpu_selector_v);
  const size_t n = 4096, group = 64;
  int *data = sycl::malloc_shared<int>(n, q);
  const bool wait = argc > 2 && std::string(argv[2]) == "wait";
  bool right = true, replaced = !wait;
  const auto start = std::chrono::steady_clock::now();
  while (right && !replaced && std::chrono::steady_clock::now() - start < std::chrono::seconds(60)) {
    right = reverseGroups(q, data, n, group);
    replaced = logSays(argv[1], "replaced the generic one");
  }
  // A few more launches with whatever binary is final now.
  for (int i = 0; right && i < 3; ++i) right = reverseGroups(q, data, n, group);
  sycl::free(data, q);
  if (!right) return 1;
  if (!replaced) {
    std::printf("the generic binary was never replaced\n");
    return 1;
  }
  std::printf("results right with the generic binary and with the binary for the launch values\n");
  return 0;
}
