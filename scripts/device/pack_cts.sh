#!/usr/bin/env bash
# Packs CTS category binaries for the GPU machine (which has no LLVM and no
# CTS build) into .device-cts/ (ignored by git, sent with the device tool's
# `carry`): the runtime, JIT, backend plugin and builtins of an OnePass build,
# the stripped test_<category> binaries, the kit's cts_pass_table.py and
# run_cts.sh, as one xz archive (the carry holds 64 MiB in all).
#   bash scripts/device/pack_cts.sh <cts-build-dir> <category...>
# Env: ONEPASS_BUILD_DIR (default build/): the OnePass the binaries run with;
# ONEPASS_CTS_KIT (default ../shared/cts).
# On the GPU machine: bash .device-cts/run_cts.sh <cpu|gpu> <parallel> <timeout-s> <category...>
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: pack_cts.sh <cts-build-dir> <category...>" >&2; exit 2; }
cts=$(cd "$1" && pwd); shift
build=${ONEPASS_BUILD_DIR:-$root/build}
kit=${ONEPASS_CTS_KIT:-$root/../shared/cts}
[ -d "$kit" ] || kit=/work/shared/cts
out=$root/.device-cts
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib/onepass/bitcode" "$stage/bin"
cp "$build/lib/libonepass-rt.so" "$stage/lib/"
cp "$build/lib/onepass/libonepass-jit.so" "$stage/lib/onepass/"
cp "$build/lib/onepass/libonepass-backend-cuda.so" "$stage/lib/onepass/" 2>/dev/null || true
cp "$build"/lib/onepass/bitcode/*.bc "$stage/lib/onepass/bitcode/"
for c in "$@"; do
  if [ -x "$cts/bin/test_$c" ]; then cp "$cts/bin/test_$c" "$stage/bin/"
  elif [ -x "$cts/bin/partial/test_$c" ]; then  # some test files did not compile: the rest
    echo "pack_cts.sh: $c: the partial binary (of the test files that compiled)"
    cp "$cts/bin/partial/test_$c" "$stage/bin/"
  else echo "pack_cts.sh: no binary $cts/bin/test_$c" >&2; exit 1; fi
done
find "$stage" -type f \( -name '*.so' -o -perm -u+x \) -exec strip --strip-unneeded {} + 2>/dev/null || true
cp "$kit/cts_pass_table.py" "$stage/"
rm -rf "$out" && mkdir -p "$out"
tar -C "$stage" -cJf "$out/pack.tar.xz" .
cp "$root/scripts/device/run_cts.sh" "$out/"
du -sh "$out"
