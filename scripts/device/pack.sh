#!/usr/bin/env bash
# Packs what the GPU machine needs into .device-carry/ (ignored by git, sent
# with the device tool's `carry`): the runtime, JIT, backend plugins and
# builtins (stripped), the test and benchmark programs, and run.sh.
# The GPU machine has no LLVM; everything it runs is built here.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
carry=$root/.device-carry
rm -rf "$carry"
mkdir -p "$carry/lib/onepass/bitcode" "$carry/programs"
cp "$build/lib/libonepass-rt.so" "$carry/lib/"
cp "$build/lib/onepass/libonepass-jit.so" "$build/lib/onepass/libonepass-backend-cuda.so" "$carry/lib/onepass/"
cp "$build"/lib/onepass/bitcode/*.bc "$carry/lib/onepass/bitcode/"
cp "$build"/tests/sycl/programs/sycl-* "$carry/programs/"
# The shared library of the SYCL_EXTERNAL test (sycl-external links it).
cp "$build"/tests/sycl/external/*.so "$carry/lib/"
cp "$build/bin/examples/vector_add" "$carry/programs/"
mkdir -p "$carry/bin"
cp "$build/bin/onepass-cache" "$carry/bin/"
# A cache warmed here, where there is no GPU (issue 19's `warm --target`):
# run.sh's first-launch part checks that the GPU finalizes it without the JIT.
"$build/bin/onepass-cache" --dir "$carry/target-cache" warm "$build/bin/examples/vector_add" --target ptx \
  --arch "${GPU_ARCH:-sm_90}" > /dev/null
for p in "$build"/benchmarks/programs/*; do [ -x "$p" ] && cp "$p" "$carry/programs/"; done
# The fake driver (tests/fake-cuda): measures the runtime's own launch path there.
if [ -d "$build/tests/fake-cuda" ]; then
  mkdir -p "$carry/fake-cuda"
  cp -L "$build/tests/fake-cuda/libcuda.so.1" "$carry/fake-cuda/"
fi
find "$carry" -type f \( -name '*.so' -o -perm -u+x \) -exec strip --strip-unneeded {} + 2>/dev/null || true
# The JIT (LLVM's x86, NVPTX, SPIR-V and AMDGPU targets and lld: ~80 MiB
# stripped) travels compressed; run.sh unpacks it (gzip is everywhere).
gzip -6 "$carry/lib/onepass/libonepass-jit.so"
cp "$root/scripts/device/run.sh" "$root/benchmarks/gpu_first_launch.sh" "$carry/"
du -sh "$carry"
