#!/usr/bin/env bash
# The Khronos SYCL-CTS against this build of OnePass (issue 23): builds the
# chosen categories with onepass++ through the project's own CMake package
# (build/lib/cmake/OnePass), runs them on the CPU device and prints the pass
# table.
#
#   bash scripts/cts.sh [categories...]      default: the CI tier (below)
#   bash scripts/cts.sh subset30             the 30-category subset of issue 23
#   bash scripts/cts.sh --check [cats...]    also fail unless every category
#                                            compiled completely and every test
#                                            case passed (what CI runs)
# Env: ONEPASS_BUILD_DIR (default build/), ONEPASS_CTS_WORK (default
# build/cts), ONEPASS_CTS_KIT (default ../shared/cts), CTS_DEVICE=cpu|gpu,
# CTS_HALF=ON|OFF, CTS_CUDA=ON|OFF, CTS_BUILD_ONLY=1, CAT_TIMEOUT,
# CTS_RUN_TIMEOUT, ONEPASS_CTS_CCACHE=0 (compile without ccache).
#
# CTS_CUDA=ON configures the CTS's CUDA interoperability tests (the
# cuda_interop category, host_task's CUDA case): every file is compiled with
# -fsycl-interop=cuda (SYCL_BACKEND_CUDA, cuda.h, libcuda), and CMake's CUDA
# language is onepass++ (the CTS sets it so) for the category's .cu file. Such
# a build runs only where a CUDA device is (CTS_DEVICE=gpu): its tests demand
# the CUDA backend. Use a work directory of its own.
#
# The kit's scripts do the work (prepare the tree, build each category,
# tabulate); this script owns how the CTS finds OnePass: find_package(OnePass)
# in the build tree. The CTS sources are never changed. One compatibility
# include directory is added: SYCL-CTS/vendor/Catch2/src, where the CTS's
# Catch2 submodule puts its headers; a few test files (queue_properties.cpp,
# buffer_api_*.cpp) include "../../../util/sycl_exceptions.h", which resolves
# only from there, and the kit replaces that submodule by Debian's Catch2.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${ONEPASS_BUILD_DIR:-$root/build}" && pwd)
work=${ONEPASS_CTS_WORK:-$build/cts}
kit=${ONEPASS_CTS_KIT:-$root/../shared/cts}
[ -d "$kit" ] || kit=/work/shared/cts
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
if [ ! -f "$kit/prepare_cts_tree.sh" ]; then
  # Without the kit there is nothing to run: say so (CI's tier is skipped, not passed).
  echo "CTS tier: SKIPPED: no CTS kit at $kit (set ONEPASS_CTS_KIT to the kit's directory)"
  [ $check = 1 ] && exit 0 || exit 2
fi
# The CI tier: categories that build in a few minutes on 2 cores and pass.
tier=(error exceptions platform context device_selector range item nd_range namespace kernel_args pointers
      language atomic_fence event exception_handling header host_task nd_item sub_group invoke queue local_accessor usm
      atomic optional_kernel_features device function_objects is_device_copyable device_event property atomic_ref_stress
      sycl_external h_item hierarchical spec_constants image image_accessor)
[ $# -gt 0 ] || set -- "${tier[@]}"
[ "$1" = subset30 ] && set -- header error exceptions platform context device_selector range item nd_range event \
  exception_handling namespace kernel_args pointers language host_task atomic_fence sub_group reduction nd_item group \
  invoke queue handler usm local_accessor accessor_basic atomic_ref group_functions buffer

package=$build/lib/cmake/OnePass
[ -f "$package/OnePassConfig.cmake" ] || { echo "cts.sh: $package/OnePassConfig.cmake missing: build OnePass first" >&2; exit 2; }
bash "$kit/setup.sh" > /dev/null
deps=${ONEPASS_CTS_DEPS:-$HOME/.cache/onepass-cts/deps}
mkdir -p "$work" && work=$(cd "$work" && pwd)
[ -d "$work/SYCL-CTS" ] || tar -xzf "$kit"/SYCL-CTS-*.tar.gz -C "$work"
bash "$kit/prepare_cts_tree.sh" "$work/SYCL-CTS" > /dev/null
mkdir -p "$work/SYCL-CTS/vendor/Catch2/src"
half=${CTS_HALF:-OFF}
cuda=${CTS_CUDA:-OFF}
cxxflags="-I$work/SYCL-CTS/vendor/Catch2/src"
cudaopts=()
if [ "$cuda" = ON ]; then
  cxxflags+=" -fsycl-interop=cuda"
  # CMake identifies clang as a CUDA compiler by compiling for the host only
  # (CUDA 13's ptxas lacks the sm_52 CMake tries, and clang's new offload
  # driver wants a clang-linker-wrapper Debian does not ship); onepass++ then
  # compiles the .cu file as SYCL C++ and drops these CUDA options.
  # The CTS links its util library with FindCUDA's CUDA_CUDA_LIBRARY, which
  # FindCUDA looks for outside the toolkit's stubs.
  toolkit=${CUDA_PATH:-/usr/local/cuda}
  cudaopts=(-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_EXE_LINKER_FLAGS=-fsycl-interop=cuda
            -DCUDA_CUDA_LIBRARY="$toolkit/lib64/stubs/libcuda.so"
            "-DCMAKE_CUDA_FLAGS=--cuda-host-only --no-offload-new-driver -Wno-unknown-cuda-version $cxxflags")
fi
# ccache (when installed; ONEPASS_CTS_CCACHE=0 turns it off): the CTS's
# compiles are most of the tier's time, and most sessions leave onepass++,
# its plugin, clang and the headers as they were. ccache's default compiler
# check (onepass++'s size and time) would miss a changed plugin, which writes
# the kernel images into every object: the check is a hash of the driver,
# the plugin and clang instead (headers are hashed by ccache itself).
launcher=
if [ "${ONEPASS_CTS_CCACHE:-1}" != 0 ] && command -v ccache > /dev/null; then
  launcher=$(command -v ccache)
  clang=$(readlink -f "$(command -v clang++-22 || echo /usr/lib/llvm-22/bin/clang)")
  toolchain=$(cat "$build/bin/onepass++" "$build/lib/onepass/libonepass-clang-plugin.so" "$clang" | sha256sum | cut -c1-32)
  export CCACHE_COMPILERCHECK="echo onepass-toolchain-$toolchain"
  export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/onepass-ccache}
