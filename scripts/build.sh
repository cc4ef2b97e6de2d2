#!/usr/bin/env bash
# Configures (once) and builds SDFGStream into build/ (or $SDFGSTREAM_BUILD_DIR).
# Arguments are ninja targets (default: everything).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SDFGSTREAM_BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir
fi
ninja -C "$build" "$@"
