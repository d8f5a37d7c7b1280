#!/usr/bin/env bash
# Command two of README.md: builds everything (toolchain, tests, benchmarks)
# and runs the whole test suite with CTest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ONEPASS_BUILD_DIR:-$root/build}
jobs=${ONEPASS_BUILD_JOBS:-2}

bash "$root/scripts/setup-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
