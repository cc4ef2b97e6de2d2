#!/usr/bin/env bash
# Builds the runtime's unit tests with ThreadSanitizer (build-tsan/, or
# $SDFGSTREAM_TSAN_BUILD_DIR; SDFGSTREAM_ENABLE_TSAN) and runs them: the
# CUDA and HIP runtimes on the fake drivers and the host API. They are the
# code with threads of its own: the per-context caches, the graph-mode
# cache (a program's graphs held by one thread's call at a time), the
# stream pool, the timers and the thread-local call state, each with tests
# that call from several threads. The passes are left out: Debian's
# libMLIR.so is not instrumented, and its thread pool would give reports
# that are not ours. Any report fails its test. Ends with one line
# "N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SDFGSTREAM_TSAN_BUILD_DIR:-$root/build-tsan}"
tests=(SDFGRuntimeCudaTests SDFGRuntimeHipTests SDFGRuntimeHostApiTests)

"$root/scripts/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DSDFGSTREAM_ENABLE_TSAN=ON || { echo "0 passed, 1 failed"; exit 1; }
fi
if ! ninja -C "$build" "${tests[@]}"; then
  echo "build failed"
  echo "0 passed, 1 failed"
  exit 1
fi

export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1"
results="$build/tsan-results.xml"
rm -f "$results"
/usr/lib/llvm-22/bin/lit -sv --xunit-xml-output="$results" \
  --filter "$(IFS='|'; echo "${tests[*]}")" "$build/unittests"
lit_status=$?

python3 "$root/scripts/lit-summary.py" "$results" "$lit_status"
