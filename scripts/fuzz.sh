#!/usr/bin/env bash
# Builds and runs OnePass's libFuzzer targets (issue 21) with ASan and UBSan:
#   kernel_image  the kernel-image reader (common/image: parse, bitcode extraction)
#   cache_entry   the persistent kernel cache's entry reader (runtime/core/KernelCache)
#   environment   the environment variables' parsers: ONEPASS_DEVICE_SELECTOR,
#                 ONEPASS_CACHE_MAX_SIZE, ONEPASS_LOG_FILE (runtime/core)
#   attribute_reader  stage 1's kernel attribute reader
#                 (sscp-compiler/plugin/KernelAttributes.cpp) in process,
#                 coverage-guided: attribute lists parsed by clang's libraries
#                 on a function object and a lambda (seeds: tests/fuzz/attribute_seeds)
#   kernel_attributes  the same reader through the whole compiler:
#                 generated kernels with hostile attribute arguments, compiled
#                 by <build-dir>/bin/onepass++ (tests/fuzz/attribute_fuzzer.py;
#                 not coverage-guided: the plugin runs inside clang-22)
# Seeds are written fresh (tests/fuzz/make_seeds.cpp: valid images of every
# shape stage 1 writes); each target runs for the given time and prints its
# executions. A crash, leak, out-of-memory or sanitizer report fails the run
# and leaves the input under <out>/findings/ (reproduce: <out>/<target> <file>).
#   bash scripts/fuzz.sh [seconds per target, default 60] [out-dir, default build/fuzz] [build-dir, default build]
# Exits 77 (skipped) where clang++-22 cannot build fuzzers (Debian:
# libclang-rt-22-dev, which scripts/setup-deps.sh installs).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
out=${2:-$root/build/fuzz}
build=${3:-$root/build}
cxx=${ONEPASS_FUZZ_CXX:-clang++-22}
mkdir -p "$out/findings"
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char *, unsigned long) { return 0; }' |
  "$cxx" -fsanitize=fuzzer -x c++ - -o "$out/probe" 2> "$out/probe.log"; then
  echo "fuzz: SKIPPED: $cxx cannot link -fsanitize=fuzzer ($(head -1 "$out/probe.log")); install libclang-rt-22-dev"
  exit 77
fi
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
  -I"$root/common/image" -I"$root/runtime/core")
image_sources=("$root/common/image/KernelImage.cpp" "$root/common/image/ImageBitcode.cpp")
"$cxx" "${flags[@]}" "$root/tests/fuzz/kernel_image_fuzzer.cpp" "${image_sources[@]}" -lzstd -o "$out/kernel_image"
"$cxx" "${flags[@]}" "$root/tests/fuzz/cache_entry_fuzzer.cpp" "$root/runtime/core/KernelCache.cpp" \
  "$root/runtime/core/Environment.cpp" "$root/runtime/core/Log.cpp" "$root/common/image/KernelImage.cpp" \
  -o "$out/cache_entry"
"$cxx" "${flags[@]}" "$root/tests/fuzz/environment_fuzzer.cpp" "$root/runtime/core/DeviceSelector.cpp" \
  "$root/runtime/core/Environment.cpp" "$root/runtime/core/Log.cpp" -o "$out/environment"
"$cxx" -std=c++17 -O1 -I"$root/common/image" "$root/tests/fuzz/make_seeds.cpp" "$root/common/image/KernelImage.cpp" \
  -lzstd -o "$out/make_seeds"
# Stage 1's attribute reader in process: clang's libraries (Debian's
# libclang-cpp and libLLVM), the plugin's reader, LLVM's flags (no RTTI: no
# vptr check; clang's inline functions keep their assertions on).
llvm_config=${ONEPASS_LLVM_CONFIG:-llvm-config-22}
llvm_lib=$("$llvm_config" --libdir)
clang_cpp=$(ls "$llvm_lib"/libclang-cpp.so* 2> /dev/null | head -1)
targets=(kernel_image cache_entry environment)
if [ -n "$clang_cpp" ]; then
  read -r -a llvm_flags <<< "$("$llvm_config" --cxxflags | sed 's/-std=[^ ]*//; s/-fno-exceptions//')"
  "$cxx" "${flags[@]}" -fno-sanitize=vptr,function "${llvm_flags[@]}" -I"$root/sscp-compiler/plugin" \
    -I"$root/include" "$root/tests/fuzz/attribute_reader_fuzzer.cpp" "$root/sscp-compiler/plugin/KernelAttributes.cpp" \
    "$root/sscp-compiler/plugin/Diagnostics.cpp" "$clang_cpp" -L"$llvm_lib" -lLLVM -Wl,-rpath,"$llvm_lib" \
    -o "$out/attribute_reader"
  targets+=(attribute_reader)
else
  echo "fuzz: attribute_reader: SKIPPED: no libclang-cpp in $llvm_lib"
fi
status=0
for target in "${targets[@]}"; do
  corpus=$out/corpus/$target
  mkdir -p "$corpus"
  if [ "$target" = environment ] || [ "$target" = attribute_reader ]; then
    # Seeds: the documented forms of the three variables (tests/fuzz/environment_seeds);
    # attribute lists of every kind (tests/fuzz/attribute_seeds).
    cp "$root"/tests/fuzz/${target/attribute_reader/attribute}_seeds/* "$corpus/"
  else
    "$out/make_seeds" "$corpus"
  fi
  log=$out/$target.log
  # (ONEPASS_LOG=error: the cache reader warns about every corrupt entry.)
  if ONEPASS_LOG=error "$out/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    -print_final_stats=1 -artifact_prefix="$out/findings/$target-" "$corpus" > "$log" 2>&1; then
    result=clean
  else
    result="FAILED (see $log; inputs in $out/findings/)"
    status=1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  echo "fuzz: $target: $runs executions in ${seconds} s, corpus $(ls "$corpus" | wc -l) inputs: $result"
done
if [ -x "$build/bin/onepass++" ]; then
  python3 "$root/tests/fuzz/attribute_fuzzer.py" --onepass "$build/bin/onepass++" --seconds "$seconds" \
    --out "$out/kernel_attributes" || status=1
else
  echo "fuzz: kernel_attributes: SKIPPED: no $build/bin/onepass++ (build OnePass first)"
fi
exit $status
