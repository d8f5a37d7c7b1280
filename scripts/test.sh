#!/usr/bin/env bash
# Command two of README.md: builds everything (toolchain, tests, benchmarks),
# runs the whole test suite with CTest, then again under ASan+UBSan
# (scripts/sanitize.sh), then the CTS tier (scripts/cts.sh).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ONEPASS_BUILD_DIR:-$root/build}
jobs=${ONEPASS_BUILD_JOBS:-2}

bash "$root/scripts/setup-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
# The suite again under ASan and UBSan, in build-asan/ (issue 21; README
# "Sanitizer builds"); ONEPASS_SANITIZE_TESTS=0 skips it.
if [ "${ONEPASS_SANITIZE_TESTS:-1}" != 0 ]; then
  bash "$root/scripts/sanitize.sh" address,undefined
fi
# The CI tier of the Khronos SYCL-CTS (scripts/cts.sh): every test file of
# its categories must compile and every test case pass. ONEPASS_CTS=0 skips it.
if [ "${ONEPASS_CTS:-1}" != 0 ]; then
  ONEPASS_BUILD_DIR=$build bash "$root/scripts/cts.sh" --check
  # kernel_bundle's kernels need the CTS's half tests (its kernels.h defines
  # one kernel descriptor only with them): a configuration of its own.
  ONEPASS_BUILD_DIR=$build CTS_HALF=ON ONEPASS_CTS_WORK=$build/cts-half bash "$root/scripts/cts.sh" --check kernel_bundle
fi
