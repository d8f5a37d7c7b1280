#!/usr/bin/env bash
# Runs packed CTS categories (pack_cts.sh) on the GPU machine, from the
# repository root: `parallel` categories at a time, each through the kit's
# cts_pass_table.py (--isolate), on ONEPASS_DEVICE=cpu or gpu. Prints each
# category's summary row (the device tool brings back only a few files) and
# leaves the results under $OUT/cts-<device>/.
#   bash .device-cts/run_cts.sh <cpu|gpu> <parallel> <timeout-s> <category...>
set -u
[ $# -ge 4 ] || { echo "usage: run_cts.sh <cpu|gpu> <parallel> <timeout-s> <category...>" >&2; exit 2; }
device=$1 parallel=$2 timeout=$3
shift 3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pack=$(mktemp -d)
tar -C "$pack" -xJf "$here/pack.tar.xz"
export LD_LIBRARY_PATH=$pack/lib ONEPASS_DEVICE=$device ONEPASS_CACHE_DIR=$pack/jit-cache
results=${OUT:-/tmp}/cts-$device
mkdir -p "$results"
start=$(date +%s)
printf '%s\n' "$@" | xargs -P "$parallel" -I{} sh -c \
  "python3 '$pack/cts_pass_table.py' --bin '$pack/bin' --out '$results/{}' --timeout $timeout --isolate {} \
     > '$results/{}.table' 2>&1; echo \"{} done after \$(( \$(date +%s) - $start )) s\""
echo "category,status,tus,total,passed,failed,skipped,not_run"
for c in "$@"; do tail -n +2 "$results/$c/summary.csv" 2>/dev/null || echo "$c,no summary ($(tail -1 "$results/$c.table"))"; done
