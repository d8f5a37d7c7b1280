#!/usr/bin/env bash
# The install packages (issue 19): cpack makes the .tar.gz and the .deb; the
# .deb declares its dependencies and unpacks (dpkg-deb -x, no root needed) to
# /opt/onepass, where onepass++ compiles and runs the example, a CMake
# project builds with find_package(OnePass), and onepass-info lists the CPU
# device; the .tar.gz unpacked anywhere does the same. With
# ONEPASS_TEST_DPKG_INSTALL=1 (CI), the .deb is also installed with dpkg -i.
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
# CI (ONEPASS_TEST_DPKG_INSTALL=1, as root) also installs the .deb on the
# machine with dpkg -i, uses it from /opt/onepass and removes it again; a
# OnePass package already installed there is left alone.
if [ "${ONEPASS_TEST_DPKG_INSTALL:-0}" = 1 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "deb installed: SKIPPED: dpkg -i needs root"
  elif dpkg-query -W -f='${Status}' onepass 2> /dev/null | grep -q 'install ok installed'; then
    echo "deb installed: SKIPPED: a onepass package is already installed here"
  else
    trap 'dpkg -r onepass > /dev/null 2>&1 || true; rm -rf "$work"' EXIT
    dpkg -i "$deb" > "$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; echo "FAIL: dpkg -i $(basename "$deb")"; exit 1; }
    check_prefix /opt/onepass installed-deb
    dpkg -r onepass > "$work/dpkg-r.log" 2>&1 || { cat "$work/dpkg-r.log"; echo "FAIL: dpkg -r onepass"; exit 1; }
    [ ! -e /opt/onepass/bin/onepass++ ] || { echo "FAIL: dpkg -r left /opt/onepass/bin/onepass++"; exit 1; }
    echo "deb installed with dpkg -i, used from /opt/onepass, removed with dpkg -r"
  fi
fi
mkdir -p "$work/tgz" && tar -xzf "$tgz" -C "$work/tgz"
check_prefix "$(ls -d "$work"/tgz/onepass-*)" tgz
echo "install.package: PASSED"
