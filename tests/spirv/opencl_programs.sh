#!/usr/bin/env bash
# Issue 18: end-to-end test programs run on an OpenCL device through
# OnePass's OpenCL backend (ONEPASS_DEVICE_SELECTOR=opencl:*; in CI, Debian's
# PoCL through SPIR 1.2). Skips, saying why, where the backend finds no
# device.
#
# usage: opencl_programs.sh <onepass-info> <programs dir> <program>...
set -uo pipefail
info=$1 programs=$2
shift 2
export ONEPASS_DEVICE_SELECTOR='opencl:*'
if ! listing=$("$info" 2>&1) || ! grep -q '\[opencl:0\]' <<<"$listing"; then
  echo "SKIPPED: the OpenCL backend finds no device:"
  grep -i 'opencl' <<<"$listing" | sed 's/^/  /'
  exit 0
fi
grep -A1 '\[opencl:0\]' <<<"$listing" | head -1
status=0
# The device's operations go through the runtime's streams (asynchronous
# command queues with profiling: no event lacks its device times).
out=$(ONEPASS_LOG=debug timeout 120 "$programs/sycl-events_queues" 2>&1)
if ! grep -q "asynchronous streams" <<<"$out" || grep -q "no device timestamps" <<<"$out"; then
  echo "FAILED: the OpenCL device does not run on asynchronous streams with device times:"
  grep -E "streams|synchronous operations|timestamps" <<<"$out" | head -5 | sed 's/^/  /'
  status=1
fi
for program in "$@"; do
  if out=$(timeout 300 "$programs/sycl-$program" 2>&1); then
    echo "PASSED $program"
    grep '^SKIPPED' <<<"$out" | sed 's/^/  /'  # parts the device cannot run, and why
  else
    echo "FAILED $program:"; tail -5 <<<"$out" | sed 's/^/  /'; status=1
  fi
done
exit $status
