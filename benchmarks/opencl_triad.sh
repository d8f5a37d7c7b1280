#!/usr/bin/env bash
# Issue 18's figure: OnePass's CPU device against an OpenCL device (PoCL here)
# on the same range triad over 2^25 floats, both through OnePass, in one run.
# usage: benchmarks/opencl_triad.sh [build dir]
set -euo pipefail
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/onepass++" -fsycl-sscp -O3 "$(dirname "$0")/opencl_triad.cpp" -o "$work/triad"
cpu=$(ONEPASS_DEVICE_SELECTOR=cpu "$work/triad")
opencl=$(ONEPASS_DEVICE_SELECTOR='opencl:*' "$work/triad") || { echo "no OpenCL device: $opencl"; exit 1; }
echo "OnePass CPU device: $cpu" | tr '\n' ' '; echo
echo "OpenCL (OnePass's OpenCL backend): $opencl" | tr '\n' ' '; echo
python3 - "$cpu" "$opencl" <<'PY'
import re, sys
ms = [float(re.search(r"best ([0-9.]+) ms", text).group(1)) for text in sys.argv[1:]]
print(f"OnePass CPU / OpenCL kernel time: {ms[0] / ms[1]:.2f} (the CPU device is {ms[1] / ms[0]:.2f}x as fast)")
PY
