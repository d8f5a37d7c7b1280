#!/usr/bin/env bash
# Builds OnePass with sanitizers and runs the test suite under them (issue 21).
#
# Usage: scripts/sanitize.sh <address,undefined | thread> [ctest arguments...]
#
# The build lives in build-asan/ (address,undefined) or build-tsan/ (thread)
# next to build/ (ONEPASS_SANITIZE_BUILD_DIR overrides), compiled by
# clang-22 with ONEPASS_SANITIZE set: the runtime, the JIT, the CUDA backend,
# the tools, the unit tests and the SYCL test programs' host code are
# instrumented; the clang plugin is not (it runs inside clang-22) and the
# kernels are JIT-compiled without sanitizers.
#
# What runs (CTest labels and names, see README "Sanitizer builds"):
#  - address,undefined: every test except those that pack the toolchain
#    (install.*) or have sanitizers of their own (fuzz.short); the GPU tests
#    skip on a machine without a GPU, as in the normal build. The lit tests
#    run with this build's onepass++, which links programs with the
#    sanitizers (lit feature `sanitizer`). Leak checking is on.
#  - thread: the runtime's concurrency tests: the runtime unit tests
#    (executor, stream tracker, buffers, queues), the stress and many-thread
#    programs, events and queues, task graphs, buffers, USM, reductions,
#    streams and the fake-driver GPU programs (feeder thread, streams).
# Any sanitizer report fails its test (halt_on_error, non-zero exit code).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
variant=${1:-}
case "$variant" in
  address,undefined) name=asan ;;
  thread) name=tsan ;;
  *) echo "usage: $0 <address,undefined | thread> [ctest arguments...]" >&2; exit 2 ;;
esac
shift
build=${ONEPASS_SANITIZE_BUILD_DIR:-$root/build-$name}
jobs=${ONEPASS_BUILD_JOBS:-2}

bash "$root/scripts/setup-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DONEPASS_SANITIZE="$variant" -DONEPASS_BUILD_BENCHMARKS=OFF
cmake --build "$build" -j "$jobs"

suppressions=$root/tests/sanitizers
export ASAN_OPTIONS="halt_on_error=1:exitcode=86:detect_leaks=1:allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$suppressions/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=86${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export TSAN_OPTIONS="halt_on_error=1:exitcode=86:second_deadlock_stack=1:allocator_may_return_null=1:suppressions=$suppressions/tsan.supp${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

if [ "$variant" = thread ]; then
  selection=(-R '^(unit\.runtime|sycl\.(stress|stress_1thread|many_threads|events_queues|task_graph|buffers|accessors|usm|reductions|queue_api|stream|gpu_errors\..*|interop_fake_cuda))$')
else
  selection=(-E '^(install\.|fuzz\.)')
fi
ctest --test-dir "$build" --output-on-failure -j "$jobs" "${selection[@]}" "$@"
