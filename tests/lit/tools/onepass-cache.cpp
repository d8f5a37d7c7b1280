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
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=AFTERWARM
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=SECOND
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
// --target: a GPU target's JIT output without a device of it (it is run on
// one in tests/fake_hsa/warm_target.sh); the CPU's kernels are compiled on
// the CPU that runs them.
// RUN: rm -rf %t.cache && onepass-cache --dir %t.cache warm %t --target ptx --arch sm_80 | FileCheck %s --check-prefix=TPTX
// RUN: onepass-cache --dir %t.cache warm %t --target=ptx --arch=sm_80 | FileCheck %s --check-prefix=TAGAIN
// RUN: onepass-cache --dir %t.cache warm %t --target spirv | FileCheck %s --check-prefix=TSPIRV
// RUN: onepass-cache --dir %t.cache warm %t --target amdgcn --arch gfx1100 | FileCheck %s --check-prefix=TAMD
// RUN: onepass-cache --dir %t.cache ls | grep -c 'sm_80, any device library libdevice.10.bc [0-9]* bytes, hash' | FileCheck %s --check-prefix=TLS
// RUN: onepass-cache --dir %t.cache ls | grep -c 'SPIR-V, any device library none' | FileCheck %s --check-prefix=TLS
// RUN: onepass-cache --dir %t.cache ls | grep -c 'gfx1100, any device library ocml.bc' | FileCheck %s --check-prefix=TLS
// RUN: not onepass-cache --dir %t.cache warm %t --target x86 2>&1 | FileCheck %s --check-prefix=TCPU
// RUN: not onepass-cache --dir %t.cache warm %t --target cuda 2>&1 | FileCheck %s --check-prefix=TBAD
// RUN: not onepass-cache --dir %t.cache warm %t --target ptx --arch gfx90a 2>&1 | FileCheck %s --check-prefix=TARCH
// RUN: not onepass-cache --dir %t.cache warm %t --target spirv --arch sm_90 2>&1 | FileCheck %s --check-prefix=TSPIRVARCH
// RUN: not onepass-cache --dir %t.cache warm %t --arch sm_90 2>&1 | FileCheck %s --check-prefix=TARCHALONE
// RUN: not onepass-cache --dir %t.cache warm %t --target ptx --device gpu 2>&1 | FileCheck %s --check-prefix=TBOTH
// RUN: not onepass-cache --dir %t.cache ls --target ptx 2>&1 | FileCheck %s --check-prefix=TNOTWARM
// TPTX: 3 kernels compiled for sm_80{{.*}} in {{.*}} s, 0 already in the cache, 0 failed
// TAGAIN: 0 kernels compiled for sm_80{{.*}} in {{.*}} s, 3 already in the cache, 0 failed
// TSPIRV: 3 kernels compiled for SPIR-V in {{.*}} s, 0 already in the cache, 0 failed
// TAMD: 3 kernels compiled for gfx1100 in {{.*}} s, 0 already in the cache, 0 failed
// TLS: {{^}}3{{$}}
// TCPU: the CPU device's kernels are compiled for the CPU that runs them; warm them on that machine with --device cpu
// TBAD: --target is ptx, spirv or amdgcn, not 'cuda'
// TARCH: --arch for ptx is an NVIDIA architecture such as sm_90, not 'gfx90a'
// TSPIRVARCH: --arch does not go with --target spirv
// TARCHALONE: --arch goes with --target
// TBOTH: warm takes --device or --target, not both
// TNOTWARM: --device, --target and --arch go with warm
#include <sycl/sycl.hpp>

// STATS: cache: 3 entries, {{.*}} (cap 4.0 GiB, ONEPASS_CACHE_MAX_SIZE)
// LS-COUNT-3: .bin {{.*}}used {{.*}}__onepass_kernel_
// VERIFY: removed {{.*}}.bin: damaged (size, key or checksum)
// VERIFY: 2 entries check out, 1 removed
// PRUNE: removed {{.*}} of least recently used entries (cap 1 B)
// EMPTY: 0 entries
// CLEAR: removed 3 entries
// WARM: 3 kernel binaries built or found in the cache for 1 device(s) in {{.*}} s, 0 skipped (the device cannot run them), 0 failed
// After warm, the nd_range kernel (compiled per work-group range on the CPU)
// launches with its generic binary; the binary for its work-group range is
// compiled in the background, and exit waits for it to reach the cache.
// AFTERWARM-COUNT-2: binary from the cache in
// AFTERWARM: kernel_entry_nd_range{{.*}}: its generic binary from the cache serves the launches while the binary for this launch's values is compiled in the background
// AFTERWARM-NOT: binary from the cache in
// AFTERWARM: kernel_entry_nd_range{{.*}}: JIT {{[0-9]+}} us (in the background)
// SECOND-COUNT-3: binary from the cache in
// SECOND-NOT: : JIT
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
