#!/usr/bin/env bash
# Compile-time overhead of OnePass: `onepass++ -fsycl-sscp -O2 -c` of a SYCL
# translation unit against the host-only compile of the same file by the same
# clang (`clang++-22 -O2 -c` with the SYCL headers, no OnePass plugin). The
# difference is everything the single pass adds: loading the plugin, finding
# and checking kernels, building and embedding the device bitcode.
#
# Usage: compile_time.sh [build-dir]   (default: ../build next to this script)
# Environment: COMPILE_TIME_REPS  compiles of each kind per file (default 5)
#
# The two compiles alternate (and swap which goes first every round), so that
# drift in the machine's load hits both alike; each column is a median.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build_dir=$(cd "${1:-$script_dir/../build}" && pwd)
reps=${COMPILE_TIME_REPS:-5}
onepass=$build_dir/bin/onepass++
clangxx=${ONEPASS_CLANGXX:-clang++-22}
include_dir=$build_dir/include/onepass
common_flags=(-std=c++17 -O2 -c)

for tool in "$onepass" "$build_dir/bin/onepass-kernels"; do
  [[ -x $tool ]] || { echo "compile_time.sh: $tool not found (is $build_dir a built OnePass tree?)" >&2; exit 1; }
done
command -v "$clangxx" >/dev/null || { echo "compile_time.sh: $clangxx not found" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs one compile; prints "<wall seconds> <cpu seconds>" (cpu = user + sys of
# the whole process tree, less sensitive than wall time to other load).
timed_compile() {
  local start end
  start=$EPOCHREALTIME
  if ! /usr/bin/time -f '%U %S' -o "$work/cpu" "$@" >"$work/log" 2>&1; then
    echo "compile_time.sh: compile failed: $*" >&2
    cat "$work/log" >&2
    exit 1
  fi
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" '{ printf "%.4f %.2f\n", e - s, $1 + $2 }' "$work/cpu"
}

# Median of the numbers on stdin.
median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Benchmarks one file; prints its table line and leaves the wall-time ratio in $ratio.
ratio=
measure() {
  local label=$1 source=$2
  local sycl_cmd=("$onepass" -fsycl-sscp "${common_flags[@]}" "$source" -o "$work/sycl.o")
  local host_cmd=("$clangxx" "${common_flags[@]}" -isystem "$include_dir" "$source" -o "$work/host.o")
  : >"$work/sycl.times"
  : >"$work/host.times"

  # Warm-up, not counted: page cache, and a check that OnePass found the kernels.
  timed_compile "${sycl_cmd[@]}" >/dev/null
  timed_compile "${host_cmd[@]}" >/dev/null
  local kernels
  kernels=$("$build_dir/bin/onepass-kernels" "$work/sycl.o" | awk '/^image/ { for (i = 2; i <= NF; ++i) if ($i ~ /^kernels?,/) n += $(i - 1) } END { print n + 0 }')
  if [[ $kernels -eq 0 ]]; then
    echo "compile_time.sh: onepass++ embedded no kernels in $label; the comparison would be meaningless" >&2
    exit 1
  fi

  for ((i = 0; i < reps; ++i)); do
    if ((i % 2 == 0)); then
      timed_compile "${sycl_cmd[@]}" >>"$work/sycl.times"
      timed_compile "${host_cmd[@]}" >>"$work/host.times"
    else
      timed_compile "${host_cmd[@]}" >>"$work/host.times"
      timed_compile "${sycl_cmd[@]}" >>"$work/sycl.times"
    fi
  done

  local sycl_wall host_wall sycl_cpu host_cpu
  sycl_wall=$(cut -d' ' -f1 "$work/sycl.times" | median)
  host_wall=$(cut -d' ' -f1 "$work/host.times" | median)
  sycl_cpu=$(cut -d' ' -f2 "$work/sycl.times" | median)
  host_cpu=$(cut -d' ' -f2 "$work/host.times" | median)
  ratio=$(awk -v a="$sycl_wall" -v b="$host_wall" 'BEGIN { printf "%.3f", a / b }')
  awk -v l="$label" -v k="$kernels" -v sw="$sycl_wall" -v hw="$host_wall" -v r="$ratio" -v sc="$sycl_cpu" \
    -v hc="$host_cpu" 'BEGIN { printf "%-15s %7d %12.3f %12.3f %8.3fx %10.2f %10.2f %8.3fx\n", l, k, sw, hw, r, sc, hc, sc / hc }'
}

echo "compile time: onepass++ -fsycl-sscp ${common_flags[*]}  vs  $clangxx ${common_flags[*]} -isystem <onepass headers>"
echo "median of $reps compiles each, interleaved; cpu = user+sys seconds"
printf '%-15s %7s %12s %12s %9s %10s %10s %9s\n' "TU" kernels "onepass[s]" "clang[s]" "ratio" \
  "cpu-op[s]" "cpu-cl[s]" "cpu-ratio"
measure small "$script_dir/compile/small.cpp"
small_ratio=$ratio
measure template-heavy "$script_dir/compile/template_heavy.cpp"
heavy_ratio=$ratio
measure vec-heavy "$script_dir/compile/vec_heavy.cpp"
vec_ratio=$ratio
printf 'compile-time ratio small=%.2fx template-heavy=%.2fx (target <= 1.10x) vec-heavy=%.2fx (target <= 1.15x)\n' \
  "$small_ratio" "$heavy_ratio" "$vec_ratio"

# What including the SYCL headers costs: an empty TU that only includes
# <sycl/sycl.hpp>, compiled as a user would, against plain clang++ compiling a
# TU of a few standard headers (the floor any C++ TU pays).
printf '#include <sycl/sycl.hpp>\n' >"$work/empty_sycl.cpp"
printf '#include <vector>\n#include <string>\n#include <memory>\n#include <functional>\n#include <cmath>\n' >"$work/std_only.cpp"
: >"$work/empty.times"
: >"$work/std.times"
timed_compile "$onepass" -fsycl-sscp "${common_flags[@]}" "$work/empty_sycl.cpp" -o "$work/e.o" >/dev/null
for ((i = 0; i < reps; ++i)); do
  timed_compile "$onepass" -fsycl-sscp "${common_flags[@]}" "$work/empty_sycl.cpp" -o "$work/e.o" >>"$work/empty.times"
  timed_compile "$clangxx" "${common_flags[@]}" "$work/std_only.cpp" -o "$work/s.o" >>"$work/std.times"
done
empty_wall=$(cut -d' ' -f1 "$work/empty.times" | median)
std_wall=$(cut -d' ' -f1 "$work/std.times" | median)
# The target, 0.6 s, was set on a machine where the plain compile took 0.23 s:
# on another machine the ratio to the plain compile is what compares (<= 2.61x).
printf 'header cost: #include <sycl/sycl.hpp> alone %.3f s (target <= 0.6 s); clang++ with <vector> <string> <memory> <functional> <cmath> %.3f s; ratio %.2fx (target <= 2.61x: 0.6 s against 0.23 s)\n' \
  "$empty_wall" "$std_wall" "$(awk -v a="$empty_wall" -v b="$std_wall" 'BEGIN { print (b > 0 ? a / b : 0) }')"
