#!/usr/bin/env bash
# BabelStream v5.0 (../shared/bench, unmodified) with OnePass against its own
# reference models (issue 20): both SYCL 2020 models (USM, accessors) built
# with onepass++, the CUDA model with nvcc, the OpenMP model with
# g++ -O3 -march=native -fopenmp.
#
# Usage:
#   babelstream.sh build <out-dir> [onepass-build-dir]
#       builds bs-usm, bs-acc (onepass++ -O3), bs-cuda and bs-cuda-managed
#       (nvcc, if there is one: MEM=DEFAULT, cudaMalloc and explicit copies, and
#       MEM=MANAGED, cudaMallocManaged: the memory malloc_shared gives the USM
#       model) and bs-omp (g++) into <out-dir>.
#   babelstream.sh gpu <bin-dir> [rounds] [sizes...]
#       on the GPU machine: for each size (default 2^25 and 2^28 doubles),
#       `rounds` rounds (default 3) of CUDA, SYCL USM and SYCL accessors, one
#       process after the other; prints each kernel's best bandwidth over the
#       rounds as a ratio to the CUDA model's, and each model's whole process
#       time (best of the rounds). With bs-cuda-managed, it runs too, and the
#       USM model is also compared with it (the same memory on both sides).
#   babelstream.sh cpu <bin-dir> [rounds] [sizes...]
#       the same on the CPU device against the OpenMP model (default size 2^25).
# Environment: BABELSTREAM_SRC (default ../shared/bench/BabelStream-v5.0/src
# next to the repository), BABELSTREAM_NUMTIMES (default 100),
# BABELSTREAM_COLD=1: every process starts with empty caches (a new
# ONEPASS_CACHE_DIR and CUDA_CACHE_PATH each: OnePass's JIT and the driver's
# PTX compiles are part of its time).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=${BABELSTREAM_SRC:-$here/../../shared/bench/BabelStream-v5.0/src}
numtimes=${BABELSTREAM_NUMTIMES:-100}
mode=${1:-}
usage() { sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[[ -n $mode ]] || usage

if [[ $mode == build ]]; then
  out=${2:?babelstream.sh build: an output folder is needed}
  build=${3:-$here/../build}
  onepass=$build/bin/onepass++
  [[ -x $onepass ]] || { echo "babelstream.sh: $onepass not found" >&2; exit 1; }
  [[ -f $src/main.cpp ]] || { echo "babelstream.sh: BabelStream sources not found at $src (set BABELSTREAM_SRC)" >&2; exit 1; }
  mkdir -p "$out"
  for model in usm acc; do
    echo "+ onepass++ sycl2020-$model"
    "$onepass" -fsycl-sscp -O3 -std=c++17 -DSYCL2020 -I"$src" -I"$src/sycl2020-$model" \
      "$src/main.cpp" "$src/sycl2020-$model/SYCLStream2020.cpp" -o "$out/bs-$model"
  done
  echo "+ g++ omp"
  g++ -O3 -march=native -fopenmp -std=c++17 -DOMP -I"$src" -I"$src/omp" "$src/main.cpp" "$src/omp/OMPStream.cpp" \
    -o "$out/bs-omp"
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  if [[ -x $nvcc ]]; then
    echo "+ nvcc cuda (MEM=DEFAULT, sm_90)"
    "$nvcc" -O3 -std=c++17 -arch=sm_90 -DCUDA -DDEFAULT -I"$src" -I"$src/cuda" "$src/main.cpp" \
      "$src/cuda/CUDAStream.cu" -o "$out/bs-cuda"
    echo "+ nvcc cuda (MEM=MANAGED, sm_90)"
    "$nvcc" -O3 -std=c++17 -arch=sm_90 -DCUDA -DMANAGED -I"$src" -I"$src/cuda" "$src/main.cpp" \
      "$src/cuda/CUDAStream.cu" -o "$out/bs-cuda-managed"
  else
    echo "(no nvcc: the CUDA model is not built)"
  fi
  exit 0
fi

[[ $mode == gpu || $mode == cpu ]] || usage
bin=${2:?babelstream.sh $mode: the folder of the built models is needed}
rounds=${3:-3}
shift $(($# < 3 ? $# : 3))
if [[ $mode == gpu ]]; then
  sizes=("${@:-33554432 268435456}")
  models=(cuda usm acc)
  [[ -x $bin/bs-cuda-managed ]] && models=(cuda cuda-managed usm acc)
  export ONEPASS_DEVICE=gpu
else
  sizes=("${@:-33554432}")
  models=(omp usm acc)
  # BabelStream takes device 0 of get_devices(), where GPUs come first: on a
  # machine with a GPU only the selector leaves it the CPU device.
  export ONEPASS_DEVICE=cpu ONEPASS_DEVICE_SELECTOR=cpu
fi
read -r -a sizes <<< "${sizes[*]}"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# One run of a model: its kernels' MBytes/sec go to $logs/<model>-<size>-<round>,
# its whole process time (s) to ...-time.
run_model() {
  local model=$1 size=$2 round=$3 f=$logs/$1-$2-$3
  local t0 t1
  local -a cold=()
  if [[ ${BABELSTREAM_COLD:-0} == 1 ]]; then
    local caches=$logs/cold/$1-$2-$3
    mkdir -p "$caches/onepass" "$caches/nv"
    cold=(env ONEPASS_CACHE_DIR="$caches/onepass" CUDA_CACHE_PATH="$caches/nv")
  fi
  t0=$(date +%s.%N)
  if ! "${cold[@]}" "$bin/bs-$model" -s "$size" -n "$numtimes" --csv > "$f.out" 2> "$f.err"; then
    echo "babelstream.sh: bs-$model -s $size failed:" >&2
    tail -n 5 "$f.out" "$f.err" >&2
    return 1
  fi
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' > "$f.time"
  # --csv: function,num_times,n_elements,sizeof,max_mbytes_per_sec,min_runtime,max_runtime,avg_runtime
  awk -F, 'NR > 1 && NF >= 5 { print $1, $5 }' "$f.out" > "$f"
  # The Init and Read phases: phase,n_elements,sizeof,max_mbytes_per_sec,runtime.
  # BabelStream v5.0's main.cpp prints them swapped (initElapsedS is computed
  # from the read timestamps and readElapsedS from the init ones): its "Init"
  # line is the time of read_arrays, its "Read" line that of init_arrays.
  awk -F, '($1 == "Init" || $1 == "Read") && NF == 5 { print ($1 == "Init" ? "Read" : "Init"), $5 }' "$f.out" \
    > "$f.phases"
}

for size in "${sizes[@]}"; do
  for ((r = 1; r <= rounds; ++r)); do
    for m in "${models[@]}"; do
      [[ -x $bin/bs-$m ]] || { echo "babelstream.sh: $bin/bs-$m missing" >&2; exit 1; }
      run_model "$m" "$size" "$r"
    done
  done
done

ref=${models[0]}
echo "BabelStream v5.0, $mode, $numtimes iterations, best of $rounds processes per model (alternated)$([[ ${BABELSTREAM_COLD:-0} == 1 ]] && echo ", every process with empty caches"); ratio = OnePass best MB/s / $ref best MB/s"
for size in "${sizes[@]}"; do
  echo
  echo "array size $size ($(awk -v s="$size" 'BEGIN { printf "2^%d", log(s)/log(2) + 0.5 }') doubles)"
  # best <model> <kernel>: the kernel's best MB/s over the model's processes at this size.
  best() { cat "$logs/$1-$size"-[0-9]* | awk -v k="$2" '$1 == k && $2 > b { b = $2 } END { print b + 0 }'; }
  printf '%-8s %14s %14s %14s %10s %10s\n' kernel "$ref MB/s" "usm MB/s" "acc MB/s" "usm/$ref" "acc/$ref"
  for kernel in Copy Mul Add Triad Dot; do
    b_ref=$(best "$ref" "$kernel") b_usm=$(best usm "$kernel") b_acc=$(best acc "$kernel")
    awk -v k="$kernel" -v r="$b_ref" -v u="$b_usm" -v a="$b_acc" \
      'BEGIN { printf "%-8s %14.1f %14.1f %14.1f %9.3fx %9.3fx\n", k, r, u, a, (r > 0 ? u / r : 0), (r > 0 ? a / r : 0) }'
  done
  if [[ " ${models[*]} " == *" cuda-managed "* ]]; then
    echo "USM model against the CUDA model with MEM=MANAGED (cudaMallocManaged, the memory of malloc_shared):"
    for kernel in Copy Mul Add Triad Dot; do
      awk -v k="$kernel" -v r="$(best cuda-managed "$kernel")" -v u="$(best usm "$kernel")" \
        'BEGIN { printf "%-8s %14.1f %14.1f %9.3fx\n", k, r, u, (r > 0 ? u / r : 0) }'
    done
  fi
  for m in "${models[@]}"; do
    t=$(cat "$logs/$m-$size"-*.time | sort -g | head -1)
    phase() { cat "$logs/$m-$size"-*.phases | awk -v p="$1" '$1 == p && (b == "" || $2 < b) { b = $2 } END { printf "%.3f", b }'; }
    printf 'process %-12s best %.3f s (all: %s), init_arrays best %s s, read_arrays best %s s\n' "$m" "$t" \
      "$(cat "$logs/$m-$size"-*.time | tr '\n' ' ' | sed 's/ $//')" "$(phase Init)" "$(phase Read)"
  done
done
