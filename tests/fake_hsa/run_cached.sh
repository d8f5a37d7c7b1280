#!/usr/bin/env bash
# hsa.fake_cached: the HSA program twice on one fresh persistent cache. The
# first run stores its code objects; the second must load them from there
# (the runtime's log says so) and pass its checks with them.
# Usage: run_cached.sh <program> <cache directory>
set -u
program=$1
cache=$2
export ONEPASS_CACHE_DIR=$cache
rm -rf "$cache"
"$program" fake || exit 1
if ! find "$cache" -name '*.bin' | grep -q .; then
  echo "FAILED: the first run stored nothing in $cache"
  exit 1
fi
output=$(ONEPASS_LOG=info "$program" fake 2>&1)
status=$?
echo "$output"
[ $status -eq 0 ] || exit 1
if ! grep -q "for gfx[0-9a-f]*: binary from the cache" <<<"$output"; then
  echo "FAILED: the second run did not load its kernels from the cache"
  exit 1
fi
