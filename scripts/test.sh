#!/usr/bin/env bash
# Builds everything and runs the whole test suite: the fast one
# (check-sdfgstream: FileCheck and GoogleTest unit tests) and the integration
# one (check-sdfgstream-integration: AOT, embedding, Python, GPU, docs), in
# one lit run, then the Python package's tests on the installed package
# (scripts/python-package-tests.sh). Ends with one line
# "N passed, N failed" (after a line counting the skipped ones); exits
# non-zero on any failure.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SDFGSTREAM_BUILD_DIR:-$root/build}"

if ! "$root/scripts/build.sh" all sdfgstream-test-depends; then
  echo "build failed"
  echo "0 passed, 1 failed"
  exit 1
fi

results="$build/test-results.xml"
rm -f "$results"
/usr/lib/llvm-22/bin/lit -sv --xunit-xml-output="$results" \
  "$build/test" "$build/unittests"
lit_status=$?

# The Python package's tests (python/tests) on the package as pip installs
# it; each test case counts.
python_results="$build/python-test-results.xml"
rm -f "$python_results"
"$root/scripts/python-package-tests.sh" "$python_results"
python_status=$?

python3 "$root/scripts/lit-summary.py" "$results" "$lit_status" \
  "$python_results" "$python_status"
