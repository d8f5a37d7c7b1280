#!/usr/bin/env bash
# Where a BabelStream-shaped process spends its time with OnePass and with
# CUDA (issue 20): usm_phases.cpp against usm_phases_cuda.cu, both with
# managed memory (malloc_shared / cudaMallocManaged) and with device memory
# (malloc_device / cudaMalloc), fresh processes, alternating.
#
# Usage:
#   usm_phases.sh build <out-dir> [onepass-build-dir]
#       builds usm_phases (onepass++ -O3) and usm_phases_cuda (nvcc -O3 -arch=sm_90).
#   usm_phases.sh run <bin-dir> [rounds] [n]
#       on the GPU machine: `rounds` (default 3) rounds of the four processes
#       over n doubles per array (default 2^25); prints each phase's best time
#       and the whole process's best (the phases: process start and the
#       host's arrays, devices found, allocation, the first kernel, 100 rounds
#       of kernels, the host's read of the arrays, the frees, exit).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mode=${1:-}
usage() { sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[[ -n $mode ]] || usage

if [[ $mode == build ]]; then
  out=${2:?usm_phases.sh build: an output folder is needed}
  build=${3:-$here/../build}
  mkdir -p "$out"
  "$build/bin/onepass++" -fsycl-sscp -O3 -std=c++17 "$here/usm_phases.cpp" -o "$out/usm_phases"
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  "$nvcc" -O3 -std=c++17 -arch=sm_90 "$here/usm_phases_cuda.cu" -o "$out/usm_phases_cuda"
  exit 0
fi
[[ $mode == run ]] || usage
bin=${2:?usm_phases.sh run: the folder of the built programs is needed}
rounds=${3:-3}
n=${4:-33554432}
export ONEPASS_DEVICE=gpu
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
configs=("cuda managed" "onepass shared" "cuda device" "onepass device")
for round in $(seq "$rounds"); do
  # Each round starts one program later, and a second passes between
  # processes: a process right after one that used managed memory starts
  # slower (the driver still tears that memory down), and that must not
  # always fall on the same program.
  for k in 0 1 2 3; do
    config=${configs[$(((round - 1 + k) % 4))]}
    sleep 1
    read -r who memory <<< "$config"
    program=$bin/usm_phases; [[ $who == cuda ]] && program=$bin/usm_phases_cuda
    f=$logs/$who-$memory-$round
    t0=$(date +%s.%N)
    if ! "$program" "$n" "$memory" > "$f" 2> "$f.err"; then
      echo "usm_phases.sh: $program $n $memory failed:" >&2
      tail -n 5 "$f" "$f.err" >&2
      exit 1
    fi
    t1=$(date +%s.%N)
    echo "launch $t0" >> "$f"
    echo "end $t1" >> "$f"
  done
done
python3 - "$logs" "$rounds" "$n" <<'PY'
import sys, os
logs, rounds, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
phases = ["start", "devices", "allocate", "init", "kernels", "read", "free", "exit", "total"]
configs = [("cuda", "managed"), ("onepass", "shared"), ("cuda", "device"), ("onepass", "device")]
best = {}
for who, memory in configs:
    for r in range(1, rounds + 1):
        marks = dict(line.split() for line in open(os.path.join(logs, f"{who}-{memory}-{r}")))
        t = {k: float(v) for k, v in marks.items()}
        order = ["launch", "host", "devices", "allocate", "init", "kernels", "read", "free", "end"]
        times = {p: t[order[i + 1]] - t[order[i]] for i, p in enumerate(phases[:-1])}
        times["total"] = t["end"] - t["launch"]
        for p, v in times.items():
            key = (who, memory, p)
            best[key] = min(best.get(key, 1e30), v)
print(f"usm_phases: {n} doubles per array, best of {rounds} processes per column (alternated), seconds")
print(f"{'phase':10} {'cuda managed':>13} {'onepass shared':>15} {'diff':>7}   {'cuda device':>12} {'onepass device':>15} {'diff':>7}")
for p in phases:
    cm, os_, cd, od = (best[(w, m, p)] for w, m in configs)
    print(f"{p:10} {cm:13.3f} {os_:15.3f} {os_ - cm:+7.3f}   {cd:12.3f} {od:15.3f} {od - cd:+7.3f}")
PY
