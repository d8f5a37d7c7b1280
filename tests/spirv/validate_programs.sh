#!/usr/bin/env bash
# Issue 18: every kernel of the end-to-end test programs lowers to SPIR-V
# that passes spirv-val (SPIRV-Tools), through `onepass-jit --target=spirv`.
#
# usage: validate_programs.sh <onepass-jit> <programs dir> <external libs dir> <work dir>
#
# A kernel may instead fail with the one error documented for the test
# programs: external_main.cpp's deliberately undefined SYCL_EXTERNAL
# function. It is counted and listed; any other failure, a crash, or a module spirv-val
# rejects fails the test.
set -uo pipefail
jit=$1 programs=$2 external=$3 work=$4
if ! command -v spirv-val >/dev/null; then
  echo "spirv-val not found (Debian package spirv-tools: scripts/setup-deps.sh installs it)"
  exit 1
fi
rm -rf "$work" && mkdir -p "$work"
documented='calls .ext_host_only\(int\)., which no translation unit'
status=0 kernels=0 known=0
for program in "$programs"/sycl-*; do
  name=$(basename "$program")
  [ "$name" = sycl-gpu_probe ] && continue  # a host-only probe: no kernels
  libraries=()
  [ "$name" = sycl-external ] && libraries=("$external/libonepass_ext_shared.so")
  "$jit" --target=spirv "$program" "${libraries[@]}" -o "$work/$name" > "$work/$name.log" 2>&1
  rc=$?
  ok=$(grep -c '^ok ' "$work/$name.log")
  kernels=$((kernels + ok))
  if [ $rc -ne 0 ]; then
    # Each FAILED line is followed by its message.
    unexpected=$(grep -A1 '^FAILED' "$work/$name.log" | grep -v '^FAILED\|^--' | grep -Ev "$documented" || true)
    if [ $rc -ne 1 ] || [ -n "$unexpected" ] || ! grep -q '^FAILED' "$work/$name.log"; then
      echo "FAIL $name (exit $rc):"; tail -5 "$work/$name.log"; status=1
    else
      n=$(grep -c '^FAILED' "$work/$name.log"); known=$((known + n))
      echo "$name: $ok kernels lowered; $n not lowered, as documented:"
      grep -A1 '^FAILED' "$work/$name.log" | grep -v '^--' | sed 's/^/    /' | cut -c1-200
    fi
  fi
  for module in "$work/$name"/*.spv; do
    [ -e "$module" ] || continue
    if ! spirv-val "$module" > "$work/val.out" 2>&1; then
      echo "FAIL $name: spirv-val rejects $(basename "$module"):"; head -3 "$work/val.out"; status=1
    fi
  done
done
modules=$(find "$work" -mindepth 2 -maxdepth 2 -name '*.spv' | wc -l)
echo "$kernels kernels lowered to SPIR-V, $modules modules checked with spirv-val; $known not lowered (documented)"
[ "$kernels" -gt 500 ] || { echo "FAIL: expected more than 500 kernels, found $kernels"; status=1; }
exit $status
