#!/usr/bin/env bash
# Builds everything and runs the whole test suite: the fast one
# (check-sdfgstream: FileCheck and GoogleTest unit tests) and the integration
# one (check-sdfgstream-integration: AOT, embedding, Python, GPU, docs), in
# one lit run. Ends with one line
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

python3 "$root/scripts/lit-summary.py" "$results" "$lit_status"
