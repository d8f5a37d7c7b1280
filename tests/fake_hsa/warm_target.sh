#!/usr/bin/env bash
# cache.warm_target (issue 19): `onepass-cache warm --target` fills the cache
# for a GPU target without a device of it; a device of that target then loads
# (or finalizes) the JIT's output at its first launch instead of running the
# JIT. Checked on the fake HSA runtime's gfx90a agent, on PoCL (SPIR-V,
# finalized by clBuildProgram) where the machine has it, and an entry for
# another architecture must not be taken.
# Usage: warm_target.sh <onepass-cache> <onepass-info> <hsa-backend> <fake HSA dir> <SYCL program> <work dir>
set -u
tool=$1 info=$2 hsa_program=$3 fake_dir=$4 program=$5 work=$6
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAILED: $*"; exit 1; }
count() { grep -c -- "$1" <<<"$2"; }

run_hsa() {  # run_hsa <cache>: the HSA program on the fake gfx90a agent, its log on stdout
  env FAKE_HSA_LOG="$work/fake.log" ONEPASS_CACHE_DIR="$1" ONEPASS_DEVICE_SELECTOR='hip:*' \
    LD_LIBRARY_PATH="$fake_dir" ONEPASS_LOG=info "$hsa_program" fake 2>&1
}
"$tool" --dir "$work/gfx90a" warm "$hsa_program" --target amdgcn --arch gfx90a || fail "warm --target amdgcn"
out=$(run_hsa "$work/gfx90a") || { echo "$out"; fail "hsa-backend with the warmed cache"; }
echo "$out" | grep "for gfx90a"
# Its fake mode runs three kernels from the warmed cache. The one with a
# local accessor (its range is compiled in at the launch) runs its generic
# binary (a third entry from the warmed cache) while the binary for its range
# is compiled in the background (exit waits for it; the program launches the
# kernel once, so nothing swaps it in: tests/lit/runtime/background-specialization.cpp).
[ "$(count "for gfx90a: the JIT's output from the cache" "$out")" = 3 ] || fail "gfx90a: not 3 kernels from the warmed cache"
[ "$(count "for gfx90a: its generic binary from the cache serves the launches" "$out")" = 1 ] ||
  fail "gfx90a: the local accessor kernel did not start with its generic binary"
[ "$(count "for gfx90a: JIT [0-9]* us (in the background)" "$out")" = 1 ] || fail "gfx90a: not 1 kernel compiled in the background"
[ "$(count "for gfx90a: JIT " "$out")" = 1 ] || fail "gfx90a: a kernel compiled at its launch"
# The next run finds every binary it launches in the cache: the background
# build's own entry, and the other two as warmed (HSA loads the JIT's output
# as it is, no entry of its own).
out=$(run_hsa "$work/gfx90a") || { echo "$out"; fail "hsa-backend, second run with the warmed cache"; }
[ "$(count "for gfx90a: binary from the cache in" "$out")" = 1 ] || { echo "$out"; fail "gfx90a: second run did not find the background build's entry"; }
[ "$(count "for gfx90a: the JIT's output from the cache" "$out")" = 2 ] || { echo "$out"; fail "gfx90a: second run not 2 kernels from the warmed cache"; }
[ "$(count "for gfx90a: JIT \|generic binary" "$out")" = 0 ] || fail "gfx90a: second run compiled a kernel or ran a generic one"

"$tool" --dir "$work/gfx1100" warm "$hsa_program" --target amdgcn --arch gfx1100 || fail "warm --target amdgcn gfx1100"
out=$(run_hsa "$work/gfx1100") || { echo "$out"; fail "hsa-backend with a cache for gfx1100"; }
[ "$(count "output from the cache" "$out")" = 0 ] || fail "gfx90a took entries warmed for gfx1100"
[ "$(count "for gfx90a: JIT " "$out")" = 3 ] || fail "gfx90a: not 3 kernels compiled with a gfx1100 cache"

if "$info" --backend opencl > /dev/null 2>&1; then
  "$tool" --dir "$work/spirv" warm "$program" --target spirv || fail "warm --target spirv"
  for round in first second; do
    out=$(env ONEPASS_CACHE_DIR="$work/spirv" ONEPASS_DEVICE_SELECTOR='opencl:*' ONEPASS_LOG=info "$program" 2>&1) ||
      { echo "$out"; fail "$program on OpenCL with the warmed cache ($round run)"; }
    [ "$(count "for SPIR-V: JIT " "$out")" = 0 ] || fail "OpenCL ($round run): a kernel went through the JIT"
    # First run: each kernel's SPIR-V finalized by the driver; second: the
    # driver's binaries it stored.
    want=$([ $round = first ] && echo "for SPIR-V: the JIT's output from the cache" || echo "for SPIR-V: binary from the cache")
    [ "$(count "$want" "$out")" -ge 1 ] || { echo "$out"; fail "OpenCL ($round run): no '$want'"; }
    echo "OpenCL, $round run: $(count "$want" "$out") kernel(s): $want"
  done
else
  echo "SKIPPED the SPIR-V part: no OpenCL device (onepass-info --backend opencl)"
fi
echo PASSED