fi
if [ ! -f "$work/build/build.ninja" ] || ! grep -q "OnePass_DIR:PATH=$package" "$work/build/CMakeCache.txt" \
   || ! grep -q "CMAKE_CXX_COMPILER_LAUNCHER:STRING=$launcher\$" "$work/build/CMakeCache.txt" \
   || ! grep -q "SYCL_CTS_ENABLE_HALF_TESTS:BOOL=$half" "$work/build/CMakeCache.txt" \
   || ! grep -q "SYCL_CTS_ENABLE_CUDA_INTEROP_TESTS:BOOL=$cuda" "$work/build/CMakeCache.txt"; then
  rm -rf "$work/build"
  cmake -G Ninja -S "$work/SYCL-CTS" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER="$build/bin/onepass++" -DCMAKE_CXX_COMPILER_LAUNCHER:STRING=$launcher \
    -DSYCL_IMPLEMENTATION=OnePass -DOnePass_DIR:PATH="$package" \
    -DCMAKE_CXX_FLAGS="$cxxflags" -DCatch2_DIR="$deps/catch2/usr/lib/cmake/Catch2" \
    -DSYCL_CTS_ENABLE_CUDA_INTEROP_TESTS=$cuda "${cudaopts[@]}" \
    -DSYCL_CTS_ENABLE_FULL_CONFORMANCE=OFF -DSYCL_CTS_ENABLE_HALF_TESTS=$half -DSYCL_CTS_ENABLE_DOUBLE_TESTS=ON \
    -DSYCL_CTS_ENABLE_DEPRECATED_FEATURES_TESTS=ON -DSYCL_CTS_ENABLE_FEATURE_SET_FULL=ON \
    -DSYCL_CTS_ENABLE_OPENCL_INTEROP_TESTS=OFF > "$work/configure.log" 2>&1 || { tail -20 "$work/configure.log"; exit 1; }
fi
logs=$work/logs; mkdir -p "$logs"; : > "$logs/build.tsv"
bash "$kit/build_categories.sh" "$work/build" "$logs" "$@"
for c in "$@"; do grep -h -m1 "error:" "$logs/$c.build.log" 2>/dev/null | sed "s|^|$c: |"; done > "$logs/first-errors.txt" || true
echo "build: $(awk '{c+=$2; t+=$3} END {print c" of "t" test files compiled"}' "$logs/build.tsv"); first errors: $logs/first-errors.txt"
[ "${CTS_BUILD_ONLY:-0}" = 1 ] && exit 0
results=$work/results-${CTS_DEVICE:-cpu}
ONEPASS_DEVICE=${CTS_DEVICE:-cpu} python3 "$kit/cts_pass_table.py" --bin "$work/build/bin" --out "$results" \
  --timeout "${CTS_RUN_TIMEOUT:-600}" --isolate "$@"
[ $check = 1 ] || exit 0
# --check: every test file compiled, and every test case ran and passed.
bad=$(awk -F'\t' '$2 != $3 {print $1" ("$2"/"$3" test files compiled)"}' "$logs/build.tsv")
bad+=$(tr -d '\r' < "$results/summary.csv" |
  awk -F, 'NR > 1 && ($2 != "ok" || $6 + 0 != 0 || $8 + 0 != 0) {print "\n"$1" ("$2": "$6" failed, "$8" not run)"}')
if [ -n "$bad" ]; then echo "CTS tier FAILED:"; echo "$bad"; exit 1; fi
echo "CTS tier: PASSED ($*)"
