#!/usr/bin/env bash
# Builds, here, everything the GPU tests need and stages it in .device/ (git
# ignored), to be carried to the GPU machine and run by
# scripts/gpu-tests-run.sh:
#   .device/bin/   sdfg-gpu-tests (programs compiled ahead of time + driver),
#                  sdfg-cuda-probe, SDFGRuntimeCudaDeviceTests (the runtime
#                  against the real driver)
#   .device/lit/   the lit test runner (pure Python)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SDFGSTREAM_BUILD_DIR:-$root/build}"

"$root/scripts/build.sh" sdfg-gpu-tests sdfg-cuda-probe SDFGRuntimeCudaDeviceTests
rm -rf "$root/.device"
mkdir -p "$root/.device/bin"
cp "$build/bin/sdfg-gpu-tests" "$build/bin/sdfg-cuda-probe" \
  "$build/unittests/Runtime/SDFGRuntimeCudaDeviceTests" \
  "$build/lib/libsdfgstream_runtime_cuda.so" "$root/.device/bin/"
cp -r /usr/lib/llvm-22/utils/lit/lit "$root/.device/lit"
find "$root/.device/lit" -name __pycache__ -prune -exec rm -rf {} +
du -sh "$root/.device"
