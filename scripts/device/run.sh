#!/usr/bin/env bash
# Runs on the GPU machine from the repository root: every end-to-end program
# on the GPU, the GPU failure tests against the real driver, then the GPU
# benchmarks. Logs go to $OUT (the device tool brings them back); the
# programs' own logs are gathered in one file, program-logs.txt, since the
# tool brings back only a few files.
# Usage: run.sh [all|tests|bench|first|launch]
#                                   first: the first-launch and whole-process figures only;
#                                   launch: gpu_launch, and its OnePass side with the fake driver
#        run.sh [all|tests|bench]   tests: the end-to-end programs and buffer_graph only;
#                                   bench: buffer_graph, gpu_launch, gpu_stream, gpu_reduction, gpu_matmul, gpu_vec,
#                                   hierarchical, images, gpu_print
set -u
mode=${1:-all}
carry=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LD_LIBRARY_PATH=$carry/lib
# (pack.sh compresses the JIT library.)
if [ -f "$carry/lib/onepass/libonepass-jit.so.gz" ] && [ ! -f "$carry/lib/onepass/libonepass-jit.so" ]; then
  gzip -dc "$carry/lib/onepass/libonepass-jit.so.gz" > "$carry/lib/onepass/libonepass-jit.so"
fi
out=${OUT:-/tmp}
log=$out/gpu-tests.log
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/gpu.txt" 2>&1
passed=0 failed=0
logs=$(mktemp -d)
# run_program <name> <command...>: runs it on the GPU, records PASS or FAIL.
run_program() {
  local name=$1
  shift
  ONEPASS_DEVICE=gpu ONEPASS_LOG=warning timeout 60 "$@" > "$logs/$name.log" 2>&1
  local rc=$?
  if [ $rc -eq 0 ]; then
    passed=$((passed + 1)); echo "PASS $name" >> "$log"
  else
    failed=$((failed + 1)); echo "FAIL $name (exit $rc$([ $rc -eq 124 ] && echo ', timed out'))" >> "$log"
    tail -20 "$logs/$name.log" >> "$log"
  fi
}
if [ "$mode" = launch ]; then
  # Launch overhead alone: gpu_launch twice, then the runtime path with the
  # fake driver (no GPU work: what OnePass itself costs per launch here).
  for round in 1 2; do "$carry/programs/gpu_launch" 2>&1 | tee -a "$out/gpu_launch.log"; done
  if [ -d "$carry/fake-cuda" ]; then
    for round in 1 2 3; do
      LD_LIBRARY_PATH=$carry/fake-cuda:$carry/lib ONEPASS_CACHE=0 ONEPASS_DEVICE=gpu \
        "$carry/programs/gpu_launch" onepass-only 2>&1 | tee -a "$out/gpu_launch.log"
    done
    if command -v perf > /dev/null; then
      LD_LIBRARY_PATH=$carry/fake-cuda:$carry/lib ONEPASS_CACHE=0 ONEPASS_DEVICE=gpu \
        perf record -o "$out/perf.data" "$carry/programs/gpu_launch" onepass-only > /dev/null 2>&1 &&
        perf report -i "$out/perf.data" --no-children --percent-limit 1 --stdio 2>&1 | grep % | head -40
    else
      echo "(no perf on this machine)"
    fi
  fi
  exit 0
