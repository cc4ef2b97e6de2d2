#!/usr/bin/env bash
# Installs the Debian 12 packages the build and the tests need, skipping
# those already present (no network traffic when nothing is missing).
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libgtest-dev
  libamdhip64-dev rocm-device-libs lld-22
  # hipsparse.h, for the HIP runtime's sparse entries (the library itself is
  # opened at run time).
  libhipsparse-dev
  # The DaCe importer reads .sdfgz with zlib; its oracle test
  # (test/Import/DaCe/oracle-cpu.test) compares with NumPy.
  zlib1g-dev python3-numpy
  # The Python package (python/), installed offline with pip into a venv
  # from Debian's setuptools and wheel (scripts/python-package-tests.sh).
  python3-venv python3-pip python3-setuptools python3-wheel
  # The instrumented build (scripts/sanitize.sh, scripts/fuzz.sh).
  clang-22 libclang-rt-22-dev libfuzzer-22-dev
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]})); then
  echo "Installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
