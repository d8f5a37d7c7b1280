// Faults in the persistent kernel cache (issue 21): entries emptied,
// truncated, bit-flipped, of another format version, swapped (a whole, valid
// entry under another kernel's name), foreign files beside them, a directory
// that cannot be created, and, through an LD_PRELOAD shim
// (Inputs/cache_fault_shim.cpp), a full disk, a read-only file system and an
// entry deleted between the lookup and the load. Each is detected and the
// kernel rebuilt (never a bad binary loaded), or ignored; the program's
// results are right every time.
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.cache
// RUN: env ONEPASS_CACHE_DIR=%t.cache %t | FileCheck %s --check-prefix=RIGHT
// RUN: ls %t.cache/*.bin | wc -l | FileCheck %s --check-prefix=TWO
// Zero-length entries:
// RUN: for f in %t.cache/*.bin; do : > $f; done
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=REBUILT
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=CACHED
// Truncated entries:
// RUN: for f in %t.cache/*.bin; do truncate -s 100 $f; done
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=REBUILT
// A bit flipped in the middle of each entry (its checksum no longer agrees):
// RUN: for f in %t.cache/*.bin; do printf '\377' | dd of=$f bs=1 seek=300 conv=notrunc status=none; done
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=REBUILT
// Entries of another format version (the magic's last byte is the version):
// RUN: for f in %t.cache/*.bin; do printf '9' | dd of=$f bs=1 seek=7 conv=notrunc status=none; done
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=REBUILT
// One kernel's entry copied over the other's:
// RUN: cp $(ls %t.cache/*.bin | head -1) $(ls %t.cache/*.bin | tail -1)
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=SWAPPED
// Foreign files, and a directory where an entry would be:
// RUN: echo foreign > %t.cache/0123456789abcdef.bin && echo notes > %t.cache/README && mkdir -p %t.cache/sub.bin
// RUN: env ONEPASS_CACHE_DIR=%t.cache ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=CACHED
// The file system's own faults, through the shim. A full disk: nothing is
// written, nothing half-written is left (the build locks' directory, locks/,
// holds empty files only), and a later run stores whole entries:
// RUN: %clangxx -shared -fPIC -O1 %S/Inputs/cache_fault_shim.cpp -o %t.shim.so -ldl
// RUN: rm -rf %t.full && mkdir %t.full
// RUN: env ONEPASS_CACHE_DIR=%t.full ONEPASS_LOG=info LD_PRELOAD=%t.shim.so ONEPASS_TEST_CACHE_FAULT=full %t 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: ls -A %t.full | sed '/^locks$/d' | wc -l | FileCheck %s --check-prefix=NONE
// RUN: find %t.full/locks -type f -size +0 | wc -l | FileCheck %s --check-prefix=NONE
// RUN: env ONEPASS_CACHE_DIR=%t.full ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=STORED
// RUN: env ONEPASS_CACHE_DIR=%t.full ONEPASS_LOG=info %t 2>&1 | FileCheck %s --check-prefix=CACHED
// A read-only file system:
// RUN: rm -rf %t.ro && mkdir %t.ro
// RUN: env ONEPASS_CACHE_DIR=%t.ro ONEPASS_LOG=info LD_PRELOAD=%t.shim.so ONEPASS_TEST_CACHE_FAULT=readonly %t 2>&1 | FileCheck %s --check-prefix=READONLY
// (The shim fails entries' files only: the empty locks/ may be made.)
// RUN: ls -A %t.ro | sed '/^locks$/d' | wc -l | FileCheck %s --check-prefix=NONE
// Entries deleted between the lookup and the load (another process pruning):
// RUN: env ONEPASS_CACHE_DIR=%t.full ONEPASS_LOG=info LD_PRELOAD=%t.shim.so ONEPASS_TEST_CACHE_FAULT=vanish %t 2>&1 | FileCheck %s --check-prefix=VANISH
// A cache directory that cannot be made (even root cannot create one in /proc):
// RUN: env ONEPASS_CACHE_DIR=/proc/onepass-cache-test %t 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
#include <sycl/sycl.hpp>

#include <cstdio>

// RIGHT: right
// TWO: 2
// REBUILT: warning: kernel cache entry {{.*}}.bin is corrupt or stale; rebuilding it
// REBUILT: right
// CACHED-NOT: warning
// CACHED-NOT: : JIT
// CACHED: right
// SWAPPED-DAG: binary from the cache
// SWAPPED-DAG: warning: kernel cache entry {{.*}}.bin is corrupt or stale; rebuilding it
// SWAPPED: right
// FULL: warning: cannot write kernel cache entry {{.*}}.bin.tmp.{{.*}}: No space left on device
// FULL-NOT: corrupt
// FULL: right
// NONE: {{^0$}}
// STORED-NOT: warning
// STORED: : JIT
// STORED-NOT: warning
// STORED: right
// READONLY: warning: cannot write kernel cache entry {{.*}}.bin.tmp.{{.*}}: Read-only file system
// READONLY-NOT: corrupt
// READONLY: right
// VANISH-NOT: warning
// VANISH: : JIT
// VANISH-NOT: warning
// VANISH: right
// UNWRITABLE: warning: kernel cache disabled: cannot create its directory '/proc/onepass-cache-test'
// UNWRITABLE-NOT: warning
// UNWRITABLE: right

int main() {
  sycl::queue q{sycl::cpu_selector_v};
  constexpr std::size_t n = 64;
  int *data = sycl::malloc_shared<int>(n, q);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { data[i] = static_cast<int>(i) * 3; }).wait();
  q.single_task([=] { data[0] = 1000; }).wait();
  bool ok = data[0] == 1000;
  for (std::size_t i = 1; i < n; ++i) ok = ok && data[i] == static_cast<int>(i) * 3;
  std::printf("%s\n", ok ? "right" : "WRONG");
  sycl::free(data, q);
}