fi
if [ "$mode" != bench ] && [ "$mode" != first ]; then
  for program in "$carry"/programs/sycl-*; do
    name=$(basename "$program")
    case $name in sycl-gpu_probe|sycl-device_info|sycl-jit_missing|sycl-gpu_errors) continue ;; esac
    run_program "$name" "$program"
  done
  # Failures on the real driver: out of memory, and a kernel that faults.
  run_program gpu_errors-oom "$carry/programs/sycl-gpu_errors" oom
  run_program gpu_errors-fault "$carry/programs/sycl-gpu_errors" fault
  run_program gpu_errors-no-libdevice env ONEPASS_CUDA_PATH=/nonexistent/cuda "$carry/programs/sycl-gpu_errors" no-libdevice
  # The feeder thread on the real driver: every call through it, and by default.
  run_program gpu_errors-feeder-always env ONEPASS_GPU_FEEDER=always "$carry/programs/sycl-gpu_errors" feeder
  run_program gpu_errors-feeder "$carry/programs/sycl-gpu_errors" feeder
  # A cache from `onepass-cache warm --device gpu`: kernels with local
  # accessors (their sizes compiled in at launch) start with their generic
  # binaries while their own build in the background; the next run compiles
  # nothing and runs no generic binary.
  if [ -x "$carry/bin/onepass-cache" ] && [ -x "$carry/programs/sycl-local_memory" ]; then
    warmed=$(mktemp -d)
    "$carry/bin/onepass-cache" --dir "$warmed" warm "$carry/programs/sycl-local_memory" --device gpu > "$logs/warm_generic.log" 2>&1
    first=$(ONEPASS_CACHE_DIR=$warmed ONEPASS_DEVICE=gpu ONEPASS_LOG=info timeout 120 "$carry/programs/sycl-local_memory" 2>&1)
    rc1=$?
    second=$(ONEPASS_CACHE_DIR=$warmed ONEPASS_DEVICE=gpu ONEPASS_LOG=info timeout 120 "$carry/programs/sycl-local_memory" 2>&1)
    rc2=$?
    generic1=$(grep -c "generic binary from the cache serves" <<<"$first")
    replaced1=$(grep -c "replaced the generic one" <<<"$first")
    jit2=$(grep -c "for sm_[0-9]*: JIT [0-9]\|generic binary from the cache serves" <<<"$second")
    echo "warm_generic: first run exit $rc1, $generic1 generic stand-in(s), $replaced1 replaced; second run exit $rc2, $jit2 compiled or generic" >> "$logs/warm_generic.log"
    printf '%s\n' "$first" "=== second run" "$second" >> "$logs/warm_generic.log"
    if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "$generic1" -ge 1 ] && [ "$jit2" -eq 0 ]; then
      passed=$((passed + 1)); echo "PASS warm_generic ($generic1 generic stand-ins, $replaced1 replaced)" >> "$log"
    else
      failed=$((failed + 1)); echo "FAIL warm_generic" >> "$log"; head -3 "$logs/warm_generic.log" | tail -1 >> "$log"
    fi
    rm -rf "$warmed"
  fi
  for f in "$logs"/*.log; do echo "=== $(basename "$f" .log)"; cat "$f"; done > "$out/program-logs.txt"
fi
rm -rf "$logs"
echo "$passed passed, $failed failed" >> "$log"
cat "$log"
if [ -x "$carry/programs/buffer_graph" ] && [ "$mode" != first ]; then
  echo "== buffer_graph on the GPU"
  ONEPASS_DEVICE=gpu "$carry/programs/buffer_graph" 2>&1 | tee "$out/buffer_graph.log"
fi
[ "$mode" = tests ] && exit $((failed > 0 ? 1 : 0))
if [ "$mode" != first ]; then
  echo "== gpu_launch"
  "$carry/programs/gpu_launch" 2>&1 | tee "$out/gpu_launch.log"
fi
if [ "$mode" = bench ]; then
  ONEPASS_DEVICE=gpu "$carry/programs/gpu_stream" 2>&1 | tee "$out/gpu_stream.log"
  ONEPASS_DEVICE=gpu "$carry/programs/gpu_reduction" 2>&1 | tee "$out/gpu_reduction.log"
  ONEPASS_DEVICE=gpu "$carry/programs/gpu_matmul" 2>&1 | tee "$out/gpu_matmul.log"
  ONEPASS_DEVICE=gpu "$carry/programs/gpu_vec" 2>&1 | tee "$out/gpu_vec.log"
  ONEPASS_DEVICE=gpu "$carry/programs/hierarchical" 2>&1 | tee "$out/hierarchical.log"
  ONEPASS_DEVICE=gpu "$carry/programs/images" 2>&1 | tee "$out/images.log"
  ONEPASS_DEVICE=gpu "$carry/programs/gpu_print" 2>&1 | tee "$out/gpu_print.log"
  exit 0
fi
echo "== first launch of a new kernel (benchmarks/gpu_first_launch.sh)"
ONEPASS_CACHE_TOOL=$carry/bin/onepass-cache bash "$carry/gpu_first_launch.sh" "$carry/programs/gpu_first_launch" 2>&1 |
  tee "$out/first-launch.log"
if [ -d "$carry/target-cache" ]; then
  echo "== a cache warmed on the build machine, without a GPU (onepass-cache warm --target ptx)"
  rm -rf "$out/target-cache" && cp -r "$carry/target-cache" "$out/target-cache"
  ONEPASS_CACHE_DIR=$out/target-cache ONEPASS_DEVICE=gpu ONEPASS_LOG=info "$carry/programs/vector_add" 2>&1 |
    grep -v "^\[onepass\] info: \(loaded JIT\|JIT warmed\)" | tee -a "$out/first-launch.log"
  rm -rf "$out/target-cache"
fi
export ONEPASS_CACHE_DIR=$out/kernel-cache-$$
echo "== the JIT's parts, empty caches (ONEPASS_LOG=info)"
ONEPASS_DEVICE=gpu ONEPASS_LOG=info "$carry/programs/vector_add" 2>&1 | tee -a "$out/first-launch.log"
echo "== second process, warm disk cache"
ONEPASS_DEVICE=gpu ONEPASS_LOG=info "$carry/programs/vector_add" 2>&1 | tee -a "$out/first-launch.log"
echo "== a corrupt cache entry is rebuilt"
for f in "$ONEPASS_CACHE_DIR"/*.bin; do printf 'garbage' | dd of="$f" bs=1 seek=100 conv=notrunc 2>/dev/null; done
ONEPASS_DEVICE=gpu ONEPASS_LOG=info "$carry/programs/vector_add" 2>&1 | tee -a "$out/first-launch.log"
echo "== whole-process time of gpu_stream: OnePass side alone (empty cache, warm) vs CUDA side alone"
# process_seconds <command...>: wall time of one run, in seconds.
process_seconds() {
  local start end
  start=$(date +%s%N)
  "$@" > /dev/null 2>&1 || echo "FAILED: $*" >&2
  end=$(date +%s%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", (e - s) / 1e9 }'
}
median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
cuda_runs=() empty_runs=() warm_runs=()
for round in 1 2 3; do
  cuda_runs+=("$(process_seconds "$carry/programs/gpu_stream" cuda)")
  rm -rf "$ONEPASS_CACHE_DIR"
  empty_runs+=("$(process_seconds env ONEPASS_DEVICE=gpu "$carry/programs/gpu_stream" onepass)")
  warm_runs+=("$(process_seconds env ONEPASS_DEVICE=gpu "$carry/programs/gpu_stream" onepass)")
done
cuda_s=$(median3 "${cuda_runs[@]}") empty_s=$(median3 "${empty_runs[@]}") warm_s=$(median3 "${warm_runs[@]}")
{
  echo "gpu_stream cuda (nvcc):          ${cuda_runs[*]} s -> median $cuda_s s"
  echo "gpu_stream onepass, empty cache: ${empty_runs[*]} s -> median $empty_s s"
  echo "gpu_stream onepass, warm cache:  ${warm_runs[*]} s -> median $warm_s s"
  awk -v c="$cuda_s" -v e="$empty_s" -v w="$warm_s" \
    'BEGIN { printf "first run extra over the CUDA build: %+.3f s (target <= 0.1 s); warm cache: %+.3f s\n", e - c, w - c }'
} | tee "$out/process-time.log"
rm -rf "$ONEPASS_CACHE_DIR"
[ "$mode" = first ] && exit 0
echo "== gpu_stream"
ONEPASS_DEVICE=gpu "$carry/programs/gpu_stream" 2>&1 | tee "$out/gpu_stream.log"
echo "== gpu_reduction"
ONEPASS_DEVICE=gpu "$carry/programs/gpu_reduction" 2>&1 | tee "$out/gpu_reduction.log"
echo "== gpu_matmul"
ONEPASS_DEVICE=gpu "$carry/programs/gpu_matmul" 2>&1 | tee "$out/gpu_matmul.log"
echo "== gpu_vec"
ONEPASS_DEVICE=gpu "$carry/programs/gpu_vec" 2>&1 | tee "$out/gpu_vec.log"
exit $((failed > 0 ? 1 : 0))
