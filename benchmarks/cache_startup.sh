#!/usr/bin/env bash
# Whole-process time of a CPU program with seven kernels (issue 19's figure):
# the first run on an empty persistent cache, the second run (every kernel
# from the cache), and the same process launching nothing (no kernel work at
# all). Target: the second run within 10 ms of the one without kernels.
# Fresh processes, alternating, medians.
#   bash benchmarks/cache_startup.sh [build-dir] [runs, default 9]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
runs=${2:-9}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/bin/onepass++" -fsycl-sscp -O2 "$here/startup/seven_kernels.cpp" -o "$out/seven"
ms() {  # milliseconds of one run of the command
  local start end
  start=$(date +%s%N)
  "$@" > /dev/null
  end=$(date +%s%N)
  echo $(((end - start) / 1000))
}
# `work` prints the time from the queue's creation to the last kernel's end.
work() { "$@" timed | sed -n 's/^work //p'; }
cold=() warm=() none=() tool=() toolwork=() ownwork=()
for ((i = 0; i < runs; i++)); do
  rm -rf "$out/cache" "$out/tool-cache"
  cold+=("$(ONEPASS_CACHE_DIR=$out/cache ms "$out/seven")")
  warm+=("$(ONEPASS_CACHE_DIR=$out/cache ms "$out/seven")")
  none+=("$(ONEPASS_CACHE_DIR=$out/cache ms "$out/seven" none)")
  ownwork+=("$(ONEPASS_CACHE_DIR=$out/cache work "$out/seven")")
  # The cache filled by `onepass-cache warm` instead of a first run: its
  # nd_range kernels (compiled per work-group range on the CPU) run their
  # generic binaries while their own build in the background, which the
  # process waits for at exit.
  "$build/bin/onepass-cache" --dir "$out/tool-cache" warm "$out/seven" --device cpu > /dev/null
  cp -r "$out/tool-cache" "$out/tool-cache2"
  tool+=("$(ONEPASS_CACHE_DIR=$out/tool-cache ms "$out/seven")")
  toolwork+=("$(ONEPASS_CACHE_DIR=$out/tool-cache2 work "$out/seven")")
  rm -rf "$out/tool-cache2"
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
c=$(median "${cold[@]}") w=$(median "${warm[@]}") z=$(median "${none[@]}") t=$(median "${tool[@]}")
ow=$(median "${ownwork[@]}") tw=$(median "${toolwork[@]}")
awk -v c="$c" -v w="$w" -v z="$z" -v t="$t" -v ow="$ow" -v tw="$tw" -v r="$runs" 'BEGIN {
  printf "whole process, 7 kernels on the CPU device (median of %d):\n", r
  printf "  first run, empty cache:        %8.1f ms\n", c / 1000
  printf "  second run, kernels cached:    %8.1f ms\n", w / 1000
  printf "  no kernel launched:            %8.1f ms\n", z / 1000
  printf "  second run - no kernels:       %+8.1f ms (target <= 10 ms)\n", (w - z) / 1000
  printf "  first run after onepass-cache warm: %8.1f ms (exit waits for the background builds)\n", t / 1000
  printf "the kernels'"'"' work, queue creation to the last kernel'"'"'s end:\n"
  printf "  cache the program filled:      %8.2f ms\n", ow / 1000
  printf "  cache from onepass-cache warm: %8.2f ms (%.2fx)\n", tw / 1000, tw / ow }'
