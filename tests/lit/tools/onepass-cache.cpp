// onepass-cache (issue 19) on a cache a program filled: ls, stats, verify
// (a damaged entry removed), prune to a size, clear, warm; bad command
// lines.
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.cache
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_CACHE_MAX_SIZE=0 %t
// RUN: onepass-cache --dir %t.cache stats | FileCheck %s --check-prefix=STATS
// RUN: onepass-cache --dir %t.cache ls | FileCheck %s --check-prefix=LS
// RUN: for f in %t.cache/*.bin; do truncate -s 40 $f; break; done
// RUN: onepass-cache --dir %t.cache verify | FileCheck %s --check-prefix=VERIFY
// RUN: onepass-cache --dir %t.cache prune --max-size 1 | FileCheck %s --check-prefix=PRUNE
// RUN: onepass-cache --dir %t.cache stats | FileCheck %s --check-prefix=EMPTY
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_CACHE_MAX_SIZE=0 %t
// RUN: onepass-cache --dir %t.cache clear | FileCheck %s --check-prefix=CLEAR
// warm: the kernels compiled ahead of the run; on the CPU device only the
// nd_range kernel is compiled again, for its work-group range:
// RUN: rm -rf %t.cache && onepass-cache --dir %t.cache warm %t | FileCheck %s --check-prefix=WARM
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | grep -c ': JIT' | FileCheck %s --check-prefix=AFTERWARM
// RUN: not onepass-cache warm %s 2>&1 | FileCheck %s --check-prefix=NOTELF
// RUN: not onepass-cache --dir %t.cache frobnicate 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not onepass-cache --dir %t.cache prune --max-size lots 2>&1 | FileCheck %s --check-prefix=BADSIZE
// RUN: onepass-cache --help | FileCheck %s --check-prefix=HELP
// HELP: usage: onepass-cache [--dir <directory>] <command>
// HELP: prune [--max-size <n>]
// HELP: warm <binary> [--device <selector>]
// --device takes ONEPASS_DEVICE_SELECTOR's grammar: a malformed selector is a
// usage error naming the term, one that leaves no device says what is seen.
// RUN: rm -rf %t.cache && onepass-cache --dir %t.cache warm %t --device 'cpu:0' | FileCheck %s --check-prefix=WARMCPU
// RUN: not onepass-cache --dir %t.cache warm %t --device 'cpu:x' 2>&1 | FileCheck %s --check-prefix=WARMBAD
// RUN: not onepass-cache --dir %t.cache warm %t --device 'cpu:7' 2>&1 | FileCheck %s --check-prefix=WARMNONE
// WARMCPU: for 1 device(s)
// WARMBAD: onepass-cache: --device: {{.*}}'cpu:x' needs a device index or '*' after the colon
// WARMNONE: onepass-cache: no device matches 'cpu:7' ({{.*}}leaves out cpu:0
#include <sycl/sycl.hpp>

// STATS: cache: 3 entries, {{.*}} (cap 4.0 GiB, ONEPASS_CACHE_MAX_SIZE)
// LS-COUNT-3: .bin {{.*}}used {{.*}}__onepass_kernel_
// VERIFY: removed {{.*}}.bin: damaged (size, key or checksum)
// VERIFY: 2 entries check out, 1 removed
// PRUNE: removed {{.*}} of least recently used entries (cap 1 B)
// EMPTY: 0 entries
// CLEAR: removed 3 entries
// WARM: 3 kernel binaries built or found in the cache for 1 device(s) in {{.*}} s, 0 skipped (the device cannot run them), 0 failed
// AFTERWARM: {{^}}1{{$}}
// NOTELF: onepass-cache: {{.*}}onepass-cache.cpp: not an ELF file
// BAD: onepass-cache: unknown command 'frobnicate'
// BADSIZE: --max-size 'lots' is not a size

int main() {
  sycl::queue q(sycl::cpu_selector_v);
  int *x = sycl::malloc_shared<int>(4, q);
  for (int i = 0; i < 4; ++i)
    x[i] = 0; // malloc_shared memory is not zeroed
  q.single_task([=] { x[0] = 1; }).wait();
  q.parallel_for(4, [=](sycl::item<1> i) { x[i] += 2; }).wait();
  q.parallel_for(sycl::nd_range<1>(4, 2), [=](sycl::nd_item<1> it) { x[it.get_global_id(0)] *= 3; }).wait();
  const bool right = x[0] == 9 && x[1] == 6;
  sycl::free(x, q);
  return right ? 0 : 1;
}
