#!/usr/bin/env bash
# Builds the OnePass benchmarks with a built OnePass tree's onepass++ (no
# CMake) and runs them all: compile-time overhead, JIT and launch latency,
# CPU triad bandwidth, the buffer task graph, and on the CPU a reduction and
# nd_range kernels with barriers. Every figure is a ratio to a reference measured in
# the same run; see README.md for how to read them.
#
# Usage: run_all.sh [build-dir] [output-dir]
#   build-dir   a built OnePass tree (default: ../build next to this script)
#   output-dir  where the benchmark programs go (default: a temporary folder,
#               removed at the end)
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build_dir=$(cd "${1:-$script_dir/../build}" && pwd)
onepass=$build_dir/bin/onepass++
[[ -x $onepass ]] || { echo "run_all.sh: $onepass not found (is $build_dir a built OnePass tree?)" >&2; exit 1; }

if [[ $# -ge 2 ]]; then
  mkdir -p "$2"
  out_dir=$(cd "$2" && pwd)
else
  out_dir=$(mktemp -d)
  trap 'rm -rf "$out_dir"' EXIT
fi

cores=$(nproc)
echo "OnePass benchmarks: $("$onepass" --onepass-version), build tree $build_dir"
echo "machine: $cores cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo

echo "== building into $out_dir"
build() {
  echo "+ $*"
  "$@"
}
build "$onepass" -fsycl-sscp -O3 "$script_dir/launch_latency.cpp" -o "$out_dir/launch_latency"
build "$onepass" -fsycl-sscp -O3 "$script_dir/buffer_graph.cpp" -o "$out_dir/buffer_graph"
# The benchmarks with an OpenMP reference: libgomp for the g++ OpenMP
# object (clang's -fopenmp would ask for libomp).
for name in triad reduction matmul vec_cpu; do
  build g++ -O3 -march=native -fopenmp -c "$script_dir/${name}_openmp_ref.cpp" -o "$out_dir/${name}_openmp_ref.o"
  build "$onepass" -fsycl-sscp -O3 "$script_dir/$name.cpp" "$out_dir/${name}_openmp_ref.o" -lgomp -o "$out_dir/$name"
done
echo

echo "== 1. compile time (compile_time.sh)"
"$script_dir/compile_time.sh" "$build_dir"
echo

echo "== 2. JIT latency and launch overhead (launch_latency)"
"$out_dir/launch_latency"
echo

echo "== 3. CPU triad bandwidth (triad, OMP_NUM_THREADS=$cores)"
OMP_NUM_THREADS=$cores "$out_dir/triad"
echo

echo "== 4. buffer task graph: submission overhead and concurrency (buffer_graph)"
"$out_dir/buffer_graph"
echo

echo "== 5. sycl::reduction on the CPU (reduction, OMP_NUM_THREADS=$cores)"
OMP_NUM_THREADS=$cores "$out_dir/reduction"
echo

echo "== 6. nd_range kernels with local memory and barriers on the CPU (matmul, OMP_NUM_THREADS=$cores)"
OMP_NUM_THREADS=$cores "$out_dir/matmul"
echo

echo "== 7. vec (float4 N-body, half and float4 axpy) on the CPU (vec_cpu, OMP_NUM_THREADS=$cores)"
OMP_NUM_THREADS=$cores "$out_dir/vec_cpu"
