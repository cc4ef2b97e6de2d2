#!/usr/bin/env bash
# The main job: build sdfg-opt and thread an external GPU stream through the
# example program, printing the result.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SDFGSTREAM_BUILD_DIR:-$root/build}"
example="${1:-$root/examples/stencil.mlir}"

"$root/scripts/build.sh" sdfg-opt >&2
"$build/bin/sdfg-opt" "$example" --sdfg-add-external-gpu-stream \
  --sdfg-expand-library-nodes --sdfg-make-sync-call
