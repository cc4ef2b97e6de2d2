#!/usr/bin/env bash
# Builds everything and runs the whole test suite (lit + FileCheck tests and
# GoogleTest unit tests, both under lit). Ends with one line
# "N passed, N failed, N skipped"; exits non-zero on any failure.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SDFGSTREAM_BUILD_DIR:-$root/build}"

if ! "$root/scripts/build.sh" all SDFGStreamUnitTests mlir-doc; then
  echo "build failed"
  echo "0 passed, 1 failed"
  exit 1
fi

results="$build/test-results.xml"
rm -f "$results"
/usr/lib/llvm-22/bin/lit -sv --xunit-xml-output="$results" \
  "$build/test" "$build/unittests"
lit_status=$?

python3 - "$results" "$lit_status" <<'PY'
import sys
import xml.etree.ElementTree as ET

path, status = sys.argv[1], int(sys.argv[2])
passed = failed = skipped = 0
try:
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
except (OSError, ET.ParseError):
    failed += 1
if status != 0 and failed == 0:
    failed = 1  # lit failed without reporting a test: count it.
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
PY
