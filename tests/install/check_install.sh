#!/usr/bin/env bash
# Installs the toolchain into a temporary prefix, moves the prefix elsewhere,
# and checks that it still compiles and runs a SYCL program from there, and
# that no installed file refers to the build tree.
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/first" > "$work/install.log"
mv "$work/first" "$work/moved"
prefix=$work/moved

for f in bin/onepass++ bin/onepass-kernels bin/onepass-info bin/onepass-cache lib/libonepass-rt.so lib/onepass/libonepass-clang-plugin.so \
         lib/onepass/libonepass-jit.so lib/onepass/bitcode/onepass-builtins-cpu.bc include/onepass/sycl/sycl.hpp; do
  [ -f "$prefix/$f" ] || { echo "FAIL: the install lacks $f"; exit 1; }
done

if grep -rl --binary-files=text -e "$build" -e "$work/first" "$prefix"; then
  echo "FAIL: installed files above refer to the build tree or the first prefix"
  exit 1
fi

"$prefix/bin/onepass++" -fsycl-sscp -O2 "$source/examples/vector_add.cpp" -o "$work/vector_add"
output=$("$work/vector_add")
echo "$output"
grep -q PASSED <<< "$output" || { echo "FAIL: the example did not pass"; exit 1; }
"$prefix/bin/onepass-kernels" "$work/vector_add" | grep -q "kernel 0: lambda at" ||
  { echo "FAIL: onepass-kernels does not list the example's kernel"; exit 1; }
"$prefix/bin/onepass-info" | grep -q "\[cpu:0\]" ||
  { echo "FAIL: the moved install's onepass-info does not list the CPU device"; exit 1; }

# The CMake package: examples/cmake finds OnePass in the moved prefix and builds
# a SYCL program with add_sycl_to_target.
cmake -S "$source/examples/cmake" -B "$work/cmake-user/build" -G Ninja -DCMAKE_CXX_COMPILER="$prefix/bin/onepass++" \
  -DOnePass_DIR="$prefix/lib/cmake/OnePass" > "$work/cmake-user.log" 2>&1 &&
  cmake --build "$work/cmake-user/build" >> "$work/cmake-user.log" 2>&1 ||
  { cat "$work/cmake-user.log"; echo "FAIL: a CMake project cannot use the installed package"; exit 1; }
"$work/cmake-user/build/vector_add" | grep -q PASSED || { echo "FAIL: the CMake-built example did not pass"; exit 1; }
grep -q -- "-fsycl-sscp" "$work/cmake-user/build/build.ninja" ||
  { echo "FAIL: add_sycl_to_target did not add -fsycl-sscp"; exit 1; }
echo "find_package(OnePass) + add_sycl_to_target: PASSED"

# A broken installation gives messages that name what is missing.
expect_failure() {  # <what is removed> <text the error must contain>
  local output
  if output=$("$work/vector_add" 2>&1); then echo "FAIL: the example ran without $1"; exit 1; fi
  grep -qF "$2" <<< "$output" || { echo "FAIL: without $1 the error does not say '$2':"; echo "$output"; exit 1; }
  echo "without $1: $(grep -F "$2" <<< "$output" | head -1)"
}
mv "$prefix/lib/onepass/bitcode/onepass-builtins-cpu.bc" "$work/builtins.bc"
expect_failure "the CPU builtin library" "onepass-builtins-cpu.bc"
mv "$work/builtins.bc" "$prefix/lib/onepass/bitcode/onepass-builtins-cpu.bc"
mv "$prefix/lib/onepass/libonepass-jit.so" "$work/jit.so"
expect_failure "the JIT library" "cannot load its JIT library"
mv "$prefix/lib/libonepass-rt.so" "$work/rt.so"
expect_failure "the runtime library" "libonepass-rt.so"
echo "install.relocatable: PASSED ($prefix)"
