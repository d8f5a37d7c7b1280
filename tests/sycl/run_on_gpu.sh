#!/usr/bin/env bash
# run_on_gpu.sh <gpu_probe> <program>: runs a SYCL test program on the GPU
# (ONEPASS_DEVICE=gpu), or reports it skipped (exit 77) when there is none.
probe_output=$("$1" 2>&1)
status=$?
if [ $status -eq 77 ]; then
  echo "SKIPPED (not run): $probe_output"
  exit 77
fi
if [ $status -ne 0 ]; then
  echo "the GPU probe failed: $probe_output"
  exit 1
fi
echo "$probe_output"
ONEPASS_DEVICE=gpu exec "$2"
