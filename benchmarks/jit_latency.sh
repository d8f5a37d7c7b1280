#!/usr/bin/env bash
# JIT latency per kernel, per target (issue 18's figure): every kernel of the
# end-to-end test programs through onepass-jit, for SPIR-V, PTX (sm_90),
# AMDGCN (gfx942, the code object linked by lld included) and the host CPU, alternating targets per program so they share the machine's
# state. Prints median, 90th percentile and worst per target, without each
# process's first kernel (which pays LLVM's one-time set-up; with it too).
# (--no-ir: the JIT's IR dumps are not timed.)
#
# usage: benchmarks/jit_latency.sh [build dir]
set -euo pipefail
build=${1:-build}
jit=$build/bin/onepass-jit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for program in "$build"/tests/sycl/programs/sycl-*; do
  name=$(basename "$program")
  case $name in sycl-gpu_probe|*_O0) continue ;; esac
  libraries=()
  [ "$name" = sycl-external ] && libraries=("$build/tests/sycl/external/libonepass_ext_shared.so")
  for target in spirv ptx amdgcn x86; do
    "$jit" --target=$target --no-ir "$program" "${libraries[@]}" -o "$work/$target-$name" > "$work/$target-$name.log" 2>&1 || true
  done
done
python3 - "$work" <<'PY'
import glob, re, statistics, sys
work = sys.argv[1]
for target in ("spirv", "ptx", "amdgcn", "x86"):
    every, later = [], []
    for log in glob.glob(f"{work}/{target}-*.log"):
        times = [float(m.group(1)) for m in re.finditer(r"^ok \S+ ([0-9.]+) ms", open(log).read(), re.M)]
        every += times
        later += times[1:]
    every.sort(); later.sort()
    if not later:
        print(f"{target}: no kernels"); continue
    print(f"{target:5}: {len(every)} kernels; median {statistics.median(later):.1f} ms, "
          f"p90 {later[int(len(later) * 0.9)]:.1f} ms, worst {later[-1]:.1f} ms "
          f"(with each process's first: median {statistics.median(every):.1f}, worst {every[-1]:.1f})")
PY
