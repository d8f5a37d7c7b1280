#!/usr/bin/env bash
# Many processes on one cold cache (issue 21): `procs` copies of a SYCL
# program start at once on an empty persistent kernel cache, `rounds` times.
# Every process must pass; afterwards one more process must find every kernel
# in the cache (no JIT compile: the entries the racing processes wrote are
# whole and valid), and the racing processes must have compiled each kernel
# once in all (issue 19: one builds an entry, the others wait for it and load
# it). Prints, per round, how many JIT compiles the racing processes did
# together, the round's wall time, the largest peak resident memory of its
# processes (where /usr/bin/time exists), and the totals.
#   many_processes.sh <program> [procs, default 8] [rounds, default 20]
set -u
program=$1 procs=${2:-8} rounds=${3:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ONEPASS_DEVICE=${ONEPASS_DEVICE:-cpu} ONEPASS_LOG=info
failed=0 total=0 peak_all=0
jits() { grep -c ': JIT ' "$@" | awk -F: '{s += $NF} END {print s + 0}'; }
for ((r = 1; r <= rounds; r++)); do
  cache=$work/cache-$r
  mkdir -p "$cache"
  start=$EPOCHREALTIME
  for ((p = 1; p <= procs; p++)); do
    if [ -x /usr/bin/time ]; then
      ONEPASS_CACHE_DIR=$cache /usr/bin/time -f '%M' -o "$work/rss-$p" "$program" > "$work/out-$p" 2> "$work/err-$p" &
    else
      ONEPASS_CACHE_DIR=$cache "$program" > "$work/out-$p" 2> "$work/err-$p" &
    fi
  done
  wait
  seconds=$(awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.2f", e - s }')
  peak=$(cat "$work"/rss-* 2>/dev/null | sort -n | tail -1)
  [ -n "$peak" ] && peak="$((peak / 1024)) MiB" || peak="unknown"
  [ "$peak" != unknown ] && [ "${peak% MiB}" -gt "$peak_all" ] && peak_all=${peak% MiB}
  for ((p = 1; p <= procs; p++)); do
    if ! grep -q '^PASSED' "$work/out-$p"; then
      echo "round $r: process $p FAILED:"; tail -5 "$work/out-$p" "$work/err-$p"; failed=1
    fi
  done
  compiles=$(jits "$work"/err-*)
  total=$((total + compiles))
  ONEPASS_CACHE_DIR=$cache "$program" > "$work/check-out" 2> "$work/check-err"
  again=$(jits "$work/check-err")
  if ! grep -q '^PASSED' "$work/check-out" || [ "$again" != 0 ]; then
    echo "round $r: the process after the race compiled $again kernel(s) (want 0) or failed"; failed=1
  fi
  kernels=$(grep -c ': binary from the cache' "$work/check-err")
  if [ "$compiles" != "$kernels" ]; then
    echo "round $r: the racing processes compiled $compiles times for $kernels kernel binaries (want once each)"; failed=1
  fi
  echo "round $r: $procs processes in ${seconds} s (largest peak resident memory $peak), $compiles JIT compiles of" \
    "$kernels kernels; then all $kernels from the cache"
  rm -f "$work"/out-* "$work"/err-* "$work"/rss-*
done
echo "many processes: $rounds rounds of $procs, $total JIT compiles in all; largest peak resident memory ${peak_all} MiB"
[ $failed = 0 ] && echo "many processes: PASSED" || { echo "many processes: FAILED"; exit 1; }
