#!/usr/bin/env bash
# Command one of README.md: installs the build dependencies (Debian 12),
# configures and builds OnePass into build/, then compiles and runs the
# example SYCL program with `onepass++ -fsycl-sscp` on the default device.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ONEPASS_BUILD_DIR:-$root/build}

bash "$root/scripts/setup-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "${ONEPASS_BUILD_JOBS:-2}" --target vector_add
echo
echo "== example: $build/bin/examples/vector_add (built with onepass++ -fsycl-sscp -O2)"
"$build/bin/examples/vector_add"
