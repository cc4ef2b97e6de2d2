#!/usr/bin/env bash
# Builds the project with AddressSanitizer + UndefinedBehaviorSanitizer (the
# instrumented tree of scripts/instrumented-build.sh, build-asan/) and runs
# the whole suite on it, as scripts/test.sh does on the plain build: every
# FileCheck lit test (sdfg-opt, sdfg-translate: the dialect, passes,
# lowerings), every GoogleTest unit test (runtime on the fake driver, host
# API, passes), the sdfg-compile tests (fail-fast programs, AOT, sealed
# libraries, runner utilities), the install and embedding test, the Python
# client's self-check and the generated docs. The tests that compile or link
# code of their own use the build's compilers with the sanitizer flags, and
# python runs with the ASan runtime preloaded (%host_cc, %host_cmake_args and
# %python in test/lit.cfg.py). The GPU tests skip without a GPU, as in
# scripts/test.sh; their binaries (nvcc) are not built here.
#
# Any sanitizer report fails its test: UBSan aborts
# (-fno-sanitize-recover=undefined), ASan reports errors and leaks. Ends with
# one line "N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SDFGSTREAM_ASAN_BUILD_DIR:-$root/build-asan}"

if ! "$root/scripts/instrumented-build.sh" all sdfgstream-fast-test-depends \
    sdfg-fail-fast-test mlir-doc; then
  echo "build failed"
  echo "0 passed, 1 failed"
  exit 1
fi

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

results="$build/sanitize-results.xml"
rm -f "$results"
/usr/lib/llvm-22/bin/lit -sv --xunit-xml-output="$results" "$build/test" "$build/unittests"
lit_status=$?

python3 "$root/scripts/lit-summary.py" "$results" "$lit_status"
