#!/usr/bin/env bash
# Issue 18: OnePass's SPIR-V runs on a real OpenCL implementation. Lowers
# opencl_kernels.cpp's kernels with onepass-jit --target=spirv and runs them
# with opencl_runner on the first OpenCL device that takes SPIR-V; where none
# does (Debian's PoCL 3.1 has no IL support) but one takes SPIR 1.2 bitcode,
# the modules are converted with llvm-spirv-15 -r first (a test-side step: the
# runtime's OpenCL backend does not exist yet). Skips, saying why, without an
# OpenCL device or the converter.
#
# usage: opencl_run.sh <onepass-jit> <opencl_kernels program> <opencl_runner> <work dir>
set -uo pipefail
# (In the sanitizer build: what PoCL and LLVM 15 leave allocated is theirs.)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
jit=$1 program=$2 runner=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
kernels=()
for line in $(grep -n '// KERNEL' "$(dirname "$0")/opencl_kernels.cpp" | cut -d: -f1); do
  where="opencl_kernels.cpp:$((line + 1)):"
  out="$work/k$line"
  "$jit" --target=spirv --kernel="$where" "$program" -o "$out" > "$out.log" 2>&1 || { cat "$out.log"; exit 1; }
  module=$(ls "$out"/*.spv)
  spirv-val "$module" || exit 1
  kernels+=("$module")
done
[ ${#kernels[@]} -eq 3 ] || { echo "expected 3 kernels, found ${#kernels[@]}"; exit 1; }
"$runner" il "${kernels[@]}"
rc=$?
[ $rc -ne 77 ] && exit $rc
if ! command -v llvm-spirv-15 >/dev/null; then
  echo "SKIPPED: no OpenCL device takes SPIR-V, and llvm-spirv-15 (to make SPIR 1.2 for PoCL) is not installed"
  exit 0
fi
spir=()
for module in "${kernels[@]}"; do
  llvm-spirv-15 -r "$module" -o "${module%.spv}.bc" || exit 1
  spir+=("${module%.spv}.bc")
done
"$runner" spir "${spir[@]}"
rc=$?
if [ $rc -eq 77 ]; then echo "SKIPPED: no OpenCL device takes SPIR-V or SPIR 1.2 (install pocl-opencl-icd)"; exit 0; fi
exit $rc
