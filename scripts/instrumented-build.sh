#!/usr/bin/env bash
# Configures (once) and builds the instrumented tree build-asan/ (or
# $SDFGSTREAM_ASAN_BUILD_DIR) that scripts/sanitize.sh and scripts/fuzz.sh
# share: clang-22, AddressSanitizer + UndefinedBehaviorSanitizer
# (SDFGSTREAM_ENABLE_SANITIZERS) and libFuzzer coverage with the harness
# fuzz/sdfg-fuzz (SDFGSTREAM_ENABLE_FUZZER). One tree for both, so that CI
# compiles the project twice (plain and instrumented), not three times.
# Arguments are ninja targets.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SDFGSTREAM_ASAN_BUILD_DIR:-$root/build-asan}"

"$root/scripts/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DSDFGSTREAM_ENABLE_SANITIZERS=ON -DSDFGSTREAM_ENABLE_FUZZER=ON
fi
ninja -C "$build" "$@"
