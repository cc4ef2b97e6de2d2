#!/usr/bin/env bash
# The Python package's tests (python/tests), on the installed package:
# makes a venv in the build directory (with Debian's site packages: NumPy,
# setuptools, wheel), installs ./python into it with pip, offline
# (--no-build-isolation: Debian's setuptools builds it, nothing is
# downloaded), and runs the tests against the build's sdfg-compile and fake
# CUDA driver, writing a JUnit report that scripts/lit-summary.py counts.
#
# usage: scripts/python-package-tests.sh REPORT.xml
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SDFGSTREAM_BUILD_DIR:-$root/build}"
report="$1"

venv="$build/python-venv"
rm -rf "$venv" "$build/python-cache" "$build/python-src"
/usr/bin/python3 -m venv --system-site-packages "$venv"
# Built from a copy: setuptools writes build/ and *.egg-info next to the
# sources it builds.
cp -r "$root/python" "$build/python-src"
"$venv/bin/pip" install --quiet --no-build-isolation --no-index "$build/python-src"
# The package the tests import is the installed one, not the source tree.
(cd "$build" && "$venv/bin/python" -c \
  'import sdfgstream, sys; assert sys.prefix in sdfgstream.__file__, sdfgstream.__file__; print("installed:", sdfgstream.__file__)')

export SDFG_COMPILE="$build/bin/sdfg-compile"
export SDFGSTREAM_CACHE_DIR="$build/python-cache"
export SDFGSTREAM_FAKE_CUDA_DRIVER="$build/unittests/Runtime/libSDFGRuntimeFakeCudaDriver.so"
cd "$build"
"$venv/bin/python" "$root/python/tests/run.py" --xml "$report"
