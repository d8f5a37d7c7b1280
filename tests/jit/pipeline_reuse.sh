#!/usr/bin/env bash
# The JIT keeps each pooled target machine's code-generation pass manager
# for one module after another (CodegenPipeline, jit/src/Codegen.h). Checks
# that what it writes is, byte for byte, what a new pass manager per module
# writes (ONEPASS_JIT_REUSE_PIPELINES=0), for AMDGPU code objects and PTX,
# over programs whose kernels differ in size, local memory and arguments,
# and one kernel that fails in the backend (local memory over the limit)
# followed by others.
#
# usage: pipeline_reuse.sh <onepass-jit> <test program directory>
set -euo pipefail
jit=$1
programs=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for target in amdgcn ptx; do
  for name in local_memory reductions vector_add; do
    program=$programs/sycl-$name
    "$jit" --target=$target --no-ir "$program" -o "$work/reused-$target-$name" > "$work/reused.log" 2>&1 || true
    ONEPASS_JIT_REUSE_PIPELINES=0 "$jit" --target=$target --no-ir "$program" -o "$work/fresh-$target-$name" \
      > "$work/fresh.log" 2>&1 || true
    count=$(find "$work/reused-$target-$name" -type f | wc -l)
    if [ "$count" -lt 2 ]; then
      echo "FAIL $target $name: only $count kernels written"; cat "$work/reused.log"; status=1; continue
    fi
    if ! diff -r "$work/reused-$target-$name" "$work/fresh-$target-$name"; then
      echo "FAIL $target $name: the reused pipeline wrote something else than a new one"; status=1; continue
    fi
    echo "ok $target $name: $count kernels, the same with a new pass manager each"
  done
done
exit $status
