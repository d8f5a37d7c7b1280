#!/usr/bin/env bash
# The install packages (issue 19): cpack makes the .tar.gz and the .deb; the
# .deb declares its dependencies and unpacks (dpkg-deb -x, no root needed) to
# /opt/onepass, where onepass++ compiles and runs the example, a CMake
# project builds with find_package(OnePass), and onepass-info lists the CPU
# device; the .tar.gz unpacked anywhere does the same.
#   check_package.sh <build-dir> <source-dir>
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -B "$work/packages" > "$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; echo "FAIL: cpack"; exit 1; }
deb=$(ls "$work"/packages/onepass_*_amd64.deb)
tgz=$(ls "$work"/packages/onepass-*-Linux.tar.gz)
depends=$(dpkg-deb -f "$deb" Depends)
for d in clang-22 libstdc++6 libzstd1 zlib1g; do
  grep -q "$d" <<< "$depends" || { echo "FAIL: the .deb does not depend on $d ($depends)"; exit 1; }
done
echo "deb: $(basename "$deb"), $(du -h "$deb" | cut -f1), Depends: $depends"

check_prefix() {  # <prefix> <label>
  local prefix=$1 label=$2
  "$prefix/bin/onepass++" -fsycl-sscp -O2 "$source/examples/vector_add.cpp" -o "$work/vector_add-$label"
  "$work/vector_add-$label" | grep -q PASSED || { echo "FAIL: the example built with the $label did not pass"; exit 1; }
  "$prefix/bin/onepass-info" | grep -q "\[cpu:0\]" || { echo "FAIL: the $label's onepass-info lists no CPU device"; exit 1; }
  cmake -S "$source/examples/cmake" -B "$work/cmake-$label/build" -G Ninja -DCMAKE_CXX_COMPILER="$prefix/bin/onepass++" \
    -DCMAKE_PREFIX_PATH="$prefix" > "$work/cmake-$label.log" 2>&1 &&
    cmake --build "$work/cmake-$label/build" >> "$work/cmake-$label.log" 2>&1 ||
    { cat "$work/cmake-$label.log"; echo "FAIL: a CMake project cannot use the $label"; exit 1; }
  "$work/cmake-$label/build/vector_add" | grep -q PASSED || { echo "FAIL: the $label's CMake example failed"; exit 1; }
  echo "$label: onepass++, onepass-info and find_package(OnePass) work from $prefix"
}
dpkg-deb -x "$deb" "$work/root"
check_prefix "$work/root/opt/onepass" deb
mkdir -p "$work/tgz" && tar -xzf "$tgz" -C "$work/tgz"
check_prefix "$(ls -d "$work"/tgz/onepass-*)" tgz
echo "install.package: PASSED"
