#!/usr/bin/env bash
# Installs the Debian 12 packages OnePass needs to build and test. Idempotent:
# packages already present are left alone, and apt is only updated when needed.
set -euo pipefail

PACKAGES=(
  llvm-22-dev llvm-22-tools clang-22 libclang-22-dev lld-22
  libzstd-dev zlib1g-dev libedit-dev libxml2-dev libffi-dev libcurl4-openssl-dev
  catch2 cmake ninja-build ccache python3 g++ binutils
  libclang-rt-22-dev
  lua5.4
  spirv-tools ocl-icd-opencl-dev pocl-opencl-icd llvm-spirv-15
  liblld-22-dev rocm-device-libs
  libze-dev libhsa-runtime-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-deps: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
