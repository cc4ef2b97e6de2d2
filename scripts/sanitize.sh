#!/usr/bin/env bash
# Builds the project with AddressSanitizer + UndefinedBehaviorSanitizer (the
# instrumented tree of scripts/instrumented-build.sh, build-asan/) and runs
# the suite that exercises its code on it: every FileCheck lit test
# (sdfg-opt, sdfg-translate: the dialect, passes, lowerings), every
# GoogleTest unit test (runtime on the fake driver, host API, passes; the
# GPU ones skip without a GPU, as in scripts/test.sh), and the sdfg-compile
# tests (lit param sdfgstream_suite=sanitize): the fail-fast programs (the
# error path of a program call, the runtime linked into the program
# library), the ahead-of-time build, the sealed libraries and the runner
# utilities, whose callers and executables link through %host_cc/%host_cxx,
# clang-22 with the sanitizer runtimes here. Not run here: the integration
# tests that install the project or load the runtime into python, the
# uninstrumented system toolchain, which cannot load instrumented objects.
#
# Any sanitizer report fails its test: UBSan aborts
# (-fno-sanitize-recover=undefined), ASan reports errors and leaks. Ends with
# one line "N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SDFGSTREAM_ASAN_BUILD_DIR:-$root/build-asan}"

if ! "$root/scripts/instrumented-build.sh" sdfgstream-fast-test-depends \
    sdfg-fail-fast-test sdfgstream_runtime_cuda sdfgstream_runtime_hip \
    sdfgstream_runtime_cuda_static sdfgstream_runtime_hip_static \
    sdfgstream_runner_utils; then
  echo "build failed"
  echo "0 passed, 1 failed"
  exit 1
fi

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

results="$build/sanitize-results.xml"
rm -f "$results"
/usr/lib/llvm-22/bin/lit -sv --param sdfgstream_suite=sanitize \
  --xunit-xml-output="$results" "$build/test" "$build/unittests"
lit_status=$?

python3 "$root/scripts/lit-summary.py" "$results" "$lit_status"
